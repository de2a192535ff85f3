"""Colours and the second, colour-free cue that tells seats apart.

Why these colours: the seat colours of the games are red, blue, green and yellow, the
worst possible set for the 8 % of men with red-green colour blindness. We therefore draw
them with the Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"), whose
vermillion, blue, bluish green and yellow stay distinct under protanopia, deuteranopia
and tritanopia, and differ in brightness as well as hue.

Colour is never the only cue ("players are told apart by blink and shape"):

* **32×32 (shape):** a piece is a 2×2 or 3×3 block of its colour with one white corner
  pixel; the white corner points to the seat's corner of the table (red bottom-left,
  blue top-left, green top-right, yellow bottom-right), i.e. towards the player.
* **16×16 (blink count):** a piece is one LED, too small for a shape. Every
  :data:`ID_CYCLE_S` seconds each seat's pieces dip briefly, red once, blue twice,
  green three times, yellow four times ("count the blinks"); between the dips they
  are steady, so the board stays calm.
* **monochrome:** Backgammon and Mini-Maki sides differ by blink (one side steady, the
  other blinking slowly) or by shape; see the game's view module.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from controller.views import timing

RGB = tuple[int, int, int]

SEAT: dict[str, RGB] = {
    "red": (213, 94, 0),  # Okabe-Ito vermillion
    "blue": (0, 114, 178),  # Okabe-Ito blue
    "green": (0, 158, 115),  # Okabe-Ito bluish green
    "yellow": (240, 228, 66),  # Okabe-Ito yellow
    "orange": (230, 159, 0),  # Okabe-Ito orange
    "sky": (86, 180, 233),  # Okabe-Ito sky blue
    "purple": (204, 121, 167),  # Okabe-Ito reddish purple
}

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
FIELD: RGB = (48, 48, 48)
"""An empty track field: dim neutral grey, so the track reads as a path."""
HINT: RGB = SEAT["purple"]
"""The hint (best move) is lit in reddish purple, which no seat uses."""
TARGET: RGB = WHITE
"""The preview's target field."""

CORNER: dict[str, tuple[int, int]] = {
    "red": (0, 1),
    "blue": (0, 0),
    "green": (1, 0),
    "yellow": (1, 1),
}
"""Shape cue: which corner of a piece (x, y; 0 = left/top, 1 = right/bottom) is white."""

ID_CYCLE_S = 4.0
DIP_S = 0.15
DIP_ORDER = ("red", "blue", "green", "yellow")


def seat_colour(name: str) -> RGB:
    """The colour of a seat; unknown names (a future game's sides) fall back to white."""
    return SEAT.get(name, WHITE)


def side_colour(name: str, inks: Mapping[str, str]) -> RGB:
    """The colour a game's side is drawn in: the palette colour its family names for it
    (``Presentation.side_inks``, e.g. a side called white drawn orange), else the colour
    of its own name."""
    return seat_colour(inks.get(name, name))


def scale(colour: RGB, factor: float) -> RGB:
    """``colour`` at ``factor`` brightness (0..1): dim fields, darker safe pieces."""
    r, g, b = colour
    return (round(r * factor), round(g * factor), round(b * factor))


def id_dip(name: str, t: float) -> bool:
    """True while ``name``'s pieces are in one of their identification dips at time t.

    Seat k of :data:`DIP_ORDER` dips k+1 times at the start of each cycle: a dip is
    :data:`DIP_S` dim followed by :data:`DIP_S` bright.
    """
    if name not in DIP_ORDER:
        return False
    count = DIP_ORDER.index(name) + 1
    cycle = math.floor(t / ID_CYCLE_S + timing.EPS)
    start = cycle * ID_CYCLE_S
    slot = math.floor((t - start) / DIP_S + timing.EPS)
    if slot < 2 * count:
        timing.note(start + (slot + 1) * DIP_S)
        return slot % 2 == 0
    timing.note(start + ID_CYCLE_S)
    return False


def blink(t: float, hz: float = 2.0, since: float = 0.0) -> bool:
    """A square wave, on for the first half of each period from ``since`` (previews
    blink at 2 Hz from the press that chose them)."""
    return timing.blink(t, hz, since)


def ink(colour: RGB, mode: str) -> RGB | int:
    """The fill value for ``mode``: RGB as is, monochrome "1" lit for any visible colour."""
    if mode == "1":
        return 1 if max(colour) > 24 else 0
    return colour
