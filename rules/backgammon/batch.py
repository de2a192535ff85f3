"""The Backgammon evaluation for many positions at once, with numpy: the optional fast path.

Why: a search scores positions in groups, all the plays of a roll or all the replies to
a play (some four hundred, over the 21 rolls), and one position at a time the pure
forward pass costs 55-140 µs, a third of it the hand-made figures. Here a whole group
goes through the network as one matrix product, and the figures are counted for the
whole group in array operations, so that Python's cost per operation is paid once per
group and not once per position.

numpy is an optional dependency (the ``fast`` extra; Raspberry Pi OS ships it as
``python3-numpy``). This module is the only one in the rules that imports it, and only
:func:`available` callers reach it; without numpy the pure path of
:mod:`rules.backgammon.net` plays exactly as before.

Same numbers as the pure path, up to rounding: the figures are the same whole counts
(:func:`counts` equals :func:`rules.backgammon.features.counts`, checked by the tests),
the first layer is summed in floats, where the pure path adds fixed-point rows
(:class:`rules.backgammon.net.PackedLayer`), so a hidden unit's sum differs by a few
billionths at most, and an equity by about as much. The moves agree except where two
plays are that close (docs/bots.md lists the differences found over seeded games).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rules.backgammon import bearoff
from rules.backgammon.features import (
    ESCAPES,
    HOME_OF_THE_OTHER,
    INPUT_SCALES,
    ROLL_REACH,
)
from rules.backgammon.moves import BAR, CHECKERS
from rules.backgammon.net import (
    BOARD_INPUTS,
    CROSSING_SCALE,
    POINTS,
    RACE_OFF_UNITS,
    UNITS_PER_SIDE,
    Network,
    Probabilities,
)

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
Position = tuple[Sequence[int], Sequence[int]]

PLACES = BAR + 1
_BITS = np.int64(1) << np.arange(POINTS, dtype=np.int64)
_ESCAPES = np.array(ESCAPES, dtype=np.int64)
_REACH = np.array([reach for reach, _ in ROLL_REACH], dtype=np.int64)
_ROLL_WEIGHTS = np.array([weight for _, weight in ROLL_REACH], dtype=np.int64)
_PLACE = np.arange(PLACES, dtype=np.int64)
_PIPS = _PLACE + 1
_SCALES = np.array(INPUT_SCALES, dtype=np.float64)
_CROSSINGS = np.array([4 if p == BAR else p // 6 for p in range(PLACES)], dtype=np.int64)


def boards(positions: Sequence[Sequence[int]]) -> Ints:
    """Boards of 25 places as one (n, 25) array; built from bytes, several times faster
    than numpy's conversion of nested tuples."""
    raw = b"".join(map(bytes, positions))
    return np.frombuffer(raw, dtype=np.uint8).reshape(len(positions), PLACES).astype(np.int64)


def _bit_length(x: Ints) -> Ints:
    """``int.bit_length`` of each (non-negative, below 2**53) element."""
    return np.frexp(x.astype(np.float64))[1].astype(np.int64)


@dataclass(frozen=True)
class _Side:
    """One side of each position as bit masks, like :class:`rules.backgammon.features.
    _Board`."""

    board: Ints
    made: Ints
    blots: Ints
    rearmost: Ints
    hitters: Ints

    @classmethod
    def of(cls, board: Ints) -> _Side:
        points = board[:, :POINTS]
        made = (points >= 2).astype(np.int64) @ _BITS
        blots = (points == 1).astype(np.int64) @ _BITS
        occupied = (points > 0).astype(np.int64) @ _BITS
        on_bar = board[:, BAR] > 0
        rearmost = np.where(on_bar, BAR, _bit_length(occupied) - 1)
        hitters = np.where(on_bar, np.int64(1) << BAR, occupied)
        return cls(board, made, blots, rearmost, hitters)


def _escapes_from(place: Ints, blocks: Ints) -> Ints:
    escapes: Ints = _ESCAPES[(blocks >> (24 - place)) & 0xFFF]
    return escapes


def _roll_sets(low: int, bits: int) -> Ints:
    """For every pattern of ``bits`` distances starting at distance ``low``: the rolls
    (bit ``r``: the ``r``-th of :data:`ROLL_REACH`) that reach one of them."""
    table = np.zeros(1 << bits, dtype=np.int64)
    for pattern in range(1 << bits):
        distances = pattern << low
        for r, (reach, _) in enumerate(ROLL_REACH):
            if distances & reach:
                table[pattern] |= 1 << r
    return table


