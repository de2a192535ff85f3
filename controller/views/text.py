"""Text on tiny panels with luma's legacy bitmap fonts, scrolled by time.

luma's ``show_message`` scrolls by sleeping and pushing frames to a device itself;
views must stay pure (the time comes in ``scene.t``), so we use only its glyph data and
``luma.core.legacy.text`` to draw onto a PIL image, and compute the scroll offset from
``t``. Text is clipped to a box by drawing into a box-sized image first.

How text moves, so that a child can read it: text that fits stands still, centred.
Longer text starts with its first letters at the left edge and holds there for
:data:`HOLD_START_S`, then slides left at about :data:`CHARS_PER_S` characters a second
until its end reaches the right edge, holds :data:`HOLD_END_S`, and starts over. The
time counts from the moment the text appeared (``since``), so it always begins at its
beginning; :func:`scroll_seconds` is how long one pass takes, which is how long the
table keeps a message up at the least.

Which words are on the panel? Inside :func:`collect_texts` every text a view draws is
noted (:class:`DrawnText`: the words as written, before the fonts' spelling, with the
box and the moment), so a test can read the panel in words rather than pixels: that
every word came through the catalog, that none is English on a German table, that a
message stayed up for one whole pass. Outside it nothing is kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from luma.core.legacy import text as legacy_text
from luma.core.legacy import textsize
from PIL import Image, ImageDraw

from controller.views import timing
from controller.views.fonts import LARGE, TINY, panel_text
from controller.views.palette import RGB, ink

__all__ = [
    "LARGE",
    "TINY",
    "DrawnText",
    "collect_texts",
    "draw_segments",
    "draw_text",
    "note_text",
    "scroll_seconds",
    "text_width",
]

CHARS_PER_S = 2.5
"""Scroll speed in characters a second: slow enough for a child who reads letter by
letter, fast enough that "Mensch ärgere dich nicht" passes a 16-wide panel in 10 s."""
SCROLL_PX_PER_S = 10.0
"""TINY glyphs are about 4 pixels wide with their gap: 2.5 characters a second."""
LARGE_SCROLL_PX_PER_S = 17.0
"""The 8-row glyphs are about 7 pixels wide: the same 2.5 characters a second."""
HOLD_START_S = 1.0
HOLD_END_S = 0.75

Segment = tuple[str, RGB]
"""A run of text in one colour (the game-over line names each player in its colour)."""


@dataclass(frozen=True)
class DrawnText:
    """One text a view drew: ``text`` as the view wrote it, in a box ``width`` ×
    ``height`` with ``font``, at scene time ``t``, scrolling from ``since``."""

    text: str
    width: int
    height: int
    font: Any
    t: float
    since: float

    def pass_seconds(self) -> float:
        """How long one whole pass of this text takes in its box (0: it stands still)."""
        overflow = text_width(self.text, self.font) - self.width
        if overflow <= 0:
            return 0.0
        return HOLD_START_S + overflow / scroll_speed(self.font) + HOLD_END_S


_drawn: ContextVar[list[DrawnText] | None] = ContextVar("drawn_texts", default=None)


@contextmanager
def collect_texts() -> Iterator[list[DrawnText]]:
    """Note every text drawn inside the ``with`` block (module docstring)."""
    found: list[DrawnText] = []
    token = _drawn.set(found)
    try:
        yield found
    finally:
        _drawn.reset(token)


def note_text(
    text: str, width: int, height: int, font: Any, t: float = 0.0, since: float = 0.0
) -> None:
    """Tell :func:`collect_texts` about a text drawn without :func:`draw_segments`."""
    found = _drawn.get()
    if found is not None:
        found.append(DrawnText(text, width, height, font, t, since))


def font_for(height: int) -> Any:
    """TINY for boxes under 8 rows, the 8-row font otherwise."""
    return LARGE if height >= 8 else TINY


def text_width(text: str, font: Any) -> int:
    width, _ = textsize(panel_text(text), font=font)
    return int(width)


def scroll_speed(font: Any) -> float:
    return SCROLL_PX_PER_S if font is TINY else LARGE_SCROLL_PX_PER_S


def scroll_seconds(text: str, width: int, height: int) -> float:
    """How long one pass of ``text`` takes in a box of that size (0: it fits)."""
    font = font_for(height)
    overflow = text_width(text, font) - width
    if overflow <= 0:
        return 0.0
    return HOLD_START_S + overflow / scroll_speed(font) + HOLD_END_S


def scroll_offset(t: float, since: float, overflow: int, speed: float) -> int:
    """Pixels the text has moved left at ``t`` when it appeared at ``since`` (module
    docstring: hold, slide, hold, start over)."""
    slide = overflow / speed
    cycle = HOLD_START_S + slide + HOLD_END_S
    start = since + math.floor(max(0.0, t - since) / cycle + timing.EPS) * cycle
    local = t - start
    if local < HOLD_START_S - timing.EPS:
        timing.note(start + HOLD_START_S + 1.0 / speed)  # the first step that shows
        return 0
    moved = local - HOLD_START_S
    if moved < slide - timing.EPS:
        steps = math.floor(moved * speed + timing.EPS)
        timing.note(start + HOLD_START_S + (steps + 1) / speed)
        return min(steps, overflow)
    timing.note(start + cycle)
    return overflow


def draw_text(
    image: Image.Image,
    box: tuple[int, int, int, int],
    text: str,
    colour: RGB,
    t: float = 0.0,
    font: Any = None,
    background: RGB | None = None,
    since: float = 0.0,
) -> None:
    """Draw ``text`` in ``box`` (x0, y0, x1, y1 inclusive), scrolling if it is too wide
    (module docstring) from the moment ``since`` it appeared."""
    draw_segments(image, box, [(text, colour)], t, font, background, since)


def draw_segments(
    image: Image.Image,
    box: tuple[int, int, int, int],
    segments: list[Segment],
    t: float = 0.0,
    font: Any = None,
    background: RGB | None = None,
    since: float = 0.0,
) -> None:
    """Draw runs of text in their colours one after the other, as one line that
    scrolls like :func:`draw_text`."""
    x0, y0, x1, y1 = box
    width, height = x1 - x0 + 1, y1 - y0 + 1
    chosen = font if font is not None else font_for(height)
    note_text("".join(text for text, _ in segments), width, height, chosen, t, since)
    parts = [(panel_text(text), colour) for text, colour in segments]
    used = text_width("".join(text for text, _ in parts), chosen)
    layer = Image.new(image.mode, (width, height), 0)
    if background is not None:
        layer.paste(ink(background, image.mode), (0, 0, width, height))
    draw = ImageDraw.Draw(layer)
    # TINY glyphs use rows 1..5 of their 8-row cell: lift them to the top of the box.
    top = -1 if chosen is TINY else 0
    top += max(0, (height - (5 if chosen is TINY else 8)) // 2)
    if used <= width:
        left = (width - used) // 2
    else:
        left = -scroll_offset(t, since, used - width, scroll_speed(chosen))
    done = ""
    for text, colour in parts:
        x = left + (text_width(done, chosen) if done else 0)
        legacy_text(draw, (x, top), text, fill=ink(colour, image.mode), font=chosen)
        done += text
    image.paste(layer, (x0, y0))
