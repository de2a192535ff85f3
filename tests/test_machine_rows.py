"""What a trigger does in a state is a row of the machine: the menu's pick, the
companion page's start, and no row that nothing fires."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.events import StartGameEvent
from controller.machine import BUTTONS, TRANSITIONS, Mode
from controller.page_start import start_requested
from controller.scene import STATISTICS_ITEM, MenuItem, StatisticsPage
from controller.session import Session
from controller.table import Table, TableOptions
from hardware.interfaces import ButtonEvent

ROOT = Path(__file__).resolve().parent.parent / "controller"

PRESSES = {"ok", "next", "ok_held", "next_held", "system_held", "system_tap"}
"""The triggers a press becomes (``controller.table.buttons``: the button's name, with
``_held`` for a held press)."""


def fired_names() -> set[str]:
    """Every string literal and every attribute name in controller/ outside the
    machine's own module: where a trigger can be fired from (by name, as a method, or
    handed on as a callback)."""
    names: set[str] = set()
    for path in ROOT.rglob("*.py"):
        if path.name == "machine.py" and path.parent == ROOT:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
    return names


def test_every_row_of_the_machine_has_a_caller() -> None:
    fired = fired_names() | PRESSES
    dead = sorted({row["trigger"] for row in TRANSITIONS + BUTTONS} - fired)
    assert dead == []


def test_the_presses_a_button_becomes_are_what_the_buttons_room_makes() -> None:
    source = (ROOT / "table" / "buttons.py").read_text(encoding="utf-8")
    assert '"system_held"' in source and '"system_tap"' in source
    assert re.search(r'f"\{event\.button\}_\{event\.kind\}"', source)


def press(table: Table, button: str) -> None:
    table.handle(ButtonEvent(None if button == "system" else 0, button, "down"), table.now)  # type: ignore[arg-type]


def state_of(table: Table) -> Mode:
    return table.state


def presses(*buttons: str) -> Callable[[Table], None]:
    def pressing(table: Table) -> None:
        for button in buttons:
            press(table, button)

    return pressing


def menu_table() -> Table:
    pages = (StatisticsPage("Mini-Maki", 1, (("red", 1),)),)
    menu = (MenuItem("minimaki", "standard", "Mini-Maki"), STATISTICS_ITEM)
    table = Table(TableOptions(menu=menu, bot="random"), statistics=lambda: pages)
    table.begin(0.0)
    return table


def test_ok_in_the_menu_opens_setup_or_the_statistics_as_the_entry_says() -> None:
    table = menu_table()
    press(table, "ok")
    assert state_of(table) is Mode.SETUP and table.menu.preset == "standard"
    table.back()
    press(table, "next")
    press(table, "ok")
    assert state_of(table) is Mode.STATISTICS
    assert [page.game for page in table.menu.pages] == ["Mini-Maki"]


def game_over(table: Table) -> None:
    table.start_session(Session.start("minimaki", "standard", ["bot"], seed=2, bot="random"))
    while table.state is not Mode.GAME_OVER:
        wake = table.next_wakeup()
        assert wake is not None
        table.tick(max(wake, table.now))


WAYS: dict[Mode, Callable[[Table], object]] = {
    Mode.MENU: lambda table: None,
    Mode.SETUP: presses("ok"),
    Mode.STATISTICS: presses("next", "ok"),
    Mode.MESSAGE: lambda table: table.show_text("a panel is offline"),
    Mode.GAME_OVER: game_over,
}
"""How the table gets to each state the page may start a game in."""


@pytest.mark.parametrize(
    "state", [Mode.MENU, Mode.SETUP, Mode.STATISTICS, Mode.MESSAGE, Mode.GAME_OVER]
)
def test_the_page_starts_a_game_where_the_menu_could(state: Mode) -> None:
    table = menu_table()
    WAYS[state](table)
    assert table.state is state
    event = StartGameEvent("kleiner_aerger", "standard", ("human", "bot"))
    assert start_requested(table, event)
    session = table.session
    assert session is not None and session.game == "kleiner_aerger"
    assert table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE)
    assert table.banner.text is None


def test_the_page_never_starts_a_game_in_the_middle_of_one() -> None:
    table = menu_table()
    table.start_session(Session.start("minimaki", "standard", ["human"], seed=2))
    playing, state = table.session, table.state
    assert state in (Mode.AWAIT_ROLL, Mode.CHOOSE)
    assert not start_requested(table, StartGameEvent("kleiner_aerger", "standard", ("human",)))
    assert table.session is playing and table.state is state
    assert table.banner.text is not None  # "game on: end it first"