def _roll_weights(low: int, bits: int) -> Ints:
    """For every set of ``bits`` rolls starting at roll ``low``: their weight of 36."""
    return np.array(
        [
            sum(w for r, (_, w) in enumerate(ROLL_REACH[low : low + bits]) if rolls >> r & 1)
            for rolls in range(1 << bits)
        ],
        dtype=np.int64,
    )


_HALF = 12
_NEAR_ROLLS = _roll_sets(0, _HALF)
_FAR_ROLLS = _roll_sets(_HALF, POINTS + 1 - _HALF)
_ROLL_HALF = 11
_LOW_WEIGHTS = _roll_weights(0, _ROLL_HALF)
_HIGH_WEIGHTS = _roll_weights(_ROLL_HALF, len(ROLL_REACH) - _ROLL_HALF)


def _weight(rolls: Ints) -> Ints:
    """The weight of 36 of each set of rolls (bit ``r``: the ``r``-th of ROLL_REACH)."""
    weights: Ints = _LOW_WEIGHTS[rolls & ((1 << _ROLL_HALF) - 1)]
    weights += _HIGH_WEIGHTS[rolls >> _ROLL_HALF]
    return weights


def _hits(side: _Side, other: _Side) -> tuple[Ints, Ints, Ints]:
    """Shots, pips lost to a hit and double shots at ``side``'s blots, for every
    position (:func:`rules.backgammon.features._hits`): per blot the set of rolls that
    reach it, from two tables of distance patterns; then a roll counts once for the
    shots, twice reached for the double shots, and for the pips lost at the rearmost
    blot it reaches."""
    shift = 23 - _PLACE[:POINTS]
    distances = (other.hitters[:, None] >> shift[None, :]) & ~np.int64(1)
    distances &= -((side.blots[:, None] >> _PLACE[None, :POINTS]) & 1)  # blots only
    rolls = _NEAR_ROLLS[distances & ((1 << _HALF) - 1)] | _FAR_ROLLS[distances >> _HALF]
    # rolls reaching a blot on a higher point, for each point (the last column none)
    behind = np.zeros_like(rolls)
    behind[:, :-1] = np.bitwise_or.accumulate(rolls[:, :0:-1], axis=1)[:, ::-1]
    shot = _weight(behind[:, 0] | rolls[:, 0])
    double = _weight(np.bitwise_or.reduce(rolls & behind, axis=1))
    lost = (_weight(rolls & ~behind) * _PIPS[None, :POINTS]).sum(axis=1)
    return shot, lost // 36, double


def _prime(made: Ints) -> Ints:
    run, length = made.copy(), np.zeros_like(made)
    while run.any():
        length += run != 0
        run &= run << 1
    return length


def _timing(board: Ints, line: Ints) -> Ints:
    """:func:`rules.backgammon.features._timing` for every position."""
    total = BAR * board[:, BAR]
    free = board[:, BAR].copy()
    outer = board[:, 6:BAR]
    place = _PLACE[6:BAR][None, :]
    holding = (place >= 12) & (place > line[:, None])
    counted = np.where(holding & (outer > 1), outer - 2, outer)
    free += counted.sum(axis=1)
    total += (counted * place).sum(axis=1)
    for p in range(5, -1, -1):
        n = board[:, p]
        spare = n > 2
        total += np.where(spare, p * (n - 2), 0)
        free += np.where(spare, n - 2, 0)
        fill = (n < 2) & (free >= 2 - n)
        total -= np.where(fill, p * (2 - n), 0)
        free -= np.where(fill, 2 - n, 0)
    return np.maximum(total, 0)


def _blocks(side: _Side, other: _Side) -> tuple[list[Ints], list[Ints], list[Ints]]:
    """The three blocks of figures of ``side`` (:func:`rules.backgammon.features.counts`)."""
    shot, lost, double = _hits(side, other)
    first = [
        _escapes_from(side.rearmost, other.made),
        shot,
        (side.board[:, :6] >= 2).sum(axis=1),
        _prime(side.made),
    ]
    line = 23 - other.rearmost
    behind = (side.board * np.maximum(_PLACE[None, :] - line[:, None], 0)).sum(axis=1)
    behind = np.where(other.rearmost >= 0, behind, 0)
    fewest = _escapes_from(np.arange(12, PLACES, dtype=np.int64)[None, :], other.made[:, None])
    second = [fewest.min(axis=1), _bit_length(side.made), behind, lost]
    home = side.board[:, HOME_OF_THE_OTHER.start : BAR] >= 2
    anchor = np.where(home.any(axis=1), 6 - home.argmax(axis=1), 0)
    back = side.board[:, HOME_OF_THE_OTHER.start : HOME_OF_THE_OTHER.stop].sum(axis=1)
    third = [double, back, anchor, _timing(side.board, line)]
    return first, second, third


