"""What the table acts on of a Mini-Maki move or game, as typed facts: a piece put on
the board is red's start (on its baseline, row 6) or a black of the free setup; a lost
game was lost because a black hit red or reached red's baseline.

No words here: the table puts these facts into the players' language
(``controller/games/minimaki/``). A Mini-Maki move walks one step and never captures,
which is what its notation alone says, so the game declares no move facts.
"""

from __future__ import annotations

from enum import Enum

from rules.core import State
from rules.minimaki.engine import LOST, RED_BASE, MinimakiState, Place


class Placed(Enum):
    """Whose piece a :class:`~rules.minimaki.engine.Place` puts on the board."""

    RED_START = "red_start"
    BLACK = "black"


def placed(move: Place) -> Placed:
    """Red starts on its baseline; a piece put anywhere else is a free-setup black."""
    return Placed.RED_START if move.row == RED_BASE else Placed.BLACK


class Loss(Enum):
    """Why red lost (the rule text: "wenn eine schwarze Figur Ihre Grundlinie erreicht,
    oder wenn Ihre rote Figur geschlagen wird")."""

    HIT = "hit"
    """A black came onto red's field."""
    BASELINE = "baseline"
    """A black reached row 6, red's baseline."""


def loss(state: State) -> Loss | None:
    """Why the game ``state`` ends in was lost; None for a game not over, or won. The
    final board shows it: a hitting black stays on red's field (hitting goes first)."""
    if not isinstance(state, MinimakiState) or state.result != LOST or state.red is None:
        return None
    row, col = state.red
    if state.black[col - 1] == row:
        return Loss.HIT
    return Loss.BASELINE
