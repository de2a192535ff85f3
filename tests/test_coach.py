"""The coach: the strong player's judgement of a move about to be played (rules), and
what the table does with it and with the rules' reasons for a coached seat."""

from __future__ import annotations

import random

import pytest

import rules
from controller.machine import Mode
from controller.session import Session
from controller.table import Table
from controller.table.effects import Speak
from controller.voice.catalog import Prompt, sentence
from rules.backgammon.engine import Play
from rules.coach import advice
from rules.core import Move, State
from rules.errors import InvalidStateError
from rules.levels import noisy_choice
from tests.helpers import track_position
from tests.test_backgammon import OPEN, bg
from tests.test_table import options, press


def move(state: State, notation: str) -> Move:
    return next(m for m in state.legal_moves() if m.notation == notation)


# -- the judgement (rules.coach) ---------------------------------------------------------


def test_a_missed_capture_is_clearly_worse() -> None:
    """Schmidt rules: no capture obligation, so walking on with the piece on 30 is
    legal; the strong player captures the green piece on 18 (two steps before its goal)
    instead, and values the difference at a whole round of the board."""
    state = track_position(
        "schmidt", {"red": ["home", "home", 14, 30], "green": [18, "home", "home", "home"]}
    ).roll([4])
    found = advice(state, move(state, "30-34"))
    assert found is not None
    assert found.better.notation == "14-18x" and found.loss > 30
    assert advice(state, move(state, "14-18x")) is None


def test_stepping_in_front_of_an_opponent_is_clearly_worse() -> None:
    """30 → 34 puts the piece one field ahead of green's piece on 33."""
    state = track_position(
        "schmidt", {"red": ["home", "home", 10, 30], "green": [33, "home", "home", "home"]}
    ).roll([4])
    found = advice(state, move(state, "30-34"))
    assert found is not None and found.better.notation == "10-14"
    threshold = rules.capabilities("maedn").coach_threshold
    assert threshold is not None and found.loss > threshold


def test_backgammon_advice_is_the_hints_equity() -> None:
    """The opening 3-1: 8/5 6/5 is the book play; 24/20 gives away more equity than the
    threshold, by the network's cubeless equity that the hint shows."""
    from rules.backgammon.hint import ranked

    state = bg(OPEN, OPEN, dice=(3, 1))
    found = advice(state, move(state, "24/20"))
    assert found is not None and found.better.notation == "8/5 6/5"
    figures = {e.move: e.equity for e in ranked(state, top=len(state.legal_moves()))}
    assert abs(found.loss - (figures["8/5 6/5"] - figures["24/20"])) < 1e-9
    assert advice(state, move(state, "8/5 6/5")) is None


def test_close_calls_get_no_advice() -> None:
    """Only a clearly worse move is corrected: most of a random player's moves are
    within the threshold of the strong player's."""
    state = bg(OPEN, OPEN, dice=(4, 2))
    plays = [m for m in state.legal_moves() if isinstance(m, Play)]
    advised = [m for m in plays if advice(state, m) is not None]
    assert 0 < len(advised) < len(plays)
    assert move(state, "8/4 6/4") not in advised


def test_levels_and_the_coach_use_the_same_figures() -> None:
    """The coach's better move is the one a level without noise plays."""
    state = track_position(
        "schmidt", {"red": ["home", "home", 10, 30], "green": [33, "home", "home", "home"]}
    ).roll([4])
    from rules.coach import _valuer

    caps = rules.capabilities("maedn")
    assert caps.move_values is not None
    values = caps.move_values(_valuer("maedn"), state)
    assert values is not None
    assert noisy_choice(values, 0.0, random.Random(1)).notation == "10-14"


# -- at the table -------------------------------------------------------------------------


def rolled_table(kinds: list[str], state: State, die: int = 0) -> tuple[Table, Session]:
    """A table in the middle of a game: ``state`` with ``die`` just thrown (0: the
    state has its dice), the seats set up as ``kinds`` (one per player of the state)."""
    table = Table(options())
    session = Session.start(state.game.name, state.game.preset, kinds, seat_count=len(kinds))
    session.state = state.roll([die]) if die else state
    table.start_session(session)
    assert table.state is Mode.CHOOSE
    return table, session


def spoken(table: Table) -> list[Prompt]:
    return [e.prompt for e in table.outbox.waiting if isinstance(e, Speak) and e.prompt]


START_CLEARED = {"red": ["home", "home", 0, 17], "green": ["home"] * 4}