def counts(on_roll: Ints, other: Ints) -> Ints:
    """The hand-made figures of every position as whole counts, (n, 24), in the order of
    :func:`rules.backgammon.features.counts` (all three blocks)."""
    mine, theirs = _Side.of(on_roll), _Side.of(other)
    a, b = _blocks(mine, theirs), _blocks(theirs, mine)
    return np.stack([*a[0], *b[0], *a[1], *b[1], *a[2], *b[2]], axis=1).astype(np.int64)


def contact(on_roll: Ints, other: Ints) -> Bools:
    """:func:`rules.backgammon.engine.has_contact` for every position."""
    back = _Side.of(on_roll).rearmost
    occupied = other > 0
    front = np.where(occupied.any(axis=1), 23 - (PLACES - 1 - occupied[:, ::-1].argmax(axis=1)), 24)
    return back > front


def _board_inputs(on_roll: Ints, other: Ints, has_contact: Bools, width: int) -> Floats:
    """The dense input rows (:func:`rules.backgammon.net.encode`), board part filled."""
    n = len(on_roll)
    x = np.zeros((n, width), dtype=np.float64)
    for base, board in ((0, on_roll), (UNITS_PER_SIDE, other)):
        points = board[:, :POINTS]
        units = x[:, base : base + 4 * POINTS].reshape(n, POINTS, 4)
        units[:, :, 0] = points >= 1
        units[:, :, 1] = points >= 2
        units[:, :, 2] = points >= 3
        units[:, :, 3] = np.maximum(points - 3, 0) / 2
        x[:, base + 4 * POINTS] = board[:, BAR] / 2
        x[:, base + 4 * POINTS + 1] = (CHECKERS - board.sum(axis=1)) / CHECKERS
    x[:, 2 * UNITS_PER_SIDE] = (on_roll * _PIPS).sum(axis=1) / 100
    x[:, 2 * UNITS_PER_SIDE + 1] = (other * _PIPS).sum(axis=1) / 100
    x[:, 2 * UNITS_PER_SIDE + 2] = has_contact
    return x


def _race_inputs(x: Floats, side: int, board: Ints) -> None:
    off = CHECKERS - board.sum(axis=1)
    rows = np.nonzero((off > 0) & (off <= RACE_OFF_UNITS))[0]
    x[rows, BOARD_INPUTS + side * RACE_OFF_UNITS + off[rows] - 1] = 1.0
    x[:, BOARD_INPUTS + 2 * RACE_OFF_UNITS + side] = (board * _CROSSINGS).sum(axis=1) / (
        CROSSING_SCALE
    )


class BatchNetwork:
    """A :class:`rules.backgammon.net.Network`'s weights as arrays, for
    :meth:`probabilities` of many positions at once."""

    def __init__(self, network: Network) -> None:
        self.network = network
        self.rows = np.array(network.rows, dtype=np.float64)
        self.hidden_bias = np.array(network.hidden_bias, dtype=np.float64)
        self.out_rows = np.array(network.out_rows, dtype=np.float64).T.copy()
        self.out_bias = np.array(network.out_bias, dtype=np.float64)
        self.race = network.reads_race_inputs
        self.figures = network.figure_inputs

    def inputs(self, on_roll: Ints, other: Ints, has_contact: Bools) -> Floats:
        x = _board_inputs(on_roll, other, has_contact, len(self.rows))
        if self.race:
            _race_inputs(x, 0, on_roll)
            _race_inputs(x, 1, other)
        elif self.figures:
            figures = counts(on_roll, other)[:, : self.figures]
            x[:, BOARD_INPUTS:] = figures / _SCALES[: self.figures]
        return x

    def raw(self, on_roll: Ints, other: Ints, has_contact: Bools) -> Floats:
        """The network's five outputs per position, (n, 5), before :func:`consistent`."""
        acc = self.inputs(on_roll, other, has_contact) @ self.rows
        acc += self.hidden_bias
        hidden = _sigmoid(acc)
        out = hidden @ self.out_rows
        out += self.out_bias
        return _sigmoid(out)

    def probabilities(self, positions: Sequence[Position]) -> list[Probabilities]:
        """:meth:`rules.backgammon.net.Network.probabilities` of each (on roll, other)
        position, this network alone answering (the benchmarks compare it so)."""
        mine = boards([p[0] for p in positions])
        theirs = boards([p[1] for p in positions])
        touching = contact(mine, theirs)
        p = consistent_sane(self.raw(mine, theirs, touching), mine, theirs, touching)
        return [(r[0], r[1], r[2], r[3], r[4]) for r in p.tolist()]


