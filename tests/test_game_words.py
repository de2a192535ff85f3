"""Each family's words for its moves come through the catalog: the rules give typed
facts, and every word a player reads of a move is looked up in the table's language."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import rules
from controller import i18n
from controller.games import move_words
from rules.core import Pass
from tests.helpers import track_position


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    i18n.use("en")


@pytest.mark.parametrize(
    ("game", "preset"),
    [
        ("maedn", "classic"),
        ("kleiner_aerger", "standard"),
        ("backgammon", "money"),
        ("minimaki", "standard"),
        ("minimaki", "free_setup"),
        ("minimaki", "two_player"),
    ],
)
def test_every_move_is_worded_through_the_catalog(game: str, preset: str) -> None:
    i18n.use(i18n.PSEUDO)
    rng = random.Random(4)
    state = rules.get_game(game, preset).new_state()
    worded = 0
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance():
            state = state.roll(rng.choice(state.chance_outcomes())[0])
            continue
        for move in state.legal_moves():
            if isinstance(move, Pass):
                continue
            words = move_words(state, move)
            assert i18n.MARK_OPEN in words and i18n.MARK_CLOSE in words, words
            worded += 1
        state = state.apply(rng.choice(list(state.legal_moves())))
    assert worded > 0


def test_german_words_for_a_capture_and_a_cube_decision() -> None:
    i18n.use("de")
    entering = track_position("classic", {"red": ["home"] * 4, "green": ["home"] * 4}, dice=[6])
    assert [move_words(entering, m) for m in entering.legal_moves()] == ["Figur aufs Startfeld"]
    home = ["home"] * 3
    hitting = track_position("classic", {"red": [3, *home], "green": [5, *home]}, dice=[2])
    (capture,) = hitting.legal_moves()
    assert move_words(hitting, capture).startswith("Figur auf 3 → 5, schlägt ")
    opening = rules.get_game("backgammon", "money").new_state().roll((5, 2))
    cube = opening.apply(opening.legal_moves()[0])
    assert {move_words(cube, m) for m in cube.legal_moves()} == {"würfeln", "doppeln"}
