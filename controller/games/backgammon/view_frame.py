"""What stands where in one Backgammon frame: checkers per cell, and the marks of the
NEXT preview, the hint and the move animation.

The rules keep each side's board in its *own* view (index 0–23 = its points 1–24,
24 = its bar). A panel shows one board, so everything here is converted to **cells seen
from white's side**: points 1–24 are white's point numbers (black's point p is white's
25 − p), and four extra cells hold what is not on a point:

* :data:`WHITE_BAR` 25 (white re-enters from there onto its 24–19 points),
* :data:`BLACK_BAR` 0 (black re-enters onto white's 1–6),
* :data:`WHITE_OFF` −1 and :data:`BLACK_OFF` 26, the borne-off trays.

The preview and the hint are drawn as the *difference* between the position and the
play's result, because a :class:`rules.backgammon.engine.Play` is defined by its resulting
position (``8/5 6/5`` and ``6/5 8/5`` are one play): checkers that leave a cell blink,
cells that gain checkers light their new slots. A hit therefore shows the blot
blinking and a target lit on the opponent's bar, with no special case.

The move animation replays the play's checker steps in order, one die at a time; within
a step the checker walks point by point. A blot hit on the way goes to the bar when the
hitter lands, and in the last :data:`HIT_FLASH_SHARE` of the animation the hit checkers
flash on the bar ("captured pieces flash home").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from controller.scene import CheckerEntryView, MoveAnimation
from controller.views import timing
from rules.backgammon.engine import MOVE, BackgammonState, CubeAction, Play
from rules.backgammon.moves import BAR, CHECKERS
from rules.core import Move

WHITE_OFF = -1
BLACK_BAR = 0
WHITE_BAR = 25
BLACK_OFF = 26
POINTS = range(1, 25)
HIT_FLASH_SHARE = 0.3
"""Share of a hitting play's animation spent flashing the hit checkers on the bar."""

Counts = dict[int, int]
"""cell -> number of checkers (of one side)."""


def cell_of(seat: int, index: int) -> int:
    """White-view cell of ``seat``'s own board index (0–23 points, 24 bar, < 0 off)."""
    if index == BAR:
        return WHITE_BAR if seat == 0 else BLACK_BAR
    if index < 0:
        return WHITE_OFF if seat == 0 else BLACK_OFF
    return index + 1 if seat == 0 else 24 - index


@dataclass
class Frame:
    """Checkers per side and cell, plus what blinks or lights this frame.

    ``leaving[seat][cell]``: the top k checkers there blink (a preview's sources);
    ``arriving[seat][cell]``: k slots above that side's stack are lit (targets);
    ``flashing[seat][cell]``: the top k checkers flash fast (hit, now on the bar);
    ``walker``: (seat, cell) of a checker in flight, drawn on top of that cell;
    ``mover``: the seat whose play is previewed (its targets light white; the other
    side's, a hit blot's place on the bar, light in that side's colour).
    """

    counts: tuple[Counts, Counts]
    leaving: tuple[Counts, Counts] = field(default_factory=lambda: ({}, {}))
    arriving: tuple[Counts, Counts] = field(default_factory=lambda: ({}, {}))
    flashing: tuple[Counts, Counts] = field(default_factory=lambda: ({}, {}))
    walker: tuple[int, int] | None = None
    mover: int | None = None

    def total(self, cell: int) -> int:
        """Checkers of both sides on ``cell`` (only a hit shares a point, for a moment)."""
        return self.counts[0].get(cell, 0) + self.counts[1].get(cell, 0)


def side_counts(seat: int, board: tuple[int, ...] | list[int]) -> Counts:
    """One side's own-view board (25 counts) as white-view cells, borne-off included."""
    counts = {cell_of(seat, i): n for i, n in enumerate(board) if n}
    off = CHECKERS - sum(board)
    if off:
        counts[cell_of(seat, -1)] = off
    return counts


def static_frame(state: BackgammonState) -> Frame:
    return Frame((side_counts(0, state.boards[0]), side_counts(1, state.boards[1])))


def play_diff(state: BackgammonState, play: Play) -> tuple[tuple[Counts, Counts], ...]:
    """(leaving, arriving) per side: what ``play`` takes from and adds to each cell."""
    seat = state.turn
    after = (play.mover, play.other) if seat == 0 else (play.other, play.mover)
    leaving: tuple[Counts, Counts] = ({}, {})
    arriving: tuple[Counts, Counts] = ({}, {})
    for side in (0, 1):
        was = side_counts(side, state.boards[side])
        now = side_counts(side, after[side])
        for cell in was.keys() | now.keys():
            delta = now.get(cell, 0) - was.get(cell, 0)
            if delta < 0:
                leaving[side][cell] = -delta
            elif delta > 0:
                arriving[side][cell] = delta
    return leaving, arriving


