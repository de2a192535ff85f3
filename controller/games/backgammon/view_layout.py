"""Where Backgammon's board goes at each panel size, and the painter that fills it.

Why apart from the view: the layout (points, bar, trays, dice and cube places per panel
size) is data the drawing, the dice and the tests all read; the painter is the one
primitive they share. The board's order and the sides' cues are explained in
:mod:`controller.games.backgammon.view`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from controller.games.backgammon.sides import SIDE_INKS
from controller.games.backgammon.view_frame import (
    BLACK_BAR,
    BLACK_OFF,
    WHITE_BAR,
    WHITE_OFF,
)
from controller.views.overlay import (
    Box,
)
from controller.views.palette import (
    FIELD,
    RGB,
    SEAT,
    ink,
    scale,
)
from rules.backgammon.moves import CHECKERS

SIDE: dict[str, RGB] = {side: SEAT[ink] for side, ink in SIDE_INKS.items()}
"""Checker colours of the two sides (module docstring: why not white)."""
SHADE = 0.7
"""Brightness of every other checker (the checkerboard that makes stacks countable)."""
NEUTRAL: RGB = (150, 150, 150)
"""A centred cube, and the pips of the previous roll."""
TINTS: tuple[RGB, RGB] = (scale(FIELD, 0.9), scale(FIELD, 0.45))
"""Empty points alternate between two greys, like the board's two triangle colours."""


@dataclass(frozen=True)
class BgLayout:
    """Where everything goes at one panel size (see the module docstring).

    ``pitch``: checker size and point width in pixels; ``left_x``/``bar_x``/``right_x``:
    first column of the left half, the bar and the right half; ``slots``: checker slots
    per point; ``overflow_slot``: whether a further slot counts the rest (RGB);
    ``tray_xs``: the tray's columns; ``tray_pitch``: rows between borne-off checkers;
    ``tray_per_column``: checkers per column when filled column by column (0: row by
    row across ``tray_xs``); ``cube_x``: the cube's columns; ``cube_top``: its top row by
    owner (None: centred); ``countdown``: the move timer's box (None: it drains the turn
    marker); ``turn``: the turn marker's box per side.
    """

    mode: str
    pitch: int
    left_x: int
    bar_x: int
    right_x: int
    slots: int
    overflow_slot: bool
    tray_xs: tuple[int, ...]
    tray_pitch: int
    tray_per_column: int
    dice_at: tuple[int, int]
    die_pitch: int
    dice_gap: int
    dice_vertical: bool
    cube_x: tuple[int, int]
    cube_top: dict[str | None, int]
    cube_digits: bool
    countdown: Box | None
    turn: dict[str, Box]


LAYOUTS: dict[tuple[int, int, str], BgLayout] = {
    (32, 32, "RGB"): BgLayout(
        "RGB",
        pitch=2,
        left_x=0,
        bar_x=12,
        right_x=14,
        slots=5,
        overflow_slot=True,
        tray_xs=(27, 29, 31),
        tray_pitch=2,
        tray_per_column=5,
        dice_at=(15, 13),
        die_pitch=2,
        dice_gap=1,
        dice_vertical=False,
        cube_x=(0, 11),
        cube_top={"black": 12, None: 13, "white": 15},
        cube_digits=True,
        countdown=(12, 12, 13, 19),
        turn={"black": (28, 12, 31, 15), "white": (28, 16, 31, 19)},
    ),
    (16, 16, "RGB"): BgLayout(
        "RGB",
        pitch=1,
        left_x=0,
        bar_x=6,
        right_x=7,
        slots=5,
        overflow_slot=True,
        tray_xs=(14, 15),
        tray_pitch=1,
        tray_per_column=0,
        dice_at=(6, 6),
        die_pitch=1,
        dice_gap=1,
        dice_vertical=False,
        cube_x=(0, 2),
        cube_top={"black": 6, None: 6, "white": 7},
        cube_digits=False,
        countdown=(6, 9, 12, 9),
        turn={"black": (4, 6, 4, 7), "white": (4, 8, 4, 9)},
    ),
    (32, 8, "1"): BgLayout(
        "1",
        pitch=1,
        left_x=0,
        bar_x=6,
        right_x=7,
        slots=4,
        overflow_slot=False,
        tray_xs=(14, 15, 16, 17),
        tray_pitch=1,
        tray_per_column=0,
        dice_at=(19, 0),
        die_pitch=1,
        dice_gap=2,
        dice_vertical=True,
        cube_x=(23, 30),
        cube_top={"black": 0, None: 1, "white": 3},
        cube_digits=True,
        countdown=None,
        turn={"black": (31, 0, 31, 3), "white": (31, 4, 31, 7)},
    ),
}


def sizes() -> list[tuple[int, int, str]]:
    return sorted(LAYOUTS)


def top_half(point: int) -> bool:
    """Points 13–24 and white's bar are drawn in the top half."""
    return 13 <= point <= WHITE_BAR


def column_x(lay: BgLayout, point: int) -> int:
    if point in (WHITE_BAR, BLACK_BAR):
        return lay.bar_x
    if point >= 13:
        half, col = (lay.left_x, point - 13) if point <= 18 else (lay.right_x, point - 19)
    else:
        half, col = (lay.left_x, 12 - point) if point >= 7 else (lay.right_x, 6 - point)
    return half + col * lay.pitch


def cell_box(width: int, height: int, mode: str, cell: tuple[int, int]) -> Box:
    """Pixels (x0, y0, x1, y1 inclusive) of ``(point, slot)`` (module docstring)."""
    lay = LAYOUTS[(width, height, mode)]
    point, slot = cell
    if point in (WHITE_OFF, BLACK_OFF):
        if not 0 <= slot < CHECKERS:
            raise ValueError(f"a Backgammon tray has slots 0–14, got {cell!r}")
        return tray_box(lay, height, point, slot)
    last = lay.slots + (1 if lay.overflow_slot else 0)
    if not (BLACK_BAR <= point <= WHITE_BAR and 0 <= slot < last):
        raise ValueError(
            f"Backgammon cells are (point 0–25 or tray −1/26, slot 0–{last - 1}), got {cell!r}"
        )
    x0 = column_x(lay, point)
    y0 = slot * lay.pitch if top_half(point) else height - (slot + 1) * lay.pitch
    return (x0, y0, x0 + lay.pitch - 1, y0 + lay.pitch - 1)


def tray_box(lay: BgLayout, height: int, tray: int, slot: int) -> Box:
    """Borne-off checker ``slot`` of a tray: white's fills up from the bottom edge,
    black's down from the top, in columns of five at 32×32 (countable groups)."""
    if lay.tray_per_column:
        column, depth = divmod(slot, lay.tray_per_column)
    else:
        depth, column = divmod(slot, len(lay.tray_xs))
    x = lay.tray_xs[column]
    y = depth * lay.tray_pitch if tray == BLACK_OFF else height - 1 - depth * lay.tray_pitch
    return (x, y, x, y)


class Painter:
    """Fills boxes on one image in RGB or monochrome ("1": any visible colour is lit)."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.mode = image.mode

    def put(self, x: int, y: int, colour: RGB) -> None:
        if 0 <= x < self.image.width and 0 <= y < self.image.height:
            self.image.putpixel((x, y), ink(colour, self.mode))

    def fill(self, box: Box, colour: RGB) -> None:
        x0, y0, x1, y1 = box
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.put(x, y, colour)
