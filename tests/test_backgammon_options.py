"""The money-play options: the Jacoby rule and automatic doubles; every match length."""

from __future__ import annotations

import pytest

import rules
from rules.backgammon.engine import BackgammonState
from rules.errors import InvalidStateError


def last_checker_home(preset: str, cube: int = 1, owner: str | None = None) -> BackgammonState:
    """White bears off its last checker with 6-5; black has borne off nothing (a gammon)."""
    black = [0] * 24
    black[5] = 15
    white = [0] * 24
    white[0] = 1
    data = {
        "points": {"white": white, "black": black},
        "turn": "white",
        "dice": [6, 5],
        "cube": cube,
        "cube_owner": owner,
    }
    state = rules.get_game("backgammon", preset).state_from_json(data)
    assert isinstance(state, BackgammonState)
    return state


def test_jacoby_a_gammon_with_a_centred_cube_counts_single() -> None:
    state = last_checker_home("money-jacoby")
    done = state.apply(state.legal_moves()[0])
    assert done.to_json()["games"] == [{"winner": "white", "points": 1, "kind": "gammon"}]


def test_jacoby_a_gammon_after_a_double_counts_double() -> None:
    state = last_checker_home("money-jacoby", cube=2, owner="black")
    done = state.apply(state.legal_moves()[0])
    assert done.to_json()["games"] == [{"winner": "white", "points": 4, "kind": "gammon"}]


def test_without_jacoby_the_gammon_counts() -> None:
    state = last_checker_home("money")
    assert state.apply(state.legal_moves()[0]).to_json()["games"][0]["points"] == 2


def test_automatic_doubles_turn_the_cube_on_opening_ties_up_to_the_limit() -> None:
    state = rules.get_game("backgammon", "money-automatic").new_state()
    cubes = []
    for _ in range(3):
        state = state.roll((4, 4))
        cubes.append(state.cube)
    assert cubes == [2, 4, 4]  # the limit is two automatic doubles
    assert state.to_json()["cube_owner"] is None
    started = state.roll((6, 1))
    assert started.current_player == "white" and started.cube == 4
    again = state.game.state_from_json(started.to_json())
    assert again == started


def test_plain_money_rethrows_ties_without_doubling() -> None:
    state = rules.get_game("backgammon", "money").new_state()
    assert state.roll((3, 3)).cube == 1


def test_a_centred_cube_above_the_automatic_limit_is_refused() -> None:
    state = rules.get_game("backgammon", "money-automatic").new_state()
    data = dict(state.to_json(), cube=8)
    with pytest.raises(InvalidStateError, match="owner"):
        state.game.state_from_json(data)


@pytest.mark.parametrize("length", [1, 3, 5, 7, 11])
def test_every_match_length_is_a_preset(length: int) -> None:
    state = rules.get_game("backgammon", f"match{length}").new_state()
    assert state.to_json()["match_length"] == length