def preview_frame(state: BackgammonState, move: Move | None, sources: bool = True) -> Frame:
    """The position with ``move`` (a play under the NEXT cursor, or the hint) marked;
    ``sources=False`` (the hint) marks only the targets, so nothing blinks."""
    frame = static_frame(state)
    if isinstance(move, Play) and state.phase == MOVE:
        leaving, arriving = play_diff(state, move)
        if sources:
            frame.leaving = (leaving[0], leaving[1])
        frame.arriving = (arriving[0], arriving[1])
        frame.mover = state.turn
    return frame


def step_die(step: tuple[int, int, bool]) -> int:
    """The die a checker step uses: its source minus its destination (a bear-off's
    destination is the source minus the die, below zero)."""
    return step[0] - step[1]


def entry_frame(state: BackgammonState, entry: CheckerEntryView) -> Frame:
    """A play entered checker by checker: the fixed steps drawn as played, the step
    under the cursor as a preview (its checker blinks, its target lights; a hit blot
    blinks and its place on the bar lights in its own colour)."""
    seat = state.turn
    own = list(state.boards[seat])
    opp = list(state.boards[1 - seat])
    for src, dst, hit in entry.played:
        _step(own, opp, src, dst, hit)
    boards = (own, opp) if seat == 0 else (opp, own)
    frame = Frame((side_counts(0, boards[0]), side_counts(1, boards[1])), mover=seat)
    if entry.step is not None:
        src, dst, hit = entry.step
        frame.leaving[seat][cell_of(seat, src)] = 1
        frame.arriving[seat][cell_of(seat, max(dst, -1))] = 1
        if hit:
            frame.leaving[1 - seat][cell_of(1 - seat, 23 - dst)] = 1
            frame.arriving[1 - seat][cell_of(1 - seat, BAR)] = 1
    return frame


def _step(own: list[int], opp: list[int], src: int, dst: int, hit: bool) -> None:
    own[src] -= 1
    if dst >= 0:
        own[dst] += 1
        if hit:
            opp[23 - dst] -= 1
            opp[BAR] += 1


def walk(src: int, dst: int) -> list[int]:
    """Own-view indices a checker visits on one step, both ends included (−1 = off)."""
    return list(range(src, max(dst, -1) - 1, -1))


def shown_state(anim: MoveAnimation) -> BackgammonState:
    """The state whose dice and cube a move animation shows: a cube decision is drawn
    already taken, a checker play with the dice it uses."""
    state = anim.after if isinstance(anim.move, CubeAction) else anim.before
    if not isinstance(state, BackgammonState):
        raise TypeError(f"the Backgammon view draws Backgammon states, not {type(state).__name__}")
    return state


def animated_frame(anim: MoveAnimation) -> Frame:
    """The checkers ``anim.progress`` (0..1) through a play (module docstring)."""
    before = anim.before
    move = anim.move
    if not isinstance(before, BackgammonState) or not isinstance(move, Play):
        return static_frame(shown_state(anim))
    if before.phase != MOVE:
        return static_frame(shown_state(anim))
    seat = before.turn
    own = list(before.boards[seat])
    opp = list(before.boards[1 - seat])
    steps = move.steps
    hits = sum(1 for _, _, hit in steps if hit)
    share = 1.0 - HIT_FLASH_SHARE if hits else 1.0
    progress = min(1.0, max(0.0, anim.progress))
    units = progress / share * len(steps)  # steps done, with the current one's share
    done = len(steps) if progress >= share else math.floor(units + timing.EPS)
    walker: tuple[int, int] | None = None
    for number, (src, dst, hit) in enumerate(steps):
        if number > done:
            break
        if number == done:
            path = walk(src, dst)
            where = min(len(path) - 1, math.floor((units - number) * len(path) + timing.EPS))
            # the walker's next point (or the next step, or the hit's flash phase)
            timing.at_progress(anim, (number + (where + 1) / len(path)) * share / len(steps))
            if where < len(path) - 1:
                own[src] -= 1
                walker = (seat, cell_of(seat, path[where]))
                break
        own[src] -= 1
        if dst >= 0:
            own[dst] += 1
            if hit:
                opp[23 - dst] -= 1
                opp[BAR] += 1
    boards = (own, opp) if seat == 0 else (opp, own)
    frame = Frame((side_counts(0, boards[0]), side_counts(1, boards[1])), walker=walker)
    if walker is not None:  # the checker in flight is on no point, and not off either
        tray = frame.counts[seat]
        off = cell_of(seat, -1)
        tray[off] -= 1
        if not tray[off]:
            del tray[off]
    if hits and progress >= share:
        frame.flashing[1 - seat][cell_of(1 - seat, BAR)] = hits
    return frame
