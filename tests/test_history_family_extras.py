"""The history keeps what only a game family knows of a match's games (Backgammon's
cube and Crawford game) as that family's extras, and a database written before, with
those as columns of their own, reads exactly as it did: migrated by the table, and as
it is by a reader that never writes."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.games import presentation
from controller.games.backgammon.record import RecordedMatchGame, match_games
from controller.history.record import record_of
from controller.history.schema import EXPECTED, VERSION
from controller.history.store import HistoryStore
from tests.history_games import played
from tests.record_outputs import CLOCK_TIMES

DATA = Path(__file__).parent / "data"
V1_MATCH = DATA / "history_v1_match.sqlite3"
"""Written by schema version 1 (cube and crawford columns): a Backgammon match to 5
with a Crawford game, a money game won by a dropped double at cube 8, a Mini-Maki match
and an abandoned MÄDN game."""
V1_MATCH_READ = DATA / "history_v1_match.json"
"""Every summary of :data:`V1_MATCH` as the schema-1 program read it."""
V1_MATCH_OUTPUTS = DATA / "history_v1_match_outputs.json"
"""What the schema-1 program's ``spieltisch history`` printed for :data:`V1_MATCH`:
per command line the SHA-256 of its exit code and output (times masked), and the lines
its ``show`` gave the match's games."""


def copy_of_v1(directory: Path) -> Path:
    path = directory / "history.sqlite3"
    shutil.copyfile(V1_MATCH, path)
    return path


def columns(path: Path, table: str) -> tuple[str, ...]:
    with sqlite3.connect(path) as db:
        return tuple(str(row[1]) for row in db.execute(f"PRAGMA table_info({table})"))


def test_the_migration_moves_the_cube_and_crawford_into_the_familys_extras(
    tmp_path: Path,
) -> None:
    path = copy_of_v1(tmp_path)
    assert "cube" in columns(path, "match_games")
    store = HistoryStore(tmp_path)
    assert store.open() is None
    assert store.version() == VERSION and store.integrity_check() == ["ok"]
    read = [summary.to_json() for summary in store.summaries()]
    store.close()
    assert read == json.loads(V1_MATCH_READ.read_text(encoding="utf-8"))
    assert columns(path, "match_games") == EXPECTED[VERSION]["match_games"]
    with sqlite3.connect(path) as db:
        extras = [json.loads(row[0]) for row in db.execute("SELECT extras FROM match_games")]
    assert extras and all(set(e) == {"cube", "crawford"} for e in extras)
    assert {"cube": 1, "crawford": True} in extras and {"cube": 8, "crawford": False} in extras


def test_a_reader_reads_a_first_version_database_as_it_is_without_writing(
    tmp_path: Path,
) -> None:
    path = copy_of_v1(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir()), path.read_bytes()
    store = HistoryStore(tmp_path)
    store.open(create=False)
    read = [summary.to_json() for summary in store.summaries()]
    entry = store.get(1)
    store.close()
    assert read == json.loads(V1_MATCH_READ.read_text(encoding="utf-8"))
    assert [RecordedMatchGame.of(g).crawford for g in entry.summary.games].count(True) == 1
    assert (sorted(p.name for p in tmp_path.iterdir()), path.read_bytes()) == before


def history_outputs(capsys: pytest.CaptureFixture[str], state_dir: Path) -> dict[str, str]:
    """``spieltisch history`` for every command line of :data:`V1_MATCH_OUTPUTS`, as
    digests of its exit code and output (the times it was played masked: they print in
    the local time zone)."""
    digests = {}
    for line in json.loads(V1_MATCH_OUTPUTS.read_text(encoding="utf-8"))["digests"]:
        code = main(["history", "--state-dir", str(state_dir), *line.split()])
        captured = capsys.readouterr()
        text = CLOCK_TIMES.sub("<time>", f"exit {code}\n{captured.out}{captured.err}")
        digests[line] = hashlib.sha256(text.encode()).hexdigest()
    return digests


def test_the_command_line_prints_an_old_database_as_the_old_program_did(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Listing (text and JSON), showing the money game (text and JSON), the statistics
    and the gnubg .mat export of both Backgammon records of the schema-1 database: byte
    for byte what the schema-1 program printed, read as it is and again after the table
    migrated it; and the match's games as its ``history show`` listed them (the match's
    whole show is left out: its analysis takes minutes)."""
    expected = json.loads(V1_MATCH_OUTPUTS.read_text(encoding="utf-8"))
    copy_of_v1(tmp_path)
    assert history_outputs(capsys, tmp_path) == expected["digests"]
    store = HistoryStore(tmp_path)
    assert store.open() is None and store.version() == VERSION
    match = store.get(1).summary
    store.close()
    line = presentation(match.game).record_game_line
    assert line is not None
    assert [line(game) for game in match.games] == expected["show 1 games"]
    assert history_outputs(capsys, tmp_path) == expected["digests"]


def test_a_new_match_keeps_its_cube_and_crawford_game_as_extras(tmp_path: Path) -> None:
    for seed in range(40):
        session = played("backgammon", "match5", ["bot", "bot"], seed=seed)
        record = record_of(session, "finished", "2025-06-01T12:00:00+00:00", 2, "random")
        if any(RecordedMatchGame.of(g).crawford for g in record.summary.games):
            break
    store = HistoryStore(tmp_path)
    assert store.open() is None
    summary = store.get(store.add(record)).summary
    store.close()
    derived = match_games(session.state.to_json(), crawford_rule=True)
    assert tuple(RecordedMatchGame.of(g) for g in summary.games) == derived
    assert [g.to_json() for g in summary.games] == [
        {
            "number": g.number,
            "winner": g.winner,
            "points": g.points,
            "kind": g.kind,
            "cube": g.cube,
            "crawford": g.crawford,
            "score": g.score,
        }
        for g in derived
    ]