def test_a_coached_seat_is_told_why_a_piece_cannot_move() -> None:
    """MÄDN rule 5: with a 4 only the piece on the start field may move. The coached
    player reads why the piece on 17 is not offered, on the panel and the status line,
    and hears it. That the waiting pieces need a 6 (rule 4) goes without saying while
    another piece moves."""
    table, session = rolled_table(["coached", "bot"], track_position("classic", START_CLEARED), 4)
    assert session.coached == ("red",)
    banner = table.banner.text or ""
    assert banner == "piece on 17: The start field must be cleared."
    assert banner in table.status().text
    said = [sentence(p) for p in spoken(table) if p.kind == "coach"]
    assert said == ["The start field must be cleared."]


def test_when_nothing_can_move_the_coach_says_why() -> None:
    """Rules 4 and 14: a 3 neither brings a waiting piece out nor fits the piece in
    goal 3 into the goal ("augengenau"): the throw passes, and the coach says both
    reasons, the routine one of the waiting pieces too."""
    pieces = {"red": ["home", "home", "home", "goal3"], "green": ["home"] * 4}
    table, _ = rolled_table(["coached", "bot"], track_position("classic", pieces), 3)
    banner = table.banner.text or ""
    assert banner == (
        "piece from home: Only a six brings a piece out. · "
        "piece in goal 3: Only with the exact count into the goal."
    )
    said = [sentence(p) for p in spoken(table) if p.kind == "coach"]
    assert said == ["Only a six brings a piece out."]


def test_without_the_coach_nothing_is_said() -> None:
    table, _ = rolled_table(["human", "bot"], track_position("classic", START_CLEARED), 4)
    assert table.banner.text is None
    assert not [p for p in spoken(table) if p.kind in ("coach", "better")]


IN_FRONT = {"red": ["home", "home", 10, 30], "green": [33, "home", "home", "home"]}


def preview(table: Table, notation: str) -> None:
    seat = 0
    for _ in range(len(table.choice.moves)):
        if table.choice.previewed().notation == notation:
            return
        press(table, seat, "next")
    raise AssertionError(f"{notation} is not offered")


def test_the_coach_shows_the_better_move_once_then_the_player_chooses() -> None:
    table, session = rolled_table(["coached", "bot"], track_position("schmidt", IN_FRONT), 4)
    preview(table, "30-34")
    press(table, 0, "ok")
    assert table.state is Mode.CHOOSE and not session.history  # nothing played
    assert table.choice.previewed().notation == "10-14"  # the better move, in preview
    assert "coach: better piece on 10 → 14" in (table.banner.text or "")
    assert [p.kind for p in spoken(table)].count("better") == 1
    preview(table, "30-34")  # the player insists: the coach has said it once
    press(table, 0, "ok")
    assert session.history[-1] == {"player": "red", "move": "30-34"}
    assert [p.kind for p in spoken(table)].count("better") == 1


def test_taking_the_advice_plays_the_better_move() -> None:
    table, session = rolled_table(["coached", "bot"], track_position("schmidt", IN_FRONT), 4)
    preview(table, "30-34")
    press(table, 0, "ok")
    press(table, 0, "ok")
    assert session.history[-1] == {"player": "red", "move": "10-14"}


def test_without_the_coach_the_move_is_played_at_once() -> None:
    table, session = rolled_table(["human", "bot"], track_position("schmidt", IN_FRONT), 4)
    preview(table, "30-34")
    press(table, 0, "ok")
    assert session.history[-1] == {"player": "red", "move": "30-34"}


def test_a_coached_seat_in_a_seeded_game() -> None:
    """A whole seeded MÄDN game (classic, four players), the coached red seat played by
    a child who always presses OK on the first move offered: the coach corrects some of
    those moves, never twice in one choice, and each time the move then played is the
    better one it showed."""
    table = Table(options())
    session = Session.start("maedn", "classic", ["coached", "bot", "bot", "bot"], seed=7)
    table.start_session(session)
    corrected = 0
    moves = 0
    while table.state is not Mode.GAME_OVER and moves < 150:
        if session.player == "red" and table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE):
            before = len(session.history)
            shown = len([p for p in spoken(table) if p.kind == "better"])
            press(table, 0, "ok")
            if table.state is Mode.CHOOSE and len(session.history) == before:
                assert len([p for p in spoken(table) if p.kind == "better"]) == shown + 1
                better = table.choice.previewed()
                corrected += 1
                press(table, 0, "ok")
                assert session.history[-1]["move"] == better.notation
            moves += 1
            continue
        wake = table.next_wakeup()
        assert wake is not None
        table.tick(max(wake, table.now))
    assert corrected >= 2, corrected


