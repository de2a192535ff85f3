"""Resigning at the table (docs/spielen.md, "Aufgeben"): a person offers through the
system menu (hold, tap, OK), never by cycling moves; a bot offers and answers itself."""

from __future__ import annotations

import rules
from controller.machine import Mode
from controller.session import Session
from controller.table import Table
from tests.test_table import backgammon_position, options, press, run_until

LOST_FOR_BLACK = {
    "turn": "black",
    "phase": "double",
    "points": {"white": [2] + [0] * 23, "black": [0] * 12 + [15] + [0] * 11},
}
"""Black to decide with 15 checkers on its 13 point, white about to bear off its last
two: black is lost, a gammon certain."""


def long_system_press(table: Table) -> None:
    press(table, None, "system", "down")
    press(table, None, "system", "held")
    press(table, None, "system", "up")


def tap_system(table: Table) -> None:
    press(table, None, "system", "down")
    press(table, None, "system", "up")


def test_cycling_the_moves_never_offers_a_resignation() -> None:
    """Rule: a resignation is not among the moves NEXT cycles through."""
    table, _session = backgammon_position("money", ["bot", "empty", "human"], LOST_FOR_BLACK)
    run_until(table, lambda: table.state is Mode.CHOOSE)
    assert [m.notation for m in table.choice.moves] == ["roll", "double"]


def test_a_person_offers_through_the_system_menu_and_the_bot_accepts() -> None:
    """Hold the system button, tap it once per level, OK: the offer is made; the bot
    on the other side accepts a gammon it cannot better."""
    table, session = backgammon_position(
        "money", ["bot", "empty", "human"], LOST_FOR_BLACK, bot="strong"
    )
    run_until(table, lambda: table.state is Mode.CHOOSE)
    long_system_press(table)
    assert table.state is Mode.CONFIRM_MENU
    assert table.scene().banner == "menu? OK=yes NEXT=no"
    tap_system(table)
    assert table.scene().banner == "resign a single game? OK=yes NEXT=no"
    tap_system(table)
    assert table.scene().banner == "resign a gammon? OK=yes NEXT=no"
    press(table, 2, "ok")
    assert session.history[-1]["move"] == "resign gammon"
    run_until(table, lambda: table.state is Mode.GAME_OVER)
    assert session.state.to_json()["games"] == [
        {"winner": "white", "points": 2, "kind": "resigned gammon"}
    ]


def test_taps_cycle_back_to_the_plain_question_and_ok_then_leaves() -> None:
    table, _session = backgammon_position("money", ["bot", "empty", "human"], LOST_FOR_BLACK)
    run_until(table, lambda: table.state is Mode.CHOOSE)
    long_system_press(table)
    for _ in range(4):  # single, gammon, backgammon, then the question again
        tap_system(table)
    assert table.scene().banner == "menu? OK=yes NEXT=no"
    press(table, 2, "ok")
    assert table.state is Mode.MENU and table.session is None


def test_next_in_the_menu_returns_with_the_offer_unmade() -> None:
    table, session = backgammon_position("money", ["bot", "empty", "human"], LOST_FOR_BLACK)
    run_until(table, lambda: table.state is Mode.CHOOSE)
    long_system_press(table)
    tap_system(table)
    press(table, 2, "next")
    assert "resign_offer" not in session.state.to_json()
    assert all("resign" not in str(entry.get("move", "")) for entry in session.history)


def test_the_bot_resigns_a_lost_game_and_the_person_answers() -> None:
    """The strong bot, lost beyond doubt, offers a gammon; the person sees accept and
    reject in words and rejects: the bot plays on."""
    table, session = backgammon_position(
        "money", ["human", "empty", "bot"], LOST_FOR_BLACK, bot="strong"
    )
    run_until(table, lambda: table.state is Mode.CHOOSE and session.player == "white")
    assert session.history[-1]["move"] == "resign gammon"
    assert [m.notation for m in table.choice.moves] == ["accept", "reject"]
    from controller.games import move_words

    assert move_words(session.state, table.choice.moves[0]) == "accept: a gammon won"
    table.choice.cursor = 1
    press(table, session.seats["white"], "ok")
    assert session.state.to_json()["resign_declined"] == "gammon"
    run_until(table, lambda: session.player == "white" and not session.state.is_chance())
    assert not session.state.is_terminal()


def test_a_table_without_side_moves_keeps_its_plain_menu() -> None:
    table = Table(options())
    session = Session.start("maedn", "classic", ["human", "bot", "bot", "bot"], seed=1)
    table.start_session(session)
    run_until(table, lambda: table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE))
    long_system_press(table)
    tap_system(table)
    assert table.scene().banner == "menu? OK=yes NEXT=no"
    assert rules.side_moves("maedn", session.state) == ()


def test_setup_sets_backgammons_rules_option_by_option() -> None:
    """Setup: the game (one game, money, a match), then per option a row in words;
    OK steps a row's value, and the rule set is what the rows say."""
    from controller.scene import MenuItem, SetupScene
    from controller.table import TableOptions

    menu = (MenuItem("backgammon", "single", "Backgammon"),)
    table = Table(TableOptions(menu=menu, bot="random"))
    press(table, 0, "ok")
    assert table.state is Mode.SETUP and table.menu.entry == -1

    def words() -> str | None:
        scene = table.scene()
        assert isinstance(scene, SetupScene)
        return scene.rules

    assert words() == "one game, no cube"
    press(table, 0, "ok")  # the game row: money play, now four rows
    assert words() == "money, with cube" and table.menu.entry == -4
    press(table, 0, "next")
    assert words() == "Jacoby rule: off"
    press(table, 0, "ok")
    press(table, 0, "next")
    press(table, 0, "ok")  # beavers on
    press(table, 0, "next")
    for _ in range(3):  # automatic doubles: none, up to 1, 2, 3
        press(table, 0, "ok")
    assert words() == "automatic doubles: up to 3"
    assert table.menu.preset == "money-jacoby-beavers-auto3"
    press(table, 0, "next")  # the first seat: the whole rule set in words
    assert words() == "with cube, Jacoby, beavers, 3 automatic doubles"
    table.menu.entry = -4
    for _ in range(4):  # the game row: match to 1, 3, 5, 7
        press(table, 0, "ok")
    assert words() == "match to 7" and table.menu.entry == -2
    press(table, 0, "next")
    press(table, 0, "ok")
    assert words() == "Crawford rule: off" and table.menu.preset == "match7-nocrawford"
    game = rules.get_game("backgammon", table.menu.preset)
    assert game.rules.match_length == 7 and not game.rules.crawford  # type: ignore[attr-defined]
