"""Computer players. Pure: a bot sees a state and a seeded RNG and returns a move.

Bots never roll dice and never read a clock; the controller gives them a state at a
decision node and plays the move they return. A bot's thinking is bounded by a
:class:`rules.budget.Budget` (nodes, plus an optional injected clock), so it always
answers within its budget with the best move found so far.

Kinds (``BOT_KINDS``):

* ``random``: uniform over the distinct legal moves;
* ``strong``: the best player this package has for the game of the state, chosen by
  ``state.game.name`` (each game registers its own, see :mod:`rules.registry`); a game
  without a dedicated player gets
  :class:`rules.generic_bot.MonteCarloBot`, which works for any game of the protocol;
* ``beginner``, ``casual``, ``advanced``, ``expert``: the levels between them, weakest
  first: the strong player's move values blurred by evaluation noise
  (:mod:`rules.levels`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules.budget import Budget
from rules.core import Bot, Move, Pass, State
from rules.errors import UnknownGameError, shown
from rules.levels import LEVELS, Level, LevelBot
from rules.playout import randbelow
from rules.registry import game_info


class RandomBot:
    """Uniform over the distinct legal moves; passes only when nothing else is legal.

    "Distinct" is the engine's job: identical pieces (all those still at home) are one
    move, so the bot does not favour entering because four pieces wait.
    """

    name = "random"

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget

    def choose(self, state: State, rng: random.Random) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        # Usually no move is a pass: then the list itself is drawn from, without a copy
        # (the same draw as from the filtered list, which would equal it).
        for move in moves:
            if isinstance(move, Pass):
                break
        else:
            return moves[randbelow(rng, len(moves))]
        real = [m for m in moves if not isinstance(m, Pass)]
        return real[randbelow(rng, len(real))] if real else moves[0]


def _generic_player(budget: Budget) -> Bot:
    from rules.generic_bot import MonteCarloBot

    return MonteCarloBot(budget)


class StrongBot:
    """Dispatches to the strong player of the state's game, made once per game."""

    name = "strong"

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()
        self._players: dict[str, Bot] = {}

    def player_for(self, game_name: str) -> Bot:
        player = self._players.get(game_name)
        if player is None:
            factory = game_info(game_name).strong_bot or _generic_player
            player = self._players[game_name] = factory(self.budget)
        return player

    def choose(self, state: State, rng: random.Random) -> Move:
        return self.player_for(state.game.name).choose(state, rng)


def _level(level: Level) -> Callable[[Budget | None], Bot]:
    return lambda budget: LevelBot(level, budget)


BOT_KINDS: dict[str, Callable[[Budget | None], Bot]] = {
    "random": RandomBot,
    **{level.kind: _level(level) for level in LEVELS},
    "strong": StrongBot,
}
"""Every bot kind, weakest first (``random``, the levels, ``strong``)."""


def make_bot(kind: str, budget: Budget | None = None) -> Bot:
    """A bot of ``kind`` (see ``BOT_KINDS``) with an optional per-move budget."""
    try:
        factory = BOT_KINDS[kind]
    except (KeyError, TypeError):
        raise UnknownGameError(
            f"unknown bot {shown(kind)}; known bots: {', '.join(sorted(BOT_KINDS))}"
        ) from None
    return factory(budget)
