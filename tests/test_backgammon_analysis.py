"""The after-game analysis of Backgammon records: figures, worst decisions, and GNU
Backgammon's own analysis of the same games (the real ``gnubg``, where installed)."""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest

import rules
from controller.games.backgammon.analysis_words import analysis_lines
from rules.backgammon.analysis import PR_SCALE, WORST, Analysis, Judge, analyse
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.engine import MOVE, ROLL_OUTCOMES, Play, result_kind
from rules.backgammon.evaluation import probabilities
from rules.backgammon.moves import legal_plays
from rules.backgammon.net import equity
from rules.bots import RandomBot
from rules.budget import Budget
from rules.playout import PlayStep, steps

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))


def strong_against_random(seed: int) -> list[PlayStep]:
    game = rules.get_game("backgammon", "single")
    bots = {"white": BackgammonBot(), "black": RandomBot()}
    return list(steps(game.new_state(), bots, random.Random(seed)))


@pytest.fixture(scope="module")
def played() -> list[PlayStep]:
    return strong_against_random(3)


@pytest.fixture(scope="module")
def analysis(played: list[PlayStep]) -> Analysis:
    return analyse(played)


def test_the_random_side_loses_more_equity_and_its_worst_plays_are_named(
    played: list[PlayStep], analysis: Analysis
) -> None:
    white, black = analysis.sides
    assert (white.player, black.player) == ("white", "black")
    assert white.decisions > 0 and black.decisions > 0
    assert white.pr == pytest.approx(PR_SCALE * white.equity_lost / white.decisions)
    assert black.pr > 5 * white.pr
    assert len(analysis.worst) == WORST
    losses = [d.lost for d in analysis.worst]
    assert losses == sorted(losses, reverse=True) and losses[-1] > 0
    for decision in analysis.worst:
        assert decision.played != decision.best
        assert decision.best_equity > decision.played_equity
        # The decision points at the very event that made the play.
        event = played[decision.step - 1]
        assert event.move is not None and event.move.notation == decision.played
        assert rules.state_from_json(decision.state).to_json() == event.before.to_json()


def every_reply_value(play: Play) -> float:
    """A play's value one roll deeper, written out: for each of the opponent's 21 rolls
    its best reply among every legal one (each scored alone, the pure path), averaged."""
    total = 0.0
    for (d1, d2), p in ROLL_OUTCOMES:
        replies = legal_plays(list(play.other), list(play.mover), d1, d2)
        if not replies:
            total += p * equity(probabilities(play.mover, play.other))
            continue
        total += p * min(
            -float(result_kind(mine)) if sum(theirs) == 0 else equity(probabilities(mine, theirs))
            for theirs, mine, _ in replies
        )
    return total


def test_the_judge_scores_every_reply_as_the_full_one_roll_search_does(
    played: list[PlayStep],
) -> None:
    """The judge re-scores a play with every legal reply of every roll (the bot's full
    one-roll search), not only pubeval's best few: the same value as the sum written
    out, on plays where the pruned lookahead (the judge before) says otherwise."""
    judge = Judge()
    pruned = BackgammonBot(Budget(nodes=10**9), lookahead=False)
    checked = pruned_apart = 0
    for step in played:
        if step.before.phase != MOVE or not isinstance(step.move, Play):
            continue
        for play in (p for p in step.before.legal_moves()[:2] if isinstance(p, Play)):
            if sum(play.mover) == 0:
                continue
            exact = every_reply_value(play)
            assert judge.deep(play) == pytest.approx(exact, abs=1e-9)
            checked += 1
            pruned_apart += abs(pruned.lookahead_value(play) - exact) > 1e-6
        if pruned_apart >= 2:
            break
    assert pruned_apart >= 2, checked


def test_the_json_and_the_text_carry_every_figure(analysis: Analysis) -> None:
    data = analysis.to_json()
    assert [s["player"] for s in data["sides"]] == ["white", "black"]
    assert all({"pr", "luck", "equity_lost", "decisions"} <= s.keys() for s in data["sides"])
    assert all(-30 < s.luck < 30 for s in analysis.sides)
    assert {"played", "best", "played_equity", "best_equity", "position_id"} <= data["worst"][
        0
    ].keys()
    assert any(line.startswith("  worst 1:") for line in analysis_lines(analysis))


def test_an_analysis_is_the_same_each_time(played: list[PlayStep], analysis: Analysis) -> None:
    assert analyse(played).to_json() == analysis.to_json()


@pytest.mark.skipif(
    shutil.which("gnubg") is None and not Path("/usr/games/gnubg").exists(),
    reason="GNU Backgammon is not installed",
)
def test_error_rates_rank_like_gnu_backgammons_analysis() -> None:
    import backgammon_analysis as bench

    ours, theirs, _, _ = bench.compare(games=8, seed=11, plies=0)
    assert len(ours) == len(theirs) == 16
    assert bench.spearman(ours, theirs) >= 0.6
