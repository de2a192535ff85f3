"""The Backgammon fast path (numpy, optional) agrees with the pure one.

:mod:`rules.backgammon.batch` counts the hand-made figures for many positions at once
and runs the network as one matrix product; the pure path does both one position at a
time, the first layer in fixed point. The figures must be the very same whole numbers,
the chances the same to rounding (well within 1e-6), and over seeded games the bot must
choose the same moves (benchmarks/backgammon_fast_path.py, which these tests run on
fewer games; the games here take numpy's path by name, whether or not the C kernel,
which the bot prefers, is built: tests/test_backgammon_kernel.py compares that one).
Without numpy (and without the kernel) the rules import and play as before: checked in a
subprocess where neither can be imported.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the fast path needs numpy (the fast extra)")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import backgammon_fast_path as bench

import rules
from rules.backgammon import batch, evaluation, features
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.engine import BackgammonGame, has_contact
from rules.backgammon.net import equity, shipped, shipped_race
from rules.budget import Budget
from tests.backgammon_boards import boards
from tests.checkout import ROOT

TOLERANCE = 1e-6


def test_the_figures_are_the_same_whole_numbers() -> None:
    positions_ = boards()
    on_roll = batch.boards([a for a, _ in positions_])
    other = batch.boards([b for _, b in positions_])
    assert batch.counts(on_roll, other).tolist() == [
        list(features.counts(a, b)) for a, b in positions_
    ]
    assert batch.contact(on_roll, other).tolist() == [has_contact(a, b) for a, b in positions_]


def test_the_chances_agree_to_rounding() -> None:
    positions_ = boards()
    fast = batch.NumpyEvaluator.of(shipped(), shipped_race())
    chances = fast.probabilities(positions_)
    equities = fast.equities(positions_)
    for (a, b), p, e in zip(positions_, chances, equities, strict=True):
        pure = evaluation.probabilities(a, b)
        assert max(abs(x - y) for x, y in zip(p, pure, strict=True)) < TOLERANCE
        assert e == equity(p)
        assert abs(e - equity(pure)) < TOLERANCE
    assert fast.probabilities([]) == [] and fast.equities([]) == []


def test_the_bot_takes_the_fast_path_only_with_a_clock() -> None:
    """With a clock (the table's bot) numpy is used when it is there; without one (tests,
    seeded games, hints) the play is the pure path's, the same on every machine."""
    assert BackgammonBot(Budget(clock=lambda: 0.0)).batch is not None
    assert BackgammonBot(Budget()).batch is None
    assert BackgammonBot(Budget(clock=lambda: 0.0), fast=False).batch is None
    assert not BackgammonBot(Budget(), fast=False, full=True).full


def check(comparison: bench.Comparison, least_share: float) -> None:
    assert comparison.decisions > 0
    assert comparison.max_equity_difference < TOLERANCE
    assert comparison.same >= least_share * comparison.decisions
    for d in comparison.differences:
        # a different move only between plays the pure path itself can hardly tell apart
        assert abs(d.pure_values[0] - d.pure_values[1]) < TOLERANCE, d


def numpy_path() -> batch.NumpyEvaluator:
    return batch.NumpyEvaluator.of(shipped(), shipped_race())


def test_seeded_games_get_the_same_moves() -> None:
    check(bench.compare(games=3, seed=1, lookahead=False, evaluator=numpy_path()), 1.0 - 1e-3)


def test_the_lookahead_gets_the_same_moves() -> None:
    check(bench.compare(games=1, seed=2, lookahead=True, evaluator=numpy_path()), 1.0 - 1e-3)


@pytest.mark.slow
def test_many_seeded_games_get_the_same_moves() -> None:
    check(bench.compare(games=40, seed=3, lookahead=False, evaluator=numpy_path()), 0.999)
    check(bench.compare(games=4, seed=4, lookahead=True, evaluator=numpy_path()), 0.999)


NO_NUMPY = """
import random, sys
sys.modules["numpy"] = None  # as if it were not installed: importing it fails
sys.modules["rules.backgammon._kernel"] = None  # and the C kernel not built
import rules
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.evaluation import batch_evaluator
from rules.budget import Budget
assert batch_evaluator() is None
bot = BackgammonBot(Budget(clock=lambda: 0.0, seconds=60.0), lookahead=True)
assert bot.batch is None and not bot.full
state = rules.get_game("backgammon", "money").state_from_position_id("{position}")
print(bot.choose(state, random.Random(0)).notation)
"""


def test_without_numpy_the_bot_plays_as_before() -> None:
    position = "xOvgATDgc/ABMA:MIEJAAAAAAAE"
    result = subprocess.run(
        [sys.executable, "-c", NO_NUMPY.format(position=position)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    game = rules.get_game("backgammon", "money")
    assert isinstance(game, BackgammonGame)
    state = game.state_from_position_id(position)
    pure = BackgammonBot(Budget(nodes=10**12), lookahead=True, fast=False)
    assert result.stdout.strip() == pure.choose(state, random.Random(0)).notation
