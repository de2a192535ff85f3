"""Backgammon hints: the best plays with their equity and chances, in JSON and words."""

from __future__ import annotations

import json

import pytest

import rules
from controller.cli import main
from controller.games.backgammon.words import hint_words
from rules.backgammon.hint import hint_evaluation, ranked
from rules.backgammon.net import equity

OPENING_31 = ["rules", "hint", "backgammon", "--preset", "money", "--position-id", "4HPwATDgc/ABMA"]


def test_hint_json_lists_the_best_plays_with_their_chances(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([*OPENING_31, "--dice", "3", "1"]) == 0
    answer = json.loads(capsys.readouterr().out)
    best = answer["best"]
    assert len(best) == 3
    assert best[0]["move"] == "8/5 6/5"  # the textbook 3-1: make the 5 point
    assert [b["equity"] for b in best] == sorted((b["equity"] for b in best), reverse=True)
    for entry in best:
        assert 0 < entry["win"] < 1 and 0 <= entry["win_gammon"] <= entry["win"]
        assert entry["lose_gammon"] <= 1 - entry["win"]
    assert answer["position"]["xgid"].startswith("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:")
    assert answer["position"]["position_id"] == "4HPwATDgc/ABMA"


def test_equity_is_the_chances_weighed() -> None:
    state = rules.get_game("backgammon", "money").state_from_position("4HPwATDgc/ABMA").roll((6, 5))
    for evaluation in ranked(state):
        assert evaluation.equity == pytest.approx(equity(evaluation.probabilities))


def test_status_words_name_equity_and_chances() -> None:
    state = rules.get_game("backgammon", "money").state_from_position("4HPwATDgc/ABMA").roll((3, 1))
    words = hint_words(state, state.parse_move("8/5 6/5"))
    assert words.startswith("equity +0.") and "wins 5" in words and "gammon" in words
    evaluation = hint_evaluation(state, state.parse_move("8/5 6/5"))
    assert evaluation is not None and evaluation.move == "8/5 6/5"
    assert (
        f"equity {evaluation.equity:+.3f}, wins {round(100 * evaluation.probabilities[0])} %"
        in words
    )


def test_a_bearoff_that_wins_is_exact() -> None:
    black = [0] * 24
    black[5] = 15
    white = [0] * 24
    white[0] = 1
    state = rules.get_game("backgammon", "money").state_from_json(
        {"points": {"white": white, "black": black}, "turn": "white", "dice": [6, 5]}
    )
    (only,) = ranked(state)
    assert only.probabilities == (1.0, 1.0, 0.0, 0.0, 0.0) and only.equity == 2.0
