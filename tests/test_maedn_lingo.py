"""Mensch ärgere dich nicht, Lingo preset: the house rules 0–10 of the "Ärgern" game.

The timer and touch-move are settings the controller reads; the rules stay free of
clocks. Every test quotes the rule it checks.
"""

from __future__ import annotations

import math
import random
from typing import Any

import rules
from rules import PASS
from rules.core import State
from rules.playout import sample_roll
from tests.helpers import notations, track_position

GAME = rules.get_game("maedn", "lingo")
ALL_HOME = ["home"] * 4


def pos(pieces: dict[str, list[Any]], turn: str = "red", **extra: Any) -> State:
    return track_position("lingo", pieces, turn, **extra)


def test_red_starts_without_an_opening_roll() -> None:
    """Usage text: "Spieler 1: rot fängt an." """
    state = GAME.new_state(4)
    assert state.current_player == "red"
    assert state.to_json()["phase"] == "roll"


def test_house_rule_0_touch_move_is_binding() -> None:
    """Rule 0: "Berührt=geführt! Wer die falsche Spielfigur anfasst, hat Pech gehabt und
    der Zug wird ausgeführt (sofern möglich)". The preset tells the controller that the
    first confirmation is binding; the rules apply it at once, with no take-back."""
    assert GAME.rules.touch_move
    state = pos({"red": [3, 12, "home", "home"], "green": ALL_HOME}).roll([2])
    after = state.apply(state.parse_move("3-5"))
    assert after.current_player == "green"


def test_house_rule_1_a_56_percent_six_while_all_pieces_are_home() -> None:
    """Rule 1: "sofern noch alle Spielfiguren auf den Eckfeldern sind, besteht eine
    56%ige Chance auf eine 6 (als Ersatz für das 3 Mal würfeln)"."""
    state = pos({"red": ALL_HOME, "green": ALL_HOME})
    outcomes = dict(state.chance_outcomes())
    assert math.isclose(outcomes[(6,)], 0.56)
    for face in range(1, 6):
        assert math.isclose(outcomes[(face,)], 0.088)
    rng = random.Random(7)
    sixes = sum(sample_roll(state.chance_outcomes(), rng) == (6,) for _ in range(20_000))
    assert abs(sixes / 20_000 - 0.56) < 0.015


def test_house_rule_1_replaces_the_three_tries_with_one_roll() -> None:
    """Rule 1: the biased six is "als Ersatz für das 3 Mal würfeln": one roll only."""
    state = pos({"red": ALL_HOME, "green": ALL_HOME}).roll([3])
    assert state.apply(PASS).current_player == "green"


def test_house_rule_1_fair_die_once_a_piece_can_move() -> None:
    """Rule 1 applies only while no piece can move except by entering."""
    state = pos({"red": [12, "home", "home", "home"], "green": ALL_HOME})
    assert all(math.isclose(p, 1 / 6) for _, p in state.chance_outcomes())
    stuck = pos({"red": ["goal3", "goal4", "home", "home"], "green": ALL_HOME})
    assert math.isclose(dict(stuck.chance_outcomes())[(6,)], 0.56)


def test_house_rule_2_no_capture_obligation() -> None:
    """Rule 2: "Es besteht keine Schlagpflicht." """
    state = pos({"red": [5, 20, "home", "home"], "green": [8, "home", "home", "home"]})
    assert notations(state.roll([3])) == {"5-8x", "20-23", "pass"}


def test_house_rule_3_a_six_need_not_bring_a_piece_in() -> None:
    """Rule 3: "Beim Würfeln einer 6 muss die Spielfigur nicht vom Eckkreis auf das
    Startfeld gesetzt werden." """
    state = pos({"red": ["home", "home", "home", 14], "green": ALL_HOME}).roll([6])
    assert notations(state) == {"home-0", "14-20", "pass"}


