"""Mini-Maki's exact policy, cached in the state directory (issue 9, DESIGN §3).

The rules can solve Mini-Maki (``rules.minimaki.bot.solve``) but never touch a file. The
solution is 3.75 MB, too big to ship, and takes minutes of pure Python to compute, so
the appliance does it once, in a separate low-priority process, and keeps the result in
its state directory:

* at start, a cached solution is loaded and installed, so the strong bot and the hint
  play the exact optimal policy at once;
* without one, ``python -m controller.solutions OUT`` is started with ``nice 15``; a
  waiter thread installs its result when it is done. Until then the bot plays its
  one-roll lookahead, which is nearly as good.

A broken cache file is deleted and solved again; a solver that fails is logged, never
fatal. Run ``python -m controller.solutions /var/lib/spieltisch/minimaki-standard.bin``
by hand to prepare the file on another machine.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

log = logging.getLogger(__name__)

CACHE_NAME = "minimaki-standard.bin"


def install_cached(path: Path) -> bool:
    """Load and install the cached solution; False if missing or unusable (deleted)."""
    from rules.minimaki.bot import MinimakiSolution, install_solution

    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return False
    except OSError as exc:
        log.error("cannot read %s: %s", path, exc)
        return False
    try:
        solution = MinimakiSolution.from_bytes(data)
    except ValueError as exc:
        log.error("deleting unusable Mini-Maki solution %s: %s", path, exc)
        path.unlink(missing_ok=True)
        return False
    install_solution(solution)
    log.info("Mini-Maki exact policy loaded from %s", path)
    return True


SOLVE_ENV = "SPIELTISCH_SOLVE_MINIMAKI"
"""Set to 0 to never start the background solver (the test suite does: every appliance
process it starts would otherwise solve for minutes)."""


def prepare(state_dir: Path, solve_if_missing: bool = True) -> subprocess.Popen[bytes] | None:
    """Install the cached policy, or start solving it in the background."""
    path = state_dir / CACHE_NAME
    if install_cached(path):
        return None
    if not solve_if_missing or os.environ.get(SOLVE_ENV, "1") == "0":
        return None
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "controller.solutions", str(path)],
            stdin=subprocess.DEVNULL,
        )
    except OSError as exc:
        log.error("cannot start the Mini-Maki solver: %s", exc)
        return None
    log.info("solving Mini-Maki in the background (pid %d)", process.pid)

    def wait() -> None:
        code = process.wait()
        if code == 0:
            install_cached(path)
        elif code == -signal.SIGTERM:  # the appliance stopped it on the way out
            log.info("the Mini-Maki solver was stopped; it starts again next time")
        else:
            log.error("the Mini-Maki solver failed (exit %s)", code)

    threading.Thread(target=wait, name="minimaki-solver", daemon=True).start()
    return process


def write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".minimaki-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def die_with_parent() -> None:
    """Ask Linux to SIGTERM this solver when the appliance dies, even by SIGKILL, so no
    orphan keeps solving (systemd's cgroup would catch it; a laptop would not)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
    except (OSError, AttributeError) as exc:
        log.warning("cannot tie the solver to the appliance's life: %s", exc)
    if os.getppid() == 1:  # the parent died before prctl took effect
        sys.exit(1)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: python -m controller.solutions OUT.bin\n")
        return 2
    die_with_parent()
    from rules.minimaki.bot import solve

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        os.nice(15)  # the table's own loop must never wait for this
    except OSError as exc:  # e.g. a seccomp filter without setpriority
        log.warning("cannot lower the solver's priority: %s", exc)
    solution = solve(on_sweep=lambda n, change: log.debug("sweep %d: %.2e", n, change))
    write_atomically(Path(argv[0]), solution.to_bytes())
    log.info("Mini-Maki solved: P(win) = %.6f, written to %s", solution.start_value(), argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
