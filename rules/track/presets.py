"""The rule switches of the track games, and their presets.

One engine plays classic MÄDN, the "Ärgern" house rules (lingo), the Schmidt rules and
Kleiner Ärger; a preset is a frozen set of switches ("presets, not forks"). This module
holds only data, so that the engine and its kernel can both read it without importing
each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

TRIES_CANNOT_ADVANCE: Final = "cannot_advance"
"""MÄDN rule 2: 3 tries while no own piece on the track and no goal piece can move up."""
TRIES_NO_MOVE_WITH_ONE: Final = "no_move_with_one"
"""Kleiner Ärger: 3 tries when not even a roll of 1 could move anything."""
TRIES_NONE: Final = "none"
"""Lingo: one roll only (the biased six replaces the tries)."""


@dataclass(frozen=True)
class MaednRules:
    """The rule switches of one preset. Frozen: a preset never changes mid-game."""

    name: str
    must_capture: bool = True
    must_enter: bool = True
    must_clear_start: bool = True
    clear_start_only_while_waiting: bool = True
    """MÄDN rule 5 limits clearing to "solange sich eine Spielfigur auf einem der
    Eckkreise befindet"; Kleiner Ärger's "so bald wie möglich" has no such limit."""
    pass_always: bool = False
    self_capture: bool = False
    goal_jumping: bool = False
    piece_on_start: bool = False
    tries_rule: str = TRIES_CANNOT_ADVANCE
    max_tries: int = 3
    six_probability_when_stuck: float | None = None
    unused_six_rolls_again: bool = True
    opening_roll: bool = True
    play_on: bool = False
    touch_move: bool = True
    move_timer_s: float = 0.0
    dark_safe_pieces: bool = False


CLASSIC = MaednRules(name="classic")
LINGO = MaednRules(
    name="lingo",
    must_capture=False,
    must_enter=False,
    must_clear_start=False,
    pass_always=True,
    self_capture=True,
    goal_jumping=True,
    tries_rule=TRIES_NONE,
    max_tries=1,
    six_probability_when_stuck=0.56,
    unused_six_rolls_again=False,
    opening_roll=False,
    move_timer_s=5.0,
    dark_safe_pieces=True,
)
SCHMIDT = MaednRules(
    name="schmidt",
    must_capture=False,
    piece_on_start=True,
    goal_jumping=True,
)
KLEINER_AERGER = MaednRules(
    name="standard",
    must_capture=False,
    clear_start_only_while_waiting=False,
    tries_rule=TRIES_NO_MOVE_WITH_ONE,
    unused_six_rolls_again=False,
)
