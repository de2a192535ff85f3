"""What the simulator shows besides the LEDs: the table in words and each seat's look.

A real table needs no words: the players see the board and each other. On a laptop the
simulator's terminal and window add a status line ("red (seat 1): 5 — piece on 12 →
17") and draw each seat's buttons in its player's colour. The controller knows these
facts and the hardware does not, so the controller hands a :class:`TableStatus` to the
display through a :data:`StatusSource` it sets on the display; the display calls it
whenever it draws a frame. The types live here, beside the simulator's front-ends that
draw them; the companion page shows the same status.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

RGB = tuple[int, int, int]

SEAT_DEFAULTS: tuple[RGB, ...] = ((213, 94, 0), (0, 114, 178), (0, 158, 115), (240, 228, 66))
"""Seat colours before a game is chosen: the MÄDN seating red, blue, green, yellow (the
views' Okabe-Ito shades), so the window's buttons are never colourless."""


@dataclass(frozen=True, slots=True)
class SeatLook:
    """How one physical seat's buttons are drawn.

    ``label`` names who sits there ("red · you", "blue · bot", "empty"; "" before a
    game is chosen; the window writes "seat N" before it); ``on_turn``
    marks the seat whose player acts now; ``playing`` is False for an empty seat.
    """

    label: str
    colour: RGB
    on_turn: bool = False
    playing: bool = True


@dataclass(frozen=True, slots=True)
class TableStatus:
    """One status line in words and the looks of the seats, in seat order."""

    text: str
    seats: tuple[SeatLook, ...] = ()


def idle_status(seat_count: int = 4, text: str = "") -> TableStatus:
    """A status before the controller has said anything (the seats in default colours)."""
    seats = tuple(SeatLook("", SEAT_DEFAULTS[i % len(SEAT_DEFAULTS)]) for i in range(seat_count))
    return TableStatus(text, seats)


StatusSource = Callable[[], TableStatus]
"""Called by a display on the loop thread each time it draws, so it reads the table
only on the thread that owns it."""
