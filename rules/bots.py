"""Computer players. Pure: a bot sees a state and a seeded RNG and returns a move.

Bots never roll dice and never read a clock; the controller gives them a state at a
decision node and plays the move they return. A bot's thinking is bounded by a
:class:`rules.bot_budget.Budget` (nodes, plus an optional injected clock), so it always
answers within its budget with the best move found so far.

Kinds (``BOT_KINDS``):

* ``random``: uniform over the distinct legal moves;
* ``strong``: the best player this package has for the game of the state, chosen by
  ``state.game.name`` (see ``STRONG_PLAYERS``); a game without a dedicated player gets
  :class:`rules.bot_generic.MonteCarloBot`, which works for any game of the protocol.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from rules.bot_budget import Budget
from rules.core import Move, Pass, State
from rules.errors import UnknownGameError


class Bot(Protocol):
    name: str

    def choose(self, state: State, rng: random.Random) -> Move: ...


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
        real = [m for m in moves if not isinstance(m, Pass)]
        return real[rng.randrange(len(real))] if real else moves[0]


def _maedn_player(budget: Budget) -> Bot:
    from rules.bot_track import MAEDN_WEIGHTS, TrackBot

    return TrackBot(budget, 2, MAEDN_WEIGHTS, follow_opponents=False)


def _kleiner_aerger_player(budget: Budget) -> Bot:
    from rules.bot_kleiner_aerger import KleinerAergerBot

    return KleinerAergerBot(budget)


def _minimaki_player(budget: Budget) -> Bot:
    from rules.bot_minimaki import MinimakiBot

    return MinimakiBot(budget)


def _backgammon_player(budget: Budget) -> Bot:
    from rules.bot_backgammon import BackgammonBot

    return BackgammonBot(budget)


def _generic_player(budget: Budget) -> Bot:
    from rules.bot_generic import MonteCarloBot

    return MonteCarloBot(budget)


STRONG_PLAYERS: dict[str, Callable[[Budget], Bot]] = {
    # Four players: expectimax over the bot's own re-rolls (after a 6) only; searching
    # through three opponents costs 6^3 nodes per level and measured no better.
    "maedn": _maedn_player,
    # The exact optimal policy against the random bot for two players (rules.
    # bot_kleiner_aerger); expectimax 4 decisions deep wherever the table has no answer.
    "kleiner_aerger": _kleiner_aerger_player,
    # The exact optimal policy, shipped as package data (rules.bot_minimaki).
    "minimaki": _minimaki_player,
    # A small network trained offline, plus cube heuristics (rules.bot_backgammon).
    "backgammon": _backgammon_player,
}
"""Game name -> factory of that game's strong player (imported lazily, so that this
module stays importable while a game's engine is missing)."""


class StrongBot:
    """Dispatches to the strong player of the state's game, made once per game."""

    name = "strong"

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()
        self._players: dict[str, Bot] = {}

    def player_for(self, game_name: str) -> Bot:
        player = self._players.get(game_name)
        if player is None:
            factory = STRONG_PLAYERS.get(game_name, _generic_player)
            player = self._players[game_name] = factory(self.budget)
        return player

    def choose(self, state: State, rng: random.Random) -> Move:
        return self.player_for(state.game.name).choose(state, rng)


BOT_KINDS: dict[str, Callable[[Budget | None], Bot]] = {
    "random": RandomBot,
    "strong": StrongBot,
}


def make_bot(kind: str, budget: Budget | None = None) -> Bot:
    """A bot of ``kind`` (see ``BOT_KINDS``) with an optional per-move budget."""
    try:
        factory = BOT_KINDS[kind]
    except KeyError:
        raise UnknownGameError(
            f"unknown bot {kind!r}; known bots: {', '.join(sorted(BOT_KINDS))}"
        ) from None
    return factory(budget)
