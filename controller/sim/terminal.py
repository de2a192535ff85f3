"""The LED matrix in a terminal, whole and crisp, with the status line and key legend.

Why not luma's ``asciiblock``: it scales the picture to the terminal's *width* with
smoothing, so a square panel needs as many rows as half the columns and is cropped in
an ordinary 80×24 terminal, and single LEDs blur. This backend instead:

* maps every LED to a whole number of cells: ``scale`` columns wide and ``scale``
  half-rows tall (the half-block ``▀`` with the upper LED as foreground and the lower as
  background colour, so a cell holds two LED rows and LEDs look square); ``scale`` is
  the largest that fits both the terminal's width and its height, leaving room for the
  text below;
* uses 24-bit colour when ``COLORTERM`` says the terminal has it (``truecolor``,
  ``24bit``), else the xterm 256-colour palette;
* draws unlit LEDs faintly grey, so the panel's edge is visible as on a real panel;
* writes below the matrix the status line in words (from the controller's
  :data:`~controller.sim.status.StatusSource`, up to two lines) and the key legend;
* redraws everything when the terminal is resized (``SIGWINCH``; the handler only
  notes it and calls ``on_resize``, which the simulator uses to wake its loop);
* runs on the alternate screen with the cursor hidden and line wrap off, and puts the
  terminal back as it was on :meth:`close`, so whatever is printed afterwards (an
  error, the kept log) is the last thing on screen.

A terminal smaller than the panel at one cell per LED plus the text shows one line
saying how large it must be, instead of a cropped board.
"""

from __future__ import annotations

import errno
import math
import os
import signal
import textwrap
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import FrameType
from typing import Any

from PIL import Image

from controller.i18n import _
from controller.sim.legend import legend_lines
from controller.sim.status import TableStatus
from hardware.interfaces import ButtonEvent, EventSink, FixedSizePanel, HardwareError, InputBackend

RGB = tuple[int, int, int]

UPPER_HALF = "▀"
OFF_LEVEL = 22
"""An unlit LED is drawn as this grey (each channel at least this), like a dark LED on
a panel: the board's edge stays visible and no lit LED is ever darker than an unlit one."""
STATUS_LINES = 2
"""The status line may wrap onto a second line in a narrow terminal, never more."""

ENTER = "\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[2J"
"""Alternate screen, cursor hidden, no automatic line wrap, cleared."""
LEAVE = "\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l"
"""Everything :data:`ENTER` changed, undone."""
RESET = "\x1b[0m"

_CUBE = (0, 95, 135, 175, 215, 255)


def colour_depth(env: Mapping[str, str] | None = None) -> int:
    """24 when the terminal says it has 24-bit colour (``COLORTERM``), else 256."""
    value = (env if env is not None else os.environ).get("COLORTERM", "").lower()
    return 24 if value in ("truecolor", "24bit") else 256


def xterm256(colour: RGB) -> int:
    """The nearest colour of xterm's 256-colour palette (its 6×6×6 cube or grey ramp)."""

    def nearest_level(value: int) -> int:
        return min(range(6), key=lambda i: abs(_CUBE[i] - value))

    r, g, b = (nearest_level(c) for c in colour)
    cube = (_CUBE[r], _CUBE[g], _CUBE[b])
    grey_index = min(23, max(0, round((sum(colour) / 3 - 8) / 10)))
    grey = 8 + 10 * grey_index

    def distance(other: tuple[int, int, int]) -> int:
        return sum((a - b) ** 2 for a, b in zip(colour, other, strict=True))

    if distance((grey, grey, grey)) < distance(cube):
        return 232 + grey_index
    return 16 + 36 * r + 6 * g + b


def sgr(fg: RGB, bg: RGB, depth: int) -> str:
    """The escape sequence that sets both colours."""
    if depth == 24:
        return f"\x1b[38;2;{fg[0]};{fg[1]};{fg[2]};48;2;{bg[0]};{bg[1]};{bg[2]}m"
    return f"\x1b[38;5;{xterm256(fg)};48;5;{xterm256(bg)}m"


@dataclass(frozen=True, slots=True)
class Layout:
    """Where things go in a terminal of ``columns`` × ``rows`` cells (0-based)."""

    columns: int
    rows: int
    scale: int
    """Cells per LED horizontally, half-rows per LED vertically; 0: the panel does not fit."""
    left: int
    top: int
    matrix_rows: int
    status: tuple[str, ...]
    legend: tuple[str, ...]
    text_top: int
    note: tuple[str, ...] = ()
    """A notice under the legend (the simulator's "resuming the game in progress")."""


def wrap_status(text: str, columns: int) -> tuple[str, ...]:
    """The status in at most :data:`STATUS_LINES` lines of ``columns``, cut with "…"."""
    if not text:
        return ("",)
    lines = textwrap.wrap(text, columns) or [""]
    if len(lines) > STATUS_LINES:
        lines = lines[:STATUS_LINES]
        last = lines[-1]
        lines[-1] = (last[: columns - 1] if len(last) >= columns else last) + "…"
    return tuple(lines)


