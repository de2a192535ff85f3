"""What a new family reads at the table: the status line and the panel agree with what
the buttons do, a decision says what it is about, the end says how the game ended, a
setup that cannot begin says so on "start", and the words are the rule texts' own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import rules
from controller import setup_memory
from controller.events import BotRequest
from controller.i18n import DEFAULT, use
from controller.machine import Mode
from controller.scene import MenuItem, Scene
from controller.session import Session
from controller.status_line import describe
from controller.table import Table, TableOptions
from rules.core import State
from rules.minimaki.facts import Loss, loss
from tests.helpers import track_position
from tests.panel_words import WordWatch
from tests.test_table import backgammon_position, options, press, run_until
from tests.test_table_resign import LOST_FOR_BLACK, long_system_press, tap_system


@pytest.fixture
def german() -> Iterator[None]:
    use("de")
    yield
    use(DEFAULT)


def status(table: Table) -> str:
    return table.status().text


# -- the system menu ------------------------------------------------------------------


def test_the_status_line_asks_what_the_panel_asks_and_ok_does() -> None:
    table, session = backgammon_position("money", ["bot", "empty", "human"], LOST_FOR_BLACK)
    run_until(table, lambda: table.state is Mode.CHOOSE)
    long_system_press(table)
    assert status(table).startswith("back to the menu? OK: yes (the game ends), NEXT: no")
    assert "system button: the next question" in status(table)
    tap_system(table)
    assert table.scene().banner == "resign a single game? OK=yes NEXT=no"
    assert status(table).startswith("resign a single game? OK: yes, NEXT: no")
    assert "back to the menu" not in status(table)
    press(table, 2, "ok")  # what the line said: the offer, not the menu
    assert session.history[-1]["move"] == "resign single"
    assert table.state is not Mode.MENU


def test_german_resign_question_in_the_status_line(german: None) -> None:
    table, _session = backgammon_position("money", ["bot", "empty", "human"], LOST_FOR_BLACK)
    run_until(table, lambda: table.state is Mode.CHOOSE)
    long_system_press(table)
    tap_system(table)
    assert status(table).startswith("einfach aufgeben? OK: ja, WEITER: nein")


# -- Backgammon's status line ---------------------------------------------------------


def test_a_bot_that_has_not_answered_previews_no_move() -> None:
    """A bot on its worker thread: until it answers, neither the panel nor the line
    shows a move (the first legal one is not the one it plays)."""
    asked: list[tuple[State, BotRequest]] = []
    table = Table(
        options(), ask_bot=lambda state, _kind, request, _seed: asked.append((state, request))
    )
    session = Session.start("backgammon", "single", ["bot", "empty", "human"], seed=5)
    opening = {**session.state.to_json(), "turn": "white", "phase": "move", "dice": [4, 1]}
    session.state = rules.state_from_json(opening)
    table.start_session(session)
    assert table.state is Mode.CHOOSE and session.player == "white"
    assert asked
    assert table.scene().preview is None
    line = status(table)
    assert line.endswith("thinking"), line
    assert "checker" not in line
    state, request = asked[-1]
    move = state.legal_moves()[-1]
    table.bot_arrived(request, move, table.now)
    assert table.scene().preview == move
    assert "checker" in status(table)


def test_a_double_says_who_doubled_and_to_what_and_no_old_dice() -> None:
    table, _session = backgammon_position(
        "money",
        ["human", "empty", "human"],
        {
            "turn": "white",
            "phase": "take",
            "points": {
                "white": [3, 3, 3, 2, 2, 2] + [0] * 18,
                "black": [1, 2, 2, 3, 3, 4] + [0] * 18,
            },
        },
    )
    table.motion.last_dice = (6, 5)  # white's last roll, still beside the board
    run_until(table, lambda: table.state is Mode.CHOOSE)
    line = status(table)
    assert line.startswith("blue (seat 3): orange doubles to 2 — take the double"), line
    assert "6 5" not in line
    assert "choice 1 of 2: NEXT shows another, OK takes it" in line
    assert "move 1 of" not in line


def test_the_end_of_a_game_says_the_points_and_names_ok_once() -> None:
    table, _session = backgammon_position(
        "money",
        ["human", "empty", "bot"],
        {
            "turn": "white",
            "phase": "move",
            "dice": [6, 1],
            "points": {"white": [1] + [0] * 23, "black": [0] * 12 + [15] + [0] * 11},
        },
    )
    press(table, 0, "ok")  # 1/off: the only play, white wins a gammon
    run_until(table, lambda: table.state is Mode.GAME_OVER and not table.motion.length)
    line = status(table)
    assert line.startswith("you win!, 2 points, gammon"), line
    panel = table.scene().result  # type: ignore[union-attr]
    assert [standing.text.strip() for standing in panel] == ["you win!", "2 points, gammon"]
    assert line.count("OK") == 1, line


def test_the_end_of_a_match_gives_the_final_score() -> None:
    table, _session = backgammon_position(
        "match5",
        ["human", "empty", "human"],
        {
            "turn": "white",
            "phase": "move",
            "dice": [6, 1],
            "points": {"white": [1] + [0] * 23, "black": [0] * 18 + [15] + [0] * 5},
            "score": {"white": 3, "black": 1},
            "games": [
                {"winner": "white", "points": 3, "kind": "backgammon"},
                {"winner": "black", "points": 1, "kind": "single"},
            ],
        },
    )
    press(table, 0, "ok")
    run_until(table, lambda: table.state is Mode.GAME_OVER)
    line = status(table)
    assert "3 points, backgammon" in line
    assert "final score: orange 6, blue 1" in line


def test_german_backgammon_words(german: None) -> None:
    from controller.games import move_words

    opening = rules.get_game("backgammon", "single").new_state().roll((6, 5))

    words = {move_words(opening, m) for m in opening.legal_moves()}
    assert "Stein 24/13" in words  # one checker: "Stein", not "Steine"
    assert any(w.startswith("Steine ") for w in words)
    bearing = rules.state_from_json(
        {
            "game": "backgammon",
            "preset": "single",
            "turn": "white",
            "phase": "move",
            "dice": [6, 6],
            "points": {"white": [0] * 5 + [2] + [0] * 18, "black": [0] * 23 + [15]},
        }
    )
    assert {move_words(bearing, m) for m in bearing.legal_moves()} == {"Steine 6/raus(2)"}
    session = Session.start("backgammon", "single", ["human", "empty", "bot"], seed=1)
    session.state = bearing
    scene = Scene(bearing, 0.0, dice=(6, 6), preview=bearing.legal_moves()[0])
    assert describe(Mode.CHOOSE, scene, session).startswith(
        "orange (Platz 1): 6 6, Pasch — Steine 6/raus(2)"
    )


# -- setup ----------------------------------------------------------------------------


def test_setup_says_on_start_why_a_game_cannot_begin_and_the_next_game_is_clean() -> None:
    menu = (MenuItem("backgammon", "single", "Backgammon"),)
    table = Table(TableOptions(menu=menu, bot="random"))
    press(table, 0, "ok")  # the menu entry: setup
    assert table.state is Mode.SETUP
    while table.menu.entry != 1:
        press(table, 0, "next")
    press(table, 0, "ok")  # blue: bot -> empty: one player
    assert table.menu.kinds == ["human", "empty"]
    press(table, 0, "next")  # "start"
    line = status(table)
    assert "cannot begin: Backgammon is for 2 players, 1 chosen" in line, line
    assert table.scene().problem == "Backgammon is for 2 players, 1 chosen"
    press(table, 0, "ok")
    assert table.state is Mode.SETUP  # refused, on "start" itself
    assert table.banner.text is None
    press(table, 0, "next")  # back to the first entry, then to blue again
    while table.menu.entry != 1:
        press(table, 0, "next")
    press(table, 0, "ok")  # empty -> human
    press(table, 0, "next")
    assert "cannot begin" not in status(table)
    press(table, 0, "ok")
    assert table.session is not None
    assert "chosen" not in status(table)


# -- MÄDN -----------------------------------------------------------------------------


def test_a_capture_of_ones_own_piece_says_so() -> None:
    from controller.games import move_words

    home = ["home"] * 3
    own = track_position("lingo", {"red": [0, 3, *home[:2]], "green": ["home"] * 4}, dice=[3])
    words = {move_words(own, m) for m in own.legal_moves()}
    assert "piece on 0 → 3, captures its own piece" in words
    entering = track_position("lingo", {"red": [0, *home], "green": ["home"] * 4}, dice=[6])
    words = {move_words(entering, m) for m in entering.legal_moves()}
    assert "piece enters its start field, captures its own piece" in words


def test_a_tie_in_the_opening_roll_is_explained() -> None:
    table = Table(options())
    session = Session.start("maedn", "classic", ["bot", "bot", "bot", "bot"], seed=1)
    table.start_session(session)
    for value in (5, 2, 5):
        session.roll((value,))
    table.roll_now((1,))  # yellow's 1: red and green tied with 5
    line = status(table)
    assert line.endswith("red and green: a tie, they throw again"), line


# -- Mini-Maki ------------------------------------------------------------------------


def test_mini_maki_is_a_solitaire_unless_two_players_are_chosen() -> None:
    menu = (MenuItem("minimaki", "standard", "Mini-Maki"),)
    table = Table(TableOptions(menu=menu, bot="random"))
    press(table, 0, "ok")
    assert table.menu.kinds == ["human"]
    while table.menu.preset != "two_player":
        while table.menu.entry >= 0:
            press(table, 0, "next")
        press(table, 0, "ok")
    assert table.menu.kinds == ["human", "bot"]


def test_mini_maki_fields_in_the_rule_texts_words(german: None) -> None:
    from controller.games import move_words

    state = rules.get_game("minimaki", "standard").new_state()
    assert move_words(state, state.legal_moves()[0]) == "Start auf Reihe 6, Spalte 1"


def test_the_second_game_of_a_match_opens_without_the_last_roll() -> None:
    table = Table(options())
    session = Session.start("minimaki", "two_player", ["human", "empty", "human"], seed=2)
    first = session.state
    session.state = rules.state_from_json(
        {**first.to_json(), "black": [5, 1, 1, 1, 1, 1], "red": [6, 1], "to_move": "black"}
    )
    table.start_session(session)
    run_until(table, lambda: table.state is Mode.AWAIT_ROLL)
    table.roll_now((1, 2))  # the black of column 1 reaches row 6: lost
    assert len(session.state.to_json().get("match", [])) == 1
    run_until(table, lambda: table.state is not Mode.ROLLING)
    assert table.scene().dice is None  # type: ignore[union-attr]
    assert table.banner.text is not None and "lost in round" in table.banner.text


@pytest.mark.parametrize(
    ("black", "red", "dice", "why", "words"),
    [
        ([5, 1, 1, 1, 1, 1], [3, 4], (1, 2), Loss.BASELINE, "a black reached row 6"),
        ([1, 1, 1, 1, 1, 1], [2, 3], (3, 5), Loss.HIT, "a black hit red"),
    ],
)
def test_a_lost_solitaire_says_why(
    black: list[int], red: list[int], dice: tuple[int, int], why: Loss, words: str
) -> None:
    start = rules.get_game("minimaki", "standard").new_state()
    state = rules.state_from_json(
        {**start.to_json(), "black": black, "red": red, "to_move": "black"}
    )
    over = state.roll(dice)
    assert over.is_terminal() and loss(over) is why
    table = Table(options())
    session = Session.start("minimaki", "standard", ["human"], seed=1)
    session.state = over
    table.start_session(session)
    run_until(table, lambda: table.state is Mode.GAME_OVER)
    assert status(table).startswith(f"you lost, in round 1, {words}"), status(table)
    panel = table.scene().result  # type: ignore[union-attr]
    assert any(words in standing.text for standing in panel)  # the table without a screen


# -- German a family knows ------------------------------------------------------------


def test_rule_set_names_and_the_ok_form(german: None) -> None:
    from controller.games import preset_name

    assert preset_name("maedn", "lingo") == "Ärgern (Hausregeln)"
    assert "Schachtel" in preset_name("maedn", "schmidt")
    table = Table(options())
    session = Session.start("maedn", "lingo", ["human", "empty", "human", "empty"], seed=1)
    table.start_session(session)
    assert status(table) == "rot (Platz 1): OK: würfeln"


# -- the last setup, kept in the state directory --------------------------------------


def _open_setup(watch: WordWatch, game: str) -> None:
    table = watch.table
    while table.menu.item.game != game:
        watch.press(0, "next")
    watch.press(0, "ok")
    assert table.state is Mode.SETUP


def _start(watch: WordWatch) -> None:
    table = watch.table
    while table.menu.entry != len(table.menu.kinds):
        watch.press(0, "next")
    watch.press(0, "ok")
    assert table.session is not None


def test_setup_starts_from_the_last_choice_after_a_restart(tmp_path: Path) -> None:
    first = WordWatch(tmp_path, seats=("human", "bot", "bot", "bot"))
    try:
        first.start()
        _open_setup(first, "kleiner_aerger")
        assert first.table.menu.kinds == ["human", "bot", "bot", "bot"]
        for seat in (1, 3):  # two-handed: blue and yellow are set free
            while first.table.menu.entry != seat:
                first.press(0, "next")
            first.press(0, "ok")
        assert first.table.menu.kinds == ["human", "empty", "bot", "empty"]
        _start(first)
        first.hold(None, "system")
        first.press(0, "ok")  # back to the menu (the game is dropped)
        assert first.table.state is Mode.MENU
    finally:
        first.close()
    kept = json.loads((tmp_path / setup_memory.NAME).read_text(encoding="utf-8"))
    assert kept["kleiner_aerger"] == {
        "preset": "standard",
        "seats": ["human", "empty", "bot", "empty"],
    }
    again = WordWatch(tmp_path, seats=("human", "bot", "bot", "bot"))
    try:
        again.start()
        _open_setup(again, "kleiner_aerger")
        assert again.table.menu.kinds == ["human", "empty", "bot", "empty"]
    finally:
        again.close()


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"\xff\xfe\x00",
        b"[1, 2, 3]",
        b'{"kleiner_aerger": {"preset": "nonsense", "seats": ["human"]}}',
        b'{"kleiner_aerger": {"preset": "standard", "seats": ["human", "dragon"]}}',
        b'{"kleiner_aerger": {"preset": "standard", "seats": ["human", "bot"]}}',
        b'{"kleiner_aerger": 7, "no_such_game": {"preset": "x", "seats": []}}',
    ],
)
def test_a_broken_setup_file_costs_only_the_memory(tmp_path: Path, content: bytes) -> None:
    (tmp_path / setup_memory.NAME).write_bytes(content)
    watch = WordWatch(tmp_path, seats=("human", "bot", "bot", "bot"))
    try:
        watch.start()
        _open_setup(watch, "kleiner_aerger")
        assert watch.table.menu.kinds == ["human", "bot", "bot", "bot"]  # the defaults
        _start(watch)
        watch.settle()
    finally:
        watch.close()
    kept = json.loads((tmp_path / setup_memory.NAME).read_text(encoding="utf-8"))
    assert kept == {
        "kleiner_aerger": {"preset": "standard", "seats": ["human", "bot", "bot", "bot"]}
    }


def test_a_setup_file_that_is_a_directory_is_no_memory_and_play_goes_on(tmp_path: Path) -> None:
    (tmp_path / setup_memory.NAME).mkdir()
    watch = WordWatch(tmp_path, seats=("human", "bot", "bot", "bot"))
    try:
        watch.start()
        _open_setup(watch, "kleiner_aerger")
        _start(watch)
        watch.settle()
        assert watch.table.session is not None
    finally:
        watch.close()
    assert not list(tmp_path.glob(".setups-*.tmp"))
