"""A race network's own inputs (rules/backgammon/net.py): the borne-off units and the
crossings, counted by hand, and the same through the packed rows the bot adds as
straight from the inputs."""

from __future__ import annotations

import random

import pytest

from rules.backgammon import net
from rules.backgammon.net import (
    BOARD_INPUTS,
    RACE_INPUTS,
    RACE_OFF_UNITS,
    Network,
    crossings,
    encode,
    from_bytes,
    race_units,
    shipped,
    shipped_race,
)

OFF = BOARD_INPUTS
"""The side on roll's first borne-off unit; the other side's follow 14 later."""
CROSSED = BOARD_INPUTS + 2 * RACE_OFF_UNITS
"""The side on roll's crossings; the other side's next."""


def board(**placed: int) -> tuple[int, ...]:
    """A board in its own view: p1 … p24 the points, bar the bar; the rest borne off."""
    counts = [0] * 25
    for name, n in placed.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(counts)


def test_a_checker_crosses_one_line_per_quadrant_on_its_way_home() -> None:
    assert [crossings(p) for p in (0, 5, 6, 11, 12, 17, 18, 23, 24)] == [0, 0, 1, 1, 2, 2, 3, 3, 4]


def test_a_race_position_is_counted_as_a_player_would() -> None:
    # on roll: 2 on its 8-point and 3 on its 13-point (2 + 6 lines to cross), 5 home,
    # 5 borne off; the other side: all 15 home, none off
    mine = board(p8=2, p13=3, p6=5)
    theirs = board(p6=5, p5=5, p4=5)
    assert race_units(0, mine) == [(OFF + 4, 1.0), (CROSSED, 0.8)]
    assert race_units(1, theirs) == []  # nothing off, nothing to cross
    units = dict(encode(mine, theirs, race=True))
    assert units[OFF + 4] == 1.0 and units[CROSSED] == 0.8
    assert not any(OFF <= unit < RACE_INPUTS and unit not in (OFF + 4, CROSSED) for unit in units)
    # the board's own units are those of the main network's encoding
    board_units = {u: v for u, v in encode(mine, theirs) if u < BOARD_INPUTS}
    assert {u: v for u, v in units.items() if u < BOARD_INPUTS} == board_units


def test_fourteen_off_has_a_unit_and_the_other_side_its_own() -> None:
    last = board(p1=1)
    assert race_units(1, last) == [(OFF + RACE_OFF_UNITS + 13, 1.0)]
    assert race_units(1, board(bar=1, p1=1)) == [
        (OFF + RACE_OFF_UNITS + 12, 1.0),
        (CROSSED + 1, 0.4),
    ]


def random_board(rng: random.Random) -> tuple[int, ...]:
    counts = [0] * 26  # the 25 places and borne off
    for _ in range(15):
        counts[rng.randrange(26)] += 1
    if counts[25] == 15:  # a finished side is never evaluated
        counts[0], counts[25] = 1, 14
    return tuple(counts[:25])


def race_shaped(seed: int) -> Network:
    """The shipped race network's weights with distinct rows for the race inputs."""
    rng = random.Random(seed)
    race = shipped_race()
    rows = race.rows[:BOARD_INPUTS] + tuple(
        tuple(rng.uniform(-1, 1) for _ in range(race.hidden))
        for _ in range(RACE_INPUTS - BOARD_INPUTS)
    )
    return from_bytes(Network(rows, race.hidden_bias, race.out_rows, race.out_bias).to_bytes())


def test_the_packed_rows_give_what_the_inputs_give() -> None:
    """The bot folds the race inputs into the rows of the board (no cost when it runs);
    over random boards, bar and fourteen off included, that changes nothing."""
    network = race_shaped(1)
    assert network.reads_race_inputs and network.figure_inputs == 0
    rng = random.Random(2)
    for _ in range(300):
        mine, theirs = random_board(rng), random_board(rng)
        fast = network.probabilities(mine, theirs)
        assert fast == pytest.approx(network.reference_probabilities(mine, theirs), abs=1e-9)


def test_the_race_inputs_change_what_the_network_says() -> None:
    """Zero rows for them leave the board-only network as it was; rows of their own move
    the evaluation (they are read, not ignored)."""
    race = shipped_race()
    mine, theirs = board(p8=2, p13=3, p6=5), board(p6=5, p5=5, p4=5)
    board_only = Network(race.rows[:BOARD_INPUTS], race.hidden_bias, race.out_rows, race.out_bias)
    zeros = tuple((0.0,) * race.hidden for _ in range(RACE_INPUTS - BOARD_INPUTS))
    padded = Network(board_only.rows + zeros, race.hidden_bias, race.out_rows, race.out_bias)
    assert padded.probabilities(mine, theirs) == pytest.approx(
        board_only.probabilities(mine, theirs), abs=1e-9
    )
    assert race_shaped(3).probabilities(mine, theirs) != pytest.approx(
        padded.probabilities(mine, theirs), abs=1e-3
    )


def test_the_shipped_race_network_reads_them_and_the_main_one_does_not() -> None:
    assert shipped_race().reads_race_inputs and len(shipped_race().rows) == RACE_INPUTS
    assert not shipped().reads_race_inputs
    assert RACE_INPUTS in net.SHAPES
