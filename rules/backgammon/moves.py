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


def legal_plays(own: list[int], opp: list[int], d1: int, d2: int) -> list[Play]:
    """Every distinct legal play of the roll ``d1``-``d2`` (empty: the roll is lost).

    Each resulting position appears once, with the first step order found for it.
    ``own`` and ``opp`` are changed during the search and restored before returning.
    """
    base = tuple(opp)
    return [(*boards_of(key, base), steps) for key, steps in play_keys(own, opp, d1, d2).items()]


def play_keys(own: list[int], opp: list[int], d1: int, d2: int) -> dict[bytes, tuple[Step, ...]]:
    """Like :func:`legal_plays`, keyed by a compact position key (see
    :func:`boards_of`), without building the boards: a random playout needs only one."""
    # Fast paths while no checker is on the bar and no bear-off can happen within the
    # roll (too many checkers outside the home board): then whether a step is possible
    # depends only on a checker standing on its source, because hits only ever empty a
    # point and never close one.
    if not own[BAR]:
        outside = sum(own[6:24])
        if d1 != d2 and outside >= 2:
            return _two_dice_fast(own, opp, d1, d2)
        if d1 == d2 and outside >= 4:
            return _doubles_fast(own, opp, d1)
    found = _doubles(own, opp, d1) if d1 == d2 else _two_dice(own, opp, d1, d2)
    found.pop(bytes(own), None)  # no step at all is not a play (the roll is lost)
    return found


def _open_sources(opp: list[int], die: int) -> list[int]:
    """Source indices, highest first, whose step of ``die`` lands on an open point."""
    return [src for src in range(23, die - 1, -1) if opp[23 - src + die] < 2]


def _two_dice_fast(
    own: list[int], opp: list[int], d1: int, d2: int
) -> dict[bytes, tuple[Step, ...]]:
    """:func:`_two_dice` without bar or bear-off (see :func:`play_keys`)."""
    both: dict[bytes, tuple[Step, ...]] = {}
    one: dict[bytes, tuple[Step, ...]] = {}
    larger = d1 if d1 > d2 else d2
    sources = {d1: _open_sources(opp, d1), d2: _open_sources(opp, d2)}
    for first, second in ((d1, d2), (d2, d1)):
        opens = sources[second]
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
            if hit:
                opp[23 - dst] = 0
                opp[BAR] += 1
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
            played = False
            for src2 in seconds:
                played = True
                dst2 = src2 - second
                own[src2] -= 1
                own[dst2] += 1
                if opp[23 - dst2] == 1:
                    opp[23 - dst2] = 0
                    opp[BAR] += 1
                    key = bytes(own) + bytes(opp)
                    opp[23 - dst2] = 1
                    opp[BAR] -= 1
                    step2 = (src2, dst2, True)
                else:
                    key = bytes(own) + bytes(opp) if hit else bytes(own)
                    step2 = (src2, dst2, False)
                own[dst2] -= 1
                own[src2] += 1
                if key not in both:
                    both[key] = (step, step2)
            if not played and not both:
                key = _key(own, opp, hit)
                if key not in one or first == larger:
                    one[key] = (step,)
            own[dst] -= 1
            own[src] += 1
            if hit:
                opp[23 - dst] = 1
                opp[BAR] -= 1
    if both:
        return both
    big = {k: v for k, v in one.items() if v[0][0] - v[0][1] == larger}
    return big or one


def _doubles_fast(own: list[int], opp: list[int], die: int) -> dict[bytes, tuple[Step, ...]]:
    """:func:`_doubles` without bar or bear-off (see :func:`play_keys`)."""
    found: dict[bytes, tuple[Step, ...]] = {}
    best = 0
    steps: list[Step] = []
    sources = _open_sources(opp, die)

    def go(start: int, hit: bool) -> None:
        nonlocal best
        moved = False
        if len(steps) < 4:
            for i in range(start, len(sources)):
                src = sources[i]
                if not own[src]:
                    continue
                moved = True
                dst = src - die
                hits = opp[23 - dst] == 1
                own[src] -= 1
                own[dst] += 1
                if hits:
                    opp[23 - dst] = 0
                    opp[BAR] += 1
                steps.append((src, dst, hits))
                go(i, hit or hits)
                steps.pop()
                own[dst] -= 1
                own[src] += 1
                if hits:
                    opp[23 - dst] = 1
                    opp[BAR] -= 1
        if not moved:
            used = len(steps)
            if used < best or not used:
                return
            if used > best:
                found.clear()
                best = used
            key = bytes(own) + bytes(opp) if hit else bytes(own)
            if key not in found:
                found[key] = tuple(steps)

    go(0, False)
    return found


