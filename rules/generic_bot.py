"""A strong-enough player for any game of the protocol: flat Monte Carlo.

Every game registered in :mod:`rules` gets a ``strong`` bot, even one that has no
dedicated player: this bot tries each legal move, finishes the game many times with
random moves and seeded dice, and plays the move that won most often for the side on
turn. Playouts are handed out round-robin, so stopping early at the budget still leaves
every move with a fair share. It is slow compared with a dedicated evaluation, which is
why the games the appliance ships with register players of their own
(:attr:`rules.registry.GameInfo.strong_bot`).
"""

from __future__ import annotations

import random

from rules.budget import Budget, Meter
from rules.core import Move, Pass, State
from rules.playout import sample_roll
from rules.registry import capabilities

MAX_PLAYOUT_STEPS = 100_000
"""A safety net: a playout that has not ended by then counts as a loss."""


def random_finish(state: State, me: str, rng: random.Random, meter: Meter) -> float:
    """1.0 if ``me`` wins a random continuation of ``state``, else 0.0.

    Games that declare a fast playout in their capabilities use it (each call is
    charged as 100 nodes); otherwise the generic loop charges one node per step.
    """
    fast = capabilities(state.game.name).fast_playout
    if fast is not None and not state.is_terminal():
        meter.charge(100)
        order = fast(state, rng)[0]
        return 1.0 if order and order[0] == me else 0.0
    for _ in range(MAX_PLAYOUT_STEPS):
        if state.is_terminal():
            won = state.winners()
            return 1.0 if won and won[0] == me else 0.0
        meter.charge()
        if state.is_chance():
            state = state.roll(sample_roll(state.chance_outcomes(), rng))
            continue
        moves = state.legal_moves()
        real = [m for m in moves if not isinstance(m, Pass)] or list(moves)
        state = state.apply(real[rng.randrange(len(real))])
    return 0.0


class MonteCarloBot:
    """Flat Monte Carlo over the legal moves (module docstring)."""

    name = "strong"

    def __init__(self, budget: Budget | None = None, rounds: int = 200) -> None:
        self.budget = budget or Budget()
        self.rounds = rounds

    def choose(self, state: State, rng: random.Random) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        me = state.current_player or ""
        meter = self.budget.start()
        afters = [state.apply(m) for m in moves]
        wins = [0.0] * len(moves)
        for _ in range(self.rounds):
            for i, after in enumerate(afters):
                wins[i] += random_finish(after, me, rng, meter)
            if meter.spent():
                break
        best = max(range(len(moves)), key=lambda i: wins[i])
        return moves[best]