def test_backgammon_coach_stops_a_play_entered_checker_by_checker() -> None:
    """The opening 3-1 entered as 24/21 and 21/20: once the play is complete the coach
    shows 8/5 6/5 as a whole play in preview, and the player chooses again."""
    state = bg(OPEN, OPEN, dice=(3, 1))
    table, session = rolled_table(["coached", "bot"], state)
    assert table.choice.checkers is not None  # entered checker by checker
    target = move(state, "24/20")
    assert isinstance(target, Play)
    for step in target.steps:
        while table.choice.steps[table.choice.cursor % len(table.choice.steps)] != step:
            press(table, 0, "next")
        press(table, 0, "ok")
    assert table.state is Mode.CHOOSE and not session.history
    assert table.choice.checkers is None and table.choice.previewed().notation == "8/5 6/5"
    assert session.entered == []
    press(table, 0, "ok")
    assert session.history[-1] == {"player": "white", "move": "8/5 6/5"}


# -- setup and the save -------------------------------------------------------------------


def test_a_held_next_on_a_human_seat_switches_the_coach_on_and_off() -> None:
    """Setup: a held NEXT on a human seat gives it the coach (the seat word says so),
    another takes it away; an OK cycles the seat's kind as before. The presses from the
    menu to the first roll stay 8 (tests/test_bot_levels.py counts them)."""
    table = Table(options())
    press(table, 0, "ok")  # MÄDN
    press(table, 0, "next")  # the rules row -> seat 1
    assert table.menu.entry == 0
    press(table, 0, "next")  # down: the cursor steps on to seat 2 ...
    press(table, 0, "next", "held")  # ... held: the coach for seat 1, the cursor back on it
    assert table.menu.entry == 0 and table.menu.kinds[0] == "coached"
    assert "coached" in table.status().text
    press(table, 0, "next")
    press(table, 0, "next", "held")
    assert table.menu.kinds[0] == "human"
    press(table, 0, "next")
    press(table, 0, "next", "held")
    press(table, 0, "next")  # seat 2: a bot has no coach to switch
    press(table, 0, "next")
    press(table, 0, "next", "held")
    assert table.menu.kinds == ["coached", "bot", "bot", "bot"]
    for _ in range(3):
        press(table, 0, "next")
    press(table, 0, "ok")  # start
    session = table.session
    assert session is not None and session.coached == ("red",)
    assert session.kinds["red"] == "human"


def test_ok_on_a_coached_seat_makes_it_a_bot() -> None:
    table = Table(options())
    press(table, 0, "ok")
    press(table, 0, "next")
    press(table, 0, "next")
    press(table, 0, "next", "held")
    press(table, 0, "ok")
    assert table.menu.kinds[0] == "bot"


def test_the_save_keeps_the_coached_seats() -> None:
    session = Session.start("maedn", "classic", ["coached", "bot", "human", "bot"], seed=2)
    data = session.to_json()
    assert data["coached"] == ["red"]
    assert Session.from_json(data).coached == ("red",)
    data["coached"] = ["blue"]  # blue is a bot
    with pytest.raises(InvalidStateError, match="no human"):
        Session.from_json(data)
    del data["coached"]  # a save from before the coach: nobody is coached
    assert Session.from_json(data).coached == ()


def test_the_config_and_the_page_may_give_a_seat_the_coach() -> None:
    """``[[seats]] player = "coached"`` (which the page's Setup writes) starts the
    panel's setup with that seat coached."""
    from controller.config import PLAYERS

    assert "coached" in PLAYERS
    table = Table(options(default_seats=("coached", "bot", "bot", "bot")))
    press(table, 0, "ok")
    assert table.menu.kinds == ["coached", "bot", "bot", "bot"]
    for _ in range(5):
        press(table, 0, "next")
    press(table, 0, "ok")
    assert table.session is not None and table.session.coached == ("red",)


def test_the_coach_s_words_do_not_hide_the_winner() -> None:
    """Red (coached) is told why its last piece cannot move and passes; green, a bot,
    then wins. The coach's words, still passing over the board, are taken down as the
    game ends: they are about a turn that is over, and once hid the winner's name on
    the panel (and trailed the standings on the status line) for a whole pass."""
    pieces = {"red": ["goal1", "goal3", "goal4", 37], "green": ["goal2", "goal3", "goal4", 17]}
    state = track_position("classic", pieces).roll([3])
    ended = 0
    for seed in range(12):  # the seeds whose first throw for green is the exact count
        table = Table(options())
        session = Session.start("maedn", "classic", ["coached", "bot"], seat_count=2, seed=seed)
        session.state = state
        table.start_session(session)
        words = "piece on 37: Your own piece stands there."
        assert table.banner.text == words
        while not (
            table.state is Mode.GAME_OVER
            or (table.state is Mode.AWAIT_ROLL and session.player == "red")
        ):
            wake = table.next_wakeup()
            assert wake is not None
            table.tick(max(wake, table.now))
        if table.state is Mode.GAME_OVER:
            ended += 1
            assert table.banner.text is None
            assert words not in table.status().text and "bot wins" in table.status().text
    assert ended
