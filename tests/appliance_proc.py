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
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
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


def write_config(
    directory: Path,
    seats: Sequence[str] = ("bot", "bot"),
    size: int = 16,
    sleep_after_min: float | None = None,
) -> Path:
    """A config for a dummy panel and mock GPIO buttons (no buzzer)."""
    pins = [(17, 27), (22, 23), (24, 25), (5, 6)]
    lines = [
        "[display]",
        'type = "dummy"',
        f"width = {size}",
        f"height = {size}",
        *([f"sleep_after_min = {sleep_after_min}"] if sleep_after_min is not None else []),
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


def capture_config(directory: Path, game: str) -> Path:
    """A 16x16 panel drawn by luma.emulator's ``capture`` device, which writes every
    frame as a PNG into ``directory/frames``, and mock GPIO buttons; ``game`` is the
    config's ``[game]`` section as TOML text (tests put a wrong key there)."""
    frames = directory / "frames"
    frames.mkdir(exist_ok=True)
    path = directory / "config.toml"
    path.write_text(
        "[display]\n"
        'type = "capture"\n'
        "width = 16\nheight = 16\nscale = 1\n"
        f'file = "{frames}/frame{{0:06}}.png"\n'
        '[input]\ntype = "gpio"\n' + game,
        encoding="utf-8",
    )
    return path


def lit(path: Path) -> bool:
    """Any LED on in this captured frame."""
    from PIL import Image

    with Image.open(path) as image:
        return image.convert("RGB").getbbox() is not None


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
    block the process and distort every measurement).

    ``program`` is the spieltisch executable to start (default: this checkout's), for
    tests of an installed copy; then PYTHONPATH is dropped so nothing of the checkout
    leaks in. ``as_unit`` starts it exactly as the unit's ExecStart does: ``run --config
    FILE`` and nothing more, the state directory passed in $STATE_DIRECTORY."""

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
    ) -> None:
        env = dict(os.environ)
        if program is not None:
            env.pop("PYTHONPATH", None)
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
        command = [*(program or spieltisch_command()), "run", "--config", str(config)]
        if as_unit:
            env["STATE_DIRECTORY"] = str(state_dir)
        else:
            command += ["--state-dir", str(state_dir), "--log-level", log_level]
        self.started = time.monotonic()
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
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stderr(self) -> str:
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


# -- the kill -9 loop -------------------------------------------------------------------

SAVED_LINE = re.compile(r"saved (\d+) history entries")
RECORDED_LINE = re.compile(r"recorded game \d+ (\S+) \(")
HISTORY = "history.sqlite3"


def history_check(state_dir: Path) -> tuple[list[str], dict[str, list[Any]]]:
    """SQLite's integrity check of the history database and its records (uid ->
    history). It reads a copy (the database with the write-ahead log a kill left
    behind), as any SQLite tool would, so that recovering the log stays the next
    start's job."""
    path = state_dir / HISTORY
    if not path.exists():
        return ["ok"], {}
    with tempfile.TemporaryDirectory(prefix="st-history-") as tmp:
        copy = Path(tmp) / HISTORY
        shutil.copyfile(path, copy)
        wal = path.with_name(HISTORY + "-wal")
        if wal.exists():
            shutil.copyfile(wal, copy.with_name(HISTORY + "-wal"))
        connection = sqlite3.connect(copy)
        try:
            check = [str(row[0]) for row in connection.execute("PRAGMA integrity_check")]
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
            records: dict[str, list[Any]] = {}
            if "records" in tables:
                for uid, history in connection.execute("SELECT uid, history FROM records"):
                    records[uid] = json.loads(history)
        finally:
            connection.close()
    return check, records


def reference_history(first: dict[str, Any], length: int) -> list[dict[str, Any]]:
    """The first ``length`` history entries of the game in save ``first`` played without
    interruption: dice from the session's RNG, each bot move from a bot seeded with the
    next 32 random bits of that RNG, as the appliance's bot worker does."""
    from rules.bots import make_bot

    session = Session.from_json(first)
    bot = make_bot(session.bot)
    while len(session.history) < length and not session.state.is_terminal():
        if session.state.is_chance():
            session.roll(session.draw_dice())
        else:
            seed = session.rng.getrandbits(32)
            session.play(bot.choose(session.state, random.Random(seed)))
    return session.history


