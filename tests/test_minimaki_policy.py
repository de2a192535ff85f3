"""The shipped Mini-Maki tables agree with the rules, so the two cannot drift apart.

``benchmarks/minimaki_solution.py`` solves the game and writes the decision tables
(shipped) and the exact values quantised to 16 bits (``tests/data``, for this test).
Here, on random positions and through the engine's own API only (``chance_outcomes``,
``roll``, ``legal_moves``, ``apply``), every value is re-derived from the values one
round later (the Bellman equation of the optimum), and every shipped decision is
checked to reach the best of those values. A change to the rules that the tables do
not know shows up as a residual far above the quantisation step.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import random
import sys
from array import array
from collections.abc import Iterator
from functools import cache
from importlib.resources import files
from pathlib import Path

import pytest

import rules
from rules.minimaki import policy as mp
from rules.minimaki.bot import best_move
from rules.minimaki.engine import MinimakiGame, MinimakiState, red_steps, reset_by_red

DATA = Path(__file__).resolve().parent / "data"
VALUES = json.loads((DATA / "minimaki_values.json").read_text())
SCALE = VALUES["scale"]
PROVENANCE = json.loads(files("rules.minimaki").joinpath(mp.PROVENANCE_NAME).read_text())
PRESET_OF = {False: "standard", True: "diagonal"}
BOTH = pytest.mark.parametrize("diagonal", [False, True], ids=["standard", "diagonal"])


@cache
def values(diagonal: bool) -> array[int]:
    """The exact values at black's roll, as integers round(P * SCALE)."""
    entry = VALUES["tables"][mp.TABLE_NAMES[diagonal]]
    table = array("H", lzma.decompress((DATA / entry["file"]).read_bytes()))
    if sys.byteorder == "big":
        table.byteswap()
    assert len(table) == mp.POSITIONS
    return table


def value_of(state: MinimakiState) -> int:
    """round(P(red wins) * SCALE) of a position after red's move (or the game's end)."""
    if state.result is not None:
        return SCALE if state.result == "won" else 0
    assert state.is_chance() and state.red is not None
    return values(state.game.rules.diagonal_contact)[mp.position_index(state.rows, state.red)]


def random_positions(
    diagonal: bool, seed: int, count: int, at_roll: bool
) -> Iterator[MinimakiState]:
    """Random positions with black to roll (after a step or a start on row 6) or with
    red to step (any legal position)."""
    game = rules.get_game("minimaki", PRESET_OF[diagonal])
    rng = random.Random(seed)
    made = 0
    while made < count:
        rows = [rng.randint(1, 5) for _ in range(6)]
        red = (rng.randint(2, 6), rng.randint(1, 6))
        if rows[red[1] - 1] == red[0]:
            continue
        if at_roll and red[0] != 6 and list(reset_by_red(rows, red, diagonal)) != rows:
            continue  # no step ends with a black left or right of red
        to_move = "black" if at_roll else "red"
        data = {"game": "minimaki", "black": rows, "red": list(red), "to_move": to_move}
        state = game.state_from_json(data)
        assert isinstance(state, MinimakiState)
        made += 1
        yield state


def best_after_roll(state: MinimakiState) -> int:
    """The best value red can reach by its step (a lost roll ends the game)."""
    if state.is_terminal():
        return 0
    return max(value_of(after) for after in map(state.apply, state.legal_moves()))  # type: ignore[arg-type]


