"""Exact bear-off chances from a one-sided database, shipped as data.

Why: once both sides have every checker in their home boards the game is a pure race
whose every outcome can be counted, and the network, trained on all kinds of positions,
picks a different bear-off play from its teacher in about three decisions of ten. A
serious player notices a bot that wastes pips in the bear-off; GNU Backgammon and
eXtreme Gammon play it from databases too.

The database is *one-sided*: for every way to place up to 15 checkers on the six home
points (54 264 positions) it holds the probability of bearing all of them off in
exactly ``n`` rolls, playing each roll to bear off in the fewest rolls on average; and,
for the 15 504 positions with all fifteen still on the board, the same for bearing off
the *first* checker (what saves a gammon). Two sides race independently once neither
can hit the other, so the two distributions give the chances of a two-sided position:

* the side on roll wins if it needs ``n`` rolls and the other side at least ``n``;
* it wins a gammon if the other side has not borne off a checker within ``n - 1`` rolls;
* it loses a gammon if the other side needs ``m`` rolls and it has borne off none in
  its first ``m``.

Playing every roll for the fewest rolls on average is not always the play that wins
most often (or saves the gammon); GNU Backgammon's one-sided database makes the same
approximation, and the difference is a small fraction of a percent.

The table is built by :func:`build` (pure, about a minute) and written by
``benchmarks/make_bearoff.py`` to ``bearoff.bin``; the tests check sampled entries of the
shipped file against one roll of their successors.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import accumulate

from rules.data import read_checked

HOME = 6
"""Points of a home board (index 0 is the ace point)."""
MOST = 15
"""Checkers per side."""
SCALE = 65535
"""Each probability is stored as a 16-bit fraction of this."""
DATA_FILE = "bearoff.bin"
MAGIC = b"SPTBOFF1"

ROLLS: tuple[tuple[tuple[int, ...], float], ...] = tuple(
    ((d1,) * 4 if d1 == d2 else (d1, d2), (1 if d1 == d2 else 2) / 36)
    for d1 in range(1, 7)
    for d2 in range(d1, 7)
)
"""The 21 rolls as the dice a side plays (four for a double) and their chance."""


def _compositions(length: int, total: int) -> int:
    """How many tuples of ``length`` counts sum to at most ``total``: C(total+length,
    length)."""
    result = 1
    for k in range(1, length + 1):
        result = result * (total + k) // k
    return result


COUNT = _compositions(HOME, MOST)
"""Positions in the database (54 264), the empty one included."""


def index(home: Sequence[int], places: int = HOME) -> int:
    """The position's place in the database: its rank among all tuples of ``places``
    counts with at most 15 checkers, in lexicographic order of the counts from the ace
    point. Why a rank rather than a dict: a dict of 54 264 tuples would cost megabytes of
    a small board's memory, the rank costs a few additions."""
    rank = 0
    left = MOST
    for point in range(places):
        for value in range(home[point]):
            rank += _compositions(places - 1 - point, left - value)
        left -= home[point]
    return rank


def full_index(home: Sequence[int]) -> int:
    """A fifteen-checker position's place among those (:func:`index` order): its first
    five counts fix the sixth, so it is their rank among five counts of at most 15."""
    return index(home, HOME - 1)


def positions() -> Iterator[tuple[int, ...]]:
    """Every position, in :func:`index` order."""

    def fill(prefix: tuple[int, ...], left: int) -> Iterator[tuple[int, ...]]:
        if len(prefix) == HOME:
            yield prefix
            return
        for value in range(left + 1):
            yield from fill((*prefix, value), left - value)

    return fill((), MOST)


def _steps(home: tuple[int, ...], die: int) -> set[tuple[int, ...]]:
    """Every position after moving one checker ``die`` pips (bearing off by the rules: a
    checker on the die's point, or the highest one when the die is higher than it).
    With every checker home, some checker can always use any die, so the rule to use as
    many dice as possible never forbids a play here."""
    highest = max((p for p in range(HOME) if home[p]), default=-1)
    found = set()
    for point in range(HOME):
        if not home[point]:
            continue
        if point >= die:
            after = list(home)
            after[point] -= 1
            after[point - die] += 1
            found.add(tuple(after))
        elif point == die - 1 or point == highest:
            after = list(home)
            after[point] -= 1
            found.add(tuple(after))
    return found


