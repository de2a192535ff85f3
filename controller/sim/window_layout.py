"""Where the simulator's window puts the board, the seats' buttons and the status, and
how its LEDs look.

Why apart from the window: the layout is a pure function of the window's and the
panel's sizes (the tests and the docs pictures call it without a window), and the round
LEDs are a picture transform; neither needs pygame.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from controller.sim.status import RGB
from hardware.keyboard import Key

TABLE: RGB = (46, 38, 32)
"""The table top around the panel: dark wood, so the LEDs and buttons stand out."""
PANEL: RGB = (8, 8, 8)
OFF_LED: RGB = (30, 30, 30)
"""An unlit LED: a dark dot, as a real panel's LEDs look when off."""
TEXT: RGB = (235, 235, 235)
DIM_TEXT: RGB = (150, 140, 130)
SYSTEM: RGB = (190, 190, 190)
EMPTY_SEAT: RGB = (95, 90, 85)
MIN_SIZE = (360, 320)


@dataclass(frozen=True, slots=True)
class Circle:
    x: int
    y: int
    r: int

    def contains(self, x: int, y: int) -> bool:
        return (x - self.x) ** 2 + (y - self.y) ** 2 <= self.r**2


@dataclass(frozen=True, slots=True)
class Box:
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True, slots=True)
class WindowLayout:
    """Where everything goes in a window of ``size``; a pure function of the sizes."""

    size: tuple[int, int]
    pitch: int
    """Pixels per LED (LEDs are square)."""
    board: Box
    buttons: dict[Key, Circle]
    seat_boxes: dict[int, Box]
    labels: dict[int, tuple[int, int]]
    """Centre of each seat's label."""
    status: Box

    def button_at(self, x: int, y: int) -> Key | None:
        for key, circle in self.buttons.items():
            if circle.contains(x, y):
                return key
        return None


