"""The pairing QR code over the panel, alternating with the code's scrolling banner.

The companion page's server makes the code's modules (it has the QR library; the
table does not need one) and sends them with the notice. Here they are only drawn:
dark modules as dark LEDs on a lit square, with the quiet zone the panel has room for,
because a phone camera reads a QR code as dark on light. On panels too small for the
code plus one module of quiet zone around it, nothing is drawn and the banner with the
digits is all there is.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from controller.views import timing

QR_S = 5.0
"""Seconds the QR code stays up in each round; then the banner for :data:`CODE_S`."""
CODE_S = 4.0
LIGHT = (200, 200, 200)
"""Lit, but not at full power: a whole lit panel is the brightest picture there is."""


def fits(rows: Sequence[str], width: int, height: int) -> bool:
    size = len(rows)
    return size > 0 and size + 2 <= min(width, height)


def overlay(image: Image.Image, rows: Sequence[str], t: float, since: float) -> Image.Image:
    """``image`` with the QR code over it while ``t`` is in a QR phase of the rounds
    counted from ``since`` (the notice); the image itself in the banner phase."""
    if not fits(rows, image.width, image.height):
        return image
    if not timing.phase(t, QR_S + CODE_S, QR_S, since):
        return image
    size = len(rows)
    out = image.copy()
    light: int | tuple[int, int, int] = 1 if out.mode == "1" else LIGHT
    dark: int | tuple[int, int, int] = 0 if out.mode == "1" else (0, 0, 0)
    out.paste(light, (0, 0, out.width, out.height))
    x0 = (out.width - size) // 2
    y0 = (out.height - size) // 2
    for y, row in enumerate(rows):
        for x, bit in enumerate(row):
            if bit == "1":
                out.putpixel((x0 + x, y0 + y), dark)
    return out
