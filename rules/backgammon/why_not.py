"""Why a checker has no legal step, as typed facts: the coach's answer to a player who
wanted to move a checker the buttons do not offer.

The legal plays come from :mod:`rules.backgammon.moves` (enter from the bar first,
closed points, bearing off only with every checker home, as many dice as possible). A
checker that no legal play moves has one of those reasons; this module names it from
the same single steps the generator uses (:func:`rules.backgammon.moves.single_steps`),
so the reason cannot disagree with the plays on offer.

No words here: the table says them (``controller/games/backgammon/why_not_words.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.backgammon.engine import MOVE, BackgammonState, Play
from rules.backgammon.moves import BAR, single_steps
from rules.core import State


class BackgammonWhy(Enum):
    """Why the checkers on one point cannot move with the dice thrown."""

    BAR_FIRST = "bar_first"
    """A checker of the side is on the bar: it must enter before any other moves."""
    POINT_CLOSED = "point_closed"
    """Every point the dice reach holds two or more opposing checkers."""
    NOT_ALL_HOME = "not_all_home"
    """The dice would bear the checker off, but not all 15 are in the home board."""
    HIGHER_CHECKER_FIRST = "higher_checker_first"
    """Bearing off with a die higher than the point takes the highest checker only."""
    USE_BOTH_DICE = "use_both_dice"
    """The checker could move one die, but then the other die could not be played, and
    as many dice as possible must be used.

    (The other half of that rule, "if only one die can be used, the larger", never
    leaves a *checker* without a move: a checker that can play only the smaller die
    then also leaves the larger playable by another, so both dice would play. It takes
    one of two steps of the same checker away, which the choice shows by offering only
    the larger.)"""


@dataclass(frozen=True, slots=True)
class BackgammonBlocked:
    """The checkers on one point of the mover's own view (0–23 its points 1–24, 24 the
    bar) and why they cannot move."""

    point: int
    why: BackgammonWhy


def why_not(state: State) -> tuple[BackgammonBlocked, ...]:
    """Every point holding checkers of the side on turn that no legal play moves, with
    its reason, highest point first; nothing outside a checker play."""
    if not isinstance(state, BackgammonState) or state.phase != MOVE or state.offer:
        return ()
    own = list(state.boards[state.turn])
    opp = list(state.boards[1 - state.turn])
    plays = [m for m in state.legal_moves() if isinstance(m, Play)]
    moved = {src for play in plays for src, _, _ in play.steps}
    dice = sorted(set(state.dice), reverse=True)
    found: list[BackgammonBlocked] = []
    for point in range(BAR, -1, -1):
        if not own[point] or point in moved:
            continue
        found.append(BackgammonBlocked(point, _why(own, opp, dice, point, len(plays) > 0)))
    return tuple(found)


def _why(
    own: list[int], opp: list[int], dice: list[int], point: int, any_play: bool
) -> BackgammonWhy:
    if own[BAR] and point != BAR:
        return BackgammonWhy.BAR_FIRST
    steps = [die for die in dice if any(s[0] == point for s in single_steps(own, opp, die))]
    if steps and any_play:
        # A step of its own exists but leads to no legal play: the dice rule took it.
        return BackgammonWhy.USE_BOTH_DICE
    for die in dice:
        if point - die >= 0 and opp[23 - (point - die)] >= 2:
            return BackgammonWhy.POINT_CLOSED
    highest = max(i for i in range(BAR + 1) if own[i])
    if highest >= 6:
        return BackgammonWhy.NOT_ALL_HOME
    if any(point - die < 0 for die in dice):
        return BackgammonWhy.HIGHER_CHECKER_FIRST
    return BackgammonWhy.POINT_CLOSED
