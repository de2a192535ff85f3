"""A real ``spieltisch run`` process on fake hardware, for the appliance tests and the
footprint and kill -9 benchmarks.

The process is the one systemd starts, with two test seams that are part of the
product's normal configuration: ``display.type = "dummy"`` (luma's dummy device) and
``input.type = "gpio"`` with ``GPIOZERO_PIN_FACTORY=mock`` (gpiozero's MockFactory).
systemd's side is played by an AF_UNIX datagram socket passed in ``NOTIFY_SOCKET``,
exactly as sd_notify(3) describes it, so READY and WATCHDOG are observed as systemd
would see them. A game is put on the table the way a power cut leaves one: as a save
in the state directory, with every seat a bot, so it plays by itself.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from controller.persistence import SaveStore
from controller.session import Session

SAVE = "session.json"


def spieltisch_command() -> list[str]:
    """The installed console script next to this Python, else ``python -m controller``."""
    script = Path(sys.executable).with_name("spieltisch")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "controller"]


def write_config(directory: Path, seats: Sequence[str] = ("bot", "bot"), size: int = 16) -> Path:
    """A config for a dummy panel and mock GPIO buttons (no buzzer)."""
    pins = [(17, 27), (22, 23), (24, 25), (5, 6)]
    lines = [
        "[display]",
        'type = "dummy"',
        f"width = {size}",
        f"height = {size}",
        "[input]",
        'type = "gpio"',
        "system_pin = 26",
    ]
    for (ok, nxt), kind in zip(pins, seats, strict=False):
        lines += ["[[seats]]", f"ok = {ok}", f"next = {nxt}", f'player = "{kind}"']
    lines += ["[game]", 'name = "maedn"', 'bot = "random"']
    path = directory / "config.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_bot_game(
    state_dir: Path, game: str, preset: str, players: int, seed: int, bot: str = "random"
) -> Session:
    """Save a fresh game in which every seat is a bot; ``spieltisch run`` resumes it."""
    session = Session.start(game, preset, ["bot"] * players, seed=seed, bot=bot)
    store = SaveStore(state_dir)
    store.prepare()
    store.save(session)
    return session


def read_save(state_dir: Path) -> dict[str, Any] | None:
    try:
        data: dict[str, Any] = json.loads((state_dir / SAVE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return data


class NotifySocket:
    """systemd's end of sd_notify: a datagram socket that collects what the service sends."""

    def __init__(self) -> None:
        # AF_UNIX paths are limited to ~108 bytes, so not under pytest's long tmp_path.
        self.directory = Path(tempfile.mkdtemp(prefix="st-notify-"))
        self.path = self.directory / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.messages: list[tuple[float, str]] = []

    def wait_for(self, field: str, timeout: float = 30.0) -> float | None:
        """Block until a message containing ``field`` (e.g. "READY=1") arrives; returns
        its arrival time (time.monotonic), or None after ``timeout`` seconds."""
        for stamp, message in self.messages:
            if field in message.split("\n"):
                return stamp
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                return None
            stamp = time.monotonic()
            message = data.decode()
            self.messages.append((stamp, message))
            if field in message.split("\n"):
                return stamp
        return None

    def count(self, field: str) -> int:
        return sum(field in message.split("\n") for _, message in self.messages)

    def close(self) -> None:
        self.sock.close()
        shutil.rmtree(self.directory, ignore_errors=True)


class Appliance:
    """One ``spieltisch run`` process; stdout/stderr go to files (a full pipe would
    block the process and distort every measurement)."""

    def __init__(
        self,
        config: Path,
        state_dir: Path,
        notify: NotifySocket | None = None,
        watchdog_usec: int | None = None,
        log_level: str = "INFO",
        log_dir: Path | None = None,
    ) -> None:
        env = dict(os.environ)
        env.update(GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1", SDL_VIDEODRIVER="dummy")
        env.pop("NOTIFY_SOCKET", None)
        env.pop("WATCHDOG_USEC", None)
        env.pop("WATCHDOG_PID", None)
        env.pop("STATE_DIRECTORY", None)
        if notify is not None:
            env["NOTIFY_SOCKET"] = str(notify.path)
        if watchdog_usec is not None:
            env["WATCHDOG_USEC"] = str(watchdog_usec)
        log_dir = log_dir or state_dir.parent
        self.stderr_path = log_dir / f"stderr-{time.monotonic_ns()}.log"
        self._stderr = self.stderr_path.open("wb")
        command = [
            *spieltisch_command(),
            "run",
            "--config",
            str(config),
            "--state-dir",
            str(state_dir),
            "--log-level",
            log_level,
        ]
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=self._stderr
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
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stderr(self) -> str:
        self._stderr.flush()
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def close(self) -> None:
        if self.process.poll() is None:
            self.kill()
        self._stderr.close()


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


class FakeClock:
    """A monotonic clock the test moves by hand (in-process appliances)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def in_process(
    state_dir: Path,
    seats: Sequence[str] = ("bot", "bot"),
    poweroff: Any = None,
    buttons: bool = True,
) -> tuple[Any, FakeClock]:
    """The same :class:`controller.app.Appliance` that ``spieltisch run`` builds, in this
    process: luma's dummy panel, gpiozero MockFactory pins, a fake clock, bots on the
    loop thread. Not started yet. ``buttons=False`` leaves the pins out (closing a
    gpiozero Button joins its hold thread, ~0.1 s each, too slow for hundreds of starts)."""
    from gpiozero.pins.mock import MockFactory

    from controller import views
    from controller.app import Appliance as App
    from controller.config import load_config
    from hardware.build import build_display
    from hardware.buttons import GpioButtons

    config = load_config(write_config(state_dir.parent, seats))
    clock = FakeClock()
    factory = MockFactory()
    inputs = [GpioButtons(config.buttons, pin_factory=factory, clock=clock)] if buttons else []
    app = App(
        config,
        display=build_display(config.display),
        inputs=inputs,
        sound=None,
        state_dir=state_dir,
        render=views.render,
        clock=clock,
        bot_thread=False,
        poweroff=poweroff,
        farewell_s=0.0,
    )
    app.pin_factory = factory  # type: ignore[attr-defined]
    return app, clock


def advance(app: Any, clock: FakeClock) -> None:
    """Move the fake clock to the table's next deadline and run one loop step."""
    wake = app.table.next_wakeup()
    if wake is not None and wake > clock.now:
        clock.now = wake
    app.loop.step(timeout_cap=0)
