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
from rules.backgammon.analysis import PR_SCALE, WORST, Analysis, analyse
from rules.backgammon.bot import BackgammonBot
from rules.bots import RandomBot
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

    ours, theirs = bench.compare(games=8, seed=11, plies=0)
    assert len(ours) == len(theirs) == 16
    assert bench.spearman(ours, theirs) >= 0.6
