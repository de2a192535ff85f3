"""What animates on the table: a roll, a move or the winner's stripes, and the dice.

Why apart from the table: an animation is a start and a length on the table's clock
(the views draw its steps from :meth:`Motion.progress`); the table only says when one
begins and what happens when it ends.
"""

from __future__ import annotations

from rules.core import Dice, Move, State


class Motion:
    def __init__(self) -> None:
        self.start = 0.0
        self.length = 0.0
        """Seconds the running animation lasts (0: nothing animates)."""
        self.dice: Dice | None = None
        """The dice tumbling now (None: no roll animates)."""
        self.roller: str | None = None
        """Who threw them (an opening throw passes the turn)."""
        self.opening = False
        """The throw decides who begins (Backgammon's opening roll)."""
        self.moving: tuple[Move, State, State] | None = None
        """The move animating: the move, the state before and after."""
        self.last_dice: Dice | None = None
        """The last dice thrown, as a game in play shows them beside the board."""

    def thrown(self, dice: Dice, roller: str | None, opening: bool) -> None:
        """Dice thrown by ``roller`` tumble now."""
        self.dice, self.roller, self.opening = dice, roller, opening

    def roll_shown(self) -> None:
        """The roll's animation is over (the dice stay beside the board)."""
        self.dice = None
        self.length = 0.0

    def move(self, moving: tuple[Move, State, State]) -> None:
        """The move to animate."""
        self.moving = moving

    def move_shown(self) -> None:
        """The move's animation is over, or there is none (a decision with nothing to
        animate)."""
        self.moving = None
        self.length = 0.0

    def shown_dice(self, dice: Dice | None) -> None:
        """The dice beside the board (None: a new game of a match, none thrown yet; a
        resumed game's last roll)."""
        self.last_dice = dice

    def stop(self) -> None:
        """Nothing animates any more (the winner's stripes end)."""
        self.length = 0.0

    def begin(self, now: float, seconds: float) -> None:
        self.start = now
        self.length = seconds

    def progress(self, now: float) -> float:
        """How far the running animation is, 0..1."""
        if self.length <= 0:
            return 1.0
        return min(1.0, max(0.0, (now - self.start) / self.length))

    def hurry(self, now: float, factor: float) -> None:
        """The rest of the animation runs ``factor`` times as long, from where it is."""
        done = self.progress(now)
        self.length *= factor
        self.start = now - done * self.length

    def ends(self) -> float:
        return self.start + self.length


class DiceEntry:
    """Physical dice: the values counted in so far, one die after the other."""

    def __init__(self) -> None:
        self.values: list[int] = []

    def clear(self) -> None:
        self.values = []

    def count_up(self) -> None:
        """NEXT counts the die being entered up, 1–6."""
        if not self.values:
            self.values = [1]
        self.values[-1] = self.values[-1] % 6 + 1

    def confirm(self, count: int) -> Dice | None:
        """OK confirms the die being entered; the throw once all ``count`` are in."""
        if not self.values:
            self.values = [1]
        if len(self.values) < count:
            self.values.append(1)
            return None
        dice = tuple(self.values)
        self.values = []
        return dice
