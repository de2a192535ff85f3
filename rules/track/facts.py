"""What the table acts on of a track-game move and preset, as typed facts: where a
move starts and ends (a field of the track, home, or a goal field), how many fields a
piece walks, whether it captures, the move timer.

No words here: the table puts these facts into the players' language
(``controller/games/track/``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import cast

from rules.core import Game, Move, MoveFacts, PresetFacts, notation_facts
from rules.track.engine import MaednGame, TrackMove


class Area(Enum):
    """The part of the board a position of the JSON vocabulary lies in."""

    TRACK = "track"
    HOME = "home"
    """Where the pieces wait that have not entered (``home`` or ``out``)."""
    GOAL = "goal"
    LAP = "lap"
    """A piece back on its own start field after the whole round, before its goal
    (Kleiner Ärger's ``lap``)."""


@dataclass(frozen=True, slots=True)
class Spot:
    """A position of a move: its area and, on the track, the field's name (its number,
    or its name in a geometry that names fields); in the goal, the goal field's number."""

    area: Area
    field: int | str = ""


def spot(field: int | str) -> Spot:
    """The typed reading of a position in the JSON vocabulary (``12``, ``home``,
    ``goal2``)."""
    if isinstance(field, int):
        return Spot(Area.TRACK, field)
    if field in ("home", "out"):
        return Spot(Area.HOME)
    if field == "lap":
        return Spot(Area.LAP)
    if field.startswith("goal"):
        return Spot(Area.GOAL, field[4:])
    return Spot(Area.TRACK, field)


def move_facts(move: Move) -> MoveFacts:
    """A piece walks from its old to its new progress (entering from home walks one
    field onto the start); the pass is its notation."""
    if not isinstance(move, TrackMove):
        return notation_facts(move)
    return MoveFacts(max(1, move.to_progress - max(move.from_progress, 0)), move.capture)


def preset_facts(game: Game) -> PresetFacts:
    return PresetFacts(move_timer_s=cast(MaednGame, game).rules.move_timer_s)
