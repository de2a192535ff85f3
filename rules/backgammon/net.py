"""A small neural evaluation of Backgammon positions, in pure Python.

Why a network: Tesauro's *pubeval* is linear, and a linear score cannot weigh a blot
against a prime, or a race lead against a back game. One hidden layer can, and small
networks of this shape are what lifted TD-Gammon above pubeval. The bot must stay on the
rules side (standard library only, no I/O), so the forward pass is written out here
and the weights are data in ``weights.bin`` beside this module, produced offline by
``benchmarks/train_backgammon_net.py``.

Input (the "Tesauro" encoding, per side, from the view of the side *on roll* first):
for each of the 24 points four units, "at least one checker", "at least two", "at least
three" and "(n - 3) / 2 beyond three"; then the checkers on the bar / 2 and the checkers
borne off / 15. That is 98 units per side; three extras follow: both pip counts / 100
and a "contact" flag (1 while the two armies can still hit each other). Most units are
zero, so the input is kept sparse and the first layer adds only the rows it needs.
Then the hand-made figures of :mod:`rules.backgammon.features`: a first block of eight
(escapes, shots, home points, primes), a second of eight (containment, back anchor,
break contact, pips lost to a hit) and a third of eight (double shots, checkers back,
forward anchor, timing). An older blob reads only what it was trained with: the board
alone (199 inputs), or the board and the first block (207) or two blocks (215).

A race network (:data:`RACE_INPUTS`) reads the board and, instead of the figures, what
decides a race beyond the pip counts: per side, which of 1–14 checkers are borne off
(one unit each, since a race turns on the last few rolls, which a single "borne off /
15" unit cannot tell apart), and how many quadrant crossings its checkers still have
to make / 10 (the rolls it must spend before it can bear off at all). GNU Backgammon's
race network reads the same two.

Output: five probabilities for the side on roll, in GNU Backgammon's order: it wins, it
wins a gammon (or better), it wins a backgammon, it loses a gammon (or worse), it loses
a backgammon. :func:`equity` turns them into cubeless money equity.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from rules.backgammon.engine import has_contact, pip_count
from rules.backgammon.features import (
    BLOCKS,
    FEATURES,
    HOME_OF_THE_OTHER,
    INPUT_MAXIMA,
    INPUT_SCALES,
    counts,
    features,
)
from rules.backgammon.moves import BAR, CHECKERS
from rules.data import read_checked

POINTS = 24
UNITS_PER_SIDE = 4 * POINTS + 2
EXTRAS = 3
CONTACT = 2 * UNITS_PER_SIDE + 2
BOARD_INPUTS = 2 * UNITS_PER_SIDE + EXTRAS
INPUTS = BOARD_INPUTS + FEATURES
"""The inputs of a network trained with all the hand-made figures (the trainer's shape)."""
RACE_OFF_UNITS = CHECKERS - 1
"""Per side, one unit for each count of checkers borne off, 1–14 (15 ends the game)."""
RACE_INPUTS = BOARD_INPUTS + 2 * RACE_OFF_UNITS + 2
"""The inputs of a race network: the board, both sides' borne-off units, both sides'
crossings (module docstring)."""
CROSSING_SCALE = 10
SHAPES = (BOARD_INPUTS, *(BOARD_INPUTS + n for n in BLOCKS), RACE_INPUTS)
"""The input counts a blob may have: the board alone, the board and the first one or two
blocks of figures (older blobs), everything, or a race network's."""
OUTPUTS = 5
WEIGHTS_FILE = "weights.bin"
"""The shipped weights in this package (with their provenance sidecar)."""
RACE_FILE = "race.bin"
"""The race network's weights (:data:`RACE_INPUTS`), for positions without contact."""

MAGIC = b"STBGNET1"
"""The first bytes of a weights blob; the format is versioned by this string."""

Probabilities = tuple[float, float, float, float, float]
Stacks = tuple[tuple[tuple[int, ...], ...], ...]
Figures = tuple[tuple[int, ...], ...]

FIXED_POINT = 32
"""The first layer adds in fixed point: a weight ``w`` is the whole number
``round(w * 2**FIXED_POINT)``, exact to about 2e-10, far below the half floats the
weights are stored as."""
FIELD = 64
"""Bits per hidden unit in a packed row (:class:`PackedLayer`)."""
FIELD_OFFSET = 1 << 54
"""Added to every field of a packed row so that no field is negative; a weight must
stay below ``FIELD_OFFSET / 2**FIXED_POINT`` (about four million) in size."""
SIGN = 1 << (FIELD - 1)


def place_units(base: int, place: int, n: int) -> list[tuple[int, float]]:
    """The non-zero inputs for ``n`` > 0 checkers of one side on one place (0–23 a
    point, 24 the bar); ``base`` is that side's first unit (module docstring)."""
    if place == BAR:
        return [(base + 4 * POINTS, n / 2)]
    unit = base + 4 * place
    units = [(unit, 1.0)]
    if n >= 2:
        units.append((unit + 1, 1.0))
        if n >= 3:
            units.append((unit + 2, 1.0))
            if n > 3:
                units.append((unit + 3, (n - 3) / 2))
    return units


def off_unit(base: int, off: int) -> tuple[int, float]:
    """The input for ``off`` > 0 checkers of one side borne off."""
    return (base + 4 * POINTS + 1, off / CHECKERS)


def crossings(place: int) -> int:
    """Quadrant lines a checker on ``place`` (0–23 a point, 24 the bar) still crosses on
    its way into its home board: none from home, one from the outer board, and so on."""
    return 4 if place == BAR else place // 6


def race_units(side: int, board: Sequence[int]) -> list[tuple[int, float]]:
    """A race network's non-zero inputs beyond the board for one side (0 the side on
    roll): its borne-off unit and its crossings (module docstring)."""
    units: list[tuple[int, float]] = []
    off = CHECKERS - sum(board)
    if 0 < off <= RACE_OFF_UNITS:
        units.append((BOARD_INPUTS + side * RACE_OFF_UNITS + off - 1, 1.0))
    crossed = sum(n * crossings(place) for place, n in enumerate(board))
    if crossed:
        units.append((BOARD_INPUTS + 2 * RACE_OFF_UNITS + side, crossed / CROSSING_SCALE))
    return units


def encode(
    on_roll: Sequence[int], other: Sequence[int], race: bool = False
) -> list[tuple[int, float]]:
    """The non-zero inputs as (index, value) pairs (module docstring); ``race``: a race
    network's, whose inputs after the board differ."""
    units: list[tuple[int, float]] = []
    for base, board in ((0, on_roll), (UNITS_PER_SIDE, other)):
        for place in range(BAR + 1):
            if board[place]:
                units += place_units(base, place, board[place])
        off = CHECKERS - sum(board)
        if off:
            units.append(off_unit(base, off))
    extra = 2 * UNITS_PER_SIDE
    units.append((extra, pip_count(on_roll) / 100))
    units.append((extra + 1, pip_count(other) / 100))
    if has_contact(on_roll, other):
        units.append((extra + 2, 1.0))
    if race:
        return units + race_units(0, on_roll) + race_units(1, other)
    for k, value in enumerate(features(on_roll, other)):
        if value:
            units.append((BOARD_INPUTS + k, value))
    return units


def _sigmoid(x: float) -> float:
    if x < -40.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True)
