"""Computer players. Pure: a bot sees a state and a seeded RNG and returns a move.

Bots never roll dice and never read a clock; the controller gives them a state at a
decision node and plays the move they return.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

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

    def choose(self, state: State, rng: random.Random) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        real = [m for m in moves if not isinstance(m, Pass)]
        return real[rng.randrange(len(real))] if real else moves[0]


BOT_KINDS: dict[str, Callable[[], Bot]] = {"random": RandomBot}


def make_bot(kind: str) -> Bot:
    try:
        return BOT_KINDS[kind]()
    except KeyError:
        raise UnknownGameError(
            f"unknown bot {kind!r}; known bots: {', '.join(sorted(BOT_KINDS))}"
        ) from None
