"""One damaged record never breaks the whole history.

A real history database with four games, three of them changed by hand the way a
damaged or hand-edited row looks: game 2's ``history`` and game 3's ``final_state``
are not JSON, game 4's ``result`` is not either. ``spieltisch history`` lists, counts
and exports the rest, and names the damaged game in one line; the page's API answers
(never 500) through a real server on a real port.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

from controller.cli.command import main
from controller.history.record import record_of
from controller.history.store import HistoryStore
from tests.history_games import played
from tests.test_web import ServedTable, client_session, run

ENDED = "2026-10-01T18:00:00+00:00"


@pytest.fixture(scope="module")
def damaged_history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("state")
    store = HistoryStore(state)
    store.open()
    for seed in range(4):
        session = played("minimaki", "standard", ["human"], seed)
        store.add(record_of(session, "finished", ENDED, 1, "random"))
    store.close()
    with sqlite3.connect(state / "history.sqlite3") as db:
        db.execute("UPDATE records SET history = 'not json' WHERE id = 2")
        db.execute("UPDATE records SET final_state = '{\"players\": [' WHERE id = 3")
        db.execute("UPDATE records SET result = '' WHERE id = 4")
    return state


def cli(state: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["history", "--state-dir", str(state), *args])
    out, err = capsys.readouterr()
    return code, out, err


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_list_and_stats_skip_the_unreadable_summary_and_name_it(
    damaged_history: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    code, out, err = cli(damaged_history, capsys, "list")
    assert code == 0 and err == ""
    # Each game takes two lines; its number opens the first, the second is indented.
    firsts = [line.split()[0] for line in out.splitlines()]
    numbers = [word for word in firsts if word.isdigit()]
    assert numbers == ["3", "2", "1"]
    assert warnings(caplog) == [
        "game 4 in the history is damaged (its result is not JSON of the right kind); skipped"
    ]
    caplog.clear()
    code, out, _err = cli(damaged_history, capsys, "stats", "--json")
    assert code == 0 and json.loads(out)["minimaki"]["games"] == 3
    assert len(warnings(caplog)) == 1 and "game 4" in warnings(caplog)[0]


def test_export_writes_every_sound_game_and_names_a_damaged_one(
    damaged_history: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = cli(damaged_history, capsys, "export", "1", "-")
    assert code == 0 and json.loads(out.splitlines()[0])["id"] == 1
    for number, column in ((2, "history"), (3, "final_state")):
        code, out, err = cli(damaged_history, capsys, "export", str(number), "-")
        assert code == 2 and out == ""
        assert err == (
            f"spieltisch: error: game {number} in the history is damaged"
            f" (its {column} is not JSON of the right kind)\n"
        )


@pytest.fixture
def served(damaged_history: Path) -> Iterator[ServedTable]:
    table = ServedTable(state_dir=damaged_history)
    table.rig.start()
    yield table
    table.close()


async def fetch(table: ServedTable, path: str) -> tuple[int, object]:
    async with client_session() as client, client.get(table.url + path) as response:
        return response.status, json.loads(await response.read())


def test_the_page_lists_counts_and_answers_for_a_damaged_game(
    served: ServedTable, caplog: pytest.LogCaptureFixture
) -> None:
    status, listing = run(fetch(served, "/api/history"))
    assert status == 200
    assert [g["id"] for g in listing["games"]] == [3, 2, 1]  # type: ignore[index]
    status, stats = run(fetch(served, "/api/stats"))
    assert status == 200
    assert stats["read"] == 1  # type: ignore[index]  # game 1: 2 and 3 do not read
    assert stats["games"]["minimaki"]["games"] == 3  # type: ignore[index]
    status, one = run(fetch(served, "/api/history/1"))
    assert status == 200 and one["game"]["id"] == 1  # type: ignore[index]
    status, two = run(fetch(served, "/api/history/2"))
    assert status == 404
    assert "game 2 in the history is damaged" in json.dumps(two)
    assert not [r for r in caplog.records if r.exc_info], "a traceback in the log"
