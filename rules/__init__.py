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

# Importing a game family registers its games (one registration per game).
from rules import backgammon, minimaki, track
from rules.core import PASS, Dice, Game, Move, MoveFacts, Pass, PresetFacts, State, check_dice
from rules.errors import (
    IllegalMoveError,
    InvalidDiceError,
    InvalidStateError,
    NotDecisionError,
    RulesError,
    UnknownGameError,
)
from rules.registry import (
    GameInfo,
    capabilities,
    default_preset,
    game_info,
    game_names,
    get_game,
    move_facts,
    preset_facts,
    presets,
    register_game,
    side_moves,
    state_from_json,
)

__all__ = [
    "PASS",
    "Dice",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "InvalidDiceError",
    "InvalidStateError",
    "Move",
    "MoveFacts",
    "NotDecisionError",
    "Pass",
    "PresetFacts",
    "RulesError",
    "State",
    "UnknownGameError",
    "backgammon",
    "capabilities",
    "check_dice",
    "default_preset",
    "game_info",
    "game_names",
    "get_game",
    "minimaki",
    "move_facts",
    "preset_facts",
    "presets",
    "register_game",
    "side_moves",
    "state_from_json",
    "track",
]
