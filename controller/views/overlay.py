"""Things drawn over any game board: banner text, countdown bar, winner animation.

They depend only on their arguments (time comes in as ``t``), so every game view and
the menu share them and stay pure.
"""

from __future__ import annotations

import math

from PIL import Image

from controller.views import timing
from controller.views.palette import BLACK, RGB, WHITE, blink, ink, scale
from controller.views.text import Segment, draw_segments, draw_text, scroll_seconds

Box = tuple[int, int, int, int]
"""(x0, y0, x1, y1), inclusive pixel coordinates."""

WINNER_STRIPE = 6
WINNER_SPEED = 10.0


def banner_box(width: int, height: int) -> Box:
    """A horizontal band through the middle: 6 rows below 32 pixels, 8 rows otherwise."""
    rows = 8 if height >= 32 or height <= 8 else 6
    top = (height - rows) // 2
    return (0, top, width - 1, top + rows - 1)


def draw_banner(image: Image.Image, text: str, t: float, since: float = 0.0) -> None:
    """Scroll ``text`` in white over a black band across the middle of the board, from
    its first letter at ``since`` (when it appeared)."""
    box = banner_box(image.width, image.height)
    draw_text(image, box, text, WHITE, t, background=BLACK, since=since)


def draw_result(image: Image.Image, segments: list[Segment], t: float, since: float) -> None:
    """The game-over words over the board, each player's part in its colour."""
    box = banner_box(image.width, image.height)
    draw_segments(image, box, segments, t, background=BLACK, since=since)


def banner_seconds(text: str, width: int, height: int) -> float:
    """How long a banner of ``text`` needs on a ``width``×``height`` board to pass once."""
    x0, y0, x1, y1 = banner_box(width, height)
    return scroll_seconds(text, x1 - x0 + 1, y1 - y0 + 1)


def countdown_fraction(countdown: float, total: float | None, t: float = 0.0) -> float:
    """Share of the move timer left (0..1), in whole seconds: the bar steps down once a
    second, so a child sees it shrink (5 s: full, 4/5, ... 1/5, empty). Without a total
    the timer counts from 5 s."""
    whole = math.ceil(total) if total and total > 0 else 5
    return max(0.0, min(1.0, timing.whole_seconds(t, countdown) / whole))


def draw_bar(
    image: Image.Image, box: Box, fraction: float, colour: RGB, t: float, vertical: bool = True
) -> None:
    """A bar that drains as time runs out (from the top, or from the right).

    In its last quarter the bar blinks at 4 Hz so the end is noticed without reading it.
    """
    x0, y0, x1, y1 = box
    length = (y1 - y0 + 1) if vertical else (x1 - x0 + 1)
    lit = round(fraction * length)
    if fraction > 0 and lit == 0:
        lit = 1
    if fraction < 0.25 and not blink(t, 4.0):
        lit = 0
    mode = image.mode
    for i in range(length):
        on = i >= length - lit if vertical else i < lit
        fill = ink(colour if on else scale(colour, 0.12), mode)
        if vertical:
            for x in range(x0, x1 + 1):
                image.putpixel((x, y0 + i), fill)
        else:
            for y in range(y0, y1 + 1):
                image.putpixel((x0 + i, y), fill)


def frame_pixels(box: Box) -> list[tuple[int, int]]:
    """The border pixels of ``box`` clockwise from the top-left corner."""
    x0, y0, x1, y1 = box
    top = [(x, y0) for x in range(x0, x1 + 1)]
    right = [(x1, y) for y in range(y0 + 1, y1 + 1)]
    bottom = [(x, y1) for x in range(x1 - 1, x0 - 1, -1)]
    left = [(x0, y) for y in range(y1 - 1, y0, -1)]
    return top + right + bottom + left


def draw_frame_countdown(
    image: Image.Image, box: Box, fraction: float | None, colour: RGB, t: float
) -> None:
    """A frame around the die in the player's colour; with a timer it empties clockwise."""
    pixels = frame_pixels(box)
    lit = len(pixels) if fraction is None else round(fraction * len(pixels))
    if fraction is not None and fraction < 0.25 and not blink(t, 4.0):
        lit = 0
    mode = image.mode
    for i, xy in enumerate(pixels):
        image.putpixel(xy, ink(scale(colour, 0.6) if i < lit else scale(colour, 0.1), mode))


def draw_winner(image: Image.Image, colour: RGB, t: float) -> None:
    """Winner animation: diagonal stripes of the winner's colour sweep through every
    unlit pixel, so the final board stays readable underneath."""
    mode = image.mode
    dark = ink(BLACK, mode)
    shift = timing.ticks(t, WINNER_SPEED)
    fill = ink(colour, mode)
    for y in range(image.height):
        for x in range(image.width):
            if (x + y - shift) % WINNER_STRIPE == 0 and image.getpixel((x, y)) == dark:
                image.putpixel((x, y), fill)
