"""A damaged or unusable history database is found, set aside (never deleted) and
replaced by a new one, and the panel and the log say so once.

Real SQLite files garbled at a page, real directories and symlinks where the database
or its write-ahead log should be, and the real appliance on a dummy panel.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.history.keeper import HistoryKeeper
from controller.history.record import record_of
from controller.history.store import HistoryStore
from controller.machine import Mode
from controller.session import Session
from controller.testing.rig import ApplianceRig
from tests.history_games import played

ENDED = "2025-06-01T12:00:00.000000+00:00"
DB = "history.sqlite3"


def database_with_games(directory: Path, games: int = 12) -> Path:
    """A history with ``games`` Mini-Maki records, checkpointed into the main file."""
    store = HistoryStore(directory)
    store.open()
    for seed in range(games):
        store.add(
            record_of(played("minimaki", "standard", ["human"], seed), "finished", ENDED, 1, "r")
        )
    store.close()
    path = directory / DB
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()  # the last connection: SQLite removes the empty log
    return path


def garble_page(path: Path, name: str) -> int:
    """Overwrite the root page of table or index ``name`` with noise; its number."""
    with sqlite3.connect(path) as db:
        (page,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)
        ).fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    with path.open("r+b") as fh:
        fh.seek((page - 1) * size)
        fh.write(b"\xa5" * size)
    return int(page)


def aside(directory: Path, side_files: bool = False) -> list[Path]:
    """What was set aside: the databases (with ``side_files`` their logs too)."""
    return sorted(
        p
        for p in directory.iterdir()
        if ".bad-" in p.name and (side_files or not p.name.endswith(("-wal", "-shm")))
    )


def play_to_the_end(rig: ApplianceRig) -> None:
    for _ in range(200_000):
        rig.advance()
        if rig.table.state is Mode.GAME_OVER and not rig.table.outbox.records_waiting():
            return
    pytest.fail("the bot did not finish the game")


def records_in(directory: Path) -> list[str]:
    store = HistoryStore(directory)
    store.open(create=False)
    try:
        assert store.integrity_check() == ["ok"]
        return [s.uid for s in store.summaries()]
    finally:
        store.close()


def test_a_garbled_index_page_is_found_at_start_and_set_aside(
    tmp_path: Path,
    appliance_rig: Callable[..., ApplianceRig],
    caplog: pytest.LogCaptureFixture,
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    path = database_with_games(state)
    # page 8 in a database made at schema version 1, where the damage was first seen
    page = garble_page(path, "sqlite_autoindex_match_games_1")
    damaged = path.read_bytes()
    with sqlite3.connect(path) as db:  # the damage does not show on a plain read
        assert db.execute("SELECT count(*) FROM records").fetchone() == (12,)
    rig = appliance_rig(state, seats=("bot",), buttons=False)
    game = Session.start("minimaki", "standard", ["bot"], seed=3, bot="random")
    rig.start(new_game=game)
    [moved] = aside(state)
    assert moved.read_bytes() == damaged  # set apart, not destroyed
    assert rig.table.banner.text == f"history damaged, moved to {moved.name}"
    play_to_the_end(rig)
    rig.close()
    assert records_in(state) == [game.started]
    said = [r.getMessage() for r in caplog.records if "damaged history database" in r.getMessage()]
    assert len(said) == 1 and f"Page {page}" in said[0], said


def test_a_malformed_error_on_a_read_sets_the_database_aside_once(tmp_path: Path) -> None:
    path = database_with_games(tmp_path)
    notices: list[str] = []
    keeper = HistoryKeeper(tmp_path, 1, lambda exc: None, notice=notices.append)
    assert keeper.open() is None
    keeper.store.close()  # as after a failed write: the next use opens it unchecked
    garble_page(path, "records")
    assert keeper.statistics() == ()
    [moved] = aside(tmp_path)
    assert notices == [f"history damaged, moved to {moved.name}"]
    assert keeper.statistics() == ()  # the new, empty one: no second notice
    assert len(notices) == 1
    session = played("minimaki", "standard", ["human"], seed=40)
    keeper.record(session, "finished")
    assert keeper.backlog == []
    keeper.close()
    assert records_in(tmp_path) == [session.started]


def make_unusable(state: Path, case: str, elsewhere: Path) -> str:
    """Put ``case`` where the database should be; returns what the log names."""
    path = state / DB
    if case == "directory":
        path.mkdir()
        (path / "keep.txt").write_text("someone's file")
        return f"{DB} is a directory"
    if case == "dangling symlink":
        path.symlink_to(elsewhere / "gone.sqlite3")
        return f"{DB} is a dangling symlink"
    if case == "symlink to /dev/null":
        path.symlink_to("/dev/null")
        return f"{DB} is a symlink to a device"
    side = {"wal is a directory": "-wal", "shm is a directory": "-shm"}[case]
    database_with_games(state, games=12)
    assert not (state / f"{DB}{side}").exists()
    (state / f"{DB}{side}").mkdir()
    return f"{DB}{side} is a directory"


SIDE_CASES = ["wal is a directory", "shm is a directory"]
CASES = ["directory", "dangling symlink", "symlink to /dev/null", *SIDE_CASES]


def games_kept(state: Path, case: str) -> set[str]:
    """The games that must still be in the history after ``case`` was set aside: a
    side file SQLite cannot use goes alone, the 12 games in the database stay."""
    if case not in SIDE_CASES:
        return set()
    db = sqlite3.connect(f"{(state / DB).resolve().as_uri()}?immutable=1", uri=True)
    try:
        kept = {str(uid) for (uid,) in db.execute("SELECT uid FROM records")}
    finally:
        db.close()
    assert len(kept) == 12
    return kept


@pytest.mark.parametrize("case", CASES)
def test_an_unusable_database_path_is_set_aside_at_start_and_games_are_recorded(
    tmp_path: Path,
    appliance_rig: Callable[..., ApplianceRig],
    caplog: pytest.LogCaptureFixture,
    case: str,
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    words = make_unusable(state, case, tmp_path)
    kept = games_kept(state, case)
    before = {p.name: os.lstat(p) for p in state.iterdir()}
    rig = appliance_rig(state, seats=("bot",), buttons=False)
    game = Session.start("minimaki", "standard", ["bot"], seed=3, bot="random")
    rig.start(new_game=game)
    moved = aside(state, side_files=True)
    assert moved, "nothing was set aside"
    assert rig.table.banner.text is not None and rig.table.banner.text.startswith(
        "history damaged, moved to"
    )
    # every thing set aside is the very one that was there (renamed, not rewritten)
    if case in SIDE_CASES:  # only the broken side file
        assert [os.lstat(p).st_ino for p in moved] == [before[words.split()[0]].st_ino]
    else:
        assert sorted(os.lstat(p).st_ino for p in moved) == sorted(
            info.st_ino for name, info in before.items() if name != f"{DB}-shm"
        )
    play_to_the_end(rig)
    assert rig.app.history is not None and rig.app.history.backlog == []
    rig.close()
    assert set(records_in(state)) == kept | {game.started}
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert sum(words in line for line in said) == 1, said
    assert os.path.exists("/dev/null") and not os.path.lexists("/dev/null-wal")
    if case == "directory":
        assert (moved[0] / "keep.txt").read_text() == "someone's file"


@pytest.mark.parametrize("case", CASES)
def test_a_database_path_that_turns_unusable_while_playing_is_set_aside_on_the_next_record(
    tmp_path: Path, case: str
) -> None:
    notices: list[str] = []
    warnings: list[OSError] = []
    keeper = HistoryKeeper(tmp_path, 1, warnings.append, notice=notices.append)
    first = played("minimaki", "standard", ["human"], seed=41)
    keeper.record(first, "finished")
    keeper.store.close()  # e.g. after a restart of the disk
    shutil.move(tmp_path / DB, tmp_path / "old.sqlite3")
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"{DB}{suffix}").unlink(missing_ok=True)
    make_unusable(tmp_path, case, tmp_path)
    kept = games_kept(tmp_path, case)
    second = played("minimaki", "standard", ["human"], seed=42)
    keeper.record(second, "finished")
    assert warnings == [] and keeper.backlog == []
    assert len(notices) == 1 and notices[0].startswith("history damaged, moved to")
    keeper.close()
    assert set(records_in(tmp_path)) == kept | {second.started}


def test_tables_of_another_shape_at_our_version_are_set_aside_and_the_game_recorded(
    tmp_path: Path,
) -> None:
    """A ``records`` table with other columns at schema version 1 would fail every
    write ("table records has no column named game") for ever: it is not ours, like
    any other unusable database."""
    path = tmp_path / DB
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE records (id INTEGER PRIMARY KEY, uid TEXT, note TEXT);"
            "CREATE TABLE seats (record_id INTEGER);"
            "CREATE TABLE match_games (record_id INTEGER);"
            "PRAGMA user_version = 1;"
        )
    original = path.read_bytes()
    notices: list[str] = []
    warnings: list[OSError] = []
    keeper = HistoryKeeper(tmp_path, 1, warnings.append, notice=notices.append)
    session = played("minimaki", "standard", ["human"], seed=43)
    keeper.record(session, "finished")
    assert keeper.backlog == [] and warnings == []
    [moved] = aside(tmp_path)
    assert moved.read_bytes() == original  # set apart untouched
    assert notices == [f"history damaged, moved to {moved.name}"]
    keeper.close()
    assert records_in(tmp_path) == [session.started]
