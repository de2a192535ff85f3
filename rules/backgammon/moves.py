"""Backgammon move generation: every distinct legal play of one roll.

A side's checkers are a list of 25 counts *from its own view*: index ``i`` (0–23) is
its point ``i + 1`` (index 0 = the ace point of its home board, index 23 = the
opponent's ace point, where its back checkers start) and index 24 is the bar. This is
GNU Backgammon's board layout, so Position IDs need no conversion, and it lets one
generator serve both colours. The opponent's checkers on our index ``i`` are at *its*
index ``23 - i``.

A play is found by a depth-first search over single checker steps. The rules it
implements (the Backgammon rule text plus the standard rules; see docs/games.md):

* the bar is entered first; a point with two or more opposing checkers is closed;
* landing on a single opposing checker hits it (also on an intermediate stop);
* bearing off only with all 15 checkers home; a die higher than the highest checker's
  point bears that checker off;
* as many dice as possible must be used; if only one of two dice can be used, the larger
  one; doubles give four steps.

Different step orders that reach the same position (hits included) are one play. For
doubles the search only tries steps whose source is at or below the previous source:
every set of equal steps can be ordered that way, and it cuts the permutations.

This search is the cost of every random Backgammon game, so it tells positions apart
with as little work as each case allows (the reasons are in the functions' docstrings):

* two dice: an integer key of the *change* the play makes (:data:`TWO_STEP`), small
  enough to stay a machine word in a compiled build;
* doubles without bar or bear-off: no key at all, each play is found once;
* doubles otherwise: an exact key of the whole board (:func:`board_key`).

The searches are plain nested loops over lists of ints (no closures, no recursion),
which is also what a compiled build turns into tight C.
"""

from __future__ import annotations

from typing import Final

BAR: Final = 24
POINTS: Final = 24
CHECKERS: Final = 15

Step = tuple[int, int, bool]
"""(source index, destination index, hit). A bear-off's destination is negative
(source minus die), so every step still tells which die it used."""

Play = tuple[tuple[int, ...], tuple[int, ...], tuple[Step, ...]]
"""(mover's board after, opponent's board after, the steps in the order played)."""

Keyed = dict[int, tuple[Step, ...]]
"""Position key -> the steps that first reached that position."""

TWO_STEP: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((5 ** (src - die) if src - die >= 0 else 0) - 5**src for src in range(BAR + 1))
    for die in range(7)
)
"""``TWO_STEP[die][src]``: a step's share of a two-dice play's key, the change it makes
to the mover's board in base 5 (a step past the ace point bears the checker off).

Two steps change a place by at most two checkers either way, so two plays' changes
differ by at most four per place, less than the base: equal keys mean equal changes,
i.e. equal boards after. Its size stays below 2**57, a machine word in a compiled build.
The opponent's board follows from the mover's: every point the play ends on was hit if
it held a blot; only the middle point of one checker's chain can be hit and left, and
:data:`CHAIN_HIT` marks that."""

CHAIN_HIT: Final = (1 << 58, 1 << 59)
"""Added to a two-dice key when one checker moved on from a blot it hit: the first entry
when the roll's first die was played first, the second otherwise (the two chains end on
the same point, but pass, and hit, different middle points)."""

PLACE: Final[tuple[int, ...]] = tuple(1 << (4 * i) for i in range(BAR + 1))
"""A whole board's key (:func:`board_key`) counts one checker on index ``i`` as this:
four bits per place, and no place ever holds more than 15 checkers, so it is exact."""

HIT: Final[tuple[int, ...]] = tuple(1 << (4 * (BAR + 1) + i) for i in range(POINTS))
"""Added to a board key when a step hits on index ``i``: the opponent's board after a
play is the one before minus the blots hit (each onto the bar)."""


def board_key(own: list[int]) -> int:
    """The key of the mover's board with no hit (see :data:`PLACE`)."""
    key = 0
    for i in range(BAR, -1, -1):
        key = (key << 4) | own[i]
    return key


