"""Footprint of the appliance: start-up to first frame, RSS in a game, idle CPU.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/footprint.py [--starts 7] [--game-s 15] [--idle-s 30]

Every figure is taken from a real ``spieltisch run`` process on fake hardware (luma's
dummy panel, gpiozero MockFactory pins; see controller/testing/), with systemd's
side played by a NOTIFY_SOCKET datagram socket and ``WATCHDOG_USEC=15000000`` as the
unit sets it.

* **Start-up**: from ``Popen`` to the READY=1 datagram, which the loop sends right after
  its first frame reached the panel. Median of ``--starts`` runs, at the menu and when
  resuming a saved game. Peer: a bare ``python -c pass`` measured the same way.
* **SIGTERM**: from the signal to the exit (code 0) of those runs; mid-game 1.5 s after
  READY. Target < 2 s.
* **RSS**: VmRSS sampled every 0.5 s while four strong bots play MÄDN classic for
  ``--game-s`` seconds; the maximum is reported. Peer: a bare Python's RSS.
* **Idle CPU**: CPU time (utime + stime) over ``--idle-s`` seconds of wall time, in % of
  one core, (a) at the menu, its title scrolling (a frame every 0.1 s while it moves),
  (b) in a game waiting for a human to roll, the die blinking as the cue, (c) asleep
  (a still, dim picture: no frames); four seats and the system button wired. Asleep
  the loop sleeps on its queue (one wake-up per watchdog ping) and no button thread
  runs; it is the floor the other two are compared with. Peer: a process holding nine
  gpiozero ``Button``s and nothing else (each wakes 10 times a second for its holds).

* **History**: ``--records`` (1,000) games recorded into a fresh ``history.sqlite3``
  through the table's own path (:class:`controller.history.keeper.HistoryKeeper`, which
  makes the record from the session and commits it; WAL, ``synchronous=FULL``): the
  database's size afterwards and the time of one record write (median, 95th percentile,
  max). The games are a mix of bot-played MÄDN (4 seats), Kleiner Ärger, Backgammon
  match to 5 and Mini-Maki. Peers in the same run: the save the table writes after every
  move (:class:`controller.persistence.SaveStore`, same sessions); appending one
  record's worth of bytes to a file with ``fdatasync`` (the disk's floor for a durable
  commit: SQLite syncs the write-ahead log once per record); and the same record writes
  with ``synchronous=OFF``, which is the cost without the commit's wait for the disk.
  The history is measured in a directory under the current one, on a real disk (a
  tmpfs ``/tmp`` would sync for free).

Targets: start-up < 1.5 s, RSS < 60 MB, idle CPU < 3 % of a core at the menu and
waiting for a roll, < 0.5 % asleep.

Target for the history: one record write < 5 ms; it runs after the frame, like the save.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted, seconds_type

from controller.history.keeper import HistoryKeeper
from controller.persistence import SaveStore
from controller.session import Session
from controller.testing.files import write_bot_game, write_config
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess, cpu_seconds, rss_kib
from rules.bots import make_bot

WATCHDOG_USEC = 15_000_000


def start_once(
    config: Path, state: Path, work: Path
) -> tuple[float, ApplianceProcess, NotifySocket]:
    notify = NotifySocket()
    app = ApplianceProcess(config, state, notify, watchdog_usec=WATCHDOG_USEC, log_dir=work)
    ready = notify.wait_for("READY=1", timeout=60)
    if ready is None:
        app.close()
        notify.close()
        raise SystemExit(f"no READY within 60 s; stderr:\n{app.stderr()}")
    return ready - app.started, app, notify


def bare_python_start(runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.monotonic()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.monotonic() - start)
    return statistics.median(times)


def bare_python_rss() -> int:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(2)"])
    time.sleep(0.5)
    try:
        return rss_kib(process.pid)
    finally:
        process.kill()
        process.wait()


def measure_starts(work: Path, runs: int, resume: bool) -> tuple[float, list[float]]:
    """Median start-up to READY, and the SIGTERM-to-exit times of the same runs."""
    times = []
    stops = []
    config = write_config(work, seats=("bot", "bot", "bot", "bot"))
    for run in range(runs):
        state = work / f"start-{resume}-{run}"
        if resume:
            write_bot_game(state, "maedn", "classic", 4, seed=run)
        seconds, app, notify = start_once(config, state, work)
        times.append(seconds)
        if resume:
            time.sleep(1.5)  # into the game: a roll or move in progress
        code, stop = app.terminate()
        if code != 0:
            raise SystemExit(f"SIGTERM exit code {code}; stderr:\n{app.stderr()}")
        stops.append(stop)
        app.close()
        notify.close()
    return statistics.median(times), stops


def measure_game_rss(work: Path, seconds: float) -> tuple[int, int]:
    config = write_config(work, seats=("bot", "bot", "bot", "bot"))
    state = work / "rss"
    write_bot_game(state, "maedn", "classic", 4, seed=7, bot="strong")
    _, app, notify = start_once(config, state, work)
    peak = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        peak = max(peak, rss_kib(app.pid))
        time.sleep(0.5)
    saved = SaveStore(state).load()
    moves = len(saved.history) if saved is not None else -1
    app.terminate()
    app.close()
    notify.close()
    return peak, moves


IDLE_TARGETS = {"menu": 3.0, "roll": 3.0, "asleep": 0.5}

BUTTONS_ONLY = """
import time
from gpiozero import Button
from gpiozero.pins.mock import MockFactory
factory = MockFactory()
pins = (17, 27, 22, 23, 24, 25, 5, 6, 26)
buttons = [Button(p, hold_time=1.0, pin_factory=factory) for p in pins]
time.sleep(3600)
"""
"""The peer: nine gpiozero ``Button``s and nothing else. ``Button`` times holds on a
thread per button that wakes ten times a second; the table opens its pins as
``DigitalInputDevice`` and times holds only while a button is down (hardware/buttons.py),
so asleep it should cost less than this process that does nothing."""


def buttons_only_cpu(seconds: float) -> float:
    process = subprocess.Popen([sys.executable, "-c", BUTTONS_ONLY])
    try:
        time.sleep(3.0)
        cpu0, wall0 = cpu_seconds(process.pid), time.monotonic()
        time.sleep(seconds)
        cpu1, wall1 = cpu_seconds(process.pid), time.monotonic()
    finally:
        process.kill()
        process.wait()
    return 100.0 * (cpu1 - cpu0) / (wall1 - wall0)


def measure_idle(work: Path, seconds: float, kind: str) -> float:
    """Idle CPU in ``kind``: "menu", "roll" (waiting for a human's roll), "asleep"."""
    # four seats and the system button: nine gpiozero Buttons, as on a full table
    sleep_after = 0.05 if kind == "asleep" else None  # 3 s
    config = write_config(work, ("human",) * 4, sleep_after_min=sleep_after)
    state = work / f"idle-{kind}"
    if kind == "roll":
        store = SaveStore(state)
        store.prepare()
        store.save(Session.start("maedn", "classic", ["human"] * 4, seed=1))
    _, app, notify = start_once(config, state, work)
    time.sleep(6.0)  # let the resume/menu animations and the message settle
    cpu0, wall0 = cpu_seconds(app.pid), time.monotonic()
    time.sleep(seconds)
    cpu1, wall1 = cpu_seconds(app.pid), time.monotonic()
    app.terminate()
    app.close()
    notify.close()
    return 100.0 * (cpu1 - cpu0) / (wall1 - wall0)


HISTORY_MIX = [
    ("maedn", "classic", ["bot"] * 4),
    ("kleiner_aerger", "standard", ["human", "bot"]),
    ("backgammon", "match5", ["human", "bot"]),
    ("minimaki", "standard", ["human"]),
]


def bot_games(per_game: int) -> list[Session]:
    """Whole games played by random bots (the table's sessions, finished)."""
    sessions = []
    bot = make_bot("random")
    for index in range(per_game):
        for game, preset, kinds in HISTORY_MIX:
            session = Session.start(game, preset, kinds, seed=index, bot="random")
            while not session.state.is_terminal():
                if session.state.is_chance():
                    session.roll(session.draw_dice())
                else:
                    seed = session.rng.getrandbits(32)
                    session.play(bot.choose(session.state, random.Random(seed)))
            sessions.append(session)
    return sessions


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def record_writes(directory: Path, sessions: list[Session], count: int, sync: str) -> list[float]:
    """Seconds per record write, ``count`` games cycling through ``sessions``."""
    keeper = HistoryKeeper(directory, 4, lambda exc: None)
    keeper.store.open()  # made now (the table makes it with its first record)
    assert keeper.store.connection is not None
    keeper.store.connection.execute(f"PRAGMA synchronous={sync}")
    times = []
    for index in range(count):
        session = sessions[index % len(sessions)]
        session.started = f"2025-01-01T00:00:00.{index:06d}+00:00"  # one game each
        start = time.perf_counter()
        keeper.record(session, "finished")
        times.append(time.perf_counter() - start)
        if keeper.backlog:
            raise SystemExit(f"a record write failed: {keeper.failures} failures")
    keeper.close()
    return times


def size_per_game(directory: Path, records: int) -> float:
    return sum(f.stat().st_size for f in directory.glob("history.sqlite3*")) / records


def measure_history(work: Path, records: int) -> None:
    sessions = bot_games(10)
    events = statistics.mean(len(s.history) for s in sessions)
    full_dir, off_dir, save_dir = work / "history", work / "history-off", work / "saves"
    full = record_writes(full_dir, sessions, records, "FULL")
    off = record_writes(off_dir, sessions, min(records, 200), "OFF")
    save_dir.mkdir()
    store = SaveStore(save_dir)
    saves = []
    for session in sessions * 5:
        start = time.perf_counter()
        store.save(session)
        saves.append(time.perf_counter() - start)
    fsyncs = []  # the floor: append one record's worth of bytes to a file and sync it
    chunk = b"x" * int(size_per_game(full_dir, records))
    fd = os.open(save_dir / "probe", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    for _ in range(200):
        start = time.perf_counter()
        os.write(fd, chunk)
        os.fdatasync(fd)
        fsyncs.append(time.perf_counter() - start)
    os.close(fd)
    size = size_per_game(full_dir, records) * records
    median = statistics.median(full)
    print(
        f"history after {records} recorded games ({events:.0f} rolls and moves per game on"
        f" average): {size / 1e6:.1f} MB, {size / records / 1024:.1f} KiB per game"
    )
    print(
        f"one record write (WAL, synchronous=FULL): median {median * 1e3:.2f} ms, 95th"
        f" percentile {percentile(full, 0.95) * 1e3:.2f} ms, max {max(full) * 1e3:.2f} ms"
        "  target < 5 ms, after the frame"
    )
    print(
        f"  peers in this run: the save after every move {statistics.median(saves) * 1e3:.2f}"
        f" ms median ({median / statistics.median(saves):.2f}x); appending as many bytes to a"
        " file and fdatasync (what a commit waits for)"
        f" {statistics.median(fsyncs) * 1e3:.2f} ms ({median / statistics.median(fsyncs):.2f}x);"
        f" the record write with synchronous=OFF {statistics.median(off) * 1e3:.2f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=counted(1), default=7)
    parser.add_argument("--game-s", type=seconds_type, default=15.0)
    parser.add_argument("--idle-s", type=seconds_type, default=30.0)
    parser.add_argument("--records", type=counted(1), default=1000, help="games for the history")
    parser.add_argument("--history-only", action="store_true", help="only the history figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix=".st-footprint-", dir=Path.cwd()) as tmp:
        measure_history(Path(tmp), args.records)
    if args.history_only:
        return 0
    with tempfile.TemporaryDirectory(prefix="st-footprint-") as tmp:
        work = Path(tmp)
        bare = bare_python_start(args.starts)
        menu, menu_stops = measure_starts(work, args.starts, resume=False)
        resume, game_stops = measure_starts(work, args.starts, resume=True)
        print(
            f"start-up to first frame, menu:   {menu:.3f} s median of {args.starts}"
            f"  ({menu / bare:.1f}x a bare python start of {bare:.3f} s)  target < 1.5 s"
        )
        print(
            f"start-up to first frame, resume: {resume:.3f} s median of {args.starts}"
            f"  ({resume / bare:.1f}x bare python)  target < 1.5 s"
        )
        print(
            f"SIGTERM to exit (code 0, saved): at the menu median "
            f"{statistics.median(menu_stops):.3f} s, max {max(menu_stops):.3f} s; mid-game "
            f"median {statistics.median(game_stops):.3f} s, max {max(game_stops):.3f} s"
            "  target < 2 s"
        )
        peak, moves = measure_game_rss(work, args.game_s)
        bare_rss = bare_python_rss()
        print(
            f"RSS during a game (4 strong bots, {args.game_s:.0f} s, {moves} history"
            f" entries): {peak / 1024:.1f} MiB peak  ({peak / bare_rss:.1f}x bare python"
            f" {bare_rss / 1024:.1f} MiB)  target < 60 MB"
        )
        words = {
            "menu": "at the menu, title scrolling",
            "roll": "waiting for a roll, cue blinking",
            "asleep": "asleep",
        }
        found = {kind: measure_idle(work, args.idle_s, kind) for kind in words}
        buttons = buttons_only_cpu(args.idle_s)
        floor = max(found["asleep"], 1e-3)
        for kind, text in words.items():
            print(
                f"idle CPU {text + ':':34} {found[kind]:.2f} % of a core over"
                f" {args.idle_s:.0f} s ({found[kind] / floor:.1f}x asleep)"
                f"  target < {IDLE_TARGETS[kind]} %"
            )
        print(
            f"peer: nine gpiozero Buttons and nothing else (hold threads waking 10 times a"
            f" second each): {buttons:.2f} % of a core; the table asleep"
            f" {found['asleep'] / max(buttons, 1e-3):.2f}x that"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
