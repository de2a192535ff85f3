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

Positions are told apart by an integer key (:func:`board_key`): four bits per place of
the mover's board, plus one bit per point where a step hit. A step changes the key by
one table lookup, where building a bytes key of the board cost a copy per play found;
this search is the cost of every random Backgammon game. The searches are written as
plain nested loops over lists of ints (no closures, no recursion), which is also what a
compiled build turns into tight C.
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
"""Position key (:func:`board_key`) -> the steps that first reached that position."""

PLACE: Final[tuple[int, ...]] = tuple(1 << (4 * i) for i in range(BAR + 1))
"""The key's weight of one checker on index ``i``: four bits per place, and no place
ever holds more than 15 checkers, so the key of a board is exact."""

HIT: Final[tuple[int, ...]] = tuple(1 << (4 * (BAR + 1) + i) for i in range(POINTS))
"""Added to a key when a step hits on index ``i``: the opponent's board after a play is
the one before minus the blots hit (each onto the bar), so these bits complete the key."""

OUT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        (PLACE[src - die] if src - die >= 0 else 0) - PLACE[src] if die else 0
        for src in range(BAR + 1)
    )
    for die in range(7)
)
"""``OUT[die][src]``: how a step of ``die`` from ``src`` changes the key (without a hit);
a step past the ace point bears the checker off."""


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
    return [(*after(mover, other, steps), steps) for steps in play_keys(own, opp, d1, d2).values()]


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


def play_keys(own: list[int], opp: list[int], d1: int, d2: int) -> Keyed:
    """Like :func:`legal_plays`, keyed by position (:func:`board_key`), without building
    the boards: a random playout needs only one."""
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
        return _doubles(own, opp, d1)
    return _two_dice(own, opp, d1, d2)


def _open_sources(opp: list[int], die: int) -> list[int]:
    """Source indices, highest first, whose step of ``die`` lands on an open point."""
    return [src for src in range(23, die - 1, -1) if opp[23 - src + die] < 2]


def _two_dice_fast(own: list[int], opp: list[int], d1: int, d2: int) -> Keyed:
    """:func:`_two_dice` without bar or bear-off (see :func:`play_keys`)."""
    both: Keyed = {}
    one: Keyed = {}
    larger = d1 if d1 > d2 else d2
    base = board_key(own)
    sources = {d1: _open_sources(opp, d1), d2: _open_sources(opp, d2)}
    for first, second in ((d1, d2), (d2, d1)):
        opens = sources[second]
        out1 = OUT[first]
        out2 = OUT[second]
        # Second-step sources change only where the first step took a checker away
        # (its source) or brought one (its destination); the rest is computed once.
        occupied = [s for s in opens if own[s]]
        for src in sources[first]:
            if not own[src]:
                continue
            dst = src - first
            hit = opp[23 - dst] == 1
            own[src] -= 1
            own[dst] += 1
            key1 = base + out1[src]
            if hit:
                opp[23 - dst] = 0  # the bar count plays no part in these paths
                key1 += HIT[dst]
            step = (src, dst, hit)
            if first != d1 and both:
                # The second order only adds chains (the same checker moving on):
                # every other pair of steps was already played in the first order.
                seconds = [dst] if dst >= second and opp[23 - dst + second] < 2 else []
            else:
                seconds = occupied
                if not own[src] and src in opens:
                    seconds = [s for s in seconds if s != src]
                if own[dst] == 1 and dst >= second and opp[23 - dst + second] < 2:
                    seconds = [*seconds, dst]
            for src2 in seconds:
                dst2 = src2 - second
                if opp[23 - dst2] == 1:
                    key = key1 + out2[src2] + HIT[dst2]
                    if key not in both:
                        both[key] = (step, (src2, dst2, True))
                else:
                    key = key1 + out2[src2]
                    if key not in both:
                        both[key] = (step, (src2, dst2, False))
            if not seconds and not both and (key1 not in one or first == larger):
                one[key1] = (step,)
            own[dst] -= 1
            own[src] += 1
            if hit:
                opp[23 - dst] = 1
    if both:
        return both
    # Only one die can be used: it must be the larger whenever the larger can move.
    big = {k: v for k, v in one.items() if v[0][0] - v[0][1] == larger}
    return big or one


