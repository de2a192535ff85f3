"""The status line in words and the seats' looks (controller/status_line.py).

Driven through a real Table with a fake clock where the words depend on the flow
(menu → setup → roll → choose → move), and through hand-made scenes for each game's
move words. No threads, no sleeping.
"""

from __future__ import annotations

import random
from dataclasses import replace

import rules
from controller.machine import Mode
from controller.names import colour_name
from controller.scene import STATISTICS_ITEM, MenuItem, MoveAnimation, Scene
from controller.session import Session
from controller.sim.status import SEAT_DEFAULTS
from controller.status_line import describe, move_words, table_status
from controller.table import Table, TableOptions
from controller.views.palette import SEAT
from hardware.interfaces import ButtonEvent
from tests.helpers import track_position
from tests.views_scenes import kleiner_midgame, maedn_midgame, minimaki_midgame


def press(table: Table, seat: int | None, button: str, kind: str = "down") -> None:
    table.handle(ButtonEvent(seat, button, kind), table.now)  # type: ignore[arg-type]


def run_until(table: Table, done: object, limit: float = 100_000.0) -> None:
    while not done():  # type: ignore[operator]
        wake = table.next_wakeup()
        assert wake is not None, f"stuck in {table.state}"
        assert wake < limit
        table.tick(max(wake, table.now))


def options() -> TableOptions:
    menu = (MenuItem("maedn", "classic", "MÄDN"), MenuItem("backgammon", "single", "Backgammon"))
    return TableOptions(menu=menu, bot="random")


def test_the_menu_counts_games_and_not_its_statistics_entry() -> None:
    """A table that keeps a history ends its menu with "statistics": no game, so the
    games are "1 of 2" and "2 of 2", and the statistics entry is not "3 of 3"."""
    table = Table(replace(options(), menu=(*options().menu, STATISTICS_ITEM)))
    texts = []
    for _ in range(3):
        texts.append(table.status().text)
        press(table, 0, "next")
    assert texts == [
        "menu: MÄDN (1 of 2) · NEXT: next game, OK: choose it",
        "menu: Backgammon (2 of 2) · NEXT: next game, OK: choose it",
        "menu: statistics · NEXT: back to the first game, OK: show it",
    ]
    assert table.status().text == texts[0]


def four_seats(state: object, kinds: dict[str, str]) -> Session:
    seats = {"red": 0, "blue": 1, "green": 2, "yellow": 3}
    return Session("maedn", "classic", state, seats, kinds, random.Random(1))  # type: ignore[arg-type]


def test_menu_and_setup_say_what_the_buttons_do() -> None:
    table = Table(options())
    status = table.status()
    assert status.text == "menu: MÄDN (1 of 2) · NEXT: next game, OK: choose it"
    assert [s.colour for s in status.seats] == list(SEAT_DEFAULTS)
    press(table, 0, "ok")
    assert table.state is Mode.SETUP
    status = table.status()
    assert status.text.startswith("MÄDN: [rules: classic], red human, blue bot, green bot")
    assert "OK: next rule set" in status.text
    press(table, 0, "next")
    status = table.status()
    assert "[red human], blue bot, green bot, yellow bot, start" in status.text
    assert "OK: human/bot/empty" in status.text
    assert [s.label for s in status.seats] == [
        "red · human",
        "blue · bot",
        "green · bot",
        "yellow · bot",
    ]
    assert [s.on_turn for s in status.seats] == [True, False, False, False]
    for _ in range(4):
        press(table, 0, "next")
    assert "[start]" in table.status().text and "OK: begin" in table.status().text


def test_a_humans_turn_names_the_seat_the_dice_and_the_previewed_move() -> None:
    table = Table(options())
    session = Session.start("maedn", "classic", ["human", "empty", "human", "empty"], seed=1)
    session.state = rules.state_from_json(
        {
            "game": "maedn",
            "preset": "classic",
            "players": ["red", "green"],
            "turn": "red",
            "pieces": {"red": [3, 12, 25, "home"], "green": ["home"] * 4},
        }
    )
    table.start_session(session)
    assert table.status().text == "red (seat 1): OK: roll the dice"
    table.roll_now((5,))
    run_until(table, lambda: table.state is Mode.CHOOSE)
    assert table.status().text == (
        "red (seat 1): 5 — piece on 3 → 8 · move 1 of 3: NEXT shows another, OK plays it"
    )
    press(table, 0, "next")
    assert table.status().text.startswith("red (seat 1): 5 — piece on 12 → 17 · move 2 of 3")
    looks = table.status().seats
    assert looks[0].on_turn and looks[0].colour == SEAT["red"] and looks[0].label == "red · you"
    assert not looks[1].playing and looks[1].label == "empty"
    assert looks[2].colour == SEAT["green"] and not looks[2].on_turn
    press(table, 0, "ok")
    assert table.state is Mode.MOVING
    assert table.status().text == "red (seat 1): 5 — piece on 12 → 17"


def test_bots_are_named_as_bots() -> None:
    state = maedn_midgame("classic")
    kinds = {"red": "bot", "blue": "bot", "green": "human", "yellow": "bot"}
    session = four_seats(state, kinds)
    scene = Scene(state, 1.0, preview=state.legal_moves()[0], dice=(3,))
    text = describe(Mode.CHOOSE, scene, session, (0, 1))
    assert text == "red (bot): 3 — piece on 0 → 3"
    looks = table_status(Mode.CHOOSE, scene, session, seat_count=4).seats
    assert [look.label for look in looks] == [
        "red · bot",
        "blue · bot",
        "green · you",
        "yellow · bot",
    ]