def _plays(home: tuple[int, ...], dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every position after playing ``dice`` (both orders for two dice)."""
    orders = [dice] if len(set(dice)) == 1 else [dice, dice[::-1]]
    results: set[tuple[int, ...]] = set()
    for order in orders:
        frontier = {home}
        for die in order:
            frontier = {a for h in frontier for a in (_steps(h, die) if any(h) else {h})}
        results |= frontier
    return results


Distribution = tuple[float, ...]
"""P(done in exactly n rolls) for n = 0, 1, 2, …"""


def _mix(parts: Sequence[tuple[float, Distribution]]) -> Distribution:
    """One roll more than the chance-weighted mix of the distributions after it."""
    size = 1 + max(len(d) for _, d in parts)
    mixed = [0.0] * size
    for chance, dist in parts:
        for n, p in enumerate(dist):
            mixed[n + 1] += chance * p
    return tuple(mixed)


def _mean(dist: Distribution) -> float:
    return sum(n * p for n, p in enumerate(dist))


def build() -> tuple[list[Distribution], list[Distribution]]:
    """The whole database: for every position (:func:`index` order) the distribution of
    rolls to bear off all its checkers; and for every one with all fifteen on the board,
    in the same order among themselves, of rolls to bear off the first checker."""
    every = sorted(positions(), key=lambda h: sum((p + 1) * n for p, n in enumerate(h)))
    done: dict[tuple[int, ...], Distribution] = {(0,) * HOME: (1.0,)}
    first: dict[tuple[int, ...], Distribution] = {}
    for home in every:
        if not any(home):
            continue
        full = sum(home) == MOST
        parts: list[tuple[float, Distribution]] = []
        first_parts: list[tuple[float, Distribution]] = []
        for dice, chance in ROLLS:
            after = _plays(home, dice)
            best = min(after, key=lambda a: (_mean(done[a]), a))
            parts.append((chance, done[best]))
            if full:
                if any(sum(a) < MOST for a in after):
                    first_parts.append((chance, (1.0,)))
                else:
                    soonest = min(after, key=lambda a: (_mean(first[a]), a))
                    first_parts.append((chance, first[soonest]))
        done[home] = _mix(parts)
        if full:
            first[home] = _mix(first_parts)
    ordered = list(positions())
    return [done[h] for h in ordered], [first[h] for h in ordered if sum(h) == MOST]


def _quantise(dist: Distribution) -> tuple[int, list[int]]:
    """The first roll count with a chance, and the chances from there on as 16-bit
    fractions (trailing zeros dropped)."""
    values = [round(p * SCALE) for p in dist]
    start = next((n for n, v in enumerate(values) if v), 0)
    end = max((n for n, v in enumerate(values) if v), default=0) + 1
    return start, values[start:end]


def to_bytes(done: Sequence[Distribution], first: Sequence[Distribution]) -> bytes:
    """The database file: magic, then zlib-compressed: the two table sizes; each
    distribution's first roll count with a chance (one byte each); their lengths (one
    byte each); then all their chances as 16-bit little-endian fractions, in order.
    Why columns: decoding is then three slices and a running sum, not a loop over
    seventy thousand records (a tenth of a second on a Pi)."""
    quantised = [_quantise(dist) for dist in (*done, *first)]
    values = array("H", [v for _, run in quantised for v in run])
    if sys.byteorder == "big":
        values.byteswap()
    return MAGIC + zlib.compress(
        struct.pack("<II", len(done), len(first))
        + bytes(start for start, _ in quantised)
        + bytes(len(run) for _, run in quantised)
        + values.tobytes(),
        9,
    )


class BearOffDatabase:
    """The decoded database: every distribution as a run of 16-bit fractions in one
    array, with its first roll count, its length and where it starts."""

    def __init__(self, blob: bytes) -> None:
        if blob[: len(MAGIC)] != MAGIC:
            raise ValueError("not a spieltisch bear-off database (bad magic)")
        try:
            body = zlib.decompress(blob[len(MAGIC) :])
        except zlib.error as exc:
            raise ValueError(f"bear-off database does not decompress: {exc}") from None
        if len(body) < 8:
            raise ValueError("bear-off database is truncated")
        done_count, first_count = struct.unpack_from("<II", body)
        if done_count != COUNT or first_count != _compositions(HOME - 1, MOST):
            raise ValueError(f"bear-off database holds {done_count}+{first_count} positions")
        entries = done_count + first_count
        self.starts = body[8 : 8 + entries]
        self.lengths = body[8 + entries : 8 + 2 * entries]
        self.offsets = array("I", accumulate(self.lengths, initial=0))
        """Where each distribution starts in ``values``."""
        tail = body[8 + 2 * entries :]
        if len(self.lengths) < entries or len(tail) < 2 * self.offsets[-1]:
            raise ValueError("bear-off database is truncated")
        if len(tail) > 2 * self.offsets[-1]:
            raise ValueError("bear-off database has trailing bytes")
        self.values = array("H", tail)
        if sys.byteorder == "big":
            self.values.byteswap()

    def distribution(self, home: Sequence[int]) -> Distribution:
        """P(all borne off in exactly n rolls), n = 0, 1, …"""
        start, chances = self.run(index(home))
        return (0.0,) * start + tuple(chances)

    def first_off(self, home: Sequence[int]) -> Distribution:
        """P(the first checker borne off in exactly n rolls), for 15 checkers."""
        start, chances = self.run(COUNT + full_index(home))
        return (0.0,) * start + tuple(chances)

    def run(self, k: int) -> tuple[int, list[float]]:
        """Entry ``k``: the first roll count with a chance, and the chances from there."""
        at = self.offsets[k]
        return self.starts[k], [v / SCALE for v in self.values[at : at + self.lengths[k]]]


@cache
def shipped() -> BearOffDatabase:
    """The database shipped with the rules (checked against its provenance, decoded
    once: about 0.1 s)."""
    return BearOffDatabase(read_checked(__package__ or "rules.backgammon", DATA_FILE))


def all_home(board: Sequence[int]) -> bool:
    """Every checker still on the board is on the six home points (none on the bar)."""
    return not any(board[HOME:])


class _Tail:
    """P(needs n rolls or more) of one distribution, for any n."""

    def __init__(self, start: int, chances: list[float]) -> None:
        self.start = start
        self.tails = list(accumulate(reversed(chances)))[::-1]

    def at_least(self, n: int) -> float:
        k = n - self.start
        if k <= 0:
            return 1.0
        return self.tails[k] if k < len(self.tails) else 0.0


def _first_before(mine: tuple[int, list[float]], theirs: _Tail, lag: int = 0) -> float:
    """P(my count of rolls n comes before theirs: they need n + lag rolls or more)."""
    start, chances = mine
    return sum(p * theirs.at_least(start + i + lag) for i, p in enumerate(chances))


def probabilities(
    on_roll: Sequence[int], other: Sequence[int], table: BearOffDatabase | None = None
) -> tuple[float, float, float, float, float] | None:
    """The five outcome chances for the side on roll (win, win gammon, win backgammon,
    lose gammon, lose backgammon) when both sides bear off, or None when either has a
    checker outside its home board (or none left: the game is over)."""
    if not (all_home(on_roll) and all_home(other)) or not any(on_roll) or not any(other):
        return None
    table = table or shipped()
    mine = table.run(index(on_roll))
    theirs = table.run(index(other))
    win = _first_before(mine, _Tail(*theirs))
    win_gammon = lose_gammon = 0.0
    if sum(other[:HOME]) == MOST:
        win_gammon = _first_before(mine, _Tail(*table.run(COUNT + full_index(other))))
    if sum(on_roll[:HOME]) == MOST:
        # they finish on their m-th roll, after m of mine: I am gammoned if none of mine
        # is off after m rolls, i.e. my first needs m + 1 or more
        lose_gammon = _first_before(theirs, _Tail(*table.run(COUNT + full_index(on_roll))), 1)
    win = min(max(win, 0.0), 1.0)
    return (win, min(win_gammon, win), 0.0, min(lose_gammon, 1.0 - win), 0.0)
