"""Setup with named players, driven by the table's button events on its own clock: a
name row after each human seat only where the family keeps names, so a family
without names presses exactly as often as before; the names then name the players."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from controller import setup_memory
from controller.machine import Mode
from controller.players import book
from controller.players.person import Person
from controller.scene import SetupScene
from controller.session import Session
from controller.table import Table, TableOptions
from controller.table.scenes import awake_scene
from controller.testing.rig import ApplianceRig
from controller.views import render
from controller.views.text import collect_texts
from hardware.interfaces import ButtonEvent

ANNA, BEN = Person("p1", "Anna"), Person("p2", "Ben")

PRESSES_BEFORE_NAMES = 8
"""Menu to the first roll of a default four-player MÄDN game (one human, three bots),
counted on the table before names existed (the same count this test makes): OK on
the menu, NEXT past the rule set and the four seats to "start", OK, OK to roll."""


def press(table: Table, button: str, seat: int = 0) -> None:
    table.handle(ButtonEvent(seat, button, "down"), table.now)  # type: ignore[arg-type]
    table.handle(ButtonEvent(seat, button, "up"), table.now)  # type: ignore[arg-type]


def run_until(table: Table, done: Callable[[], bool]) -> None:
    while not done():
        wake = table.next_wakeup()
        assert wake is not None, f"stuck in {table.state}"
        table.tick(max(wake, table.now))


def table_with(named: tuple[Person, ...]) -> Table:
    return Table(TableOptions(bot="random", named_players=lambda: named))


def presses_to_first_roll(table: Table) -> int:
    """The family's way to its first roll: OK on the first menu entry (MÄDN), NEXT to
    "start" taking every default, OK, then OK to roll once it is the human's turn."""
    count = 0
    press(table, "ok")
    count += 1
    assert table.state is Mode.SETUP and table.menu.item.game == "maedn"
    while table.menu.entry != len(table.menu.kinds):
        press(table, "next")
        count += 1
    press(table, "ok")
    count += 1
    session = table.session
    assert session is not None
    rolled = len([e for e in session.history if "dice" in e])

    def humans_roll() -> bool:
        return table.state is Mode.AWAIT_ROLL and not session.is_bot(session.player)

    while True:
        run_until(table, lambda: humans_roll() or table.state is Mode.CHOOSE)
        if humans_roll():
            break
        table.tick(table.now + 0.01)
    press(table, "ok", session.seats[session.player or ""])
    count += 1
    assert len([e for e in session.history if "dice" in e]) > rolled
    return count


def test_a_family_without_names_presses_as_often_as_before() -> None:
    assert presses_to_first_roll(table_with(())) == PRESSES_BEFORE_NAMES


def test_with_names_the_one_human_seat_has_one_row_more() -> None:
    assert presses_to_first_roll(table_with((ANNA, BEN))) == PRESSES_BEFORE_NAMES + 1


def setup_scene(table: Table) -> SetupScene:
    scene = awake_scene(table)
    assert isinstance(scene, SetupScene)
    return scene


def test_each_human_seat_cycles_the_names_and_guest() -> None:
    table = table_with((ANNA, BEN))
    press(table, "ok")  # MÄDN's setup, on its rule set
    press(table, "next")  # seat 1: human
    assert not table.menu.naming
    press(table, "next")  # seat 1's name
    assert table.menu.naming and setup_scene(table).people == (None, None, None, None)
    status = table.status().text
    assert "[name: guest]" in status and "OK: next name" in status
    names = []
    for _ in range(4):
        press(table, "ok")
        names.append(setup_scene(table).people[0])
    assert names == ["Anna", "Ben", None, "Anna"]
    with collect_texts() as drawn:
        render(setup_scene(table), 32, 32, "RGB")
    assert any(text.text == "red: Anna" for text in drawn)
    press(table, "next")  # seat 2: a bot, no name row
    assert table.menu.entry == 1 and not table.menu.naming
    press(table, "next")  # seat 3: a bot; OK twice makes it human (bot, empty, human)
    press(table, "ok")
    press(table, "ok")
    assert table.menu.kinds[2] == "human"
    press(table, "next")  # seat 3's name: Anna sits at seat 1, so Ben comes first
    press(table, "ok")
    assert setup_scene(table).people[2] == "Ben"
    press(table, "next")
    press(table, "next")  # seat 4, a bot: no name row, on to start
    assert table.menu.entry == 4
    press(table, "ok")
    session = table.session
    assert session is not None
    assert session.people == {"red": ANNA, "green": BEN}
    run_until(table, lambda: table.state is Mode.AWAIT_ROLL and session.player == "red")
    status = table.status()
    assert "Anna" in status.text and "red" not in status.text
    assert status.seats[0].label == "red · Anna"
    # the save carries the names, and an old save without them still reads
    again = Session.from_json(session.to_json())
    assert again.people == session.people
    plain = session.to_json()
    del plain["people"]
    assert Session.from_json(plain).people == {}


