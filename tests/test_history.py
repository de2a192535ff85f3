"""The history database: records, the SQLite store (WAL, versions, damage), and how the
table hands games to it (when a game ends or is abandoned, after the frame, before the
final save) without ever stopping play."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.games.backgammon.record import RecordedMatchGame
from controller.history.export import replay
from controller.history.keeper import HistoryKeeper, as_os_error
from controller.history.record import record_of
from controller.history.store import VERSION, HistoryError, HistoryStore
from controller.machine import Mode
from controller.scene import STATISTICS_ITEM, MenuItem, StatisticsPage, StatisticsScene
from controller.session import Session
from controller.table import Table, TableOptions
from controller.table.effects import Effect, Record, Save
from controller.testing.files import fill
from controller.testing.rig import ApplianceRig
from hardware.interfaces import ButtonEvent
from tests.history_games import played

V1_DATABASE = Path(__file__).parent / "data" / "history_v1.sqlite3"
"""Written by the first schema version: a finished Kleiner Ärger game (red won), a
finished single Backgammon game (black won) and a MÄDN game abandoned after 30 events."""

ENDED = "2025-06-01T12:00:00.000000+00:00"


def store_in(directory: Path) -> HistoryStore:
    store = HistoryStore(directory)
    assert store.open() is None
    return store


# -- records and the store ------------------------------------------------------------------


def test_a_finished_game_round_trips_and_replays_to_its_end(tmp_path: Path) -> None:
    session = played("maedn", "classic", ["human", "empty", "bot", "bot"], seed=3)
    record = record_of(session, "finished", ENDED, 4, "random")
    store = store_in(tmp_path)
    record_id = store.add(record)
    again = store.get(record_id)
    summary = again.summary
    assert summary.game == "maedn" and summary.preset == "classic"
    assert summary.outcome == "finished" and summary.started == session.started
    assert summary.winner == session.state.winners()[0]
    assert [(s.seat, s.colour, s.kind, s.bot) for s in summary.seats] == [
        (0, "red", "human", None),
        (1, None, "empty", None),
        (2, session.state.to_json()["players"][1], "bot", "random"),
        (3, session.state.to_json()["players"][2], "bot", "random"),
    ]
    assert again.history == session.history  # the save file's format, entry for entry
    assert summary.rolls + len([e for e in session.history if "move" in e]) == len(session.history)
    steps = replay(again)
    assert len(steps) == len(session.history)
    assert steps[-1].after.to_json() == session.state.to_json()


def test_a_backgammon_match_is_one_record_holding_its_games(tmp_path: Path) -> None:
    session = played("backgammon", "match5", ["bot", "bot"], seed=21)
    final = session.state.to_json()
    store = store_in(tmp_path)
    summary = store.get(store.add(record_of(session, "finished", ENDED, 2, "random"))).summary
    assert store.count() == 1
    assert summary.result == {"match_length": 5, "score": final["score"]}
    assert [(g.winner, g.points, g.kind) for g in summary.games] == [
        (g["winner"], g["points"], g["kind"]) for g in final["games"]
    ]
    assert summary.games[-1].score == final["score"]
    factor = {"single": 1, "gammon": 2, "backgammon": 3}
    for game in map(RecordedMatchGame.of, summary.games):
        assert game.points == game.cube * factor.get(game.kind, 1)
    # the Crawford game is the one right after a side first reached 4 points
    crawford = [g.number for g in map(RecordedMatchGame.of, summary.games) if g.crawford]
    first_at_4 = next(
        (g.number for g in summary.games if 4 in g.score.values() and 5 not in g.score.values()),
        None,
    )
    assert crawford == ([first_at_4 + 1] if first_at_4 and first_at_4 < len(summary.games) else [])


def test_a_crawford_game_is_marked(tmp_path: Path) -> None:
    """Seeds are searched for a match that has a Crawford game; it is flagged."""
    for seed in range(40):
        session = played("backgammon", "match5", ["bot", "bot"], seed=seed)
        record = record_of(session, "finished", ENDED, 2, "random")
        games = [RecordedMatchGame.of(g) for g in record.summary.games]
        if any(g.crawford for g in games):
            break
    else:
        pytest.fail("no match with a Crawford game in 40 seeds")
    index = next(i for i, g in enumerate(games) if g.crawford)
    before = games[index - 1].score.values()
    assert 4 in before and all(4 not in g.score.values() for g in games[: index - 1])
    assert games[index].cube == 1  # the cube stays put in the Crawford game


def test_the_same_game_recorded_again_replaces_its_record(tmp_path: Path) -> None:
    """A kill between a record and the final save replays the last move: the same
    game (same start time) is recorded again and replaces the first record, keeping
    its number."""
    store = store_in(tmp_path)
    first = played("minimaki", "standard", ["human"], seed=1)
    other = played("kleiner_aerger", "standard", ["bot", "bot"], seed=2)
    first_id = store.add(record_of(first, "finished", ENDED, 4, "random"))
    store.add(record_of(other, "finished", ENDED, 4, "random"))
    again = store.add(record_of(first, "finished", "2025-06-01T12:00:05+00:00", 4, "random"))
    assert again == first_id and store.count() == 2
    assert store.get(first_id).summary.ended == "2025-06-01T12:00:05+00:00"


def test_the_database_is_wal_with_full_sync_and_versioned(tmp_path: Path) -> None:
    store = store_in(tmp_path)
    db = store.connection
    assert db is not None
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.version() == VERSION
    assert store.integrity_check() == ["ok"]


def test_a_database_written_by_the_first_version_opens(tmp_path: Path) -> None:
    shutil.copyfile(V1_DATABASE, tmp_path / "history.sqlite3")
    store = HistoryStore(tmp_path)
    assert store.open() is None  # migrated to this version if there is a newer one
    assert store.version() == VERSION and store.integrity_check() == ["ok"]
    games = {s.game: s for s in store.summaries()}
    assert set(games) == {"kleiner_aerger", "backgammon", "maedn"}
    assert games["kleiner_aerger"].winner == "red"
    assert games["backgammon"].winner == "black" and len(games["backgammon"].games) == 1
    assert games["maedn"].outcome == "abandoned" and games["maedn"].winner is None
    for summary in games.values():
        assert summary.id is not None
        record = store.get(summary.id)
        assert replay(record)[-1].after.to_json() == record.final_state


def test_a_newer_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    shutil.copyfile(V1_DATABASE, path)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {VERSION + 1}")
    data = path.read_bytes()
    with pytest.raises(HistoryError, match="newer than this program"):
        HistoryStore(tmp_path).open()
    assert path.read_bytes() == data and not list(tmp_path.glob("*.bad-*"))


@pytest.mark.parametrize(
    "content",
    [
        b"this is not an SQLite database, just some bytes" * 100,
        b"SQLite format 3\x00" + b"\xff" * 4000,
    ],
    ids=["text", "bad-header"],
)
def test_an_unreadable_database_is_moved_aside_and_a_new_one_started(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "history.sqlite3"
    path.write_bytes(content)
    store = HistoryStore(tmp_path)
    moved = store.open()
    assert moved is not None and moved.name.startswith("history.sqlite3.bad-")
    assert moved.read_bytes() == content  # set apart, not destroyed
    assert store.integrity_check() == ["ok"] and store.count() == 0
    store.add(record_of(played("minimaki", "standard", ["human"], 4), "finished", ENDED, 1, "r"))
    assert store.count() == 1


def test_someone_elses_sqlite_file_is_moved_aside(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "history.sqlite3") as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    store = HistoryStore(tmp_path)
    assert store.open() is not None
    assert store.count() == 0


def damage_records_page(path: Path) -> None:
    """Overwrite the page that holds the records table's b-tree (page 2 here)."""
    with sqlite3.connect(path) as db:
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name='records'").fetchone()[0]
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as fh:
        fh.seek((root - 1) * page_size)
        fh.write(b"\xa5" * page_size)


