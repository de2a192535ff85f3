"""The choice of a move: the legal moves in cycling order, the one in preview, and a
play entered checker by checker.

Why apart from the table: NEXT, a held NEXT and OK while choosing only move a cursor
over a list and fix steps of a play; the table decides when a choice begins and what
happens to the move chosen. A game whose presentation says so (Backgammon) is entered
checker by checker (:mod:`controller.games.backgammon.checker_entry`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.games import checker_steps, presentation
from controller.session import Session
from rules.core import Move

Step = tuple[int, int, bool]
"""A step of a move entered piece by piece: (from, to, hit)."""


class Choice:
    """The moves on offer and the cursor over them (or over the next checker steps)."""

    def __init__(self) -> None:
        self.moves: Sequence[Move] = ()
        self.cursor = 0
        self.press_from: int | None = None
        """The cursor when the NEXT press now down began (a held NEXT jumps from it)."""
        self.checkers: Any = None
        """The play a human enters checker by checker (None: whole moves)."""
        self.played: tuple[Step, ...] = ()
        self.steps: tuple[Step, ...] = ()

    def begin(self, session: Session) -> None:
        """A new choice: the legal moves of the session's state, the first in preview."""
        self.moves = cycling_order(session.game, session.state.legal_moves())
        self.cursor = 0
        self.press_from = None
        self.whole_moves()

    def whole_moves(self) -> None:
        """No play is entered checker by checker (a bot or the timer plays whole moves)."""
        self.checkers = None
        self.played = ()
        self.steps = ()

    def by_checker(self, session: Session) -> None:
        """A human enters the play checker by checker if the game says so, with the
        steps already fixed (a resumed game keeps them) where they are still a way to
        a legal play."""
        enter = presentation(session.game).checker_entry
        self.checkers = None if enter is None else enter(session.state, self.moves)
        if self.checkers is None:
            return
        entry = self.checkers
        self.played = ()
        for step in session.entered:
            if step not in entry.options(self.played):
                break
            self.played = (*self.played, step)
        session.keep_entered(self.played)
        self.steps = entry.options(self.played)

    def previewed(self) -> Move:
        return self.moves[self.cursor % len(self.moves)]

    def point_at(self, move: Move) -> None:
        self.cursor = list(self.moves).index(move)

    def next(self) -> bool:
        """NEXT: the next legal move (or checker step) in preview; False if none."""
        count = len(self.steps) if self.checkers is not None else len(self.moves)
        if not count:
            return False
        self.press_from = self.cursor
        self.cursor = (self.cursor + 1) % count
        return True

    def next_piece(self) -> None:
        """A held NEXT: the next piece (or the other die). The press's "down" already
        stepped one move on, so it jumps from the one shown when the press began."""
        start = self.cursor if self.press_from is None else self.press_from
        self.press_from = None
        if self.checkers is not None:
            if self.steps:
                starts = self.checkers.groups(self.steps)
                later = [i for i in starts if i > start % len(self.steps)]
                self.cursor = later[0] if later else starts[0]
        else:
            self.cursor = next_group(self.moves, start)

    def fix_step(self, session: Session) -> Move | None:
        """OK while a play is entered checker by checker: fix the previewed step. The
        play once it is complete (else None; the session keeps the steps fixed)."""
        entry = self.checkers
        if not self.steps:
            return None
        self.played = (*self.played, self.steps[self.cursor % len(self.steps)])
        play: Move | None = entry.complete(self.played)
        if play is not None:
            return play
        self.steps = entry.options(self.played)
        self.cursor = 0
        session.keep_entered(self.played)
        return None


def cycling_order(game: str, moves: Sequence[Move]) -> tuple[Move, ...]:
    """Backgammon plays sorted by their first checker (highest point first, the bar is
    25), so a held NEXT steps checker by checker; other games keep the rules' order."""
    sources = [checker_steps(game, m) for m in moves]
    if not any(sources):
        return tuple(moves)

    def first_source(index: int) -> int:  # the notation names the highest source first
        return -max((src for src, _ in sources[index]), default=0)

    order = sorted(range(len(moves)), key=lambda i: (first_source(i), moves[i].notation))
    return tuple(moves[i] for i in order)


def next_group(moves: Sequence[Move], cursor: int) -> int:
    """The next move that starts with another piece/checker (a held NEXT)."""

    def group(move: Move) -> str:
        return move.notation.split()[0].split("-")[0].split("/")[0]

    current = group(moves[cursor % len(moves)])
    for offset in range(1, len(moves) + 1):
        index = (cursor + offset) % len(moves)
        if group(moves[index]) != current:
            return index
    return cursor
