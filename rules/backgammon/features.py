"""Hand-made inputs for the Backgammon network: a few numbers a player counts at once.

Why: the network sees one unit per point and count, so "how many rolls hit my blot" or
"can my back checker get out" are things it must discover from millions of examples,
and a small network only half does. GNU Backgammon's own evaluator feeds such counts in
beside the raw board (escapes, shots, primes, containment, the pips a hit costs), and
so do we, in the simpler form below, in three blocks (each came later than the one
before it, and a network trained before a block reads only the blocks it knew).

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

from rules.backgammon.moves import BAR, CHECKERS

NAMES = ("escapes", "shots", "home points", "prime")
"""The figures per side, in input order; the first side's come first, then the other's."""

SCALES = (36, 36, 6, 6)
"""Each figure is a whole count; the input is the count over its scale (about 0–1)."""

MAXIMA = (36, 36, 6, 7)
"""The largest count of each figure (a prime of 15 checkers spans at most 7 points), so
that a network can precompute its input row for every count."""

MORE_NAMES = ("containment", "back anchor", "break contact", "pips lost to a hit")
"""A second block of figures per side, after the first block of both sides, in the
spirit of GNU Backgammon's contact inputs: how closed the opponent's blockade is
anywhere (not only for the rearmost checker), where the rearmost anchor stands, how far
the side's checkers still have to go past the opponent's last one, and how many pips a
hit would cost it on average. A network trained before them reads only the first block
(:data:`FIRST_BLOCK` inputs)."""

MORE_SCALES = (36, 24, 150, 24)
MORE_MAXIMA = (36, 24, 15 * (BAR + 1), 24)
"""Break contact: at most 15 checkers on the bar, each 25 pips behind."""

THIRD_NAMES = ("double shots", "checkers back", "forward anchor", "timing")
"""A third block per side, after the second block of both sides: the rolls on which the
opponent can hit two blots at once, how many checkers are still back in the opponent's
home board, the side's most advanced anchor there, and how many pips it can play before
it must break its points (GNU Backgammon's timing input, in its own form). They weigh
the holding and priming games, where the blocks before say little about who has to
give way first."""

THIRD_SCALES = (36, 15, 6, 100)
THIRD_MAXIMA = (36, CHECKERS, 6, CHECKERS * BAR)
"""Timing: at most 15 checkers on the bar, each counted 24 pips."""

FIRST_BLOCK = 2 * len(NAMES)
SECOND_BLOCK = FIRST_BLOCK + 2 * len(MORE_NAMES)
"""The figures a network trained with two blocks reads."""
FEATURES = SECOND_BLOCK + 2 * len(THIRD_NAMES)
BLOCKS = (FIRST_BLOCK, SECOND_BLOCK, FEATURES)
"""How many figures a network reads after one, two or three blocks."""
INPUT_SCALES = SCALES * 2 + MORE_SCALES * 2 + THIRD_SCALES * 2
INPUT_MAXIMA = MAXIMA * 2 + MORE_MAXIMA * 2 + THIRD_MAXIMA * 2
"""Scale and largest count of each of the :data:`FEATURES` inputs, in input order."""

HOME_OF_THE_OTHER = range(BAR - 6, BAR + 1)
"""A side's own points 19–24 and its bar: the opponent's home board and the way into
it, where its checkers are still back (and where one left at the end loses a
backgammon)."""


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


def made_points(board: Sequence[int]) -> int:
    """The side's made points (two checkers or more) as bits of its own indices.

    Seen from the other side, the opponent's made points in front of a place ``p`` are
    then one shift: bit ``i`` of ``made_points(other) >> (24 - p)`` is the point
    ``i + 1`` pips ahead of ``p`` (the opponent's index ``24 - p + i``), and places past
    the 1-point fall off the end."""
    bits = 0
    for place in range(BAR):
        if board[place] >= 2:
            bits |= 1 << place
    return bits


def _escapes_from(place: int, blocks: int) -> int:
    """Escaping rolls of 36 from ``place`` (-1: none to move, 36) past ``blocks``, the
    opponent's :func:`made_points`."""
    return ESCAPES[(blocks >> (24 - place)) & 0xFFF]


def escapes(board: Sequence[int], other: Sequence[int]) -> int:
    """Rolls of 36 with which the side's rearmost checker gets past the opponent's made
    points among the twelve in front of it (36 when nothing stands there)."""
    return _escapes_from(rearmost(board), made_points(other))


def containment(other: Sequence[int]) -> int:
    """The fewest escaping rolls of 36 from any place in the opponent's half (the bar
    and the side's points 13–24): how well the opponent's blockade holds a checker that
    is there or would be sent back, which the rearmost checker's escapes alone miss."""
    return _fewest_escapes(made_points(other))


def _fewest_escapes(blocks: int) -> int:
    """:func:`containment` from the opponent's :func:`made_points`."""
    return min(_escapes_from(place, blocks) for place in range(12, BAR + 1))


def back_anchor(board: Sequence[int]) -> int:
    """The side's rearmost made point (two checkers or more) as its point number 1–24,
    0 when it has none."""
    for place in range(BAR - 1, -1, -1):
        if board[place] >= 2:
            return place + 1
    return 0


def break_contact(board: Sequence[int], other: Sequence[int]) -> int:
    """Pips the side's checkers must still move to reach the point of the opponent's
    rearmost checker: the part of its pip count that can still be hit or blocked (0 in
    a race)."""
    last = rearmost(other)
    if last < 0:
        return 0
    line = 23 - last  # the opponent's rearmost checker on the side's indices (-1: bar)
    return sum(board[place] * (place - line) for place in range(line + 1, BAR + 1))


def pips_lost_to_a_hit(board: Sequence[int], other: Sequence[int]) -> int:
    """The pips a hit would cost the side, averaged over the 36 rolls (whole pips,
    rounded down): for each roll the largest loss among the blots it can hit, a blot on
    the side's point ``p`` losing ``p`` pips. :func:`shots` counts the rolls; this weighs
    them by what is lost."""
    reachable = _reachable_blots(board, other)
    if not reachable:
        return 0
    total = 0
    for reach, weight in ROLL_REACH:
        lost = max((pips for pips, distances in reachable if distances & reach), default=0)
        total += weight * lost
    return total // 36


def double_shots(board: Sequence[int], other: Sequence[int]) -> int:
    """Rolls of 36 on which the opponent reaches two or more of the side's blots, each
    as :func:`shots` counts a shot (either die or both, blocks on the way ignored): the
    rolls that can turn a loose position into a lost one."""
    reachable = _reachable_blots(board, other)
    return sum(
        weight
        for reach, weight in ROLL_REACH
        if sum(1 for _, distances in reachable if distances & reach) >= 2
    )


def _reachable_blots(board: Sequence[int], other: Sequence[int]) -> list[tuple[int, int]]:
    """The side's blots the opponent can reach, as (point number, bit mask of the
    distances its hitters stand behind): from the bar only while it has a checker there,
    blocks on the way ignored (as :func:`shots` counts)."""
    hitters = [-1] if other[BAR] else [23 - j for j in range(BAR) if other[j]]
    reachable = []
    for blot in range(BAR):
        if board[blot] == 1:
            distances = 0
            for hitter in hitters:
                if blot > hitter:
                    distances |= 1 << (blot - hitter)
            if distances:
                reachable.append((blot + 1, distances))
    return reachable


def checkers_back(board: Sequence[int]) -> int:
    """The side's checkers in the opponent's home board or on the bar."""
    return sum(board[place] for place in HOME_OF_THE_OTHER)


def forward_anchor(board: Sequence[int]) -> int:
    """The opponent's point number (1–6) of the side's most advanced made point in the
    opponent's home board, 0 when it holds none there: an anchor on the 4- or 5-point
    holds far better than one on the 1-point."""
    for place in range(HOME_OF_THE_OTHER.start, BAR):
        if board[place] >= 2:
            return BAR - place
    return 0


def timing(board: Sequence[int], other: Sequence[int]) -> int:
    """Pips the side can play before it must break a point it holds, after GNU
    Backgammon's timing input: every checker on the bar or past the opponent's rearmost
    checker counts its whole way, spares beyond two and blots on the points 13–24 still
    in contact count theirs, the two holding a point there count nothing, and the home
    board's spares count while every empty or single home point, from the 6-point down,
    first takes back the pips needed to fill it from the free checkers (0 at least)."""
    return _timing(board, 23 - rearmost(other))


def _timing(board: Sequence[int], line: int) -> int:
    """:func:`timing` with the opponent's rearmost checker on the side's index ``line``
    (-1: its bar, 24: none left)."""
    total = BAR * board[BAR]
    free = board[BAR]
    for place in range(BAR - 1, 5, -1):
        n = board[place]
        if not n:
            continue
        if place >= 12 and place > line:
            n = 1 if n == 1 else n - 2
        free += n
        total += place * n
    for place in range(5, -1, -1):
        n = board[place]
        if n > 2:
            total += place * (n - 2)
            free += n - 2
        elif n < 2 and free >= 2 - n:
            total -= place * (2 - n)
            free -= 2 - n
    return max(total, 0)


def counts(on_roll: Sequence[int], other: Sequence[int], blocks: int = 3) -> tuple[int, ...]:
    """The figures as whole counts: for each side in turn (the one on roll first) its
    escapes, the opponent's shots at it, its home points and its longest prime; then,
    unless ``blocks`` is 1 (a network trained before them), for each side the second
    block (:data:`MORE_NAMES`), and unless it is 2, for each side the third
    (:data:`THIRD_NAMES`).

    The same numbers as the functions above, computed in one pass per board over bit
    masks. Why: the network asks for them at every position it scores, and called one by
    one they walked each board a dozen times, about a third of an evaluation's cost;
    ``reference_counts`` is the plain composition the tests compare this with."""
    mine, theirs = _Board(on_roll), _Board(other)
    mine_hit, theirs_hit = _hits(mine, theirs), _hits(theirs, mine)
    first = _first_block(mine, theirs, mine_hit[0]) + _first_block(theirs, mine, theirs_hit[0])
    if blocks <= 1:
        return first
    second = _second_block(mine, theirs, on_roll, mine_hit[1]) + _second_block(
        theirs, mine, other, theirs_hit[1]
    )
    if blocks == 2:
        return first + second
    return (
        first
        + second
        + _third_block(mine, theirs, on_roll, mine_hit[2])
        + _third_block(theirs, mine, other, theirs_hit[2])
    )


class _Board:
    """One side's board as bit masks of its own indices (bit ``i``: index ``i``)."""

    def __init__(self, board: Sequence[int]) -> None:
        made = occupied = blots = 0
        for place in range(BAR):
            n = board[place]
            if n:
                bit = 1 << place
                occupied |= bit
                if n == 1:
                    blots |= bit
                else:
                    made |= bit
        on_bar = board[BAR] > 0
        self.made = made
        self.blots = blots
        self.rearmost = BAR if on_bar else occupied.bit_length() - 1
        self.hitters = 1 << BAR if on_bar else occupied
        """Where this side hits from, on its own indices (the bar alone while it has a
        checker there): its checker on ``j`` is ``b + j - 23`` pips from the other
        side's blot on ``b``."""


def _hits(side: _Board, other: _Board) -> tuple[int, int, int]:
    """:func:`shots`, :func:`pips_lost_to_a_hit` and :func:`double_shots` of ``side``
    in one pass: per roll, the blots it reaches, the rearmost first (the largest loss),
    until a second one is found."""
    reachable: list[tuple[int, int]] = []
    left = side.blots
    while left:
        place = left.bit_length() - 1
        left ^= 1 << place
        distances = (other.hitters >> (23 - place)) & ~1
        if distances:
            reachable.append((place + 1, distances))
    if not reachable:
        return 0, 0, 0
    shot = lost = double = 0
    for reach, weight in ROLL_REACH:
        found = False
        for pips, distances in reachable:
            if distances & reach:
                if found:
                    double += weight
                    break
                found = True
                shot += weight
                lost += weight * pips
    return shot, lost // 36, double


def _first_block(side: _Board, other: _Board, shot: int) -> tuple[int, int, int, int]:
    """Escapes, shots, home points, longest prime (:data:`NAMES`); a prime of ``k``
    points is the number of ``run &= run << 1`` steps that empty the made points."""
    run, prime_length = side.made, 0
    while run:
        run &= run << 1
        prime_length += 1
    return (
        _escapes_from(side.rearmost, other.made),
        shot,
        (side.made & 0x3F).bit_count(),
        prime_length,
    )


def _second_block(
    side: _Board, other: _Board, board: Sequence[int], lost: int
) -> tuple[int, int, int, int]:
    """Containment, back anchor, break contact, pips lost (:data:`MORE_NAMES`)."""
    behind = 0
    if other.rearmost >= 0:
        line = 23 - other.rearmost
        for place in range(line + 1, BAR + 1):
            behind += board[place] * (place - line)
    return (_fewest_escapes(other.made), side.made.bit_length(), behind, lost)


def _third_block(
    side: _Board, other: _Board, board: Sequence[int], double: int
) -> tuple[int, int, int, int]:
    """Double shots, checkers back, forward anchor, timing (:data:`THIRD_NAMES`)."""
    anchors = (side.made >> 18) & 0x3F
    anchor = 6 - ((anchors & -anchors).bit_length() - 1) if anchors else 0
    return (double, checkers_back(board), anchor, _timing(board, 23 - other.rearmost))


def reference_counts(
    on_roll: Sequence[int], other: Sequence[int], blocks: int = 3
) -> tuple[int, ...]:
    """:func:`counts` composed from the figures' own functions, one by one (for the
    tests: the readable definition the fast pass must equal)."""
    values: list[int] = []
    sides = ((on_roll, other), (other, on_roll))
    for mine, theirs in sides:
        values.append(escapes(mine, theirs))
        values.append(shots(mine, theirs))
        values.append(home_points(mine))
        values.append(prime(mine))
    if blocks > 1:
        for mine, theirs in sides:
            values.append(containment(theirs))
            values.append(back_anchor(mine))
            values.append(break_contact(mine, theirs))
            values.append(pips_lost_to_a_hit(mine, theirs))
    if blocks > 2:
        for mine, theirs in sides:
            values.append(double_shots(mine, theirs))
            values.append(checkers_back(mine))
            values.append(forward_anchor(mine))
            values.append(timing(mine, theirs))
    return tuple(values)


def features(on_roll: Sequence[int], other: Sequence[int]) -> tuple[float, ...]:
    """The network's inputs: :func:`counts`, each over its scale (:data:`INPUT_SCALES`)."""
    return tuple(count / INPUT_SCALES[k] for k, count in enumerate(counts(on_roll, other)))