def test_damage_found_on_a_write_moves_the_file_aside_and_keeps_the_game(
    tmp_path: Path,
) -> None:
    path = tmp_path / "history.sqlite3"
    shutil.copyfile(V1_DATABASE, path)
    warnings: list[OSError] = []
    keeper = HistoryKeeper(tmp_path, 4, warnings.append)
    assert keeper.open() is None
    keeper.store.close()  # as after a failed write: the next one opens it unchecked
    damage_records_page(path)  # the schema page is fine: the damage shows only on use
    session = played("minimaki", "standard", ["human"], seed=5)
    keeper.record(session, "finished")
    assert warnings == [] and keeper.backlog == []
    moved = [p for p in tmp_path.glob("history.sqlite3.bad-*") if not p.name.endswith("-wal")]
    assert len(moved) == 1  # with its write-ahead log, if it had one, beside it
    store = store_in(tmp_path)
    assert [s.uid for s in store.summaries()] == [session.started]
    keeper.close()


# -- the keeper: play never stops ------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "words"),
    [(13, "disk full"), (8, "disk read-only"), (3, "no permission"), (10, "disk error")],
)
def test_sqlite_failures_map_to_the_save_warning(code: int, words: str) -> None:
    from controller.safekeeping import save_warning

    error = sqlite3.OperationalError("x")
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    assert save_warning(as_os_error(error)) == f"not saved: {words}"


