"""Text on tiny panels with luma's legacy bitmap fonts, scrolled by time.

luma's ``show_message`` scrolls by sleeping and pushing frames to a device itself;
views must stay pure (the time comes in ``scene.t``), so we use only its glyph data and
``luma.core.legacy.text`` to draw onto a PIL image, and compute the scroll offset from
``t``. Text is clipped to a box by drawing into a box-sized image first.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from luma.core.legacy import text as legacy_text
from luma.core.legacy import textsize
from luma.core.legacy.font import CP437_FONT, TINY_FONT, proportional
from PIL import Image, ImageDraw

from controller.views.palette import RGB, ink

TINY = proportional(TINY_FONT)
"""3×5 glyphs (rows 1–5 of the 8-row cell): for 16-pixel-high panels."""
LARGE = proportional(CP437_FONT)
"""8-row glyphs: for 8-row strips and 32×32."""

SCROLL_PX_PER_S = 12.0
"""Scroll speed: readable on a 16-wide panel (about 3 characters per second)."""

_UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}


def ascii_text(text: str) -> str:
    """The fonts are ASCII only: spell umlauts out (Ärger -> Aerger), drop other accents."""
    spelled = "".join(_UMLAUTS.get(ch, ch) for ch in text)
    plain = unicodedata.normalize("NFKD", spelled).encode("ascii", "ignore").decode("ascii")
    return "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in plain)


def font_for(height: int) -> Any:
    """TINY for boxes under 8 rows, the 8-row font otherwise."""
    return LARGE if height >= 8 else TINY


def text_width(text: str, font: Any) -> int:
    width, _ = textsize(ascii_text(text), font=font)
    return int(width)


def draw_text(
    image: Image.Image,
    box: tuple[int, int, int, int],
    text: str,
    colour: RGB,
    t: float = 0.0,
    font: Any = None,
    background: RGB | None = None,
) -> None:
    """Draw ``text`` in ``box`` (x0, y0, x1, y1 inclusive), scrolling if it is too wide.

    Text that fits is centred and still; wider text enters from the right and scrolls
    left at :data:`SCROLL_PX_PER_S`, then repeats after a gap of one box width.
    """
    x0, y0, x1, y1 = box
    width, height = x1 - x0 + 1, y1 - y0 + 1
    chosen = font if font is not None else font_for(height)
    plain = ascii_text(text)
    used = text_width(plain, chosen)
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
        period = used + width
        left = width - int(t * SCROLL_PX_PER_S) % period
    legacy_text(draw, (left, top), plain, fill=ink(colour, image.mode), font=chosen)
    image.paste(layer, (x0, y0))
