"""Backgammon's player: Tesauro's pubeval, checked against the separate yardstick.

The weights are published numbers, so the checks are behavioural: the bot's evaluation
agrees with ``benchmarks/pubeval.py`` (written separately, in Tesauro's own ``pos``
formulation) on positions from random games, and it plays the textbook opening moves
that pubeval is known for.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

import rules
from rules.backgammon import DOUBLE, TAKE, BackgammonState, Play
from rules.bot_backgammon import ALL_OFF, BackgammonBot, is_race, pubeval
from rules.bots import make_bot
from rules.core import State

ROOT = Path(__file__).resolve().parent.parent


def yardstick() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "pubeval_yardstick", ROOT / "benchmarks" / "pubeval.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_positions(count: int, seed: int) -> list[Play]:
    game = rules.get_game("backgammon")
    rng = random.Random(seed)
    plays: list[Play] = []
    while len(plays) < count:
        state: State = game.new_state()
        while not state.is_terminal() and len(plays) < count:
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.roll(outcomes[rng.randrange(len(outcomes))][0])
                continue
            moves = state.legal_moves()
            plays.extend(m for m in moves if isinstance(m, Play))
            state = state.apply(moves[rng.randrange(len(moves))])
    return plays


def test_evaluation_agrees_with_the_separate_yardstick() -> None:
    score = yardstick().score
    for play in random_positions(600, seed=4):
        assert pubeval(play.mover, play.other) == pytest.approx(score(play.mover, play.other))


@pytest.mark.parametrize(
    ("roll", "best"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7"), ((5, 3), "8/3 6/3")],
)
def test_plays_the_textbook_opening_moves(roll: tuple[int, int], best: str) -> None:
    """Making a point with 31, 42, 61 and 53 is the standard opening (seed 003 start
    position: "fest vorgegebene Aufstellung")."""
    state = rules.get_game("backgammon").new_state().roll(list(roll))
    assert make_bot("strong").choose(state, random.Random(0)).notation == best


def test_race_and_contact_are_told_apart() -> None:
    start = rules.get_game("backgammon").new_state()
    assert isinstance(start, BackgammonState)
    assert not is_race(*start.boards)
    own = (3, 3, 3, 3, 3) + (0,) * 20
    opp = (2, 2, 2, 3, 3, 3) + (0,) * 19
    assert is_race(own, opp)


def test_bearing_off_the_last_checker_scores_highest() -> None:
    assert pubeval((0,) * 25, (2,) + (0,) * 24) == ALL_OFF


def test_cube_never_doubles_and_drops_only_far_behind_in_a_race() -> None:
    game = rules.get_game("backgammon", "money")
    bot = BackgammonBot()
    behind = {
        "game": "backgammon",
        "preset": "money",
        "turn": "white",
        "phase": "double",
        "points": {"white": [0, 0, 0, 0, 0, 5] + [0] * 18, "black": [0] * 10 + [15] + [0] * 13},
    }
    state = game.state_from_json(behind)
    assert isinstance(state, BackgammonState) and state.phase == DOUBLE
    assert bot.choose(state, random.Random(0)).notation == "roll"
    offered = state.apply(state.parse_move("double"))
    assert isinstance(offered, BackgammonState) and offered.phase == TAKE
    # Black has 165 pips against white's 30: a pure race it cannot win.
    assert bot.choose(offered, random.Random(0)).notation == "drop"
