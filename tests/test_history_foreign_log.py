"""A write-ahead log that does not belong beside the history never costs a game.

SQLite applies any ``-wal`` it finds beside a database, and checkpoints it into the
file when the last read-write connection closes. Two real cases, each next to a real
history of 12 games: the log of another WAL database with the same page size (also
what copying an old ``history.sqlite3`` back beside a newer log looks like), and a
stale log of this very database, from when it held 5 games. The reading command
(a real ``spieltisch history`` process) writes nothing and still lists the 12 games;
the table sets only the log aside and keeps recording into the 12.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.history.record import record_of
from controller.history.store import HistoryStore
from controller.session import Session
from controller.testing.rig import ApplianceRig
from tests.history_games import played
from tests.test_history_damage import ENDED, play_to_the_end, records_in

DB = "history.sqlite3"
ROOT = Path(__file__).resolve().parent.parent


def twelve_games(state: Path, stale_after: int | None = None) -> tuple[set[str], bytes]:
    """A history of 12 games, closed cleanly (no log left). Returns their uids and,
    with ``stale_after``, the log as it was after that many games."""
    store = HistoryStore(state)
    store.open()
    uids, stale = set(), b""
    for seed in range(12):
        record = record_of(
            played("minimaki", "standard", ["human"], seed), "finished", ENDED, 1, "r"
        )
        store.add(record)
        uids.add(record.summary.uid)
        if stale_after == seed + 1:
            stale = (state / f"{DB}-wal").read_bytes()
    store.close()
    assert not (state / f"{DB}-wal").exists()
    return uids, stale


def foreign_log(elsewhere: Path) -> bytes:
    """The log of another WAL database with the history's page size."""
    elsewhere.mkdir()
    db = sqlite3.connect(elsewhere / "notes.sqlite3", isolation_level=None)
    assert db.execute("PRAGMA page_size").fetchone()[0] == 4096
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE notes (text TEXT)")
    db.execute("INSERT INTO notes VALUES ('not a game')")
    data = (elsewhere / "notes.sqlite3-wal").read_bytes()
    db.close()
    return data


def with_bad_log(tmp_path: Path, case: str) -> tuple[Path, set[str], bytes]:
    state = tmp_path / "state"
    state.mkdir()
    if case == "no log":  # the table is not running and closed cleanly
        games, _ = twelve_games(state)
        return state, games, b""
    if case == "foreign":
        games, _ = twelve_games(state)
        log = foreign_log(tmp_path / "other")
    else:
        games, log = twelve_games(state, stale_after=5)
    (state / f"{DB}-wal").write_bytes(log)
    return state, games, log


def snapshot(directory: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.iterdir())
        if p.is_file()
    }


CASES = ["foreign", "stale"]


@pytest.mark.process
@pytest.mark.parametrize("case", [*CASES, "no log"])
def test_history_list_reads_the_games_past_a_bad_log_and_writes_nothing(
    tmp_path: Path, case: str
) -> None:
    state, games, _log = with_bad_log(tmp_path, case)
    before = snapshot(state)
    listed = subprocess.run(
        [sys.executable, "-m", "controller", "history", "--state-dir", str(state), "list"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "LANG": "C.UTF-8", "LANGUAGE": ""},
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    firsts = [line.split()[0] for line in lines]  # two lines a game: the first has its number
    numbers = [word for word in firsts if word.isdigit()]
    assert numbers == [str(n) for n in range(12, 0, -1)]
    said = listed.stderr.splitlines()
    if case == "no log":
        assert said == []
    else:
        assert len(said) == 1 and f"{DB}-wal does not belong to {DB}" in said[0]
    assert snapshot(state) == before  # not a byte written, no -wal or -shm made
    assert games  # and they are all still in the file:
    db = sqlite3.connect(f"{(state / DB).resolve().as_uri()}?immutable=1", uri=True)
    try:
        assert {uid for (uid,) in db.execute("SELECT uid FROM records")} == games
    finally:
        db.close()


@pytest.mark.parametrize("case", CASES)
def test_the_table_sets_only_the_bad_log_aside_and_records_into_the_twelve_games(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig], case: str
) -> None:
    state, games, log = with_bad_log(tmp_path, case)
    rig = appliance_rig(state, seats=("bot",), buttons=False)
    game = Session.start("minimaki", "standard", ["bot"], seed=3, bot="random")
    rig.start(new_game=game)
    [aside] = [p for p in state.iterdir() if ".bad-" in p.name]
    assert aside.name.startswith(f"{DB}-wal.bad-")
    assert aside.read_bytes() == log  # set apart as it was, not checkpointed anywhere
    assert rig.table.banner.text == f"history damaged, moved to {aside.name}"
    play_to_the_end(rig)
    rig.close()
    assert set(records_in(state)) == games | {game.started}


def test_a_log_of_this_database_that_only_adds_games_is_kept(tmp_path: Path) -> None:
    """The ordinary case after a kill: the log holds the newest games; it is applied,
    nothing is set aside."""
    live = tmp_path / "live"
    store = HistoryStore(live)
    store.open()
    store.add(record_of(played("minimaki", "standard", ["human"], 1), "finished", ENDED, 1, "r"))
    assert store.connection is not None
    store.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.add(record_of(played("minimaki", "standard", ["human"], 2), "finished", ENDED, 1, "r"))
    state = tmp_path / "state"  # the files as a kill leaves them: nothing checkpointed
    state.mkdir()
    for name in (DB, f"{DB}-wal"):
        (state / name).write_bytes((live / name).read_bytes())
    store.close()
    with sqlite3.connect(f"{(state / DB).resolve().as_uri()}?immutable=1", uri=True) as db:
        assert db.execute("SELECT count(*) FROM records").fetchone() == (1,)  # 1 in the file
    again = HistoryStore(state)
    assert again.open(check=True) is None
    assert again.count() == 2
    again.close()
    assert not [p for p in state.iterdir() if ".bad-" in p.name]
