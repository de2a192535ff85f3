"""Backgammon entered checker by checker: which single steps the player may take next.

Why: a roll of doubles can have more than a hundred legal plays, far too many to step
through with one NEXT button, and players think one checker at a time anyway. So the
table offers single checker steps: NEXT cycles the checkers that can move with the
next die (the larger one first), then those that can move with the other die (playing
the dice the other way round); OK fixes a step; the play commits once it is complete.

Only steps that extend to a legal *complete* play are offered. The legal plays come
from the rules layer (:meth:`rules.backgammon.engine.BackgammonState.legal_moves`, which
already applies "use as many dice as possible" and "if only one die can be used, the
larger"), and so do the single steps (:func:`rules.backgammon.moves.single_steps`:
entering from the bar, closed points, bearing off). This module only searches which
sequences of single steps end on one of those plays, so it cannot admit an illegal
play, and every legal play is reachable (each is a sequence of its own steps).

Steps are the rules' ``(source, destination, hit)`` triples in the mover's own view
(index 0–23 its points 1–24, 24 the bar, a negative destination a bear-off).
"""

from __future__ import annotations

from functools import lru_cache

from rules.backgammon.engine import MOVE, BackgammonState, Play
from rules.backgammon.moves import BAR, single_steps

Step = tuple[int, int, bool]
Boards = tuple[tuple[int, ...], tuple[int, ...]]


class CheckerEntry:
    """The entry of one play at one position: options per step, completion."""

    def __init__(self, state: BackgammonState) -> None:
        if state.phase != MOVE:
            raise ValueError(f"no checker play to enter: {state.describe()}")
        self.state = state
        plays = [m for m in state.legal_moves() if isinstance(m, Play)]
        self.plays: dict[Boards, Play] = {play.boards: play for play in plays}
        self.length = len(plays[0].steps) if plays else 0
        """How many steps every legal play has (all have the same number)."""
        d1, d2 = state.dice
        self.dice: tuple[int, ...] = (d1,) * 4 if d1 == d2 else (max(d1, d2), min(d1, d2))
        self._good = lru_cache(maxsize=None)(self._extends)

    # -- the search -----------------------------------------------------------------

    def _extends(self, boards: Boards, left: tuple[int, ...], steps: int) -> bool:
        """Whether ``steps`` more steps with dice from ``left`` reach a legal play."""
        if steps == 0:
            return boards in self.plays
        own, opp = list(boards[0]), list(boards[1])
        for die in sorted(set(left), reverse=True):
            rest = _without(left, die)
            for step in single_steps(own, opp, die):
                if self._good(_after(own, opp, step), rest, steps - 1):
                    return True
        return False

    def position(self, played: tuple[Step, ...]) -> tuple[Boards, tuple[int, ...]]:
        """The boards after ``played`` and the dice not yet used."""
        seat = self.state.turn
        own = list(self.state.boards[seat])
        opp = list(self.state.boards[1 - seat])
        left = self.dice
        for step in played:
            die = step[0] - step[1]
            if die not in left:
                raise ValueError(f"step {step} uses a die that is not left in {left}")
            left = _without(left, die)
            boards = _after(own, opp, step)
            own, opp = list(boards[0]), list(boards[1])
        return (tuple(own), tuple(opp)), left

    def options(self, played: tuple[Step, ...]) -> tuple[Step, ...]:
        """The next steps that extend ``played`` towards a legal play, in NEXT order:
        the steps of the larger remaining die first, then those of the other die; each
        group from the checker farthest from home (the bar first) down."""
        boards, left = self.position(played)
        return self.options_at(boards, left, self.length - len(played))

    def options_at(self, boards: Boards, left: tuple[int, ...], remaining: int) -> tuple[Step, ...]:
        """:meth:`options` for a position reached with ``remaining`` steps to go."""
        if remaining <= 0:
            return ()
        own, opp = list(boards[0]), list(boards[1])
        found: list[Step] = []
        for die in sorted(set(left), reverse=True):
            rest = _without(left, die)
            group = sorted(set(single_steps(own, opp, die)), key=lambda s: -s[0])
            for step in group:
                if self._good(_after(own, opp, step), rest, remaining - 1):
                    found.append(step)
        return tuple(found)

    def groups(self, options: tuple[Step, ...]) -> list[int]:
        """Index of the first option of each die group (a held NEXT jumps between them)."""
        starts = []
        for index, step in enumerate(options):
            if index == 0 or step[0] - step[1] != options[index - 1][0] - options[index - 1][1]:
                starts.append(index)
        return starts

    def complete(self, played: tuple[Step, ...]) -> Play | None:
        """The legal play ``played`` makes once it has all its steps (else None). It is
        the rules' own play with the steps in the order entered, so the history and
        the animation show what the player did."""
        if len(played) != self.length:
            return None
        boards, _ = self.position(played)
        play = self.plays.get(boards)
        if play is None:
            return None
        return Play(tuple(played), play.before)


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1 :]


def _after(own: list[int], opp: list[int], step: Step) -> Boards:
    """Both boards (mover's view each) after one step; the lists are left unchanged."""
    src, dst, hit = step
    mine = list(own)
    theirs = list(opp)
    mine[src] -= 1
    if dst >= 0:
        mine[dst] += 1
        if hit:
            theirs[23 - dst] -= 1
            theirs[BAR] += 1
    return tuple(mine), tuple(theirs)
