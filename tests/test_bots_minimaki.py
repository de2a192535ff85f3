"""Mini-Maki's player (issue 9, item 3): exact policy plumbing, fallback, hint.

Solving the whole game takes minutes of pure Python, so the exact win probability is
computed and checked (Bellman residuals through the engine's own API) by
``benchmarks/bots.py``; these tests check the player's decisions against installed
solutions whose values are known by construction, and the fallback without one.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator

import pytest

import rules
from rules.bots import make_bot
from rules.minimaki import bot as mm
from rules.minimaki.engine import MinimakiState, Step
from tests.helpers import position


def minimaki(**fields: object) -> MinimakiState:
    state = position("minimaki", **fields)
    assert isinstance(state, MinimakiState)
    return state


@pytest.fixture
def solution_by_row() -> Iterator[mm.MinimakiSolution]:
    """A stand-in solution whose value is higher the nearer red is to row 1 and the
    further left it stands, so every decision has one known best answer."""
    values = array("d", bytes(8 * mm.POSITIONS))
    for b in range(mm.BLACK_CONFIGS):
        for k in range(mm.RED_FIELDS):
            row, col = divmod(k, mm.SIZE)
            values[b * mm.RED_FIELDS + k] = (5 - row) / 10 + (6 - col) / 100
    solution = mm.MinimakiSolution(False, values)
    mm.install_solution(solution)
    yield solution
    mm._SOLUTIONS.clear()


def test_position_indices_are_a_bijection() -> None:
    seen = set()
    for rows in [(1,) * 6, (5,) * 6, (1, 2, 3, 4, 5, 1), (5, 4, 3, 2, 1, 3)]:
        assert mm.black_rows(mm.black_index(rows)) == rows
        for red in [(2, 1), (6, 6), (4, 3)]:
            seen.add(mm.position_index(rows, red))
    assert len(seen) == 12 and all(0 <= i < mm.POSITIONS for i in seen)


def test_distinct_rolls_sum_to_one() -> None:
    """Two dice (seed 004: "Es wird mit beiden Würfeln gewürfelt"): 21 distinct rolls."""
    assert len(mm.ROLLS) == 21
    assert sum(p for _, p in mm.ROLLS) == pytest.approx(1.0)


def test_solution_round_trips_through_bytes(solution_by_row: mm.MinimakiSolution) -> None:
    again = mm.MinimakiSolution.from_bytes(solution_by_row.to_bytes())
    assert again.diagonal is False and again.values == solution_by_row.values
    with pytest.raises(ValueError, match="bad header"):
        mm.MinimakiSolution.from_bytes(b"nonsense")


def test_bot_follows_the_installed_solution(solution_by_row: mm.MinimakiSolution) -> None:
    """With a solution, red's step is the one of highest exact value (here: forward
    and left)."""
    state = minimaki(black=[1, 1, 1, 1, 1, 1], red=[4, 3], to_move="red")
    move = make_bot("strong").choose(state, random.Random(0))
    assert isinstance(move, Step) and move.dst == (3, 2)
    assert mm.win_probability(state) == pytest.approx(
        solution_by_row.step_value(state.rows, (3, 2))
    )


def test_bot_picks_the_best_start_field(solution_by_row: mm.MinimakiSolution) -> None:
    """Seed 004: "Sie können zu Beginn ihren Maki auf ein beliebiges Feld der Reihe 6
    setzen." The bot chooses the field with the highest value."""
    state = rules.get_game("minimaki").new_state()
    move = make_bot("strong").choose(state, random.Random(0))
    assert move.notation == "r6c1"


def test_winning_step_is_always_taken() -> None:
    """Seed 004: "Erreicht Ihr roter Stein die gegenüberliegende Seite, so haben Sie
    gewonnen." Without a solution too, a step onto row 1 wins at once."""
    state = minimaki(black=[3, 3, 3, 3, 3, 3], red=[2, 4], to_move="red")
    move = make_bot("strong").choose(state, random.Random(0))
    assert isinstance(move, Step) and move.dst[0] == 1


def test_fallback_avoids_stepping_in_front_of_a_black() -> None:
    """Without a solution the bot looks one roll ahead: a field directly in front of a
    black is captured by any roll of that column ("Der rote Stein wird geschlagen,
    wenn ein schwarzer direkt auf das Feld kommt"), so it is worth less."""
    state = minimaki(black=[1, 1, 2, 1, 1, 1], red=[4, 2], to_move="red")
    player = mm.MinimakiBot()
    value = {m.notation: player.move_value(state, m) for m in state.legal_moves()}
    assert value["r4c2-r3c1"] > value["r4c2-r3c3"]
    assert player.choose(state, random.Random(0)).notation != "r4c2-r3c3"


def test_no_win_probability_without_a_solution() -> None:
    state = minimaki(black=[1] * 6, red=[6, 3], to_move="black")
    assert mm.win_probability(state) is None