def _sigmoid(x: Floats) -> Floats:
    """:func:`rules.backgammon.net._sigmoid` of every element, in place (no temporary
    arrays: at a few hundred positions by 256 hidden units they cost as much as the
    exponentials)."""
    cut = x < -40.0
    np.negative(x, out=x)
    with np.errstate(over="ignore"):
        np.exp(x, out=x)
    x += 1.0
    np.reciprocal(x, out=x)
    x[cut] = 0.0
    return x


def consistent_sane(p: Floats, on_roll: Ints, other: Ints, has_contact: Bools) -> Floats:
    """:func:`rules.backgammon.net.consistent` and then :func:`~rules.backgammon.net.sane`
    for every row of raw outputs ``p``."""
    win = np.minimum(np.maximum(p[:, 0], 0.0), 1.0)
    win_g = np.minimum(np.maximum(p[:, 1], 0.0), win)
    win_bg = np.minimum(np.maximum(p[:, 2], 0.0), win_g)
    lose_g = np.minimum(np.maximum(p[:, 3], 0.0), 1.0 - win)
    lose_bg = np.minimum(np.maximum(p[:, 4], 0.0), lose_g)
    back = slice(HOME_OF_THE_OTHER.start, HOME_OF_THE_OTHER.stop)
    for board, gammon, backgammon in ((on_roll, lose_g, lose_bg), (other, win_g, win_bg)):
        started = board.sum(axis=1) < CHECKERS
        gammon[started] = 0.0
        backgammon[started | (~has_contact & ~board[:, back].any(axis=1))] = 0.0
    return np.stack([win, win_g, win_bg, lose_g, lose_bg], axis=1)


@dataclass
class NumpyEvaluator:
    """:func:`rules.backgammon.evaluation.probabilities` for many positions: the bear-off
    database where both sides bear off, the race network without contact, the main
    network otherwise, the positions of each kind in one batch."""

    network: BatchNetwork
    race: BatchNetwork
    exact_bearoff: bool = True

    @classmethod
    def of(cls, network: Network, race: Network, exact_bearoff: bool = True) -> NumpyEvaluator:
        return cls(BatchNetwork(network), BatchNetwork(race), exact_bearoff)

    def probabilities(self, positions: Sequence[Position]) -> list[Probabilities]:
        """The five chances of the side on roll for each (on roll, other) position."""
        if not positions:
            return []
        mine = boards([p[0] for p in positions])
        theirs = boards([p[1] for p in positions])
        out = np.zeros((len(positions), 5), dtype=np.float64)
        todo = np.ones(len(positions), dtype=bool)
        if self.exact_bearoff:
            # bearoff.probabilities' own test, first for all at once
            maybe = ~mine[:, bearoff.HOME :].any(axis=1) & ~theirs[:, bearoff.HOME :].any(axis=1)
            maybe &= mine.any(axis=1) & theirs.any(axis=1)
            for i in np.nonzero(maybe)[0].tolist():
                exact = bearoff.probabilities(positions[i][0], positions[i][1])
                if exact is not None:
                    out[i] = exact
                    todo[i] = False
        touching = contact(mine, theirs)
        for net, chosen in ((self.network, touching), (self.race, ~touching)):
            rows = np.nonzero(chosen & todo)[0]
            if len(rows):
                a, b, c = mine[rows], theirs[rows], touching[rows]
                out[rows] = consistent_sane(net.raw(a, b, c), a, b, c)
        return [(p[0], p[1], p[2], p[3], p[4]) for p in out.tolist()]

    def equities(self, positions: Sequence[Position]) -> list[float]:
        """Cubeless equity of the side on roll in each position
        (:func:`rules.backgammon.net.equity` of :meth:`probabilities`, same operations
        in the same order)."""
        if not positions:
            return []
        p = np.array(self.probabilities(positions), dtype=np.float64)
        values: list[float] = (2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]).tolist()
        return values
