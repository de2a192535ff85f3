"""What the table acts on of a Mini-Maki move, as typed facts: a piece put on the board
is red's start (on its baseline, row 6) or a black of the free setup.

No words here: the table puts these facts into the players' language
(``controller/games/minimaki/``). A Mini-Maki move walks one step and never captures,
which is what its notation alone says, so the game declares no move facts.
"""

from __future__ import annotations

from enum import Enum

from rules.minimaki.engine import RED_BASE, Place


class Placed(Enum):
    """Whose piece a :class:`~rules.minimaki.engine.Place` puts on the board."""

    RED_START = "red_start"
    BLACK = "black"


def placed(move: Place) -> Placed:
    """Red starts on its baseline; a piece put anywhere else is a free-setup black."""
    return Placed.RED_START if move.row == RED_BASE else Placed.BLACK
