"""The coach's judgement of a move about to be played: is it clearly worse than the
strong player's, and by how much.

Why the strong player's own figures: the coach must not teach one thing while the
computer players and the hint play another. The better move is the strong player's
choice (without a clock, so the same position always gets the same advice), and both
moves are valued by the figures the levels blur (:attr:`Capabilities.move_values`):
the track games' evaluation in steps of progress, Backgammon's cubeless equity from
its network, the same figures as its hint and its analysis. A move counts as clearly
worse when it loses more than the game's :attr:`Capabilities.coach_threshold` (set and
explained in docs/bots.md); a game without those figures has no such coach.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from rules.budget import Budget
from rules.core import Bot, Move, State
from rules.registry import capabilities, game_info


@dataclass(frozen=True, slots=True)
class Advice:
    """The better move and what the previewed one loses against it, in the game's unit
    (steps of progress, or equity)."""

    better: Move
    loss: float


def advice(state: State, move: Move, player: Bot | None = None) -> Advice | None:
    """The strong player's better move if ``move`` is clearly worse, else None (also
    when the game has no coach figures, or the decision is not one they value)."""
    name = state.game.name
    caps = capabilities(name)
    if caps.move_values is None or caps.coach_threshold is None:
        return None
    moves = state.legal_moves()
    if len(moves) < 2 or move not in moves:
        return None
    valuer = player if player is not None else _valuer(name)
    values = caps.move_values(valuer, state)
    if not values:
        return None
    table = dict(values)
    better = valuer.choose(state, random.Random(0))
    if better == move or better not in table or move not in table:
        return None
    loss = table[better] - table[move]
    return Advice(better, loss) if loss > caps.coach_threshold else None


@cache
def _valuer(name: str) -> Bot:
    """The game's strong player without a clock (the same position always gets the same
    advice, as in the seeded tests)."""
    factory = game_info(name).strong_bot
    if factory is None:
        from rules.generic_bot import MonteCarloBot

        return MonteCarloBot(Budget())
    return factory(Budget())
