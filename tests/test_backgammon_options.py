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


@pytest.mark.parametrize(
    ("preset", "jacoby", "beavers", "automatic"),
    [
        ("money-jacoby-beavers-auto3", True, True, 3),
        ("money-beavers", False, True, 0),
        ("money-auto1", False, False, 1),
        ("money-all", True, True, 2),
    ],
)
def test_money_options_compose_into_a_preset_name(
    preset: str, jacoby: bool, beavers: bool, automatic: int
) -> None:
    """Rule options are independent: every combination is a preset that reads back."""
    game = rules.get_game("backgammon", preset)
    assert (game.rules.jacoby, game.rules.beavers, game.rules.automatic) == (  # type: ignore[attr-defined]
        jacoby,
        beavers,
        automatic,
    )
    state = game.new_state(first="white")
    assert state.to_json()["preset"] == preset
    assert rules.state_from_json(state.to_json()) == state


def test_a_match_without_the_crawford_rule_keeps_the_cube_at_four_away() -> None:
    """Rule: without the Crawford rule the cube may be turned when a side is 1 away."""
    game = rules.get_game("backgammon", "match5-nocrawford")
    state = game.state_from_json(
        {
            **game.new_state().to_json(),
            "phase": "double",
            "score": {"white": 4, "black": 0},
            "games": [{"winner": "white", "points": 4, "kind": "single"}],
            "turn": "black",
        }
    )
    assert "double" in [m.notation for m in state.legal_moves()]
    from rules.backgammon.mat import header_tags

    assert '; [Crawford "Off"]' in header_tags(state)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "name", ["money-beavers-jacoby", "money-auto4", "single-jacoby", "match7-jacoby", "match9"]
)
def test_a_name_that_spells_no_rule_set_is_refused(name: str) -> None:
    with pytest.raises(rules.UnknownGameError, match="unknown preset"):
        rules.get_game("backgammon", name)
