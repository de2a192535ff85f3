"""The window's round LEDs and their glow (controller/sim/window_layout.round_leds):
dark letters on a lit field stay readable, as they are on the panel."""

from __future__ import annotations

from PIL import Image

from controller import i18n, views
from controller.sim.window_layout import round_leds
from tests.views_scenes import SCENES

PITCH = 24


def centre_levels(frame: Image.Image) -> tuple[list[int], list[int]]:
    """The brightness at the centre of every unlit LED below the seat row that has a
    lit LED beside it, and of every lit LED there, as the window draws them."""
    drawn = round_leds(frame, PITCH).convert("L")
    level = frame.convert("L")
    unlit: list[int] = []
    lit: list[int] = []
    width, height = frame.size
    for y in range(6, height):
        for x in range(width):
            centre = drawn.getpixel((x * PITCH + PITCH // 2, y * PITCH + PITCH // 2))
            assert isinstance(centre, int)
            if level.getpixel((x, y)) == 0:
                near = [
                    level.getpixel((x + dx, y + dy))
                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= x + dx < width and 0 <= y + dy < height
                ]
                if any(n for n in near):
                    unlit.append(centre)
            else:
                lit.append(centre)
    return unlit, lit


def test_setups_los_on_green_is_not_blurred_away() -> None:
    i18n.use("de")
    try:
        frame = views.render(SCENES["setup_start"](), 16, 16, "RGB")
    finally:
        i18n.use("en")
    unlit, lit = centre_levels(frame)
    assert len(unlit) > 10 and len(lit) > 50
    # the letters' LEDs stay dark: far below the lit field around them
    assert max(unlit) * 4 < min(lit), (max(unlit), min(lit))
