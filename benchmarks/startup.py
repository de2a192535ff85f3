"""Start-up time of the appliance: from exec to READY=1, as systemd sees it.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/startup.py [--runs 7] [--program PATH/spieltisch]

Each run starts ``spieltisch run --config FILE`` as the unit does (STATE_DIRECTORY set,
gpiozero's mock pins, luma's dummy panel, a saved MÄDN game with four bots to resume, as
after a power cut), with a NOTIFY_SOCKET, and times from just before the exec to the
arrival of READY=1 (the first frame is on the panel). The same number of runs of a bare
``python -c 'import gpiozero, luma.core'`` (the two libraries no table can start without)
are timed from the same Python, interleaved with the appliance's, so the ratio compares
like with like on a loaded machine; the ratio, not the seconds, carries over to a Pi.

``--program`` times an installed copy (e.g. /opt/spieltisch/venv/bin/spieltisch, or a
``systemd/install.sh --root`` staging) instead of this checkout; its own Python is used
for the bare import then. ``--no-web`` turns the companion page off (its server and
mDNS start before READY, so they are part of the start-up). ``--importtime`` prints the
slowest imports of one run (``python -X importtime``), to see where the time goes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

from controller.testing.files import write_bot_game, write_config
from controller.testing.notify import NotifySocket

BARE = "import gpiozero, luma.core"


def environment(notify: NotifySocket | None, state: Path, checkout: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "PYTHONPATH")}
    env.update(GPIOZERO_PIN_FACTORY="mock", PYTHONDONTWRITEBYTECODE="1", STATE_DIRECTORY=str(state))
    if checkout:
        env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    if notify is not None:
        env["NOTIFY_SOCKET"] = str(notify.path)
    return env


def time_ready(program: list[str], config: Path, state: Path, checkout: bool) -> tuple[float, str]:
    """Seconds from exec to READY=1 of one ``spieltisch run``, which is then stopped,
    and what it wrote on stderr."""
    notify = NotifySocket()
    env = environment(notify, state, checkout)
    start = time.monotonic()
    process = subprocess.Popen(
        [*program, "run", "--config", str(config)],
        env=env,
        cwd="/",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        ready = notify.wait_for("READY=1", timeout=300)
        if ready is None:
            raise SystemExit(f"no READY=1 within 300 s: {process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        elapsed = ready - start
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
        notify.close()
    return elapsed, err.decode(errors="replace")


def time_bare(python: str) -> float:
    start = time.monotonic()
    subprocess.run(
        [python, "-c", BARE],
        check=True,
        cwd="/",
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    return time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=counted(1), default=7)
    parser.add_argument("--program", type=Path, help="an installed spieltisch executable")
    parser.add_argument("--importtime", action="store_true", help="list the slowest imports")
    parser.add_argument(
        "--no-web",
        action="store_true",
        help="[web] enabled = false: the companion page (aiohttp, mDNS) starts before READY",
    )
    args = parser.parse_args()
    if args.program is not None:
        program = [str(args.program)]
        python = str(args.program.parent / "python")
        checkout = False
    else:
        program = [sys.executable, "-m", "controller"]
        python = sys.executable
        checkout = True
    with tempfile.TemporaryDirectory(prefix="st-startup-") as tmp:
        base = Path(tmp)
        config = write_config(base, seats=("bot",) * 4)
        if args.no_web:
            config.write_text(config.read_text() + "[web]\nenabled = false\n")
        ready: list[float] = []
        bare: list[float] = []
        for run in range(args.runs):
            state = base / f"state-{run}"
            write_bot_game(state, "maedn", "classic", 4, seed=run)
            bare.append(time_bare(python))
            ready.append(time_ready(program, config, state, checkout)[0])
        importtime = ""
        if args.importtime:
            state = base / "state-importtime"
            write_bot_game(state, "maedn", "classic", 4, seed=99)
            command = [python, "-X", "importtime", "-c", "from controller.cli import main; main()"]
            importtime = time_ready(command, config, state, checkout)[1]
    rows = []
    for line in importtime.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    for cumulative, name in sorted(rows, reverse=True)[:25]:
        print(f"  {cumulative / 1e6:6.3f} s  {name}")
    r, b = statistics.median(ready), statistics.median(bare)
    print(
        f"exec -> READY=1: median {r:.3f} s (min {min(ready):.3f}, max {max(ready):.3f}), "
        f"{args.runs} runs"
    )
    print(f"bare python -c {BARE!r}: median {b:.3f} s (min {min(bare):.3f}, max {max(bare):.3f})")
    print(f"ratio READY / bare import: {r / b:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
