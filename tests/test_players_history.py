"""The history keeps who played: each named seat's person and name, with colour and
seat, in real SQLite; the first version's database migrates forward and its games
still read (without names), even for a reader that may not write."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.history.keeper import HistoryKeeper
from controller.history.store import VERSION, HistoryStore
from controller.players.book import PlayerBook
from controller.players.person import Person
from controller.session import Session
from tests.history_games import played

V1_DATABASE = Path(__file__).parent / "data" / "history_v1.sqlite3"
ANNA, BEN = Person("p1", "Anna"), Person("p2", "Ben")


def named_game(seed: int, people: dict[int, Person]) -> Session:
    session = played("maedn", "classic", ["human", "bot", "human", "bot"], seed=seed)
    session.people = {p: people[s] for p, s in session.seats.items() if s in people}
    return session


def test_the_first_version_migrates_and_a_named_game_is_kept(tmp_path: Path) -> None:
    shutil.copyfile(V1_DATABASE, tmp_path / "history.sqlite3")
    with sqlite3.connect(tmp_path / "history.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        columns = [row[1] for row in db.execute("PRAGMA table_info(seats)")]
        assert "name" not in columns
    keeper = HistoryKeeper(tmp_path, 4, lambda exc: None)
    assert keeper.open() is None
    session = named_game(3, {0: ANNA, 2: BEN})
    keeper.record(session, "finished")
    keeper.close()
    with sqlite3.connect(tmp_path / "history.sqlite3") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == VERSION
        rows = db.execute(
            "SELECT seat, colour, kind, person, name FROM seats WHERE name IS NOT NULL"
            " ORDER BY seat"
        ).fetchall()
    assert rows == [(0, "red", "human", "p1", "Anna"), (2, "green", "human", "p2", "Ben")]
    store = HistoryStore(tmp_path)
    store.open(create=False)
    summaries = store.summaries()
    store.close()
    assert len(summaries) == 4
    newest = summaries[0]
    assert newest.players()["red"].name == "Anna" and newest.players()["blue"].name is None
    assert newest.players()["green"].label() == "green human (Ben)"
    assert newest.to_json()["seats"][0]["name"] == "Anna"
    for old in summaries[1:]:
        assert all(seat.name is None and seat.person is None for seat in old.seats)
        assert all("name" not in seat for seat in old.to_json()["seats"])


def test_a_reader_reads_an_unmigrated_first_version_and_leaves_it(tmp_path: Path) -> None:
    shutil.copyfile(V1_DATABASE, tmp_path / "history.sqlite3")
    before = (tmp_path / "history.sqlite3").read_bytes()
    store = HistoryStore(tmp_path)
    store.open(create=False)
    games = store.summaries()
    store.close()
    assert len(games) == 3 and all(s.name is None for g in games for s in g.seats)
    assert (tmp_path / "history.sqlite3").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.sqlite3"]


def test_an_older_database_of_another_shape_is_set_aside(tmp_path: Path) -> None:
    """At version 1 the seats table must have version 1's columns exactly: one with a
    column too few would fail the migration or every read after it."""
    with sqlite3.connect(tmp_path / "history.sqlite3") as db:
        db.executescript(
            "CREATE TABLE records (id INTEGER PRIMARY KEY, uid TEXT);"
            "CREATE TABLE seats (record_id INTEGER, seat INTEGER, colour TEXT, kind TEXT);"
            "CREATE TABLE match_games (record_id INTEGER);"
            "PRAGMA user_version = 1;"
        )
    notices: list[str] = []
    keeper = HistoryKeeper(tmp_path, 4, lambda exc: None, notice=notices.append)
    assert keeper.open() is not None
    keeper.record(named_game(5, {0: ANNA}), "finished")
    keeper.close()
    assert len(list(tmp_path.glob("history.sqlite3.bad-*"))) == 1


def test_the_command_line_names_people_and_counts_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    book = PlayerBook(tmp_path)
    anna = book.add("Anna")
    keeper = HistoryKeeper(tmp_path, 4, lambda exc: None)
    session = named_game(7, {0: anna})
    keeper.record(session, "finished")
    keeper.close()
    book.rename(anna.id, "Anna-Lena")  # the stats call her by her name now
    assert main(["history", "--state-dir", str(tmp_path), "list"]) == 0
    listed = capsys.readouterr().out
    assert "red (Anna)" in listed
    assert main(["history", "--state-dir", str(tmp_path), "stats"]) == 0
    stats = capsys.readouterr().out
    won = int(session.state.winners()[0] == "red")
    assert re.search(rf"\n  person +games +won +of their games\n  Anna-Lena +1 +{won} ", stats)
    assert main(["history", "--state-dir", str(tmp_path), "stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["maedn"]["leaderboard"] == [
        {"person": "p1", "name": "Anna-Lena", "games": 1, "won": won}
    ]
