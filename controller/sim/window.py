"""The simulator's window: the table, not just the panel.

luma's pygame emulator shows square pixels on black and nothing else. A player at a
laptop needs the rest of the table too, so this window (pygame, drawn by hand around
the LED picture) shows:

* the matrix as round LEDs with a little glow, as on the real panel behind a diffuser
  (the LEDs stay square: one whole number of pixels per LED at any window size);
* each seat's two arcade buttons at its side of the board, in its player's colour,
  labelled with their keys, clickable with the mouse; the system button in a corner.
  The seats sit clockwise as at the real table: seat 1 at the bottom (red's bottom-left
  corner), seat 2 on the left, seat 3 at the top, seat 4 on the right. The seat on turn
  is framed in its colour;
* the status line in words under the board (from the controller's ``StatusSource``).

It is one object that is both the ``Display`` and the ``InputBackend``: SDL delivers
the mouse, the keys and the window's close button as events of the window, read on
the thread that opened it, so ``poll()`` is called by the loop every
``poll_interval``. The window is resizable; F12 writes the whole window as a PNG, to a new
time-stamped file in the current directory (or to ``--screenshot FILE``, which is also
written at exit), and says where; closing it or Esc raises ``DisplayClosed`` so the
table saves and stops.

The window owns SDL (opening, events, resizing, screenshots); what it draws is painted
by :mod:`controller.sim.window_paint`, and where things go is planned by
:mod:`controller.sim.window_layout`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from PIL import Image

from controller.sim import legend
from controller.sim.status import TableStatus, idle_status
from controller.sim.window_layout import MIN_SIZE, plan_window, screenshot_name, shown_events
from controller.sim.window_paint import LedBoard, TablePainter
from hardware.atomic_file import write_atomically
from hardware.interfaces import ButtonEvent, EventSink, FixedSizePanel, HardwareError
from hardware.keyboard import DEFAULT_KEYS, Key, Presses

NOTICE_S = 4.0
"""How long the window's hint line says where a screenshot went."""


HEADLESS_DRIVERS = ("offscreen", "dummy")
"""SDL video drivers that draw nowhere; only chosen on purpose (tests set one)."""


class WindowUnavailable(HardwareError):
    """No window can be opened here (no X server or Wayland compositor reachable)."""


