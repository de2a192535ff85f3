"""Read what a program drew into a pseudo-terminal, as a person would see it.

``pyte`` (a VT100/xterm emulator) replays the bytes into a screen of cells; the tests
then look at the cells: which rows hold the half-block LEDs, in which colours, and the
text below. :func:`screen_picture` turns such a screen into a PNG for the README (the
half blocks are drawn exactly, text with a monospace font if one is installed).
"""

from __future__ import annotations

import os
import queue
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyte
from PIL import Image, ImageDraw, ImageFont

UPPER_HALF = "▀"
MONO = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
"""The README's terminal picture is drawn in this font (Debian: fonts-dejavu-core)."""
XTERM_BASE = {
    "black": (0, 0, 0),
    "red": (205, 0, 0),
    "green": (0, 205, 0),
    "brown": (205, 205, 0),
    "blue": (0, 0, 238),
    "magenta": (205, 0, 205),
    "cyan": (0, 205, 205),
    "white": (229, 229, 229),
}


class Terminal:
    """A pty master read into a pyte screen.

    A reader thread drains the master all the time, so a program writing a large frame
    into the terminal never blocks on a full pty buffer while the test waits.
    """

    def __init__(self, master: int, columns: int, rows: int) -> None:
        self.master = master
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self._chunks: queue.Queue[bytes | None] = queue.Queue()
        self._wake_r, self._wake_w = os.pipe()
        self._ended = False
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    @classmethod
    def open(cls, master: int, columns: int, rows: int) -> Terminal:
        return cls(master, columns, rows)

    def _drain(self) -> None:
        while True:
            ready, _, _ = select.select([self.master, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the other side closed the terminal
                chunk = b""
            self._chunks.put(chunk or None)
            if not chunk:
                return

    def read_until(self, done: Callable[[Terminal], bool], timeout: float = 60.0) -> bool:
        """Feed output until ``done`` holds; False if the output ended or time ran out.

        Waits on the reader's queue, never sleeps: the timeout only bounds a hang.
        """
        deadline = time.monotonic() + timeout
        while not done(self):
            left = deadline - time.monotonic()
            if left <= 0 or self._ended:
                return done(self)
            try:
                chunk = self._chunks.get(timeout=left)
            except queue.Empty:
                return False
            if chunk is None:
                self._ended = True
                continue
            self.raw += chunk
            self.stream.feed(chunk)
        return True

    def close(self) -> None:
        """Stop the reader (before the master is closed)."""
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=10)
        os.close(self._wake_r)
        os.close(self._wake_w)

    def lines(self) -> list[str]:
        return list(self.screen.display)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines())


def colour(value: str, default: tuple[int, int, int]) -> tuple[int, int, int]:
    """A pyte colour (hex "rrggbb" for 24-bit and 256 colours, a name, or "default")."""
    if value == "default":
        return default
    if len(value) == 6 and all(c in "0123456789abcdefABCDEF" for c in value):
        return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
    return XTERM_BASE.get(value, default)


@dataclass(frozen=True)
class Matrix:
    """The block of half-block cells on a screen: where it is and its LED rows."""

    top: int
    rows: int
    left: int
    columns: int
    pixels: list[list[tuple[int, int, int]]]
    """Half-row by cell column: every LED row appears ``scale`` times."""


def find_matrix(screen: pyte.Screen) -> Matrix | None:
    """The rectangle of ``▀`` cells, read back into half-rows of colours."""
    rows = [
        y
        for y in range(screen.lines)
        if any(screen.buffer[y][x].data == UPPER_HALF for x in range(screen.columns))
    ]
    if not rows:
        return None
    top, bottom = rows[0], rows[-1]
    cells = [
        x
        for x in range(screen.columns)
        if any(screen.buffer[y][x].data == UPPER_HALF for y in range(top, bottom + 1))
    ]
    left, right = cells[0], cells[-1]
    pixels: list[list[tuple[int, int, int]]] = []
    for y in range(top, bottom + 1):
        upper, lower = [], []
        for x in range(left, right + 1):
            cell = screen.buffer[y][x]
            upper.append(colour(cell.fg, (255, 255, 255)))
            lower.append(colour(cell.bg, (0, 0, 0)))
        pixels += [upper, lower]
    return Matrix(top, bottom - top + 1, left, right - left + 1, pixels)


def screen_picture(screen: pyte.Screen, cell: tuple[int, int] = (10, 20)) -> Image.Image:
    """The screen as a picture: half blocks exact, other characters in a mono font."""
    width, height = cell
    picture = Image.new("RGB", (screen.columns * width, screen.lines * height), (12, 12, 12))
    draw = ImageDraw.Draw(picture)
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    font = ImageFont.truetype(str(MONO), 16) if MONO.exists() else ImageFont.load_default()
    for y in range(screen.lines):
        for x in range(screen.columns):
            char = screen.buffer[y][x]
            box = (x * width, y * height, (x + 1) * width - 1, (y + 1) * height - 1)
            fg = colour(char.fg, (220, 220, 220))
            bg = colour(char.bg, (12, 12, 12))
            if char.reverse:
                fg, bg = bg, fg
            if char.data == UPPER_HALF:
                draw.rectangle((box[0], box[1], box[2], box[1] + height // 2 - 1), fill=fg)
                draw.rectangle((box[0], box[1] + height // 2, box[2], box[3]), fill=bg)
                continue
            draw.rectangle(box, fill=bg)
            if char.data.strip():
                draw.text((box[0], box[1] + 1), char.data, fill=fg, font=font)
    return picture