def wait_for_record(app: Appliance, timeout: float = 120.0) -> bool:
    """Block until ``app`` logs a committed game record (its DEBUG line)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if RECORDED_LINE.search(app.stderr()):
            return True
        time.sleep(0.01)
    return False


@dataclass
class KillStats:
    kills: int = 0
    early_kills: int = 0
    restarts: int = 0
    resumed: int = 0
    corrupt: int = 0
    lost: int = 0
    in_flight_completed: int = 0
    temp_files_left: int = 0
    temp_files_cleaned: int = 0
    entries: int = 0
    games_finished: int = 0
    diverged: int = 0
    records: int = 0
    records_lost: int = 0
    finished_unrecorded: int = 0
    database_damaged: int = 0
    record_kills: int = 0
    startup_s: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        start = sorted(self.startup_s)
        median = start[len(start) // 2] if start else float("nan")
        return (
            f"kills {self.kills} ({self.early_kills} during start-up), restarts "
            f"{self.restarts}, resumed after READY {self.resumed}, "
            f"corrupt saves {self.corrupt}, committed entries lost {self.lost}, "
            f"in-flight writes that landed unlogged {self.in_flight_completed}, "
            f"temp files left by a kill {self.temp_files_left} (cleaned on restart "
            f"{self.temp_files_cleaned}), history entries (rolls and moves) saved "
            f"{self.entries}, "
            f"games finished {self.games_finished}, diverged from uninterrupted play "
            f"{self.diverged}; history: games recorded {self.records}, kills right after a "
            f"record {self.record_kills}, committed records "
            f"lost {self.records_lost}, finished games not recorded "
            f"{self.finished_unrecorded}, damaged databases {self.database_damaged}; "
            f"median start-up to READY {median:.2f} s"
        )


def kill_loop(
    work: Path,
    kills: int,
    seed: int,
    game: tuple[str, str, int] = ("maedn", "classic", 4),
    max_wait: float = 2.5,
    early: float = 0.15,
    after_record: float = 0.0,
    record_wait: float = 60.0,
) -> KillStats:
    """SIGKILL a bot game in ``spieltisch run`` at random moments ``kills`` times,
    restarting it each time, and check every save on the way.

    A fraction ``early`` of the kills hit the start-up (0-0.6 s after the spawn, before
    or around READY); the others come 0-``max_wait`` s after READY, mid-game, except a
    fraction ``after_record`` of them, which waits (up to ``record_wait`` s) for the
    process to log that it committed a game record and kills right then (before or just
    after the final save).
    After each kill: no save moved aside, the save loads, its history extends the one before, it
    holds every entry the process had logged as saved (the "saved N" DEBUG line comes
    right after the rename), and it equals the same game played without interruption.
    The history database passes SQLite's integrity check, is never moved aside, holds
    every record the process had logged as committed, and holds every game whose
    finished position is in the save (the record is written before that save)."""
    rng = random.Random(seed)
    stats = KillStats()
    state = work / "state"
    config = write_config(work, seats=("bot",) * game[2])
    game_seed = seed * 1000
    first = write_bot_game(state, *game, seed=game_seed).to_json()
    previous: list[dict[str, Any]] = []
    committed_records: set[str] = set()
    while stats.kills < kills:
        saved = read_save(state)
        if saved is None or Session.from_json(saved).state.is_terminal():
            game_seed += 1
            first = write_bot_game(state, *game, seed=game_seed).to_json()
            previous = []
        temps_before = len(list(state.glob(".session-*.tmp")))
        notify = NotifySocket()
        app = Appliance(config, state, notify, log_level="DEBUG", log_dir=work)
        stats.restarts += 1
        try:
            if rng.random() < early:
                # a power cut while it boots: loading, cleaning up or re-saving
                time.sleep(rng.uniform(0.0, 0.6))
                stats.early_kills += 1
            else:
                ready = notify.wait_for("READY=1", timeout=60)
                if ready is None:
                    stats.problems.append(f"no READY: {app.stderr()[-300:]}")
                    break
                stats.startup_s.append(ready - app.started)
                if "resuming" in app.stderr():
                    stats.resumed += 1
                elif previous:
                    stats.problems.append(f"restart {stats.restarts} did not resume")
                if temps_before:
                    left = len(list(state.glob(".session-*.tmp")))
                    stats.temp_files_cleaned += temps_before - left
                if rng.random() < after_record:
                    # a long game may not end within the wait: then this is a kill
                    # mid-game like the others, and the game goes on after the restart
                    if wait_for_record(app, record_wait):
                        stats.record_kills += 1
                else:
                    time.sleep(rng.uniform(0.0, max_wait))
            app.kill()
            stats.kills += 1
        finally:
            app.close()
            notify.close()
        log = app.stderr()
        committed = [int(m) for m in SAVED_LINE.findall(log)]
        committed_records.update(RECORDED_LINE.findall(log))
        app.stderr_path.unlink()
        check, records = history_check(state)
        stats.records = len(records)
        if check != ["ok"] or list(state.glob(f"{HISTORY}.bad-*")):
            stats.database_damaged += 1
            stats.problems.append(f"kill {stats.kills}: history database damaged: {check[:3]}")
            break
        lost = committed_records - set(records)
        if lost:
            stats.records_lost += len(lost)
            stats.problems.append(f"kill {stats.kills}: committed records lost: {sorted(lost)}")
            committed_records -= lost
        stats.temp_files_left += len(list(state.glob(".session-*.tmp")))
        if list(state.glob("session.json.bad-*")):
            stats.corrupt += 1
            stats.problems.append("a save was moved aside as corrupt")
            break
        try:
            SaveStore(state).load()
        except ValueError as exc:
            stats.corrupt += 1
            stats.problems.append(f"save unreadable after kill {stats.kills}: {exc}")
            break
        history = read_save(state)["history"]  # type: ignore[index]
        if history[: len(previous)] != previous:
            stats.problems.append(f"kill {stats.kills}: history is not an extension")
        if committed and len(history) < committed[-1]:
            stats.lost += committed[-1] - len(history)
        if committed and len(history) == committed[-1] + 1:
            stats.in_flight_completed += 1
        if committed and len(history) > committed[-1] + 1:
            stats.problems.append(f"kill {stats.kills}: save ahead of the log by 2+")
        if history != reference_history(first, len(history))[: len(history)]:
            stats.diverged += 1
        stats.entries += max(0, len(history) - len(previous))
        final = Session.from_json(read_save(state) or {})
        if final.state.is_terminal():
            stats.games_finished += 1
            if records.get(final.started or "") != final.history:
                stats.finished_unrecorded += 1
                stats.problems.append(f"kill {stats.kills}: a finished game is not recorded")
        previous = history
    return stats
