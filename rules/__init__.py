"""spieltisch rules: pure, standard-library-only game engines.

Quick tour::

    >>> import random, rules
    >>> game = rules.get_game("maedn", "classic")
    >>> state = game.new_state(players=4, first="red")
    >>> state = state.roll([6])
    >>> [m.notation for m in state.legal_moves()]
    ['home-0']

Nothing here does I/O, reads a clock or rolls dice: the caller supplies every roll.
"""

from __future__ import annotations

from rules import registry as _registry
from rules.core import PASS, Dice, Game, Move, Pass, State, check_dice
from rules.errors import (
    IllegalMoveError,
    InvalidDiceError,
    InvalidStateError,
    NotDecisionError,
    RulesError,
    UnknownGameError,
)
from rules.maedn import CLASSIC, KLEINER_AERGER, LINGO, SCHMIDT, kleiner_aerger_game, maedn_game
from rules.registry import default_preset, game_names, get_game, presets, state_from_json

_registry.register("maedn", "classic", lambda: maedn_game(CLASSIC), default=True)
_registry.register("maedn", "lingo", lambda: maedn_game(LINGO))
_registry.register("maedn", "schmidt", lambda: maedn_game(SCHMIDT))
_registry.register("kleiner_aerger", "standard", lambda: kleiner_aerger_game(KLEINER_AERGER))

__all__ = [
    "PASS",
    "Dice",
    "Game",
    "IllegalMoveError",
    "InvalidDiceError",
    "InvalidStateError",
    "Move",
    "NotDecisionError",
    "Pass",
    "RulesError",
    "State",
    "UnknownGameError",
    "check_dice",
    "default_preset",
    "game_names",
    "get_game",
    "presets",
    "state_from_json",
]
