"""Hand-made inputs for the Backgammon network: a few numbers a player counts at once.

Why: the network sees one unit per point and count, so "how many rolls hit my blot" or
"can my back checker get out" are things it must discover from millions of examples,
and a small network only half does. GNU Backgammon's own evaluator feeds such counts in
beside the raw board (escapes, shots, primes), and so do we, in the simpler form below.

Every function takes two boards in their own views (index 0–23 a point counted from the
side's own home, 24 the bar), first the side the figure is about, then its opponent. A
checker of the opponent on its own index ``j`` stands on the first side's index
``23 - j``; the first side moves down its indices, the opponent up them.

The figures are approximations on purpose (blocked points on the way of a combined shot
are ignored, an opponent on the bar hits only from the bar): they only have to be
cheap, and the same in :mod:`rules.backgammon.net` and in the trainer's numpy copy.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.backgammon.moves import BAR

NAMES = ("escapes", "shots", "home points", "prime")
"""The figures per side, in input order; the first side's come first, then the other's."""

SCALES = (36, 36, 6, 6)
"""Each figure is a whole count; the input is the count over its scale (about 0–1)."""

MAXIMA = (36, 36, 6, 7)
"""The largest count of each figure (a prime of 15 checkers spans at most 7 points), so
that a network can precompute its input row for every count."""

FEATURES = 2 * len(NAMES)


def _escape_count(mask: int) -> int:
    """Rolls of 36 that carry a checker past the made points in ``mask`` (bit i: the
    point i + 1 pips ahead is blocked): the point of the sum is open, and at least one
    of the two single dice lands open. GNU Backgammon's own escape table counts the
    same way."""
    count = 0
    for n0 in range(6):
        for n1 in range(n0 + 1):
            if not mask & (1 << (n0 + n1 + 1)) and not (mask & (1 << n0) and mask & (1 << n1)):
                count += 1 if n0 == n1 else 2
    return count


ESCAPES = tuple(_escape_count(mask) for mask in range(1 << 12))
"""Escaping rolls of 36 for every pattern of blocked points among the next twelve."""


def _roll_reach() -> tuple[tuple[int, int], ...]:
    """For each distinct roll: the bit mask of the distances it can hit from one
    checker (one die, both, or for a double up to four steps), and its weight of 36."""
    rolls = []
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            steps = (d1, 2 * d1, 3 * d1, 4 * d1) if d1 == d2 else (d1, d2, d1 + d2)
            reach = 0
            for distance in steps:
                reach |= 1 << distance
            rolls.append((reach, 1 if d1 == d2 else 2))
    return tuple(rolls)


ROLL_REACH = _roll_reach()


def rearmost(board: Sequence[int]) -> int:
    """The index of the side's rearmost checker (24 the bar), or -1 when none is left."""
    for place in range(BAR, -1, -1):
        if board[place]:
            return place
    return -1


def escapes(board: Sequence[int], other: Sequence[int]) -> int:
    """Rolls of 36 with which the side's rearmost checker gets past the opponent's made
    points among the twelve in front of it (36 when nothing stands there)."""
    back = rearmost(board)
    mask = 0
    for i in range(12):
        place = back - 1 - i
        if place < 0:
            break
        if other[23 - place] >= 2:
            mask |= 1 << i
    return ESCAPES[mask]


def shots(board: Sequence[int], other: Sequence[int]) -> int:
    """Rolls of 36 on which the opponent can hit one of the side's blots: from the bar
    if it has a checker there, else from any checker behind a blot, directly or with a
    combination (blocks on the way not counted)."""
    distances = 0
    hitters = [-1] if other[BAR] else [23 - j for j in range(BAR) if other[j]]
    for blot in range(BAR):
        if board[blot] == 1:
            for hitter in hitters:
                distance = blot - hitter
                if distance > 0:
                    distances |= 1 << distance
    if not distances:
        return 0
    return sum(weight for reach, weight in ROLL_REACH if distances & reach)


def home_points(board: Sequence[int]) -> int:
    """Points made (two or more checkers) in the side's home board."""
    return sum(1 for place in range(6) if board[place] >= 2)


def prime(board: Sequence[int]) -> int:
    """The longest run of consecutive made points anywhere on the board."""
    best = run = 0
    for place in range(BAR):
        run = run + 1 if board[place] >= 2 else 0
        best = max(best, run)
    return best


def counts(on_roll: Sequence[int], other: Sequence[int]) -> tuple[int, ...]:
    """The :data:`FEATURES` figures as whole counts: for each side in turn (the one on
    roll first) its escapes, the opponent's shots at it, its home points and its longest
    prime."""
    values: list[int] = []
    for mine, theirs in ((on_roll, other), (other, on_roll)):
        values.append(escapes(mine, theirs))
        values.append(shots(mine, theirs))
        values.append(home_points(mine))
        values.append(prime(mine))
    return tuple(values)


def features(on_roll: Sequence[int], other: Sequence[int]) -> tuple[float, ...]:
    """The network's inputs: :func:`counts`, each over its scale (:data:`SCALES`)."""
    return tuple(count / SCALES[k % len(NAMES)] for k, count in enumerate(counts(on_roll, other)))