def plan_layout(
    columns: int,
    rows: int,
    width: int,
    height: int,
    status: str,
    legend: Callable[[int], list[str]] = legend_lines,
    note: str = "",
) -> Layout:
    """The largest whole-number scale at which the panel and the text fit, centred."""
    # The status always has its two rows, so a longer status never changes the scale.
    status_lines = wrap_status(status, columns)
    status_lines += ("",) * (STATUS_LINES - len(status_lines))
    legend_text = tuple(legend(columns))
    note_lines = wrap_status(note, columns) if note else ()
    text_rows = len(status_lines) + len(legend_text) + len(note_lines)
    scale = 0
    for candidate in range(1, columns + 1):
        needed = math.ceil(height * candidate / 2) + text_rows
        if width * candidate > columns or needed > rows:
            break
        scale = candidate
    matrix_rows = math.ceil(height * scale / 2)
    spare = rows - matrix_rows - text_rows
    gap = 1 if spare >= 1 and scale else 0
    top = max(0, (spare - gap) // 2)
    left = max(0, (columns - width * scale) // 2)
    return Layout(
        columns,
        rows,
        scale,
        left,
        top,
        matrix_rows,
        status_lines,
        legend_text,
        text_top=top + matrix_rows + gap,
        note=note_lines,
    )


def _geometry(layout: Layout) -> tuple[int, ...]:
    """What, when it changes, needs the screen cleared and drawn anew."""
    return (layout.columns, layout.rows, layout.scale, layout.left, layout.top, layout.text_top)


def minimum_size(width: int, height: int) -> tuple[int, int]:
    """The smallest terminal the panel fits at one cell per LED (40×20 for 32×32)."""
    columns = max(width, 40)
    rows = math.ceil(height / 2) + STATUS_LINES + len(legend_lines(columns))
    return columns, rows


class TerminalDisplay(FixedSizePanel):
    """A ``Display`` drawing into the terminal on ``fd`` (by default standard output)."""

    def __init__(
        self,
        width: int,
        height: int,
        *,
        fd: int = 1,
        mode: str = "RGB",
        status: Callable[[], TableStatus] | None = None,
        on_resize: Callable[[], None] | None = None,
        depth: int | None = None,
        legend: Callable[[int], list[str]] = legend_lines,
    ) -> None:
        if not os.isatty(fd):
            raise HardwareError(
                "the terminal display needs a terminal (standard output is not a tty); "
                "try --display text"
            )
        if mode not in ("RGB", "1"):
            raise HardwareError(f"the terminal display takes RGB or 1 frames, not {mode!r}")
        self._width = width
        self._height = height
        self._mode = mode
        self._fd = fd
        self.status_source = status
        """Asked for the status line at every frame (set by the simulator)."""
        self.on_resize = on_resize
        """Called from the SIGWINCH handler; it must only enqueue (wake the loop)."""
        self.depth = depth if depth is not None else colour_depth()
        self._legend = legend
        self._brightness = 1.0
        self.note = ""
        """A notice shown under the legend until :meth:`dismiss_note` (the first key)."""
        self._status = TableStatus("")
        self._last: Image.Image | None = None
        self._drawn: dict[int, str] = {}
        self._layout: Layout | None = None
        self._closed = False
        self.frames = 0
        self._previous_winch: Any = None
        if threading.current_thread() is threading.main_thread():
            self._previous_winch = signal.signal(signal.SIGWINCH, self._on_winch)
        self._write(ENTER)

    # -- Display ----------------------------------------------------------------------

    @property
    def layout(self) -> Layout | None:
        """The layout of the last frame drawn (tests and the simulator's banner read it)."""
        return self._layout

    def show(self, image: Image.Image) -> None:
        from hardware.display import FrameError

        if image.size != (self._width, self._height):
            raise FrameError(
                f"frame is {image.width}x{image.height}, the terminal display is "
                f"{self._width}x{self._height}"
            )
        if image.mode != self._mode:
            raise FrameError(f"frame mode is {image.mode!r}, display wants {self._mode!r}")
        self._last = image.convert("RGB")
        self._draw()

    def show_status(self, status: TableStatus, draw: bool = True) -> None:
        """The status line the loop hands over; ``draw``: redraw now (the frame is the
        same), else it is drawn with the next frame."""
        self._status = status
        if draw:
            self._draw()

    def dismiss_note(self) -> None:
        """Drop the notice: it goes with the next frame (any thread may call this)."""
        self.note = ""

    def set_brightness(self, level: float) -> None:
        if not 0.0 <= level <= 1.0:
            raise ValueError(f"brightness {level} is outside 0.0..1.0")
        self._brightness = level
        self._drawn.clear()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._previous_winch is not None:
            signal.signal(signal.SIGWINCH, self._previous_winch)
        self._write(LEAVE)

    # -- drawing ------------------------------------------------------------------------

    def _on_winch(self, signum: int, frame: FrameType | None) -> None:
        self._drawn.clear()  # the next frame is drawn whole, on a cleared screen
        self._layout = None
        if self.on_resize is not None:
            self.on_resize()

    def _terminal_size(self) -> tuple[int, int]:
        size = os.get_terminal_size(self._fd)
        return size.columns, size.lines

    def _draw(self) -> None:
        if self._last is None or self._closed:
            return
        columns, rows = self._terminal_size()
        status = self._status.text
        if self.status_source is not None:
            status = self.status_source().text
        layout = plan_layout(
            columns, rows, self._width, self._height, status, self._legend, self.note
        )
        if self._layout is None or _geometry(self._layout) != _geometry(layout):
            self._drawn.clear()
            out = [RESET, "\x1b[2J"]
        else:
            out = []
        self._layout = layout
        lines = self._screen_lines(layout)
        for row, text in lines.items():
            if self._drawn.get(row) != text:
                out.append(f"\x1b[{row + 1};1H{text}")
        for row in set(self._drawn) - set(lines):
            out.append(f"\x1b[{row + 1};1H{RESET}\x1b[2K")
        self._drawn = lines
        if out:
            self._write("".join(out))
        self.frames += 1

    def _screen_lines(self, layout: Layout) -> dict[int, str]:
        """Every screen row this frame writes, keyed by row: the whole row's text."""
        lines: dict[int, str] = {}
        if layout.scale == 0:
            columns, rows = minimum_size(self._width, self._height)
            message = _("terminal too small ({size}): the {panel} panel needs {needed}").format(
                size=f"{layout.columns}x{layout.rows}",
                panel=f"{self._width}x{self._height}",
                needed=f"{columns}x{rows}",
            )
            for index, text in enumerate(textwrap.wrap(message, max(layout.columns, 10))):
                lines[index] = f"{RESET}\x1b[2K{text[: layout.columns]}"
            return lines
        for index in range(layout.matrix_rows):
            lines[layout.top + index] = self._matrix_line(layout, index)
        for index, text in enumerate(layout.status):
            lines[layout.text_top + index] = f"{RESET}\x1b[2K\x1b[1m{text}{RESET}"
        legend_top = layout.text_top + len(layout.status)
        for index, text in enumerate(layout.legend):
            lines[legend_top + index] = f"{RESET}\x1b[2K\x1b[2m{text}{RESET}"
        note_top = legend_top + len(layout.legend)
        for index, text in enumerate(layout.note):
            lines[note_top + index] = f"{RESET}\x1b[2K\x1b[33m{text}{RESET}"
        return lines

    def _led(self, x: int, y: int) -> RGB:
        assert self._last is not None
        if y >= self._height:
            return (0, 0, 0)
        r, g, b = self._last.getpixel((x, y))  # type: ignore[misc]
        level = self._brightness
        return (
            max(round(r * level), OFF_LEVEL),
            max(round(g * level), OFF_LEVEL),
            max(round(b * level), OFF_LEVEL),
        )

    def _matrix_line(self, layout: Layout, index: int) -> str:
        scale = layout.scale
        upper_y = (2 * index) // scale
        lower_y = (2 * index + 1) // scale
        parts = [RESET, "\x1b[2K", " " * layout.left]
        current = ""
        for x in range(self._width):
            code = sgr(self._led(x, upper_y), self._led(x, lower_y), self.depth)
            if code != current:
                parts.append(code)
                current = code
            parts.append(UPPER_HALF * scale)
        parts.append(RESET)
        return "".join(parts)

    def _write(self, text: str) -> None:
        from hardware.display import DisplayClosed

        data = text.encode("utf-8")
        while data:
            try:
                written = os.write(self._fd, data)
            except OSError as exc:
                if exc.errno == errno.EIO:  # the terminal is gone: like a closed window
                    raise DisplayClosed("the terminal was closed") from None
                raise
            data = data[written:]


class UntilPressed:
    """The terminal's keys, calling ``pressed`` at the first key (which then goes on
    to the table as usual): a notice on screen stays until the player has seen it."""

    def __init__(self, keys: InputBackend, pressed: Callable[[], None]) -> None:
        self._keys = keys
        self._pressed = pressed

    def start(self, sink: EventSink) -> None:
        def forward(event: ButtonEvent) -> None:
            self._pressed()
            sink(event)

        self._keys.start(forward)

    @property
    def poll_interval(self) -> float | None:
        return self._keys.poll_interval

    def poll(self) -> None:
        self._keys.poll()

    def close(self) -> None:
        self._keys.close()
