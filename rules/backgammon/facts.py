"""What the table acts on of a Backgammon move and preset, as typed facts: how many
checker steps a play animates and whether it hits, the play's single checker steps
(the table animates and orders its choices checker by checker), which cube decision a
move is, and whether a preset plays the Crawford rule.

No words here: the table puts these facts into the players' language
(``controller/games/backgammon/``).
"""

from __future__ import annotations

from enum import Enum
from typing import cast

from rules.backgammon.engine import BackgammonGame, CubeAction, Play
from rules.core import Game, Move, MoveFacts, notation_facts

CheckerSteps = tuple[tuple[int, int], ...]
"""(from, to) board indices in the mover's view: 24 is the bar, negative borne off."""


class CubeDecision(Enum):
    """What a move does with the doubling cube (its value is the move's notation)."""

    ROLL = "roll"
    """Roll the dice instead of doubling."""
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    """Refuse the double and give up the game."""


def move_facts(move: Move) -> MoveFacts:
    if isinstance(move, Play):
        return MoveFacts(max(1, len(move.steps)), any(hit for _, _, hit in move.steps))
    if isinstance(move, CubeAction):
        return MoveFacts()
    return notation_facts(move)


def checker_steps(move: Move) -> CheckerSteps:
    """A play's single checker steps; empty for a cube decision and the pass."""
    if isinstance(move, Play):
        return tuple((src, dst) for src, dst, _ in move.steps)
    return ()


def checkers_moved(move: Move) -> int:
    """How many checkers a play moves: a step that starts where an earlier step of the
    play ended carries that checker on (``6/3*/2`` is one checker, ``13/5(2)`` two);
    0 for a cube decision and the pass."""
    if not isinstance(move, Play):
        return 0
    ends: list[int] = []
    for src, dst, _hit in move.steps:
        if src in ends:
            ends[ends.index(src)] = dst
        else:
            ends.append(dst)
    return len(ends)


def cube_decision(move: Move) -> CubeDecision | None:
    """The cube decision ``move`` is, or None for a play and the pass."""
    if isinstance(move, CubeAction):
        try:
            return CubeDecision(move.notation)
        except ValueError:
            return None
    return None


def crawford_rule(game: Game) -> bool:
    """A match preset that plays the Crawford rule (its history records Crawford games)."""
    return cast(BackgammonGame, game).rules.crawford
