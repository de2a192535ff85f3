"""A real ``spieltisch run`` process on fake hardware, and what it costs.

The process is the one systemd starts, on the test seams of the product's normal
configuration (:mod:`controller.testing.files`), with systemd's side played by
:class:`controller.testing.notify.NotifySocket`. Its stdout and stderr go to files: a
full pipe would block the process and distort every measurement.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from controller.testing.files import read_save
from controller.testing.notify import NotifySocket


def spieltisch_command() -> list[str]:
    """The installed console script next to this Python, else ``python -m controller``."""
    script = Path(sys.executable).with_name("spieltisch")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "controller"]


class ApplianceProcess:
    """One ``spieltisch run`` process with gpiozero's mock pins.

    ``program`` is the spieltisch executable to start (default: the one next to this
    Python), for tests of an installed copy; then PYTHONPATH is dropped so nothing of a
    checkout leaks in. ``as_unit`` starts it exactly as the unit's ExecStart does: ``run
    --config FILE`` and nothing more, the state directory passed in $STATE_DIRECTORY."""

    def __init__(
        self,
        config: Path,
        state_dir: Path,
        notify: NotifySocket | None = None,
        watchdog_usec: int | None = None,
        log_level: str = "INFO",
        log_dir: Path | None = None,
        program: Sequence[str] | None = None,
        as_unit: bool = False,
        cwd: Path | None = None,
        network_status: Path | None = None,
        data_marker: Path | None = None,
    ) -> None:
        env = dict(os.environ)
        if program is not None:
            env.pop("PYTHONPATH", None)
        env.update(GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1", SDL_VIDEODRIVER="dummy")
        for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY"):
            env.pop(name, None)
        if notify is not None:
            env["NOTIFY_SOCKET"] = str(notify.path)
        if watchdog_usec is not None:
            env["WATCHDOG_USEC"] = str(watchdog_usec)
        log_dir = log_dir or state_dir.parent
        self.stderr_path = log_dir / f"stderr-{time.monotonic_ns()}.log"
        self._stderr = self.stderr_path.open("wb")
        command = [*(program or spieltisch_command()), "run", "--config", str(config)]
        if as_unit:
            env["STATE_DIRECTORY"] = str(state_dir)
        else:
            command += ["--state-dir", str(state_dir), "--log-level", log_level]
        if network_status is not None:
            command += ["--network-status", str(network_status)]
        if data_marker is not None:
            command += ["--data-marker", str(data_marker)]
        self.started = time.monotonic()
        """When the process was spawned (time.monotonic), to time its start-up."""
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=self._stderr, cwd=cwd
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def terminate(self, timeout: float = 10.0) -> tuple[int, float]:
        """SIGTERM; returns (exit code, seconds until the process had exited)."""
        sent = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout)
        return code, time.monotonic() - sent

    def kill(self) -> None:
        """SIGKILL, as a pulled plug: no handler runs."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stderr(self) -> str:
        """Everything the process logged so far."""
        if not self._stderr.closed:
            self._stderr.flush()
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def close(self) -> None:
        if self.process.poll() is None:
            self.kill()
        self._stderr.close()


def wait_for_saves(state_dir: Path, beyond: int, timeout: float = 60.0) -> int | None:
    """Wait until the save in ``state_dir`` holds more than ``beyond`` history entries
    (the appliance saves after every roll and move); returns the length, or None when
    ``timeout`` seconds pass first. Polls: a save is a rename, there is no event."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            data = read_save(state_dir)
        except json.JSONDecodeError:
            data = None
        if data is not None and len(data["history"]) > beyond:
            return len(data["history"])
        time.sleep(0.05)
    return None


def rss_kib(pid: int) -> int:
    """Resident set size of ``pid`` in KiB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise OSError(f"no VmRSS for pid {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` so far, from /proc/PID/stat."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")
