"""The kill -9 loop: pull the plug on a bot game in ``spieltisch run`` again and again,
and check after every kill that nothing committed was lost.

``benchmarks/kill_loop.py`` runs it 200 times; the appliance tests run a short version.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.history import pending as pending_records
from controller.persistence import SaveStore
from controller.session import Session
from controller.testing.files import read_save, write_bot_game, write_config
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess

SAVED_LINE = re.compile(r"saved (\d+) history entries")
RECORDED_LINE = re.compile(r"recorded game \d+ (\S+) \(")
CARRIED_LINE = re.compile(r"the save carries the records of (.*)")
"""Logged when a save holding a game's final position carries its record, before the
history commits it: the other end of the window a kill may hit."""
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
    from rules.core import Bot

    session = Session.from_json(first)
    bots: dict[str, Bot] = {}  # each seat's own level, made once
    while len(session.history) < length and not session.state.is_terminal():
        if session.state.is_chance():
            session.roll(session.draw_dice())
        else:
            seed = session.rng.getrandbits(32)
            kind = session.bot_for(session.player)
            if kind not in bots:
                bots[kind] = make_bot(kind)
            session.play(bots[kind].choose(session.state, random.Random(seed)))
    return session.history


def wait_for_record(app: ApplianceProcess, uid: str | None = None, timeout: float = 120.0) -> bool:
    """Block until ``app`` logs the first step of recording game ``uid`` (any game if
    None) at its end: the final save carrying its record, or the committed record,
    whichever comes first (DEBUG lines). A kill then lands between the record and the
    saves around it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = app.stderr()
        found = RECORDED_LINE.findall(text) + [
            u for line in CARRIED_LINE.findall(text) for u in line.split()
        ]
        if (uid is None and found) or (uid is not None and uid in found):
            return True
        time.sleep(0.01)
    return False


@dataclass
class KillStats:
    """What :func:`kill_loop` counted; ``problems`` says what went wrong, in words."""

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
    games_back: int = 0
    """Kills after which the save held an unfinished game already in the history: the
    next start would resume a game that is over, one move before its end."""
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
            f"{self.finished_unrecorded}, games back after their record {self.games_back}, "
            f"damaged databases {self.database_damaged}; "
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
    every record the process had logged as committed, and holds (or the save carries,
    for the next start to write) every game whose finished position is in the save; and
    the save never holds an unfinished game that is already in the history (a game
    come back after its record)."""
    rng = random.Random(seed)
    stats = KillStats()
    state = work / "state"
    config = write_config(work, seats=("bot",) * game[2])
    game_seed = seed * 1000
    begun = write_bot_game(state, *game, seed=game_seed)
    first, started = begun.to_json(), begun.started
    previous: list[dict[str, Any]] = []
    committed_records: set[str] = set()
    while stats.kills < kills:
        saved = read_save(state)
        if saved is None or Session.from_json(saved).state.is_terminal():
            game_seed += 1
            fresh = write_bot_game(state, *game, seed=game_seed)
            carried = pending_records.from_save(saved or {})
            if carried:  # as a table does: the new game's save takes the records on
                SaveStore(state).save(fresh, carried)
            first, started = fresh.to_json(), fresh.started
            previous = []
        temps_before = len(list(state.glob(".session-*.tmp")))
        notify = NotifySocket()
        app = ApplianceProcess(config, state, notify, log_level="DEBUG", log_dir=work)
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
                    if wait_for_record(app, started, record_wait):
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
        saved = read_save(state)
        if saved is None:
            stats.problems.append(f"kill {stats.kills}: the save is gone")
            break
        history = saved["history"]
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
        final = Session.from_json(saved)
        waiting = {p.uid: p.session.history for p in pending_records.from_save(saved)}
        if final.state.is_terminal():
            stats.games_finished += 1
            uid = final.started or ""
            if final.history not in (records.get(uid), waiting.get(uid)):
                stats.finished_unrecorded += 1
                stats.problems.append(f"kill {stats.kills}: a finished game is not recorded")
        elif final.started in records:
            stats.games_back += 1
            stats.problems.append(
                f"kill {stats.kills}: the save resumes a game already recorded, at entry"
                f" {len(final.history)} of {len(records[final.started or ''])}"
            )
        previous = history
    return stats