def plan_window(
    size: tuple[int, int], width: int, height: int, seat_count: int = 4
) -> WindowLayout:
    """Board centred, a band on each side for the seats, the status strip below."""
    total_w, total_h = max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1])
    status_h = max(60, total_h // 8)
    area_h = total_h - status_h
    side = min(total_w, area_h) / 1.5  # the board; the bands around it take the rest
    pitch = max(2, int(side // max(width, height)))
    board_w, board_h = pitch * width, pitch * height
    left = (total_w - board_w) // 2
    top = (area_h - board_h) // 2
    # The seats' bands beside the board: all the room there is, but never so wide that
    # the buttons drift away from the board in a long window; the board, its bands and
    # the status strip are then centred together.
    band_x = min(left, max(board_w, board_h) * 2 // 5)
    band_y = min(top, max(board_w, board_h) * 2 // 5)
    top = (total_h - board_h - 2 * band_y - status_h) // 2 + band_y
    board = Box(left, top, board_w, board_h)
    label_h = max(14, min(band_y // 5, 22))
    radius = max(8, int(min(band_x / 5.0, (band_y - label_h) / 2.8)))
    # seat boxes, clockwise from the bottom: (x, y, w, h) next to the board
    half_w, half_h = board_w // 2, board_h // 2
    boxes = {
        0: Box(left, top + board_h, half_w, band_y),  # bottom, left half
        1: Box(left - band_x, top, band_x, half_h),  # left, upper half
        2: Box(left + half_w, top - band_y, board_w - half_w, band_y),  # top, right half
        3: Box(left + board_w, top + half_h, band_x, board_h - half_h),  # right, lower half
    }
    buttons: dict[Key, Circle] = {}
    labels: dict[int, tuple[int, int]] = {}
    seat_boxes: dict[int, Box] = {}
    for seat in range(min(seat_count, 4)):
        box = boxes[seat]
        seat_boxes[seat] = box
        cx = box.x + box.w // 2
        block_h = label_h + 2 * radius + radius // 2
        block_top = box.y + (box.h - block_h) // 2
        if seat == 2:  # the top seat: buttons outward (up), the label next to the board
            button_y = block_top + radius
            label_y = block_top + 2 * radius + radius // 2 + label_h // 2
        else:
            label_y = block_top + label_h // 2
            button_y = block_top + label_h + radius // 2 + radius
        spread = int(radius * 1.25)
        buttons[(seat, "ok")] = Circle(cx - spread, button_y, radius)
        buttons[(seat, "next")] = Circle(cx + spread, button_y, radius)
        labels[seat] = (cx, label_y)
    corner = Box(left + board_w, top + board_h, band_x, band_y)
    system_r = max(7, int(radius * 0.7))
    buttons[(None, "system")] = Circle(
        corner.x + corner.w // 2, corner.y + corner.h // 2 + label_h // 2, system_r
    )
    labels[-1] = (corner.x + corner.w // 2, corner.y + corner.h // 2 - system_r - label_h // 2)
    status = Box(0, top + board_h + band_y, total_w, status_h)
    return WindowLayout((total_w, total_h), pitch, board, buttons, seat_boxes, labels, status)


def label_size(layout: WindowLayout) -> int:
    """The seats' labels grow with the board on screen, not with its LEDs: a 32×32
    panel has LEDs half as big as a 16×16 one in the same window, and its labels
    must not shrink with them (sized as for a board of 16 LEDs across)."""
    led = max(layout.board.w, layout.board.h) // 16
    return max(14, min(24, led * 2 // 3 + 6))


def screenshot_name(directory: Path, now: datetime) -> Path:
    """``spieltisch-2026-12-01-215012.png`` in ``directory``; a second one within the
    same second gets ``-2``, ``-3``, ..., so F12 never overwrites a screenshot."""
    stem = f"spieltisch-{now:%Y-%m-%d-%H%M%S}"
    path = directory / f"{stem}.png"
    number = 1
    while path.exists():
        number += 1
        path = directory / f"{stem}-{number}.png"
    return path


def round_leds(frame: Image.Image, pitch: int, brightness: float = 1.0) -> Image.Image:
    """The panel picture at ``pitch`` pixels per LED: round LEDs with a soft glow."""
    rgb = frame.convert("RGB")
    if brightness < 1.0:
        rgb = rgb.point(lambda v: round(v * brightness))
    width, height = rgb.size
    big = rgb.resize((width * pitch, height * pitch), Image.Resampling.NEAREST)
    mask = _led_mask(width, height, pitch)
    lit = ImageChops.multiply(big, Image.merge("RGB", (mask, mask, mask)))
    off = Image.merge("RGB", tuple(mask.point(lambda v, c=c: v * c // 255) for c in OFF_LED))
    # The glow: the picture blurred at 4 pixels per LED, then stretched (cheap and soft).
    glow = rgb.resize((width * 4, height * 4), Image.Resampling.NEAREST)
    glow = glow.filter(ImageFilter.GaussianBlur(2.4)).point(lambda v: v * 3 // 5)
    glow = glow.resize(big.size, Image.Resampling.BILINEAR)
    # An unlit LED keeps only a fifth of the glow around it: dark letters on a lit field
    # (setup's "los" on green) were blurred by their neighbours' light to unreadable.
    dark = rgb.convert("L").point(lambda v: 255 if v < DARK_LEVEL else 0)
    gate = dark.resize(big.size, Image.Resampling.NEAREST).point(lambda v: 255 - v * 4 // 5)
    glow = ImageChops.multiply(glow, Image.merge("RGB", (gate, gate, gate)))
    return ImageChops.add(ImageChops.lighter(lit, off), glow)


DARK_LEVEL = 24
"""An LED whose brightness (0-255) is below this is unlit for the glow."""


_MASKS: dict[tuple[int, int, int], Image.Image] = {}


def _led_mask(width: int, height: int, pitch: int) -> Image.Image:
    """One anti-aliased disc per LED (``L`` mode), cached per size."""
    key = (width, height, pitch)
    if key not in _MASKS:
        fine = 4
        tile = Image.new("L", (pitch * fine, pitch * fine), 0)
        margin = pitch * fine * 0.12
        ImageDraw.Draw(tile).ellipse(
            (margin, margin, pitch * fine - margin, pitch * fine - margin), fill=255
        )
        tile = tile.resize((pitch, pitch), Image.Resampling.LANCZOS)
        mask = Image.new("L", (width * pitch, height * pitch), 0)
        for y in range(height):
            for x in range(width):
                mask.paste(tile, (x * pitch, y * pitch))
        _MASKS.clear()
        _MASKS[key] = mask
    return _MASKS[key]


def text_colour(background: RGB) -> RGB:
    """Black on light colours (yellow), white on dark ones (blue)."""
    r, g, b = background
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)


def shown_events(pygame: Any) -> set[int]:
    """The events by which the window system says the window is on screen or uncovered:
    a picture flipped before then is lost, so the window draws itself again."""
    names = ("WINDOWEXPOSED", "WINDOWSHOWN", "VIDEOEXPOSE")
    return {getattr(pygame, name) for name in names if hasattr(pygame, name)}
