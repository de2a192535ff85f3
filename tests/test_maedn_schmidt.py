"""Mensch ärgere dich nicht, Schmidt preset: the rules printed with the
Schmidt Spiele box. No capture obligation, one piece starts on the start field, jumping
in the goal is allowed; otherwise classic."""

from __future__ import annotations

from typing import Any

import rules
from rules.core import State
from tests.helpers import notations, track_position

GAME = rules.get_game("maedn", "schmidt")
ALL_HOME = ["home"] * 4


def pos(pieces: dict[str, list[Any]], turn: str = "red", **extra: Any) -> State:
    return track_position("schmidt", pieces, turn, **extra)


def test_one_piece_starts_on_the_start_field() -> None:
    data = GAME.new_state(4).to_json()
    assert data["pieces"]["red"] == ["home", "home", "home", 0]
    assert data["pieces"]["blue"] == ["home", "home", "home", 10]


def test_no_capture_obligation() -> None:
    state = pos({"red": [5, 20, "home", "home"], "green": [8, "home", "home", "home"]})
    assert notations(state.roll([3])) == {"5-8x", "20-23"}


def test_jumping_in_the_goal_is_allowed() -> None:
    state = pos({"red": [38, "goal2", 20, "home"], "green": ALL_HOME}).roll([4])
    assert "38-goal3" in notations(state)


def test_entering_on_a_six_is_still_compulsory() -> None:
    state = pos({"red": ["home", "home", "home", 14], "green": ALL_HOME}).roll([6])
    assert notations(state) == {"home-0"}