def legal_plays(own: list[int], opp: list[int], d1: int, d2: int) -> list[Play]:
    """Every distinct legal play of the roll ``d1``-``d2`` (empty: the roll is lost).

    Each resulting position appears once, with the first step order found for it.
    ``own`` and ``opp`` are changed during the search and restored before returning.
    """
    mover, other = tuple(own), tuple(opp)
    return [(*after(mover, other, steps), steps) for steps in play_steps(own, opp, d1, d2)]


def after(
    own: tuple[int, ...], opp: tuple[int, ...], steps: tuple[Step, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(mover's board, opponent's board) after playing ``steps`` from ``own``/``opp``."""
    mine = list(own)
    theirs = list(opp)
    for src, dst, hit in steps:
        mine[src] -= 1
        if dst >= 0:
            mine[dst] += 1
            if hit:
                theirs[23 - dst] = 0
                theirs[BAR] += 1
    return tuple(mine), tuple(theirs)


def play_steps(own: list[int], opp: list[int], d1: int, d2: int) -> list[tuple[Step, ...]]:
    """The steps of every distinct legal play (as :func:`legal_plays`, without building
    the boards: a random game needs them for one play only)."""
    # Fast paths while no checker is on the bar and no bear-off can happen within the
    # roll (too many checkers outside the home board): then whether a step is possible
    # depends only on a checker standing on its source, because hits only ever empty a
    # point and never close one.
    if not own[BAR]:
        outside = 0
        for i in range(6, BAR):
            outside += own[i]
        if d1 != d2 and outside >= 2:
            return _two_dice_fast(own, opp, d1, d2)
        if d1 == d2 and outside >= 4:
            return _doubles_fast(own, opp, d1)
    if d1 == d2:
        return list(_doubles(own, opp, d1).values())
    return _two_dice(own, opp, d1, d2)


def _open_sources(opp: list[int], die: int) -> list[int]:
    """Source indices, highest first, whose step of ``die`` lands on an open point."""
    return [src for src in range(23, die - 1, -1) if opp[23 - src + die] < 2]


def _movable(own: list[int], opp: list[int], die: int) -> list[int]:
    """Occupied source indices, highest first, whose step of ``die`` lands on an open
    point (no bar, no bear-off)."""
    return [src for src in range(23, die - 1, -1) if own[src] and opp[23 - src + die] < 2]


def _two_dice_fast(own: list[int], opp: list[int], d1: int, d2: int) -> list[tuple[Step, ...]]:
    """:func:`_two_dice` without bar or bear-off (see :func:`play_steps`)."""
    both: Keyed = {}
    one: Keyed = {}
    larger = d1 if d1 > d2 else d2
    movable1 = _movable(own, opp, d1)
    movable2 = _movable(own, opp, d2)
    for first, second, firsts, occupied in (
        (d1, d2, movable1, movable2),
        (d2, d1, movable2, movable1),
    ):
        out1 = TWO_STEP[first]
        out2 = TWO_STEP[second]
        chain_hit = CHAIN_HIT[0] if first == d1 else CHAIN_HIT[1]
        # Second-step sources (``occupied``) change only where the first step took a
        # checker away (its source) or brought one (its destination); the rest is
        # computed once. The boards are restored after each first step.
        for src in firsts:
            dst = src - first
            hit = opp[23 - dst] == 1
            own[src] -= 1
            own[dst] += 1
            if hit:
                opp[23 - dst] = 0  # the bar count plays no part in these paths
            key1 = out1[src]
            step = (src, dst, hit)
            if first != d1 and both:
                # The second order only adds chains (the same checker moving on):
                # every other pair of steps was already played in the first order.
                seconds = [dst] if dst >= second and opp[23 - dst + second] < 2 else []
            else:
                seconds = occupied
                if not own[src] and src in occupied:
                    seconds = [s for s in seconds if s != src]
                if own[dst] == 1 and dst >= second and opp[23 - dst + second] < 2:
                    seconds = [*seconds, dst]
            for src2 in seconds:
                dst2 = src2 - second
                key = key1 + out2[src2]
                if hit and src2 == dst:
                    key += chain_hit
                if key not in both:
                    both[key] = (step, (src2, dst2, opp[23 - dst2] == 1))
            if not seconds and not both and (key1 not in one or first == larger):
                one[key1] = (step,)
            own[dst] -= 1
            own[src] += 1
            if hit:
                opp[23 - dst] = 1
    if both:
        return list(both.values())
    # Only one die can be used: it must be the larger whenever the larger can move.
    big = [v for v in one.values() if v[0][0] - v[0][1] == larger]
    return big or list(one.values())


def _doubles_fast(own: list[int], opp: list[int], die: int) -> list[tuple[Step, ...]]:
    """:func:`_doubles` without bar or bear-off (see :func:`play_steps`): the four
    levels of steps are written out, each from the previous step's source down.

    No two plays found here reach the same position, so none is looked up: a play's
    change to the mover's board is (one step back minus one) times the sum over its
    steps of ``x ** source``, which fixes the sources' multiset, and each multiset is
    searched once (in falling order); the hits follow from it too (every blot a step
    lands on).
    """
    found: list[tuple[Step, ...]] = []
    best = 0
    sources = _open_sources(opp, die)
    n = len(sources)
    for i1 in range(n):
        s1 = sources[i1]
        if not own[s1]:
            continue
        t1 = s1 - die
        h1 = opp[23 - t1] == 1
        own[s1] -= 1
        own[t1] += 1
        if h1:
            opp[23 - t1] = 0  # the bar count plays no part in these paths
        p1 = (s1, t1, h1)
        more1 = False
        for i2 in range(i1, n):
            s2 = sources[i2]
            if not own[s2]:
                continue
            more1 = True
            t2 = s2 - die
            h2 = opp[23 - t2] == 1
            own[s2] -= 1
            own[t2] += 1
            if h2:
                opp[23 - t2] = 0
            p2 = (s2, t2, h2)
            more2 = False
            for i3 in range(i2, n):
                s3 = sources[i3]
                if not own[s3]:
                    continue
                more2 = True
                t3 = s3 - die
                h3 = opp[23 - t3] == 1
                own[s3] -= 1
                own[t3] += 1
                if h3:
                    opp[23 - t3] = 0
                p3 = (s3, t3, h3)
                more3 = False
                for i4 in range(i3, n):
                    s4 = sources[i4]
                    if not own[s4]:
                        continue
                    more3 = True
                    if best < 4:
                        found.clear()
                        best = 4
                    t4 = s4 - die
                    found.append((p1, p2, p3, (s4, t4, opp[23 - t4] == 1)))
                if not more3 and best <= 3:
                    if best < 3:
                        found.clear()
                        best = 3
                    found.append((p1, p2, p3))
                own[t3] -= 1
                own[s3] += 1
                if h3:
                    opp[23 - t3] = 1
            if not more2 and best <= 2:
                if best < 2:
                    found.clear()
                    best = 2
                found.append((p1, p2))
            own[t2] -= 1
            own[s2] += 1
            if h2:
                opp[23 - t2] = 1
        if not more1 and best <= 1:
            best = 1
            found.append((p1,))
        own[t1] -= 1
        own[s1] += 1
        if h1:
            opp[23 - t1] = 1
    return found


def single_steps(own: list[int], opp: list[int], die: int, top: int = BAR) -> list[Step]:
    """Every single step of ``die`` whose source is at or below index ``top``."""
    if own[BAR]:
        if top < BAR:
            return []
        dst = BAR - die
        there = opp[23 - dst]
        return [(BAR, dst, there == 1)] if there < 2 else []
    high = 23
    while not own[high]:
        high -= 1
        if high < 0:
            return []
    if top > high:
        top = high
    found: list[Step] = []
    for src in range(top, die - 1, -1):
        if own[src]:
            there = opp[23 - src + die]
            if there < 2:
                found.append((src, src - die, there == 1))
    if high < 6:  # all checkers home: bearing off
        if die - 1 <= top and own[die - 1]:
            found.append((die - 1, -1, False))
        if die > high and high <= top:
            found.append((high, high - die, False))
    return found


def _do(own: list[int], opp: list[int], step: Step, key: int) -> int:
    """Play one step on the boards; returns the board key (:data:`PLACE`) after it."""
    src, dst, hit = step
    own[src] -= 1
    key -= PLACE[src]
    if dst >= 0:
        own[dst] += 1
        key += PLACE[dst]
        if hit:
            opp[23 - dst] = 0
            opp[BAR] += 1
            key += HIT[dst]
    return key


def _undo(own: list[int], opp: list[int], step: Step) -> None:
    src, dst, hit = step
    own[src] += 1
    if dst >= 0:
        own[dst] -= 1
        if hit:
            opp[23 - dst] = 1
            opp[BAR] -= 1


def _two_dice(own: list[int], opp: list[int], d1: int, d2: int) -> list[tuple[Step, ...]]:
    """Both orders of a non-double; if only one die can be used, the larger. Plays
    are told apart by their change (:data:`TWO_STEP`)."""
    both: Keyed = {}
    one: Keyed = {}
    larger = d1 if d1 > d2 else d2
    for first, second in ((d1, d2), (d2, d1)):
        out1 = TWO_STEP[first]
        out2 = TWO_STEP[second]
        chain_hit = CHAIN_HIT[0] if first == d1 else CHAIN_HIT[1]
        for step in single_steps(own, opp, first):
            src, dst, hit = step
            _do(own, opp, step, 0)
            key1 = out1[src]
            nxt = single_steps(own, opp, second)
            if nxt:
                for step2 in nxt:
                    key = key1 + out2[step2[0]]
                    if hit and step2[0] == dst:
                        key += chain_hit
                    if key not in both:
                        both[key] = (step, step2)
            elif not both and (key1 not in one or first == larger):
                one[key1] = (step,)
            _undo(own, opp, step)
    if both:
        return list(both.values())
    # Only one die can be used: it must be the larger whenever the larger can move.
    big = [v for v in one.values() if v[0][0] - v[0][1] == larger]
    return big or list(one.values())


def _doubles(own: list[int], opp: list[int], die: int) -> Keyed:
    """Up to four steps of one die, sources never rising (one order per step set),
    as four written-out levels like :func:`_doubles_fast`. With the bar or bearing off
    in play, different step sets can reach one position (bearing off from different
    points with a high die), so plays are told apart by the whole board's key."""
    found: Keyed = {}
    best = 0
    base = board_key(own)
    for p1 in single_steps(own, opp, die):
        k1 = _do(own, opp, p1, base)
        more1 = False
        for p2 in single_steps(own, opp, die, p1[0]):
            more1 = True
            k2 = _do(own, opp, p2, k1)
            more2 = False
            for p3 in single_steps(own, opp, die, p2[0]):
                more2 = True
                k3 = _do(own, opp, p3, k2)
                more3 = False
                for p4 in single_steps(own, opp, die, p3[0]):
                    more3 = True
                    src4, dst4, hit4 = p4
                    k4 = k3 - PLACE[src4]
                    if dst4 >= 0:
                        k4 += PLACE[dst4]
                        if hit4:
                            k4 += HIT[dst4]
                    if best < 4:
                        found.clear()
                        best = 4
                    if k4 not in found:
                        found[k4] = (p1, p2, p3, p4)
                if not more3:
                    best = _keep(found, best, k3, (p1, p2, p3))
                _undo(own, opp, p3)
            if not more2:
                best = _keep(found, best, k2, (p1, p2))
            _undo(own, opp, p2)
        if not more1:
            best = _keep(found, best, k1, (p1,))
        _undo(own, opp, p1)
    return found


def _keep(found: Keyed, best: int, key: int, steps: tuple[Step, ...]) -> int:
    """Record a play that cannot go on, if it uses as many dice as the best so far (a
    play using more dice replaces all recorded ones); returns the new best."""
    used = len(steps)
    if used < best:
        return best
    if used > best:
        found.clear()
    if key not in found:
        found[key] = steps
    return used