def test_game_over_confirm_countdown_and_banner() -> None:
    state = maedn_midgame("lingo")
    session = four_seats(state, dict.fromkeys(("red", "blue", "green", "yellow"), "human"))
    preview = state.legal_moves()[0]
    scene = Scene(state, 0.0, preview=preview, dice=(3,), countdown=3.2, banner="time!")
    text = describe(Mode.CHOOSE, scene, session, (0, 2))
    assert text.endswith("· 4 s left · time!")
    assert describe(Mode.CONFIRM_MENU, scene, session) == (
        "back to the menu? OK: yes (the game ends), NEXT: no"
    )
    over = Scene(state, 0.0, winner="blue")
    assert describe(Mode.GAME_OVER, over, session) == "blue wins · OK: back to the menu"
    looks = table_status(Mode.GAME_OVER, over, session, seat_count=4).seats
    assert not any(look.on_turn for look in looks)


def test_move_words_of_every_game() -> None:
    lingo = maedn_midgame("lingo")  # no obligations: every piece may move, or pass
    words = {move_words(lingo, m) for m in lingo.legal_moves()}
    assert {"piece on 0 → 3", "piece on 5 → 8", "pass (no move)"} <= words
    entering = track_position(
        "classic", {"red": ["home", "home", "home", 38], "green": ["home"] * 4}, dice=[6]
    )
    words = {move_words(entering, m) for m in entering.legal_moves()}
    assert "piece enters its start field" in words
    goal = track_position(
        "classic", {"red": [38, "home", "home", "home"], "green": ["home"] * 4}, dice=[3]
    )
    assert {move_words(goal, m) for m in goal.legal_moves()} == {"piece on 38 → goal 2"}
    kleiner = kleiner_midgame()
    assert all(" → " in move_words(kleiner, m) for m in kleiner.legal_moves())
    capture = track_position(
        "classic",
        {"red": [3, "home", "home", "home"], "green": [5, "home", "home", "home"]},
        dice=[2],
    )
    assert move_words(capture, capture.legal_moves()[0]) == "piece on 3 → 5, captures green"
    assert move_words(capture, rules.PASS) == "pass (no move)"
    minimaki = minimaki_midgame()
    steps = {move_words(minimaki, m) for m in minimaki.legal_moves()}
    assert "to row 3, column 3" in steps
    start = rules.get_game("minimaki").new_state()
    assert move_words(start, start.legal_moves()[2]) == "start on row 6, column 3"
    backgammon = rules.get_game("backgammon").new_state().roll((3, 1))
    plays = {move_words(backgammon, m) for m in backgammon.legal_moves()}
    assert "checkers 8/5 6/5" in plays


def test_backgammon_and_minimaki_dice() -> None:
    game = rules.get_game("backgammon")
    state = game.new_state().roll((3, 1))
    session = Session.start("backgammon", "single", ["human", "empty", "bot"], seed=1)
    session.state = state
    play = next(m for m in state.legal_moves() if m.notation == "8/5 6/5")
    text = describe(Mode.CHOOSE, Scene(state, 0.0, preview=play, dice=(3, 1)), session, (0, 16))
    assert text.startswith(f"{colour_name(state.game.name, state.current_player or '')} ")
    assert ": 3 1 — checkers 8/5 6/5 · move 1 of 16" in text
    moving = MoveAnimation(play, state, state.apply(play), 0.5)
    assert describe(Mode.MOVING, Scene(state, 0.0, moving=moving, dice=(3, 1)), session).endswith(
        "3 1 — checkers 8/5 6/5"
    )
    mini = minimaki_midgame()
    solo = Session.start("minimaki", "standard", ["human"], seed=1)
    solo.state = mini
    step = mini.legal_moves()[0]
    text = describe(Mode.CHOOSE, Scene(mini, 0.0, preview=step, dice=(2, 5), hint=step), solo)
    assert text.startswith("red (seat 1): black rolled 2 5 — to row ")
    assert "· best: to row" in text


def test_a_backgammon_play_entered_checker_by_checker_is_described_step_by_step() -> None:
    from controller.scene import CheckerEntryView

    state = rules.get_game("backgammon").new_state().roll((6, 4))
    session = Session.start("backgammon", "single", ["human", "empty", "bot"], seed=1)
    session.state = state
    entry = CheckerEntryView(((12, 6, False),), (23, 19, False))
    text = describe(Mode.CHOOSE, Scene(state, 0.0, dice=(6, 4), entry=entry), session)
    assert "fixed 13/7 · NEXT shows checker 24/20, OK fixes it" in text
    assert text.startswith(colour_name("backgammon", state.current_player or ""))


def test_a_backgammon_hint_shows_its_equity_and_chances() -> None:
    state = rules.get_game("backgammon").new_state().roll((3, 1))
    session = Session.start("backgammon", "single", ["human", "empty", "bot"], seed=1)
    session.state = state
    play = next(m for m in state.legal_moves() if m.notation == "8/5 6/5")
    scene = Scene(state, 0.0, preview=play, dice=(3, 1), hint=play)
    text = describe(Mode.CHOOSE, scene, session, (0, 16))
    assert "· best: checkers 8/5 6/5 (equity +0." in text
    assert "wins 5" in text and "gammon" in text