def test_an_unwritable_history_warns_once_keeps_the_records_and_writes_them_later(
    tmp_path: Path,
) -> None:
    """The state directory is swapped for a file: the database cannot be opened. The
    records wait in memory; once the directory is back, the next record writes all."""
    state = tmp_path / "state"
    warnings: list[OSError] = []
    keeper = HistoryKeeper(state, 4, warnings.append)
    state.parent.mkdir(exist_ok=True)
    state.write_text("not a directory")
    assert keeper.open() is None  # logged; the first write tries again
    games = [played("minimaki", "standard", ["human"], seed) for seed in (1, 2, 3)]
    keeper.record(games[0], "finished")
    keeper.record(games[1], "abandoned")
    assert len(warnings) == 1 and keeper.failing == 2 and len(keeper.backlog) == 2
    state.unlink()
    keeper.record(games[2], "finished")
    assert keeper.failing == 0 and keeper.backlog == []
    keeper.close()
    store = store_in(state)
    assert [s.uid for s in store.summaries()[::-1]] == [g.started for g in games]
    assert [s.outcome for s in store.summaries()[::-1]] == ["finished", "abandoned", "finished"]


# -- the table hands games over --------------------------------------------------------------


def press(table: Table, seat: int | None, button: str, kind: str = "down") -> None:
    table.handle(ButtonEvent(seat, button, kind), table.now)  # type: ignore[arg-type]


def run_until(table: Table, done: object) -> None:
    while not done():  # type: ignore[operator]
        wake = table.next_wakeup()
        assert wake is not None, f"stuck in {table.state}"
        table.tick(max(wake, table.now))


def options(menu: tuple[MenuItem, ...] = ()) -> TableOptions:
    return TableOptions(menu=menu or (MenuItem("minimaki", "standard", "Mini-Maki"),), bot="random")


def test_a_finished_game_is_recorded_once_and_before_its_final_save() -> None:
    table = Table(options())
    table.start_session(Session.start("minimaki", "standard", ["bot"], seed=2, bot="random"))
    effects: list[Effect] = []
    while table.state is not Mode.GAME_OVER:  # the loop takes the effects at each step
        wake = table.next_wakeup()
        assert wake is not None, f"stuck in {table.state}"
        table.tick(max(wake, table.now))
        effects += table.take_effects()
    press(table, 0, "ok")
    assert table.state is Mode.MENU
    effects += table.take_effects()
    records = [e.outcome for e in effects if isinstance(e, Record)]
    assert records == ["finished"]
    final_save = max(i for i, e in enumerate(effects) if isinstance(e, Save))
    record = next(i for i, e in enumerate(effects) if isinstance(e, Record))
    assert record < final_save