class Network:
    """One hidden sigmoid layer; ``rows[i]`` holds input i's weights to every hidden
    unit, so a sparse input costs one row addition per non-zero unit (packed,
    :class:`PackedLayer`)."""

    rows: tuple[tuple[float, ...], ...]
    hidden_bias: tuple[float, ...]
    out_rows: tuple[tuple[float, ...], ...]
    """``out_rows[k]``: output k's weights from every hidden unit."""
    out_bias: tuple[float, ...]
    _packed_once: list[PackedLayer] = field(
        default_factory=list, init=False, repr=False, compare=False
    )
    """:attr:`_packed` once computed. A one-element list rather than functools'
    cached_property: the compiled build (mypyc) turns that into a plain property, which
    would rebuild the packed rows on every evaluation."""

    @property
    def hidden(self) -> int:
        return len(self.hidden_bias)

    @property
    def reads_features(self) -> bool:
        """Was it trained with the hand-made figures (older blobs were not)?"""
        return self.figure_inputs > 0

    @property
    def figure_inputs(self) -> int:
        """How many of the hand-made figures it reads: none, the first block (older
        blobs) or all (:mod:`rules.backgammon.features`); none for a race network."""
        return 0 if self.reads_race_inputs else len(self.rows) - BOARD_INPUTS

    @property
    def reads_race_inputs(self) -> bool:
        """Is it a race network, reading the borne-off units and crossings (module
        docstring) after the board? Those cost nothing when it runs: they are whole
        functions of one place's count, so :meth:`stack_rows` folds them into the rows
        of the board."""
        return len(self.rows) == RACE_INPUTS

    def probabilities(self, on_roll: Sequence[int], other: Sequence[int]) -> Probabilities:
        """The five outcome probabilities for the side on roll (module docstring).

        Same arithmetic as :meth:`reference_probabilities`, reordered for speed: the
        first layer adds one precombined, packed row per occupied point
        (:class:`PackedLayer`)."""
        packed = self._packed
        acc = packed.bias
        added = 0
        for side, board in ((0, on_roll), (1, other)):
            points = packed.stacks[side]
            for point in range(BAR + 1):
                n = board[point]
                if n:
                    acc += points[point][n]
                    added += 1
            off = CHECKERS - sum(board)
            if off:
                acc += points[BAR + 1][off]
                added += 1
        contact = has_contact(on_roll, other)
        if contact:
            acc += packed.contact
            added += 1
        if self.reads_features:
            figures = packed.figures
            for k, count in enumerate(counts(on_roll, other, packed.blocks)):
                if count:
                    acc += figures[k][count]
                    added += 1
        return sane(self._output(packed.unpack(acc, added)), on_roll, other, contact)

    def reference_probabilities(
        self, on_roll: Sequence[int], other: Sequence[int]
    ) -> Probabilities:
        """:meth:`probabilities` written straight from :func:`encode` in floats (for the
        tests)."""
        acc = list(self.hidden_bias)
        for unit, value in encode(on_roll, other, self.reads_race_inputs):
            if unit < len(self.rows):
                acc = [a + value * w for a, w in zip(acc, self.rows[unit], strict=True)]
        return sane(self._output(acc), on_roll, other, has_contact(on_roll, other))

    def _output(self, acc: Sequence[float]) -> Probabilities:
        """The hidden sigmoids and the five outputs, in one loop over the hidden units.

        Why one loop with five running sums rather than ``sum(map(mul, ...))`` per
        output: the compiled build turns it into plain float arithmetic, about five
        times faster (47 against 8 µs for 256 units), while the pure build loses a tenth.
        The sums run in the same order from the same zero, so both forms give the same
        bits."""
        w0, w1, w2, w3, w4 = self.out_rows
        o0 = o1 = o2 = o3 = o4 = 0.0
        for j, a in enumerate(acc):
            h = _sigmoid(a)
            o0 += h * w0[j]
            o1 += h * w1[j]
            o2 += h * w2[j]
            o3 += h * w3[j]
            o4 += h * w4[j]
        b = self.out_bias
        return consistent(
            (
                _sigmoid(b[0] + o0),
                _sigmoid(b[1] + o1),
                _sigmoid(b[2] + o2),
                _sigmoid(b[3] + o3),
                _sigmoid(b[4] + o4),
            )
        )

    def warm(self) -> None:
        """Build the packed rows now. Why: building them takes some 0.3 s of CPU here
        (about two thousand rows of 256 fields), which the first evaluation would
        otherwise spend inside a bot's time budget."""
        self._packed  # noqa: B018 - computed once, on first access

    @property
    def _packed(self) -> PackedLayer:
        if not self._packed_once:
            self._packed_once.append(PackedLayer.of(self))
        return self._packed_once[0]

    def stack_rows(self) -> list[list[list[list[float]]]]:
        """``[side][place][n]``: the first layer's input from ``n`` checkers of one side
        on one place (0–23 the points, 24 the bar, 25 borne off), pip count included,
        so that the forward pass adds one row per occupied place instead of up to
        five (computed once per network). A race network's borne-off unit and crossings
        fold in the same way."""
        hidden = self.hidden
        race = self.reads_race_inputs
        sides = []
        for side in (0, 1):
            base = side * UNITS_PER_SIDE
            pip_row = self.rows[2 * UNITS_PER_SIDE + side]
            crossing_row = self.rows[BOARD_INPUTS + 2 * RACE_OFF_UNITS + side] if race else ()
            places = []
            for place in range(BAR + 2):
                by_count: list[list[float]] = [[0.0] * hidden]
                for n in range(1, CHECKERS + 1):
                    if place <= BAR:
                        units = place_units(base, place, n)
                        # The pip count is linear in n: its share folds in here too.
                        weighted = [(self.rows[u], v) for u, v in units]
                        weighted.append((pip_row, (place + 1) * n / 100))
                        if race and crossings(place):
                            share = crossings(place) * n / CROSSING_SCALE
                            weighted.append((crossing_row, share))
                    else:
                        unit, value = off_unit(base, n)
                        weighted = [(self.rows[unit], value)]
                        if race and n <= RACE_OFF_UNITS:
                            off_row = self.rows[BOARD_INPUTS + side * RACE_OFF_UNITS + n - 1]
                            weighted.append((off_row, 1.0))
                    row = [0.0] * hidden
                    for weights, share in weighted:
                        row = [r + share * w for r, w in zip(row, weights, strict=True)]
                    by_count.append(row)
                places.append(by_count)
            sides.append(places)
        return sides

    def figure_rows(self) -> list[list[list[float]]]:
        """``[k][count]``: the first layer's input from hand-made figure ``k`` at that
        whole count (:mod:`rules.backgammon.features`), so a figure costs one row
        addition like an occupied point; the same products :func:`encode`'s value times
        the row would give."""
        figures = []
        for k in range(self.figure_inputs):
            weights = self.rows[BOARD_INPUTS + k]
            scale = INPUT_SCALES[k]
            figures.append(
                [[count / scale * w for w in weights] for count in range(INPUT_MAXIMA[k] + 1)]
            )
        return figures

    def to_bytes(self) -> bytes:
        """The versioned half-precision blob that :func:`from_bytes` reads."""
        flat = [w for row in self.rows for w in row]
        flat += list(self.hidden_bias)
        flat += [w for row in self.out_rows for w in row]
        flat += list(self.out_bias)
        header = MAGIC + struct.pack("<HHH", len(self.rows), self.hidden, OUTPUTS)
        return header + struct.pack(f"<{len(flat)}e", *flat)