def test_house_rule_4_the_start_field_need_not_be_cleared() -> None:
    """Rule 4: "Das Startfeld muss nicht freigemacht werden." """
    state = pos({"red": ["home", "home", 0, 17], "green": ALL_HOME}).roll([4])
    assert notations(state) == {"0-4", "17-21", "pass"}


def test_house_rule_5_pieces_in_the_goal_may_be_jumped() -> None:
    """Rule 5: "Auf den Endfeldern können die Figuren übersprungen werden." """
    state = pos({"red": [38, "goal2", "home", "home"], "green": ALL_HOME}).roll([4])
    assert "38-goal3" in notations(state)
    inside = pos({"red": ["goal1", "goal2", 20, "home"], "green": ALL_HOME}).roll([2])
    assert "goal1-goal3" in notations(inside)
    occupied = pos({"red": [38, "goal2", "home", "home"], "green": ALL_HOME}).roll([3])
    assert "38-goal2" not in notations(occupied), "the target goal field must be free"


def test_house_rule_6_pass_is_always_allowed() -> None:
    """Rule 6: "Wer nicht ziehen kann oder möchte, muss aussetzen." """
    state = pos({"red": [3, 12, "home", "home"], "green": ALL_HOME}).roll([2])
    assert PASS in state.legal_moves()
    assert state.apply(PASS).current_player == "green"


def test_house_rule_6_passing_with_a_six_ends_the_turn() -> None:
    """Rule 6 with a 6: whoever passes sits out; the 6 gives no further roll."""
    state = pos({"red": [3, 12, "home", "home"], "green": ALL_HOME}).roll([6])
    assert state.apply(PASS).current_player == "green"


def test_house_rule_7_self_capture_sends_the_own_piece_home() -> None:
    """Rule 7: "Man kann sich selber schlagen!" """
    state = pos({"red": [3, 5, "home", "home"], "green": ALL_HOME}).roll([2])
    assert "3-5x" in notations(state)
    after = state.apply(state.parse_move("3-5"))
    assert sorted(after.to_json()["pieces"]["red"], key=str) == sorted(
        ["home", "home", "home", 5], key=str
    )


def test_house_rule_8_five_second_move_timer_is_a_setting() -> None:
    """Rule 8: "Nach dem Würfeln hat man nur 5 Sekunden Zeit für den eigenen Zug." The
    rules hold no clock: the preset carries the timer for the controller, and expiry is
    played as a pass, which is always legal here."""
    assert GAME.rules.move_timer_s == 5.0
    assert rules.get_game("maedn", "classic").rules.move_timer_s == 0.0
    state = pos({"red": [3, 12, "home", "home"], "green": ALL_HOME}).roll([2])
    assert state.apply(PASS).current_player == "green"


def test_house_rule_9_pieces_in_the_goal_are_uncapturable_and_drawn_darker() -> None:
    """Rule 9: "Spielfiguren, die nicht mehr schlagbar sind, bekommen eine dunklere
    Farbe (beim Erreichen der Zielfelder ...)"."""
    assert GAME.rules.dark_safe_pieces
    state = pos({"red": ["goal1", 12, "home", "home"], "green": ALL_HOME})
    progress = state.progress("red")  # type: ignore[attr-defined]
    safe = [p for p in progress if state.is_safe(p)]  # type: ignore[attr-defined]
    assert safe == [40]


def test_house_rule_10_all_four_in_the_goal_wins() -> None:
    """Rule 10: "Gewonnen hat der Spieler, der alle seine 4 Spielfiguren auf den
    Zielfeldern hat." """
    state = pos({"red": [39, "goal2", "goal3", "goal4"], "green": ALL_HOME}).roll([1])
    final = state.apply(state.parse_move("39-goal1"))
    assert final.is_terminal() and final.winners() == ("red",)


def test_a_used_six_rolls_again() -> None:
    """As decided (the house rules do not say): in Lingo a used 6 gives another roll."""
    state = pos({"red": [3, 12, "home", "home"], "green": ALL_HOME}).roll([6])
    assert state.apply(state.parse_move("3-9")).current_player == "red"
