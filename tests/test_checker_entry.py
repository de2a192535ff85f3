"""Backgammon entered checker by checker: exactly the legal plays can be entered.

Over 2,000 positions from seeded random games (openings, contact, the bar, bear-offs,
doubles), every sequence of offered steps is followed. Every legal play of the rules
layer must be reachable, every sequence must end on a legal play (never stuck, never
an illegal play), and no choice may need more than 15 NEXT presses (a held NEXT jumps
to the other die and counts as one press).
"""

from __future__ import annotations

import random

import pytest

import rules
from controller.games.backgammon.checker_entry import Boards, CheckerEntry, Step
from rules.backgammon.engine import MOVE, BackgammonState, Play

MOST_PRESSES = 15


def positions(count: int, seed: int = 14) -> list[BackgammonState]:
    """Positions to move from, taken along random games of every preset."""
    rng = random.Random(seed)
    found: list[BackgammonState] = []
    presets = rules.presets("backgammon")
    while len(found) < count:
        state = rules.get_game("backgammon", presets[len(found) % len(presets)]).new_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.roll(rng.choice(outcomes)[0])
                continue
            moves = state.legal_moves()
            assert isinstance(state, BackgammonState)
            if state.phase == MOVE and len(moves) > 1 and rng.random() < 0.5:
                found.append(state)
            state = state.apply(rng.choice(moves))
    return found


def presses_needed(options: tuple[Step, ...], entry: CheckerEntry) -> int:
    """The most NEXT presses any option of this choice needs from the first one."""
    starts = entry.groups(options)
    worst = 0
    for index in range(len(options)):
        group = max(s for s in starts if s <= index)
        via_hold = (starts.index(group)) + (index - group)  # one hold per group jumped
        worst = max(worst, min(index, via_hold))
    return worst


def enter_everything(state: BackgammonState) -> tuple[set[Boards], int, int]:
    """Follow every offered step; the plays reached, the most presses a choice needs,
    and how many complete entries were checked."""
    entry = CheckerEntry(state)
    reached: set[Boards] = set()
    seen: set[tuple[Boards, tuple[int, ...]]] = set()
    worst = 0
    leaves = 0
    stack: list[tuple[Step, ...]] = [()]
    while stack:
        played = stack.pop()
        boards, left = entry.position(played)
        if (boards, left) in seen:
            continue
        seen.add((boards, left))
        if len(played) == entry.length:
            play = entry.complete(played)
            assert play is not None, (state.describe(), played)
            assert play == entry.plays[boards] and play.steps == played
            reached.add(play.boards)
            leaves += 1
            continue
        options = entry.options(played)
        assert options, ("stuck", state.describe(), played)
        assert len(set(options)) == len(options)
        worst = max(worst, presses_needed(options, entry))
        stack.extend((*played, step) for step in options)
    return reached, worst, leaves


def test_every_legal_play_of_2000_positions_and_nothing_else_can_be_entered() -> None:
    worst = 0
    doubles = 0
    for state in positions(2000):
        legal = {m.boards for m in state.legal_moves() if isinstance(m, Play)}
        reached, presses, _ = enter_everything(state)
        assert reached == legal, state.describe()
        entry = CheckerEntry(state)
        path: tuple[Step, ...] = ()
        while len(path) < entry.length:  # the rules take an entered play as theirs
            path = (*path, entry.options(path)[-1])
        play = entry.complete(path)
        assert play is not None and state.apply(play) == state.apply(entry.plays[play.boards])
        worst = max(worst, presses)
        doubles += state.dice[0] == state.dice[1]
    assert worst <= MOST_PRESSES
    assert doubles > 100  # the sample holds plenty of the hard case


def test_a_double_needs_few_presses_per_step() -> None:
    """4-4 from the start has dozens of plays; entered step by step, each choice is
    among a handful of checkers."""
    state = rules.get_game("backgammon").new_state().roll([4, 4])  # type: ignore[attr-defined]
    if state.phase != MOVE:  # a tie in the opening is thrown again: force the position
        state = rules.get_game("backgammon").state_from_json(
            {**state.to_json(), "phase": "move", "turn": "white", "dice": [4, 4]}
        )
    assert isinstance(state, BackgammonState)
    plays = [m for m in state.legal_moves() if isinstance(m, Play)]
    assert len(plays) > 10
    reached, presses, _ = enter_everything(state)
    assert len(reached) == len(plays) and presses <= 6


def test_only_the_larger_die_is_offered_when_just_one_die_can_be_used() -> None:
    """Seed rule: if either die can be played but not both, it must be the larger."""
    state = rules.get_game("backgammon").state_from_json(
        {
            "game": "backgammon",
            "turn": "white",
            "phase": "move",
            "dice": [6, 5],
            # one white checker on its 12 point; black holds white's 1 point, so 12/6
            # and 12/7 are both open but neither can go on to the 1 point
            "points": {"white": [0] * 11 + [1] + [0] * 12, "black": [0] * 23 + [2]},
        }
    )
    assert isinstance(state, BackgammonState)
    assert [m.notation for m in state.legal_moves()] == ["12/6"]
    entry = CheckerEntry(state)
    assert entry.options(()) == ((11, 5, False),) and entry.length == 1
    assert entry.complete(((11, 6, False),)) is None  # 12/7 would be illegal


def test_steps_of_another_die_are_rejected() -> None:
    state = rules.get_game("backgammon").new_state().roll([6, 4])  # type: ignore[attr-defined]
    entry = CheckerEntry(state)
    with pytest.raises(ValueError, match="die"):
        entry.position(((12, 7, False),))  # a 5: not rolled


def test_a_resumed_game_takes_back_the_steps_fixed_before_the_save() -> None:
    """The session keeps a play's fixed steps as the entry made them, whatever they
    are: through the save's JSON they come back as steps the entry offers, so a game
    resumed mid-entry shows them again; steps that no longer lead to a play are
    dropped, and a save whose steps are no lists is refused."""
    import json

    from controller.session import Session
    from controller.table.choice import Choice
    from rules.errors import InvalidStateError

    session = Session.start("backgammon", "single", ["human", "human"], seed=5)
    while session.state.is_chance():
        session.roll(session.draw_dice())
    choice = Choice()
    choice.begin(session)
    choice.by_checker(session)
    assert choice.checkers is not None and choice.steps
    first = choice.steps[0]
    assert choice.fix_step(session) is None  # one step fixed, the play not yet whole
    assert session.entered == [first]
    saved = json.loads(json.dumps(session.to_json()))
    assert saved["entered"] == [list(first)]
    resumed = Session.from_json(saved)
    again = Choice()
    again.begin(resumed)
    again.by_checker(resumed)
    assert again.played == (first,) and resumed.entered == [first]
    stale = Session.from_json({**saved, "entered": [[99, 98, False]]})
    again.by_checker(stale)
    assert again.played == () and stale.entered == []
    with pytest.raises(InvalidStateError, match="malformed"):
        Session.from_json({**saved, "entered": ["ab"]})