def boards_of(key: bytes, opp: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(mover's board, opponent's board) from a play key; ``opp`` is the opponent's
    board before the play, which the key leaves out unless the play hit."""
    return tuple(key[:25]), tuple(key[25:]) if len(key) > 25 else opp


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


def _key(own: list[int], opp: list[int], hit: bool) -> bytes:
    """Position key; the opponent's board only matters (and is only added) after a hit."""
    return bytes(own) + bytes(opp) if hit else bytes(own)


def _do(own: list[int], opp: list[int], step: Step) -> None:
    src, dst, hit = step
    own[src] -= 1
    if dst >= 0:
        own[dst] += 1
        if hit:
            opp[23 - dst] = 0
            opp[BAR] += 1


def _undo(own: list[int], opp: list[int], step: Step) -> None:
    src, dst, hit = step
    own[src] += 1
    if dst >= 0:
        own[dst] -= 1
        if hit:
            opp[23 - dst] = 1
            opp[BAR] -= 1


def _two_dice(own: list[int], opp: list[int], d1: int, d2: int) -> dict[bytes, tuple[Step, ...]]:
    """Both orders of a non-double; if only one die can be used, the larger.

    The make/unmake of each step is written out here: this loop is the hot path of
    every random game.
    """
    both: dict[bytes, tuple[Step, ...]] = {}
    one: dict[bytes, tuple[Step, ...]] = {}
    larger = d1 if d1 > d2 else d2
    for first, second in ((d1, d2), (d2, d1)):
        for step in single_steps(own, opp, first):
            src, dst, hit = step
            own[src] -= 1
            if dst >= 0:
                own[dst] += 1
                if hit:
                    opp[23 - dst] = 0
                    opp[BAR] += 1
            nxt = single_steps(own, opp, second)
            if nxt:
                for step2 in nxt:
                    src2, dst2, hit2 = step2
                    own[src2] -= 1
                    if dst2 >= 0:
                        own[dst2] += 1
                        if hit2:
                            opp[23 - dst2] = 0
                            opp[BAR] += 1
                            key = bytes(own) + bytes(opp)
                            opp[23 - dst2] = 1
                            opp[BAR] -= 1
                        elif hit:
                            key = bytes(own) + bytes(opp)
                        else:
                            key = bytes(own)
                        own[dst2] -= 1
                    else:
                        key = bytes(own) + bytes(opp) if hit else bytes(own)
                    own[src2] += 1
                    if key not in both:
                        both[key] = (step, step2)
            elif not both:
                key = _key(own, opp, hit)
                if key not in one or first == larger:
                    one[key] = (step,)
            own[src] += 1
            if dst >= 0:
                own[dst] -= 1
                if hit:
                    opp[23 - dst] = 1
                    opp[BAR] -= 1
    if both:
        return both
    # Only one die can be used: it must be the larger whenever the larger can move.
    big = {k: v for k, v in one.items() if v[0][0] - v[0][1] == larger}
    return big or one


def _doubles(own: list[int], opp: list[int], die: int) -> dict[bytes, tuple[Step, ...]]:
    """Up to four steps of one die, sources never rising (one order per step set)."""
    found: dict[bytes, tuple[Step, ...]] = {}
    best = 0
    steps: list[Step] = []

    def go(top: int, hit: bool) -> None:
        nonlocal best
        nxt = single_steps(own, opp, die, top) if len(steps) < 4 else ()
        if not nxt:
            used = len(steps)
            if used < best:
                return
            if used > best:
                found.clear()
                best = used
            key = _key(own, opp, hit)
            if key not in found:
                found[key] = tuple(steps)
            return
        for step in nxt:
            _do(own, opp, step)
            steps.append(step)
            go(step[0], hit or step[2])
            steps.pop()
            _undo(own, opp, step)

    go(BAR, False)
    return found