def test_the_record_waits_for_the_loop_to_carry_it_out() -> None:
    table = Table(options())
    table.start_session(Session.start("minimaki", "standard", ["bot"], seed=2, bot="random"))
    run_until(table, lambda: table.state is Mode.GAME_OVER)
    assert table.outbox.records_waiting()
    effects = table.take_effects()  # what the loop does right after drawing the frame
    assert [e.outcome for e in effects if isinstance(e, Record)] == ["finished"]
    assert isinstance(effects[-1], Save) and not table.outbox.records_waiting()


def test_a_game_abandoned_through_the_menu_is_recorded_as_abandoned() -> None:
    table = Table(options())
    session = Session.start("minimaki", "standard", ["human"], seed=2)
    table.start_session(session)
    press(table, None, "system", "held")
    assert table.state is Mode.CONFIRM_MENU
    press(table, 0, "ok")
    assert table.state is Mode.MENU and table.session is None
    recorded = [(e.session, e.outcome) for e in table.take_effects() if isinstance(e, Record)]
    assert recorded == [(session, "abandoned")]


def test_the_statistics_entry_shows_a_page_per_game() -> None:
    pages = (
        StatisticsPage("maedn", 12, (("red", 5), ("blue", 7))),
        StatisticsPage("backgammon", 3, (("white", 1), ("black", 2))),
    )
    menu = (MenuItem("minimaki", "standard", "Mini-Maki"), STATISTICS_ITEM)
    table = Table(options(menu), statistics=lambda: pages)
    press(table, 0, "next")
    press(table, 0, "ok")
    assert table.state is Mode.STATISTICS
    scene = table.scene()
    assert isinstance(scene, StatisticsScene) and scene.pages == pages and scene.page == 0
    press(table, 1, "next")  # any seat turns the page
    assert table.scene().page == 1  # type: ignore[union-attr]
    press(table, 1, "next")
    assert table.scene().page == 0  # type: ignore[union-attr]
    press(table, 0, "ok")
    assert table.state is Mode.MENU


# -- a full disk at the table ----------------------------------------------------------------


def play_to_the_end(rig: ApplianceRig) -> None:
    for _ in range(200_000):
        rig.advance()
        if rig.table.state is Mode.GAME_OVER and not rig.table.outbox.records_waiting():
            return
    pytest.fail("the bot did not finish the game")


def test_a_full_disk_never_stops_play_warns_and_records_later(
    small_disk: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    """A small tmpfs fills up during a game: the game still ends, the panel shows the
    failed-save warning, and the record waits in memory; once there is room again, the
    next game's record writes both."""
    state_dir = small_disk / "state"
    rig = appliance_rig(state_dir, seats=("bot",), buttons=False)
    app = rig.app
    app.table.options.frame_interval_s = 0.5
    first = Session.start("minimaki", "standard", ["bot"], seed=3, bot="random")
    app.start(new_game=first)
    try:
        rig.advance()
        (state_dir / ".reserve").unlink()  # a disk that never had room for the reserve
        filler = fill(small_disk)
        play_to_the_end(rig)
        assert app.history.failures >= 1 and [r.summary.uid for r in app.history.backlog] == [
            first.started
        ]
        assert app.table.banner.text == "not saved: disk full"
        filler.unlink()
        second = Session.start("minimaki", "standard", ["bot"], seed=4, bot="random")
        app.table.finish()  # back to the menu, as OK does
        app.table.start_session(second)
        play_to_the_end(rig)
        assert app.history.failing == 0 and app.history.backlog == []
        # then the disk turns read-only (as a failing SD card does; the kernel refuses
        # that while SQLite has files open for writing, so it starts closed)
        app.history.store.close()
        subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
        third = Session.start("minimaki", "standard", ["bot"], seed=5, bot="random")
        app.table.finish()
        app.table.start_session(third)
        play_to_the_end(rig)
        assert app.history.failing >= 1 and len(app.history.backlog) == 1
        assert app.table.banner.text == "not saved: disk read-only"
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
        app.history.flush()
        assert app.history.backlog == []
    finally:
        rig.close()  # the last record is written before the store is read
    store = HistoryStore(state_dir)
    store.open(create=False)
    found = [s.uid for s in store.summaries()[::-1]]
    assert found == [first.started, second.started, third.started]
    assert store.integrity_check() == ["ok"]
    store.close()