@dataclass(frozen=True)
class PackedLayer:
    """The first layer's rows packed into one Python integer each, a whole number per
    hidden unit in its own :data:`FIELD`-bit field.

    Why: a row of 128 floats added as a list costs 128 boxed additions, about 3 µs even
    in the compiled build, and a position adds some thirty rows. Added as integers the
    thirty rows are thirty additions of long integers, which Python does in C over the
    whole width at once, and one unpacking at the end. The forward pass gets two (pure)
    to two and a half (compiled) times faster, and the sums are exact, so both builds
    agree on them to the last bit.

    Each field of a row holds ``round(w * 2**FIXED_POINT) + FIELD_OFFSET``, never
    negative, so no carry crosses into the next field; :meth:`unpack` takes the offsets
    of the rows added back out and reads the fields as signed numbers."""

    hidden: int
    bias: int
    """The hidden biases, each field also carrying ``SIGN`` (see :meth:`unpack`)."""
    stacks: Stacks
    contact: int
    figures: Figures
    blocks: int
    """How many blocks of figures the network reads (:data:`BLOCKS`; 0: none), settled
    once here rather than at every evaluation."""
    offsets: int
    """``FIELD_OFFSET`` in every field: what one added row puts in beyond its weights."""
    signs: int
    """``SIGN`` in every field."""

    @classmethod
    def of(cls, network: Network) -> PackedLayer:
        hidden = network.hidden

        def pack(row: Sequence[float], offset: int = FIELD_OFFSET) -> int:
            value = 0
            for unit, weight in enumerate(row):
                if not math.isfinite(weight) or abs(weight) * (1 << FIXED_POINT) >= FIELD_OFFSET:
                    raise ValueError(f"network weight {weight} does not fit its fixed-point field")
                value |= (round(weight * (1 << FIXED_POINT)) + offset) << (FIELD * unit)
            return value

        return cls(
            hidden=hidden,
            bias=pack(network.hidden_bias, SIGN),
            stacks=tuple(
                tuple(tuple(pack(row) for row in place) for place in side)
                for side in network.stack_rows()
            ),
            contact=pack(network.rows[CONTACT]),
            figures=tuple(tuple(pack(row) for row in rows) for rows in network.figure_rows()),
            blocks=BLOCKS.index(network.figure_inputs) + 1 if network.figure_inputs else 0,
            offsets=pack([0.0] * hidden),
            signs=pack([0.0] * hidden, SIGN),
        )

    def unpack(self, acc: int, added: int) -> list[float]:
        """The hidden units' sums from ``bias`` plus ``added`` packed rows.

        Taking the rows' offsets out leaves every field at ``SIGN`` plus its sum, still
        not negative, so again no borrow crosses a field; flipping the sign bit turns
        that into the sum in two's complement, which ``struct`` reads as signed."""
        acc = (acc - added * self.offsets) ^ self.signs
        fields = struct.unpack(f"<{self.hidden}q", acc.to_bytes(FIELD // 8 * self.hidden, "little"))
        return [value * FIXED_SCALE for value in fields]


FIXED_SCALE = 1.0 / (1 << FIXED_POINT)


def consistent(p: Sequence[float]) -> Probabilities:
    """Clamp raw outputs so that backgammons <= gammons <= the game they belong to."""
    win = min(max(p[0], 0.0), 1.0)
    win_g = min(max(p[1], 0.0), win)
    win_bg = min(max(p[2], 0.0), win_g)
    lose_g = min(max(p[3], 0.0), 1.0 - win)
    lose_bg = min(max(p[4], 0.0), lose_g)
    return (win, win_g, win_bg, lose_g, lose_bg)


def sane(
    p: Probabilities, on_roll: Sequence[int], other: Sequence[int], contact: bool
) -> Probabilities:
    """Zero the outcomes the position rules out, whatever the network says: no gammon
    against a side that has borne a checker off, and without contact no backgammon
    against a side with no checker left in the other's home board or on the bar (it can
    only move out). Why: the network's small error puts, say, 2 % backgammons into a
    plain race, and then the bot refuses a fair resignation; GNU Backgammon's evaluator
    applies the same checks."""
    win, win_g, win_bg, lose_g, lose_bg = p
    if sum(on_roll) < CHECKERS:
        lose_g = lose_bg = 0.0
    elif not contact and not any(on_roll[i] for i in HOME_OF_THE_OTHER):
        lose_bg = 0.0
    if sum(other) < CHECKERS:
        win_g = win_bg = 0.0
    elif not contact and not any(other[i] for i in HOME_OF_THE_OTHER):
        win_bg = 0.0
    return (win, win_g, win_bg, lose_g, lose_bg)


def equity(p: Probabilities) -> float:
    """Cubeless money equity of the five probabilities, from -3 to +3."""
    win, win_g, win_bg, lose_g, lose_bg = p
    return 2 * win - 1 + win_g - lose_g + win_bg - lose_bg


def flip(p: Probabilities) -> Probabilities:
    """The same outcome seen from the other side."""
    win, win_g, win_bg, lose_g, lose_bg = p
    return (1.0 - win, lose_g, lose_bg, win_g, win_bg)


def from_bytes(blob: bytes) -> Network:
    """Read a blob written by :meth:`Network.to_bytes`; raises ValueError when the blob
    is not one (wrong magic, shape or length)."""
    head = len(MAGIC) + 6
    if blob[: len(MAGIC)] != MAGIC or len(blob) < head:
        raise ValueError("not a spieltisch backgammon network (bad magic)")
    inputs, hidden, outputs = struct.unpack("<HHH", blob[len(MAGIC) : head])
    if inputs not in SHAPES or outputs != OUTPUTS or hidden < 1:
        raise ValueError(f"network shape {inputs}x{hidden}x{outputs} does not fit this code")
    count = inputs * hidden + hidden + hidden * outputs + outputs
    if len(blob) != head + 2 * count:
        raise ValueError(f"network blob has {len(blob) - head} weight bytes, expected {2 * count}")
    flat = struct.unpack(f"<{count}e", blob[head:])
    if not all(map(math.isfinite, flat)):
        raise ValueError("network blob holds a weight that is not a finite number")
    at = inputs * hidden
    rows = tuple(tuple(flat[i * hidden : (i + 1) * hidden]) for i in range(inputs))
    hidden_bias = tuple(flat[at : at + hidden])
    at += hidden
    out_rows = tuple(tuple(flat[at + k * hidden : at + (k + 1) * hidden]) for k in range(outputs))
    out_bias = tuple(flat[at + outputs * hidden :])
    return Network(rows, hidden_bias, out_rows, out_bias)


@cache
def shipped() -> Network:
    """The network trained offline and shipped with the rules (decoded once); its file
    is checked against its provenance, so a damaged one is an error, not a weak bot."""
    return from_bytes(read_checked(__package__ or "rules.backgammon", WEIGHTS_FILE))


@cache
def shipped_race() -> Network:
    """The race network shipped beside the main one: fitted to race positions alone (no
    contact), where a network that must also weigh blots and primes ranks the plays of a
    race worse. Decoded once and checked against its provenance like :func:`shipped`."""
    return from_bytes(read_checked(__package__ or "rules.backgammon", RACE_FILE))
