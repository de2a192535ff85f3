"""The keyboard as seat buttons, for the laptop simulator.

Default keys (``DEFAULT_KEYS``): seat 1 OK ``q`` NEXT ``a``, seat 2 ``w``/``s``,
seat 3 ``e``/``d``, seat 4 ``r``/``f``; the system button is ``x``.

* ``PygameKeys`` reads key down/up from the pygame window (when the display is the
  pygame emulator) and reports a key kept down for ``hold_s`` as ``held``. SDL events
  must be read on the thread that opened the window, so this backend does not start a
  thread: the controller's loop calls ``poll()`` every ``poll_interval`` seconds (as
  ``InputBackend`` says). Closing the window raises ``DisplayClosed`` from
  ``poll()``, the same signal the pygame display gives.
* ``TerminalKeys`` reads raw keys from a terminal (cbreak mode, restored on close) on
  a reader thread. A terminal reports no key releases, so a key is a tap (down, up)
  and the same key with Shift (upper case) is a long press (down, held, up).
* ``Presses`` is the down/up/held bookkeeping shared by every source that does report
  releases (``PygameKeys``, and the simulator window's keys and clickable buttons).
"""

from __future__ import annotations

import os
import select
import termios
import threading
import time
import tty
from collections.abc import Callable
from typing import Any

from hardware.interfaces import ButtonEvent, ButtonName, EventSink, HardwareError, ThreadedInput

Key = tuple[int | None, ButtonName]

DEFAULT_KEYS: dict[str, Key] = {
    "q": (0, "ok"),
    "a": (0, "next"),
    "w": (1, "ok"),
    "s": (1, "next"),
    "e": (2, "ok"),
    "d": (2, "next"),
    "r": (3, "ok"),
    "f": (3, "next"),
    "x": (None, "system"),
}


class Presses:
    """Which buttons are down, and which have been down for ``hold_s`` ("held").

    For sources that report releases (keys of a window, mouse clicks on drawn buttons):
    each method returns the events to deliver, so the owner decides where they go.
    """

    def __init__(self, hold_s: float = 1.0) -> None:
        self.hold_s = hold_s
        self._down: dict[Key, float] = {}
        self._held: set[Key] = set()

    @property
    def down(self) -> frozenset[Key]:
        return frozenset(self._down)

    def press(self, key: Key, now: float) -> list[ButtonEvent]:
        if key in self._down:
            return []  # auto-repeat of a key already down
        self._down[key] = now
        self._held.discard(key)
        return [ButtonEvent(key[0], key[1], "down", now)]

    def release(self, key: Key, now: float) -> list[ButtonEvent]:
        if key not in self._down:
            return []
        del self._down[key]
        return [ButtonEvent(key[0], key[1], "up", now)]

    def holds(self, now: float) -> list[ButtonEvent]:
        """A ``held`` event, once, for every button down for ``hold_s`` or longer."""
        events = []
        for key, since in self._down.items():
            if key not in self._held and now - since >= self.hold_s:
                self._held.add(key)
                events.append(ButtonEvent(key[0], key[1], "held", now))
        return events


class PygameKeys:
    """Keys of the pygame emulator window as buttons; ``poll()`` on the window's thread."""

    poll_interval = 0.02

    def __init__(
        self,
        keys: dict[str, Key] | None = None,
        hold_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame
        except ImportError:
            raise HardwareError(
                "keyboard input in a window needs pygame: pip install 'spieltisch[sim]'"
            ) from None
        self._pygame = pygame
        self._keys = dict(keys or DEFAULT_KEYS)
        self._presses = Presses(hold_s)
        self._clock = clock
        self._sink: EventSink | None = None

    def start(self, sink: EventSink) -> None:
        self._sink = sink

    def poll(self) -> None:
        pg = self._pygame
        if not pg.display.get_init():
            return
        from hardware.display import DisplayClosed

        now = self._clock()
        events: list[ButtonEvent] = []
        for event in pg.event.get((pg.KEYDOWN, pg.KEYUP, pg.QUIT)):
            if event.type == pg.QUIT:
                raise DisplayClosed("the emulator window was closed")
            key = self._keys.get(pg.key.name(event.key))
            if key is None:
                continue
            if event.type == pg.KEYDOWN:
                events += self._presses.press(key, now)
            else:
                events += self._presses.release(key, now)
        events += self._presses.holds(now)
        for button_event in events:
            if self._sink is not None:
                self._sink(button_event)

    def close(self) -> None:
        self._sink = None


class TerminalKeys(ThreadedInput):
    """Raw terminal keys as button taps; Shift+key is a long press."""

    def __init__(self, fd: int | None = None, keys: dict[str, Key] | None = None) -> None:
        self._fd = 0 if fd is None else fd
        self._keys = dict(keys or DEFAULT_KEYS)
        self._saved: list[Any] | None = None
        self._thread: threading.Thread | None = None
        self._wake_r, self._wake_w = -1, -1

    def start(self, sink: EventSink) -> None:
        if not os.isatty(self._fd):
            raise HardwareError("keyboard input needs a terminal (stdin is not a tty)")
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(
            target=self._read, args=(sink,), name="terminal-keys", daemon=True
        )
        self._thread.start()

    def _read(self, sink: EventSink) -> None:
        while True:
            ready, _, _ = select.select([self._fd, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            try:
                data = os.read(self._fd, 64)
            except OSError:
                return
            if not data:
                return
            for char in data.decode("utf-8", "replace"):
                key = self._keys.get(char.lower())
                if key is None:
                    continue
                now = time.monotonic()
                sink(ButtonEvent(key[0], key[1], "down", now))
                if char != char.lower():
                    sink(ButtonEvent(key[0], key[1], "held", now))
                sink(ButtonEvent(key[0], key[1], "up", now))

    def close(self) -> None:
        if self._thread is not None:
            os.write(self._wake_w, b"x")
            self._thread.join(timeout=2)
            self._thread = None
            os.close(self._wake_r)
            os.close(self._wake_w)
        if self._saved is not None:
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._saved = None