def _doubles_fast(own: list[int], opp: list[int], die: int) -> Keyed:
    """:func:`_doubles` without bar or bear-off (see :func:`play_keys`): the four
    levels of steps are written out, each from the previous step's source down."""
    found: Keyed = {}
    best = 0
    sources = _open_sources(opp, die)
    n = len(sources)
    out = OUT[die]
    base = board_key(own)
    for i1 in range(n):
        s1 = sources[i1]
        if not own[s1]:
            continue
        t1 = s1 - die
        h1 = opp[23 - t1] == 1
        own[s1] -= 1
        own[t1] += 1
        k1 = base + out[s1]
        if h1:
            opp[23 - t1] = 0  # the bar count plays no part in these paths
            k1 += HIT[t1]
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
            k2 = k1 + out[s2]
            if h2:
                opp[23 - t2] = 0
                k2 += HIT[t2]
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
                k3 = k2 + out[s3]
                if h3:
                    opp[23 - t3] = 0
                    k3 += HIT[t3]
                p3 = (s3, t3, h3)
                more3 = False
                for i4 in range(i3, n):
                    s4 = sources[i4]
                    if not own[s4]:
                        continue
                    more3 = True
                    t4 = s4 - die
                    if best < 4:
                        found.clear()
                        best = 4
                    if opp[23 - t4] == 1:
                        k4 = k3 + out[s4] + HIT[t4]
                        if k4 not in found:
                            found[k4] = (p1, p2, p3, (s4, t4, True))
                    else:
                        k4 = k3 + out[s4]
                        if k4 not in found:
                            found[k4] = (p1, p2, p3, (s4, t4, False))
                if not more3:
                    best = _keep(found, best, k3, (p1, p2, p3))
                own[t3] -= 1
                own[s3] += 1
                if h3:
                    opp[23 - t3] = 1
            if not more2:
                best = _keep(found, best, k2, (p1, p2))
            own[t2] -= 1
            own[s2] += 1
            if h2:
                opp[23 - t2] = 1
        if not more1:
            best = _keep(found, best, k1, (p1,))
        own[t1] -= 1
        own[s1] += 1
        if h1:
            opp[23 - t1] = 1
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
    """Play one step on the boards; returns the key after it."""
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


def _two_dice(own: list[int], opp: list[int], d1: int, d2: int) -> Keyed:
    """Both orders of a non-double; if only one die can be used, the larger."""
    both: Keyed = {}
    one: Keyed = {}
    larger = d1 if d1 > d2 else d2
    base = board_key(own)
    for first, second in ((d1, d2), (d2, d1)):
        for step in single_steps(own, opp, first):
            key1 = _do(own, opp, step, base)
            nxt = single_steps(own, opp, second)
            if nxt:
                for step2 in nxt:
                    src2, dst2, hit2 = step2
                    key = key1 - PLACE[src2]
                    if dst2 >= 0:
                        key += PLACE[dst2]
                        if hit2:
                            key += HIT[dst2]
                    if key not in both:
                        both[key] = (step, step2)
            elif not both and (key1 not in one or first == larger):
                one[key1] = (step,)
            _undo(own, opp, step)
    if both:
        return both
    # Only one die can be used: it must be the larger whenever the larger can move.
    big = {k: v for k, v in one.items() if v[0][0] - v[0][1] == larger}
    return big or one


def _doubles(own: list[int], opp: list[int], die: int) -> Keyed:
    """Up to four steps of one die, sources never rising (one order per step set),
    as four written-out levels like :func:`_doubles_fast`."""
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