class TableWindow(FixedSizePanel):
    """The table in a pygame window: a ``Display`` and a polled ``InputBackend``."""

    poll_interval = 0.02

    def __init__(
        self,
        width: int,
        height: int,
        *,
        mode: str = "RGB",
        seat_count: int = 4,
        status: Callable[[], TableStatus] | None = None,
        keys: dict[str, Key] | None = None,
        hold_s: float = 1.0,
        screenshot: Path | None = None,
        size: tuple[int, int] | None = None,
        clock: Callable[[], float] = time.monotonic,
        say: Callable[[str], None] | None = None,
    ) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame
        except ImportError:
            raise HardwareError("the window needs pygame: pip install 'spieltisch[sim]'") from None
        self._pg: Any = pygame
        self._width = width
        self._height = height
        self._mode = mode
        self.seat_count = seat_count
        self.status_source = status
        """Asked for the status line and seat looks at every frame (set by the simulator)."""
        self._keys = dict(keys or DEFAULT_KEYS)
        self._key_of_button = {v: k for k, v in self._keys.items()}
        self._presses = Presses(hold_s)
        self._clock = clock
        self._sink: EventSink | None = None
        self._mouse_key: Key | None = None
        self.screenshot_path = screenshot
        self.screenshots = 0
        self._say = say
        """Told where each screenshot went (the simulator prints it on its terminal)."""
        self._notice: tuple[str, float] | None = None
        """A few words shown instead of the hint line until a moment (where F12 saved)."""
        self._board = LedBoard(pygame, width, height)
        self._painter = TablePainter(pygame, self._key_of_button)
        self._status = idle_status(seat_count)
        self._closed = False
        self.drawn_texts: list[str] = []
        """Every text of the last redraw, as written (the window in words, for tests
        that read what it says rather than its pixels)."""
        try:
            pygame.display.init()
            pygame.font.init()
            if size is None:
                size = self._initial_size()
            driver = pygame.display.get_driver()
            if driver in HEADLESS_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
                # SDL fell back to drawing nowhere: nobody would see the window
                pygame.display.quit()
                raise WindowUnavailable(
                    f"no screen for a window (SDL chose {driver!r}); try --display terminal"
                )
            pygame.display.set_caption("spieltisch")
            self._surface = pygame.display.set_mode(size, pygame.RESIZABLE)
            pygame.event.pump()  # let the window system map it before the first picture
        except pygame.error as exc:  # no X server or Wayland compositor to be had
            raise WindowUnavailable(
                f"cannot open a window ({exc}); try --display terminal"
            ) from None
        self.layout = plan_window(self._surface.get_size(), width, height, seat_count)
        self._redraw()

    def _initial_size(self) -> tuple[int, int]:
        info = self._pg.display.Info()
        screen_h = info.current_h if info.current_h and info.current_h > 0 else 1000
        height = max(MIN_SIZE[1], min(820, int(screen_h * 0.85)))
        return (int(height * 1.1), height)

    # -- Display ----------------------------------------------------------------------

    @property
    def status(self) -> TableStatus:
        """The status line and seat looks drawn now (read at the last frame)."""
        return self._status

    def show(self, image: Image.Image) -> None:
        from hardware.display import DisplayClosed, FrameError

        if self._closed:
            raise DisplayClosed("the window was closed")
        if image.size != (self._width, self._height):
            raise FrameError(
                f"frame is {image.width}x{image.height}, the window's panel is "
                f"{self._width}x{self._height}"
            )
        if image.mode != self._mode:
            raise FrameError(f"frame mode is {image.mode!r}, display wants {self._mode!r}")
        self._board.show(image)
        if self.status_source is not None:
            self._status = self.status_source()
        self._redraw()

    def show_status(self, status: TableStatus, draw: bool = True) -> None:
        """The status line and seat looks the loop hands over; ``draw``: redraw now (the
        frame is the same), else they are drawn with the next frame."""
        self._status = status
        if draw and not self._closed:
            self._redraw()

    def set_brightness(self, level: float) -> None:
        if not 0.0 <= level <= 1.0:
            raise ValueError(f"brightness {level} is outside 0.0..1.0")
        self._board.set_brightness(level)

    # -- InputBackend -----------------------------------------------------------------

    def start(self, sink: EventSink) -> None:
        self._sink = sink

    def poll(self) -> None:
        """Read the window's events: mouse on the buttons, keys, resizing, closing."""
        from hardware.display import DisplayClosed

        pg = self._pg
        if self._closed or not pg.display.get_init():
            return
        now = self._clock()
        events: list[ButtonEvent] = []
        redraw = False
        for event in pg.event.get():
            if event.type == pg.QUIT:
                raise DisplayClosed("the window was closed")
            if event.type == pg.KEYDOWN and event.key == pg.K_ESCAPE:
                raise DisplayClosed("Esc pressed in the window")
            if event.type == pg.KEYDOWN and event.key == pg.K_F12:
                self.take_screenshot()
            elif event.type in (pg.KEYDOWN, pg.KEYUP):
                key = self._keys.get(pg.key.name(event.key))
                if key is not None:
                    down = event.type == pg.KEYDOWN
                    events += (self._presses.press if down else self._presses.release)(key, now)
                    redraw = True
            elif event.type == pg.MOUSEBUTTONDOWN and event.button == 1:
                key = self.layout.button_at(*event.pos)
                if key is not None:
                    self._mouse_key = key
                    events += self._presses.press(key, now)
                    redraw = True
            elif event.type == pg.MOUSEBUTTONUP and event.button == 1:
                if self._mouse_key is not None:
                    events += self._presses.release(self._mouse_key, now)
                    self._mouse_key = None
                    redraw = True
            elif event.type == pg.VIDEORESIZE:
                self.resize((event.w, event.h))
            elif event.type in shown_events(pg):
                redraw = True  # a picture drawn before the window was on screen is lost
        events += self._presses.holds(now)
        for button_event in events:
            if self._sink is not None:
                self._sink(button_event)
        if redraw:
            self._redraw()

    def close(self) -> None:
        """Write the screenshot (if asked for and none was taken) and close the window."""
        if self._closed:
            return
        if self.screenshot_path is not None and self.screenshots == 0:
            self.save_screenshot()
        self._closed = True
        self._sink = None
        self._pg.display.quit()

    # -- the window itself ------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        """Lay the table out anew for a window of ``size`` (the user dragged its edge)."""
        pg = self._pg
        size = (max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1]))
        if self._surface.get_size() != size:
            self._surface = pg.display.set_mode(size, pg.RESIZABLE)
        self.layout = plan_window(
            self._surface.get_size(), self._width, self._height, self.seat_count
        )
        self._board.forget()
        self._redraw()

    def take_screenshot(self) -> Path | None:
        """F12: the window as a PNG, to ``--screenshot FILE`` if one was given, else to
        a new time-stamped file in the current directory; says where, in the window's
        hint line and to ``say``. A file that cannot be written is said the same way."""
        target = self.screenshot_path or screenshot_name(Path.cwd(), datetime.now())
        try:
            saved = self.save_screenshot(target)
        except (OSError, self._pg.error) as exc:
            self._tell(legend.screenshot_notice(problem=exc))
            return None
        if saved is not None:
            self._tell(legend.screenshot_notice(saved=saved))
        return saved

    def _tell(self, text: str) -> None:
        self._notice = (text, self._clock() + NOTICE_S)
        if self._say is not None:
            self._say(text)
        self._redraw()

    def save_screenshot(self, path: Path | None = None) -> Path | None:
        """Write the whole window as a PNG to ``path`` (default: ``--screenshot FILE``)."""
        target = path or self.screenshot_path
        if target is None or self._closed:
            return None
        # whole or not at all: a person (or a test) may open the newest picture at once
        surface = self._surface
        write_atomically(target, lambda out: self._pg.image.save(surface, out, target.name))
        self.screenshots += 1
        return target

    def picture(self) -> Image.Image:
        """The window's pixels as a PIL image (what a screenshot would contain)."""
        pg = self._pg
        size = self._surface.get_size()
        return Image.frombytes("RGB", size, pg.image.tobytes(self._surface, "RGB"))

    def _redraw(self) -> None:
        if self._closed:
            return
        hint = legend.window_hint()
        if self._notice is not None and self._clock() < self._notice[1]:
            hint = self._notice[0]
        self.drawn_texts = self._painter.paint(
            self._surface,
            self.layout,
            self._board.surface(self.layout.pitch),
            self._status,
            self._presses.down,
            hint,
        )
        self._pg.display.flip()
