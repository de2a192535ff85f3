"""A game started from the Setup page with named players, against the real server and
a real table with a real state directory: each human seat may be a named player, the
table then calls them by name, the history records the names, and the next setup (on
the page, and at the table after a fresh start over the same directory) proposes them
again. Every wrong name is refused beside its seat and starts nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from controller import setup_memory
from controller.events import StartGameEvent
from controller.history.store import HistoryStore
from controller.machine import Mode
from controller.players import book
from controller.players.person import Person
from controller.testing.files import config_text
from controller.testing.rig import ApplianceRig
from tests.test_setup_names import back_to_menu, tap
from tests.test_web import ServedTable, client_session, pair, run

SEATS = ("human", "bot", "coached", "bot")


def served_table(tmp_path: Path) -> tuple[ServedTable, Path, Person, Person]:
    """A German table at its menu, serving its page, with Anna and Ben in its book."""
    state = tmp_path / "state"
    state.mkdir()
    names = book.PlayerBook(state)
    anna, ben = names.add("Anna"), names.add("Ben")
    config = tmp_path / "config.toml"
    config.write_text(config_text(SEATS), encoding="utf-8")
    table = ServedTable(seats=SEATS, state_dir=state, config_path=config, language="de")
    table.rig.start()  # the menu
    table.rig.app.loop.draw()
    return table, state, anna, ben


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ServedTable, Path, Person, Person]]:
    built = served_table(tmp_path)
    yield built
    built[0].close()


def start_with(table: ServedTable, people: Any, seats: tuple[str, ...] = SEATS) -> Any:
    async def go() -> Any:
        async with client_session() as client:
            csrf = await pair(client, table)
            body = {"action": "start", "values": {"game": "maedn", "seats": list(seats)}}
            if people is not ...:
                body["people"] = people
            headers = {"X-CSRF-Token": csrf}
            async with client.post(table.url + "/api/setup", json=body, headers=headers) as reply:
                return reply.status, await reply.json()

    return run(go())


def read_setup(table: ServedTable) -> Any:
    async def go() -> Any:
        async with client_session() as client, client.get(table.url + "/api/setup") as reply:
            assert reply.status == 200
            return await reply.json()

    return run(go())


def starts_queued(table: ServedTable) -> list[StartGameEvent]:
    queued = []
    while len(table.rig.app.events):
        queued.append(table.rig.app.events.get(0))
    return [e for e in queued if isinstance(e, StartGameEvent)]


def test_wrong_names_are_refused_beside_their_seats_and_start_nothing(
    served: tuple[ServedTable, Path, Person, Person],
) -> None:
    table, _state, anna, _ben = served
    status, data = start_with(table, [anna.id, None, anna.id, None])
    assert status == 422 and data["errors"]["seat2"] == ["Anna sitzt schon an Platz 1"]
    status, data = start_with(table, [None, anna.id])
    assert status == 422 and data["errors"]["seat1"] == ["Nur ein Mensch am Tisch hat einen Namen"]
    status, data = start_with(table, ["p9"])
    assert status == 422 and "nicht mehr" in data["errors"]["seat0"][0]
    for malformed in ("p1", [1], [None] * 5, {"0": "p1"}):
        status, data = start_with(table, malformed)
        assert status == 400 and "people" in data["error"], malformed
    assert starts_queued(table) == []


def test_a_page_started_game_names_its_players_records_and_remembers_them(
    served: tuple[ServedTable, Path, Person, Person],
) -> None:
    table, state, anna, ben = served
    assert read_setup(table)["players"] == [anna.to_json(), ben.to_json()]
    status, data = start_with(table, [anna.id, None, ben.id, None])
    assert status == 200, data
    starts = starts_queued(table)
    assert [e.people for e in starts] == [((0, anna), (2, ben))]
    table.rig.app.events.put(starts[0])
    table.rig.settle()
    app = table.rig.app
    session = app.table.require_session()
    assert session.people == {"red": anna, "green": ben} and session.coached == ("green",)
    # the table calls them by name where it shows words
    app.table.tick(app.table.now)
    for _ in range(200):
        if app.table.state is Mode.AWAIT_ROLL and session.player in ("red", "green"):
            break
        wake = app.table.next_wakeup()
        assert wake is not None
        app.table.tick(max(wake, app.table.now))
    names = {"red": "Anna", "green": "Ben"}
    assert names[session.player or ""] in app.table.status().text
    # kept for the next setup, on the page and at the table
    table.rig.settle()
    kept = json.loads((state / setup_memory.NAME).read_text(encoding="utf-8"))
    assert kept["maedn"]["people"] == [anna.id, None, ben.id, None]
    assert kept["maedn"]["seats"] == ["human", "bot", "coached", "bot"]
    assert read_setup(table)["last_people"]["maedn"] == [anna.id, None, ben.id, None]
    # the game is ended at the table: the history keeps it with the names
    back_to_menu(app.table)
    table.rig.settle()
    store = HistoryStore(state)
    store.open(create=False)
    try:
        (summary,) = store.summaries()
        assert summary.outcome == "abandoned"
        seats = summary.players()
        assert (seats["red"].name, seats["red"].person) == ("Anna", anna.id)
        assert (seats["green"].name, seats["green"].person) == ("Ben", ben.id)
        assert seats["blue"].name is None
    finally:
        store.close()


def test_the_page_s_names_are_proposed_by_the_table_after_a_fresh_start(tmp_path: Path) -> None:
    table, state, _anna, ben = served_table(tmp_path)
    status, data = start_with(table, [None, None, ben.id, None])
    assert status == 200, data
    table.rig.app.events.put(starts_queued(table)[0])
    table.rig.settle()
    assert table.rig.app.table.require_session().people == {"green": ben}
    table.close()
    again = ApplianceRig(state, seats=SEATS, buttons=False)
    try:
        again.start()  # the unfinished game resumes; back to the menu, then MÄDN's setup
        tab = again.table
        back_to_menu(tab)
        again.settle()
        assert tab.menu.item.game == "maedn"
        tap(tab, "ok")
        assert tab.state is Mode.SETUP
        assert tab.menu.kinds == ["human", "bot", "coached", "bot"]
        assert tab.menu.seated() == {2: ben}
    finally:
        again.close()
