"""How the simulator's window draws the table: the LED board, the seats with their
buttons and labels, the system button, and the status and hint lines under the board.

Why apart from the window: the window owns SDL (opening, events, resizing, closing,
screenshots); painting is a function of what it is handed (a surface, the layout, the
status, which keys are down, the hint) and keeps only caches (fonts, the board drawn at
one pitch). Each changes for its own reasons, and the window class stays one job.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from controller.sim import legend
from controller.sim.status import RGB, TableStatus
from controller.sim.window_layout import (
    DIM_TEXT,
    EMPTY_SEAT,
    PANEL,
    SYSTEM,
    TABLE,
    TEXT,
    Box,
    WindowLayout,
    label_size,
    round_leds,
    text_colour,
)
from hardware.keyboard import Key

ARROW = "→"
"""pygame's bundled font has no arrow: the window draws it (the terminal and the page
write the character, and the window wrote "->" where they showed "→")."""


class LedBoard:
    """The last frame as round LEDs, drawn once per frame, brightness and pitch."""

    def __init__(self, pygame: Any, width: int, height: int) -> None:
        self._pg = pygame
        self._size = (width, height)
        self._frame: Image.Image | None = None
        self._brightness = 1.0
        self._cache: tuple[int, Any] | None = None
        """(pitch, the board drawn at that pitch); dropped when the frame changes."""

    def show(self, image: Image.Image) -> None:
        self._frame = image.copy()
        self._cache = None

    def set_brightness(self, level: float) -> None:
        self._brightness = level
        self._cache = None

    def forget(self) -> None:
        """Draw anew next time (the window was laid out again)."""
        self._cache = None

    def surface(self, pitch: int) -> Any:
        if self._cache is not None and self._cache[0] == pitch:
            return self._cache[1]
        frame = self._frame or Image.new("RGB", self._size)
        picture = round_leds(frame, pitch, self._brightness)
        board = self._pg.image.frombytes(picture.tobytes(), picture.size, "RGB")
        self._cache = (pitch, board)
        return board


class TablePainter:
    """Draws the whole window onto a surface; remembers every text it wrote."""

    def __init__(self, pygame: Any, key_of_button: dict[Key, str]) -> None:
        self._pg = pygame
        self._key_of_button = key_of_button
        self._fonts: dict[tuple[int, bool], Any] = {}
        self._surface: Any = None
        self._layout: WindowLayout | None = None
        self._pressed: frozenset[Key] = frozenset()
        self.drawn_texts: list[str] = []
        """Every text of the last paint, as written."""

    def paint(
        self,
        surface: Any,
        layout: WindowLayout,
        board: Any,
        status: TableStatus,
        pressed: frozenset[Key],
        hint: str,
    ) -> list[str]:
        """The table, the board (an SDL surface), seats, buttons and the status line;
        returns the texts written, in order."""
        pg = self._pg
        self._surface = surface
        self._layout = layout
        self._pressed = pressed
        self.drawn_texts = []
        surface.fill(TABLE)
        box = layout.board
        pad = max(3, layout.pitch // 3)
        frame = (box.x - pad, box.y - pad, box.w + 2 * pad, box.h + 2 * pad)
        pg.draw.rect(surface, PANEL, frame, border_radius=pad)
        surface.blit(board, (box.x, box.y))
        seats = status.seats
        for seat, seat_box in layout.seat_boxes.items():
            look = seats[seat] if seat < len(seats) else None
            self._draw_seat(seat, seat_box, look)
        self._draw_system()
        self._draw_status(status.text, hint)
        return self.drawn_texts

    def _font(self, size: int, bold: bool = False) -> Any:
        key = (size, bold)
        if key not in self._fonts:
            font = self._pg.font.Font(None, size)
            font.set_bold(bold)
            self._fonts[key] = font
        return self._fonts[key]

    def _draw_seat(self, seat: int, box: Box, look: Any) -> None:
        assert self._layout is not None
        colour: RGB = look.colour if look is not None else EMPTY_SEAT
        playing = look is None or look.playing
        if not playing:
            colour = EMPTY_SEAT
        if look is not None and look.on_turn:
            inset = 3
            self._pg.draw.rect(
                self._surface,
                colour,
                (box.x + inset, box.y + inset, box.w - 2 * inset, box.h - 2 * inset),
                width=3,
                border_radius=12,
            )
        label = legend.seat_label(seat, look.label if look is not None else "")
        self._text(
            label,
            self._layout.labels[seat],
            label_size(self._layout),
            TEXT if playing else DIM_TEXT,
            box.w - 8,
        )
        for button in ("ok", "next"):
            self._draw_button((seat, button), colour, legend.button_word(button))

    def _draw_system(self) -> None:
        assert self._layout is not None
        self._text(
            legend.system_word(), self._layout.labels[-1], label_size(self._layout), DIM_TEXT, 200
        )
        self._draw_button((None, "system"), SYSTEM, "")

    def _draw_button(self, key: Key, colour: RGB, name: str) -> None:
        assert self._layout is not None
        pg = self._pg
        circle = self._layout.buttons[key]
        pressed = key in self._pressed
        rim = tuple(max(0, c - 70) for c in colour)
        face = tuple(max(0, c - 50) for c in colour) if pressed else colour
        offset = 2 if pressed else 0
        pg.draw.circle(self._surface, (20, 16, 14), (circle.x + 2, circle.y + 3), circle.r)
        pg.draw.circle(self._surface, rim, (circle.x, circle.y + offset), circle.r)
        pg.draw.circle(self._surface, face, (circle.x, circle.y + offset), int(circle.r * 0.84))
        ink = text_colour(colour)
        char = self._key_of_button.get(key, "")
        if name:
            self._text(
                char,
                (circle.x, circle.y + offset - circle.r // 5),
                max(12, circle.r),
                ink,
                2 * circle.r,
                bold=True,
            )
            self._text(
                name,
                (circle.x, circle.y + offset + circle.r // 2),
                max(10, circle.r // 2),
                ink,
                2 * circle.r,
            )
        else:
            self._text(
                char,
                (circle.x, circle.y + offset),
                max(12, int(circle.r * 1.2)),
                ink,
                2 * circle.r,
                bold=True,
            )

    def _draw_status(self, status_text: str, hint: str) -> None:
        """The status in one line, or two split at a " · " if one would be too small."""
        assert self._layout is not None
        box = self._layout.status
        size = max(16, box.h * 2 // 7)
        centre_x = box.x + box.w // 2
        width = box.w - 16
        text = status_text
        lines = [text]
        if self._line_width(text, size) > width and " · " in text:
            parts = text.split(" · ")
            cut = min(
                range(1, len(parts)),
                key=lambda i: abs(len(" · ".join(parts[:i])) - len(text) / 2),
            )
            lines = [" · ".join(parts[:cut]), " · ".join(parts[cut:])]
        line_h = box.h * 3 // 10
        first_y = box.y + line_h // 2 + (line_h // 2 if len(lines) == 1 else 0)
        for index, line in enumerate(lines):
            self._text(line, (centre_x, first_y + index * line_h), size, TEXT, width)
        hint_y = box.y + box.h - max(8, box.h // 9)
        self._text(hint, (centre_x, hint_y), max(13, size * 2 // 3), DIM_TEXT, width)

    def _text(
        self,
        text: str,
        centre: tuple[int, int],
        size: int,
        colour: tuple[int, ...],
        max_width: int,
        bold: bool = False,
    ) -> None:
        """Text centred on ``centre``, shrunk until it fits ``max_width``."""
        if not text:
            return
        self.drawn_texts.append(text)
        rendered = self._render(text, size, colour, bold)
        while rendered.get_width() > max_width and size > 9:
            size -= 1
            rendered = self._render(text, size, colour, bold)
        rect = rendered.get_rect(center=centre)
        self._surface.blit(rendered, rect)

    def _line_width(self, text: str, size: int) -> int:
        font = self._font(size)
        parts = text.split(ARROW)
        letters: int = sum(font.size(part)[0] for part in parts)
        return letters + (len(parts) - 1) * arrow_width(size)

    def _render(self, text: str, size: int, colour: tuple[int, ...], bold: bool) -> Any:
        """One line of text as a surface, every arrow drawn as lines in its place."""
        font = self._font(size, bold)
        if ARROW not in text:
            return font.render(text, True, colour)
        parts = [font.render(part, True, colour) if part else None for part in text.split(ARROW)]
        arrow = arrow_width(size)
        width = sum(p.get_width() for p in parts if p is not None) + (len(parts) - 1) * arrow
        height = font.get_height()
        line = self._pg.Surface((width, height), self._pg.SRCALPHA)
        x = 0
        for index, part in enumerate(parts):
            if index:
                draw_arrow(self._pg, line, x, height, arrow, colour, bold)
                x += arrow
            if part is not None:
                line.blit(part, (x, 0))
                x += part.get_width()
        return line


def arrow_width(size: int) -> int:
    """The room an arrow takes in a line of ``size``-pixel text (a wide letter)."""
    return max(6, size * 3 // 4)


def draw_arrow(
    pygame: Any, surface: Any, x: int, height: int, width: int, colour: Any, bold: bool
) -> None:
    """A right arrow in the cell at ``x`` of a text line: a shaft at the letters' middle
    and two barbs, as thick as the letters' strokes."""
    thick = max(1, height // 12 + (1 if bold else 0))
    middle = height * 11 // 20
    left, right = x + width // 6, x + width - width // 6
    barb = max(2, (right - left) * 2 // 5)
    pygame.draw.line(surface, colour, (left, middle), (right, middle), thick)
    pygame.draw.line(surface, colour, (right - barb, middle - barb), (right, middle), thick)
    pygame.draw.line(surface, colour, (right - barb, middle + barb), (right, middle), thick)