def test_a_seat_made_bot_loses_its_name_and_setup_remembers_the_last_names() -> None:
    table = table_with((ANNA, BEN))
    press(table, "ok")
    press(table, "next")
    press(table, "next")
    press(table, "ok")  # seat 1: Anna
    assert table.menu.seated() == {0: ANNA}
    press(table, "next")  # seat 2
    while table.menu.entry != 4:
        press(table, "next")
    press(table, "ok")
    assert table.session is not None and table.session.people == {"red": ANNA}
    # back in the menu: the next setup of the same game starts with Anna at seat 1
    run_until(table, lambda: table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE))
    for kind in ("down", "held"):
        table.handle(ButtonEvent(None, "system", kind), table.now)
    table.handle(ButtonEvent(None, "system", "up"), table.now)
    press(table, "ok")  # "back to the menu?" yes
    assert table.state is Mode.MENU
    press(table, "ok")
    assert table.menu.seated() == {0: ANNA}
    press(table, "next")
    press(table, "ok")  # seat 1: human -> bot
    assert table.menu.seated() == {}
    assert setup_scene(table).people == (None, None, None, None)


def tap(table: Table, button: str, seat: int | None = 0) -> None:
    for kind in ("down", "up"):
        table.handle(ButtonEvent(seat, button, kind), table.now)  # type: ignore[arg-type]


def back_to_menu(table: Table) -> None:
    for kind in ("down", "held", "up"):
        table.handle(ButtonEvent(None, "system", kind), table.now)
    tap(table, "ok")  # "back to the menu?" yes
    assert table.state is Mode.MENU


def test_the_names_of_the_last_game_are_proposed_again_after_a_restart(tmp_path: Path) -> None:
    """Anna at seat 1 and Ben at seat 3, begun at the table; a new appliance over the
    same state directory (read afresh from disk) proposes them at the same seats, a
    renamed Ben under his new name, and a removed player is passed over."""
    names = book.PlayerBook(tmp_path)
    anna, ben = names.add("Anna"), names.add("Ben")
    seats = ("human", "bot", "human", "bot")
    first = ApplianceRig(tmp_path, seats=seats, buttons=False)
    try:
        first.start()
        table = first.table
        tap(table, "ok")  # MÄDN's setup
        tap(table, "next")  # seat 1
        tap(table, "next")  # seat 1's name
        tap(table, "ok")  # Anna
        while (table.menu.entry, table.menu.naming) != (2, True):
            tap(table, "next")
        tap(table, "ok")  # Ben (Anna sits at seat 1)
        assert table.menu.seated() == {0: anna, 2: ben}
        while table.menu.entry != len(table.menu.kinds):
            tap(table, "next")
        tap(table, "ok")
        assert table.require_session().people == {"red": anna, "green": ben}
        first.settle()
        back_to_menu(table)
        first.settle()
    finally:
        first.close()
    kept = json.loads((tmp_path / setup_memory.NAME).read_text(encoding="utf-8"))
    assert kept["maedn"]["people"] == ["p1", None, "p2", None]
    names.rename(ben.id, "Benni")
    assert proposed(tmp_path, seats) == {0: anna, 2: Person(ben.id, "Benni")}
    names.remove(anna.id)
    assert proposed(tmp_path, seats) == {2: Person(ben.id, "Benni")}


def proposed(state: Path, seats: tuple[str, ...]) -> dict[int, Person]:
    """The named seats MÄDN's setup proposes on a new appliance over ``state``."""
    again = ApplianceRig(state, seats=seats, buttons=False)
    try:
        again.start()
        tap(again.table, "ok")
        assert again.table.state is Mode.SETUP
        return again.table.menu.seated()
    finally:
        again.close()


@pytest.mark.parametrize(
    "people",
    [None, ["p1"], ["p1", "p1", None, None], [7, None, None, None], "p1", ["x1", None, None, None]],
)
def test_named_seats_that_are_not_what_the_table_writes_cost_only_the_names(
    tmp_path: Path, people: object
) -> None:
    entry: dict[str, object] = {"preset": "classic", "seats": ["human", "empty", "bot", "bot"]}
    if people is not None:
        entry["people"] = people
    (tmp_path / setup_memory.NAME).write_text(json.dumps({"maedn": entry}), encoding="utf-8")
    setups, seated = setup_memory.read_all(tmp_path)
    assert setups == {"maedn": ("classic", ("human", "empty", "bot", "bot"))}
    assert seated == {}


def test_a_coached_seat_s_name_row_is_in_the_status_line() -> None:
    """A human with the coach has a name row like any human, and the status line shows
    it where the cursor is (it once left the row out: the cursor seemed stuck)."""
    table = Table(
        TableOptions(
            bot="random",
            named_players=lambda: (ANNA, BEN),
            default_seats=("human", "bot", "coached", "bot"),
        )
    )
    press(table, "ok")
    while table.menu.entry != 2:
        press(table, "next")
    press(table, "next")  # green's name row
    assert table.menu.naming
    press(table, "ok")
    status = table.status().text
    assert "green coached, [name: Anna]" in status, status
    press(table, "ok")
    assert "green coached, [name: Ben]" in table.status().text
