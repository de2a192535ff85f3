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
``benchmarks/make_bearoff.py`` to ``bearoff.bin``; tests rebuild part of it and compare.
"""

from __future__ import annotations

import struct
import zlib
from array import array
from collections.abc import Iterator, Sequence
from functools import cache

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


def index(home: Sequence[int]) -> int:
    """The position's place in the database: its rank among all tuples of six counts
    with at most 15 checkers, in lexicographic order of the counts from the ace point.
    Why a rank rather than a dict: a dict of 54 264 tuples would cost megabytes of a
    small board's memory, the rank costs a few additions."""
    rank = 0
    left = MOST
    for point in range(HOME):
        for value in range(home[point]):
            rank += _compositions(HOME - 1 - point, left - value)
        left -= home[point]
    return rank


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
    """The database file: magic, the two table sizes, then per distribution its first
    roll count and length (one byte each) and its 16-bit chances, zlib-compressed."""
    body = bytearray(struct.pack("<II", len(done), len(first)))
    for dist in (*done, *first):
        start, values = _quantise(dist)
        body += struct.pack(f"<BB{len(values)}H", start, len(values), *values)
    return MAGIC + zlib.compress(bytes(body), 9)


class Table:
    """The decoded database: every distribution as a run of 16-bit fractions in one
    array, with its first roll count and where it starts."""

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
        self.values = array("H")
        self.starts: list[int] = []
        self.offsets: list[int] = []
        self.lengths: list[int] = []
        at = 8
        for _ in range(done_count + first_count):
            if at + 2 > len(body):
                raise ValueError("bear-off database is truncated")
            start, length = body[at], body[at + 1]
            end = at + 2 + 2 * length
            if end > len(body):
                raise ValueError("bear-off database is truncated")
            self.starts.append(start)
            self.offsets.append(len(self.values))
            self.lengths.append(length)
            self.values.frombytes(body[at + 2 : end])
            at = end
        if at != len(body):
            raise ValueError("bear-off database has trailing bytes")
        self.full_index = {
            rank: k for k, rank in enumerate(index(h) for h in positions() if sum(h) == MOST)
        }
        """Rank among all positions -> place among the 15-checker ones."""

    def distribution(self, home: Sequence[int]) -> Distribution:
        """P(all borne off in exactly n rolls), n = 0, 1, …"""
        return self._read(index(home))

    def first_off(self, home: Sequence[int]) -> Distribution:
        """P(the first checker borne off in exactly n rolls), for 15 checkers."""
        return self._read(COUNT + self.full_index[index(home)])

    def _read(self, k: int) -> Distribution:
        at = self.offsets[k]
        values = self.values[at : at + self.lengths[k]]
        return (0.0,) * self.starts[k] + tuple(v / SCALE for v in values)


@cache
def shipped() -> Table:
    """The database shipped with the rules (checked against its provenance, decoded
    once: about 0.1 s)."""
    return Table(read_checked(__package__ or "rules.backgammon", DATA_FILE))


def all_home(board: Sequence[int]) -> bool:
    """Every checker still on the board is on the six home points (none on the bar)."""
    return not any(board[HOME:])


def _at_least(dist: Distribution, n: int) -> float:
    """P(needs n rolls or more)."""
    return sum(dist[n:])


def probabilities(
    on_roll: Sequence[int], other: Sequence[int], table: Table | None = None
) -> tuple[float, float, float, float, float] | None:
    """The five outcome chances for the side on roll (win, win gammon, win backgammon,
    lose gammon, lose backgammon) when both sides bear off, or None when either has a
    checker outside its home board (or none left: the game is over)."""
    if not (all_home(on_roll) and all_home(other)) or not any(on_roll) or not any(other):
        return None
    table = table or shipped()
    mine = table.distribution(on_roll[:HOME])
    theirs = table.distribution(other[:HOME])
    win = sum(p * _at_least(theirs, n) for n, p in enumerate(mine))
    win_gammon = lose_gammon = 0.0
    if sum(other[:HOME]) == MOST:
        saves = table.first_off(other[:HOME])
        win_gammon = sum(p * _at_least(saves, n) for n, p in enumerate(mine))
    if sum(on_roll[:HOME]) == MOST:
        saves = table.first_off(on_roll[:HOME])
        lose_gammon = sum(p * _at_least(saves, m + 1) for m, p in enumerate(theirs))
    win = min(max(win, 0.0), 1.0)
    return (win, min(win_gammon, win), 0.0, min(lose_gammon, 1.0 - win), 0.0)