def test_shipped_tables_match_their_provenance_sha256() -> None:
    for entry in PROVENANCE["tables"].values():
        data = files("rules.minimaki").joinpath(entry["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert len(data) == entry["bytes"]
    for entry in VALUES["tables"].values():
        data = (DATA / entry["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]


def test_provenance_names_generator_presets_and_exact_p_win() -> None:
    assert PROVENANCE["generator"] == "python benchmarks/minimaki_solution.py --write"
    tables = PROVENANCE["tables"]
    presets = [p for entry in tables.values() for p in entry["presets"]]
    assert sorted(presets) == sorted(rules.presets("minimaki"))
    assert tables["standard"]["presets"] == ["standard", "free_setup", "two_player"]
    assert tables["diagonal"]["presets"] == ["diagonal"]
    for diagonal, entry in ((False, tables["standard"]), (True, tables["diagonal"])):
        assert entry["diagonal_contact"] is diagonal
        assert mp.shipped_policy(diagonal).p_win == entry["p_win"]
        assert entry["p_win"] == max(entry["p_win_by_start_column"])


@pytest.mark.parametrize("preset", ["standard", "free_setup", "two_player", "diagonal"])
def test_each_preset_plays_the_table_of_its_step_rules(preset: str) -> None:
    """The table is chosen by the one switch that changes a step: diagonal contact."""
    game = rules.get_game("minimaki", preset)
    assert isinstance(game, MinimakiGame)
    table = PROVENANCE["tables"][mp.TABLE_NAMES[game.rules.diagonal_contact]]
    assert preset in table["presets"]


@BOTH
def test_values_satisfy_the_rules_on_random_positions(diagonal: bool) -> None:
    """V(position) = sum over rolls of P(roll) * best V after red's step, with the rolls
    and steps played by the engine. Quantisation allows one unit; a rule the table does
    not know would be off by far more."""
    worst = 0
    for state in random_positions(diagonal, seed=16, count=300, at_roll=True):
        expected = 0.0
        for dice, p in state.chance_outcomes():
            after = state.roll(dice)
            assert isinstance(after, MinimakiState)
            expected += p * best_after_roll(after)
        worst = max(worst, abs(value_of(state) - expected))
    assert worst <= 1.0 + 1e-9


@BOTH
def test_start_value_is_the_exact_p_win(diagonal: bool) -> None:
    game = rules.get_game("minimaki", PRESET_OF[diagonal])
    start = game.new_state()
    assert isinstance(start, MinimakiState)
    best = max(value_of(start.apply(move)) for move in start.legal_moves())  # type: ignore[arg-type]
    assert abs(best - mp.shipped_policy(diagonal).p_win * SCALE) <= 0.5 + 1e-9


@BOTH
def test_every_shipped_step_is_an_optimal_step(diagonal: bool) -> None:
    """On random positions with red to step, the table's step reaches the best value of
    all legal steps (within the one unit of quantisation: ties are settled exactly by
    the generator)."""
    for state in random_positions(diagonal, seed=61, count=2000, at_roll=False):
        options = [value_of(state.apply(m)) for m in state.legal_moves()]  # type: ignore[misc]
        chosen = value_of(state.apply(best_move(state)))  # type: ignore[arg-type]
        assert chosen >= max(options) - 1, state.to_json()


@BOTH
def test_every_shipped_start_column_is_optimal(diagonal: bool) -> None:
    rng = random.Random(7)
    table = values(diagonal)
    policy = mp.shipped_policy(diagonal)
    for _ in range(500):
        rows = [rng.randint(1, 5) for _ in range(6)]
        options = [table[mp.position_index(rows, (6, c))] for c in range(1, 7)]
        assert options[policy.start_column(rows) - 1] >= max(options) - 1


def best_setup_value(placed: list[int], table: array[int]) -> int:
    """The best start red can get once the blacks of the first columns are placed."""
    best = 0
    rest = 6 - len(placed)
    for tail in range(5**rest):
        rows = list(placed)
        for _ in range(rest):
            tail, digit = divmod(tail, 5)
            rows.append(digit + 1)
        best = max(best, max(table[mp.position_index(rows, (6, c))] for c in range(1, 7)))
    return best


def test_every_free_setup_row_leads_to_the_best_setup() -> None:
    """Free setup: the table's row for the next black keeps the best start reachable."""
    table = values(False)
    policy = mp.shipped_policy(False)
    rng = random.Random(3)
    for length in [0, 1, 2, 3, 4, 4, 5, 5, 5]:
        placed = [rng.randint(1, 5) for _ in range(length)]
        options = [best_setup_value([*placed, row], table) for row in range(1, 6)]
        assert options[policy.setup_row(placed) - 1] >= max(options) - 1, placed


@BOTH
def test_every_slot_of_the_step_table_is_legal(diagonal: bool) -> None:
    """All 468 750 slots: no step where red would stand on a black, a pass exactly
    where red is boxed in, otherwise a step the engine allows."""
    steps = mp.shipped_policy(diagonal).steps
    for b in range(mp.BLACK_CONFIGS):
        rows = mp.black_rows(b)
        base = b * mp.RED_FIELDS
        for k in range(mp.RED_FIELDS):
            red = (k // 6 + 2, k % 6 + 1)
            code = steps[base + k]
            if rows[red[1] - 1] == red[0]:
                assert code == mp.NO_POSITION
                continue
            targets = red_steps(rows, red)
            if not targets:
                assert code == mp.PASS_CODE
                continue
            dr, dc = mp.DIRECTIONS[code]
            assert (red[0] + dr, red[1] + dc) in targets
