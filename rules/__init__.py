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
from rules.backgammon import MATCH5, MONEY, SINGLE_GAME, backgammon_game
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
from rules.minimaki import DIAGONAL, FREE_SETUP, STANDARD, TWO_PLAYER, minimaki_game
from rules.registry import default_preset, game_names, get_game, presets, state_from_json

_registry.register("maedn", "classic", lambda: maedn_game(CLASSIC), default=True)
_registry.register("maedn", "lingo", lambda: maedn_game(LINGO))
_registry.register("maedn", "schmidt", lambda: maedn_game(SCHMIDT))
_registry.register("kleiner_aerger", "standard", lambda: kleiner_aerger_game(KLEINER_AERGER))
_registry.register("backgammon", "single", lambda: backgammon_game(SINGLE_GAME), default=True)
_registry.register("backgammon", "money", lambda: backgammon_game(MONEY))
_registry.register("backgammon", "match5", lambda: backgammon_game(MATCH5))
_registry.register("minimaki", "standard", lambda: minimaki_game(STANDARD), default=True)
_registry.register("minimaki", "diagonal", lambda: minimaki_game(DIAGONAL))
_registry.register("minimaki", "free_setup", lambda: minimaki_game(FREE_SETUP))
_registry.register("minimaki", "two_player", lambda: minimaki_game(TWO_PLAYER))

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
