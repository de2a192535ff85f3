"""Computer players in levels: the strong player's own move values, blurred by noise.

A family needs opponents a child can beat, and ones that still play like one person all
game. So a level is not "a random move now and then" (that plays like a different
person every turn) but the strong player's judgement made coarser, as GNU Backgammon's
levels are: every legal move of a decision gets the value the strong player gives it
(:attr:`rules.registry.Capabilities.move_values`: MÄDN's and Kleiner Ärger's evaluation
in steps of the position after the move, Backgammon's cubeless equity from its
network), each value gets Gaussian noise of the level's standard deviation, and the
level plays the move with the highest blurred value. Small noise changes only close
calls; large noise makes the level nearly uniform over the moves, so the weakest level
is about as good as the random player and never deliberately bad.

The noise is drawn from the bot's seeded RNG, one draw per move in legal-move order, so
a level's move is reproducible from the seed like every other bot's. The standard
deviations are per game, in the game's unit (``Capabilities.level_noise``), chosen so
that neighbouring levels are well apart in the measured win shares (docs/bots.md,
``benchmarks/bot_levels.py``). Decisions the game gives no values for (Backgammon's
cube, resignations) are the strong player's. A game without ``move_values`` (Mini-Maki,
whose exact policy keeps only the best move) plays its level kinds as ``strong``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules.budget import Budget
from rules.core import Bot, Move, State
from rules.registry import capabilities, game_info


@dataclass(frozen=True)
class Level:
    """One level: its bot kind (in configs, saves, records and on the command line),
    the family name the table shows (English; the controller translates it) and its
    rank, 0 the weakest (the index into ``Capabilities.level_noise``)."""

    kind: str
    title: str
    rank: int


LEVELS: tuple[Level, ...] = (
    Level("beginner", "Beginner", 0),
    Level("casual", "Casual player", 1),
    Level("advanced", "Advanced", 2),
    Level("expert", "Expert", 3),
)
"""Weakest first; all weaker than ``strong`` and, but the weakest, stronger than
``random`` (measured: docs/bots.md)."""

LEVEL_KINDS: dict[str, Level] = {level.kind: level for level in LEVELS}


def noisy_choice(values: Sequence[tuple[Move, float]], sigma: float, rng: random.Random) -> Move:
    """The move whose value plus Gaussian noise of ``sigma`` is highest: one draw per
    move, in the given order, so the same RNG state gives the same move."""
    best_move, best = values[0][0], float("-inf")
    for move, value in values:
        blurred = value + rng.gauss(0.0, sigma)
        if blurred > best:
            best_move, best = move, blurred
    return best_move


class LevelBot:
    """The strong player with noise on its move values (module docstring)."""

    def __init__(self, level: Level, budget: Budget | None = None) -> None:
        self.level = level
        self.name = level.kind
        self.budget = budget or Budget()
        self._players: dict[str, Bot] = {}

    def player_for(self, game_name: str) -> Bot:
        """The strong player of ``game_name`` (as ``rules.bots.StrongBot`` makes it),
        made once per game: its values are blurred, its other decisions are taken."""
        player = self._players.get(game_name)
        if player is None:
            factory = game_info(game_name).strong_bot
            if factory is None:
                from rules.generic_bot import MonteCarloBot

                player = MonteCarloBot(self.budget)
            else:
                player = factory(self.budget)
            self._players[game_name] = player
        return player

    def sigma(self, game_name: str) -> float | None:
        """The level's noise in ``game_name``'s unit, or None: the game has no levels."""
        noise = capabilities(game_name).level_noise
        return noise[self.level.rank] if self.level.rank < len(noise) else None

    def choose(self, state: State, rng: random.Random) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        name = state.game.name
        rate = capabilities(name).move_values
        sigma = self.sigma(name)
        player = self.player_for(name)
        if rate is None or sigma is None:
            return player.choose(state, rng)
        values = rate(player, state)
        if not values:
            return player.choose(state, rng)
        return noisy_choice(values, sigma, rng)
