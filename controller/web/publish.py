"""Snapshots of the table for the page, published on the loop thread while it draws.

:class:`FramePublisher` is a display that the loop's tee shows every frame to, next to
the panel. On the loop thread it only copies the pixels and reads the status words
(the same :class:`~controller.sim.status.TableStatus` the simulator shows); the
server thread is woken through its asyncio loop and reads the newest snapshot. Old
snapshots are simply replaced, so a slow page can never hold the table back or make
anything grow. While a pairing code is on the panel, watchers get the snapshot from
before it (:meth:`FramePublisher.public`) and paired pages the newest, so asking for a
code stops no page that is already trusted.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from controller.sim.status import StatusSource, TableStatus

if TYPE_CHECKING:
    from PIL.Image import Image


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One frame as the panel shows it (RGB bytes, row by row) and the table in words."""

    number: int
    width: int
    height: int
    rgb: bytes
    status: TableStatus | None
    dice: tuple[int, ...] | None
    playing: bool = False
    """A game is being played: the page's Setup cannot start another."""

    def frame_message(self) -> bytes:
        """The WebSocket frame: width, height (one byte each), then the RGB pixels."""
        return bytes((self.width, self.height)) + self.rgb

    def status_json(self, code_shown: bool = False) -> dict[str, Any]:
        """The status as the page reads it; ``code_shown``: a pairing code is on the
        panel (a watcher's page says so, and that its picture waits for it)."""
        seats = []
        if self.status is not None:
            seats = [
                {
                    "seat": index,
                    "label": look.label,
                    "colour": "#{:02x}{:02x}{:02x}".format(*look.colour),
                    "on_turn": look.on_turn,
                    "playing": look.playing,
                }
                for index, look in enumerate(self.status.seats)
            ]
        return {
            "frame": self.number,
            "text": self.status.text if self.status is not None else "",
            "seats": seats,
            "dice": list(self.dice) if self.dice else [],
            "playing": self.playing,
            "code_shown": code_shown,
        }


class FramePublisher:
    """A mirror display: keeps the newest frame and status, and tells the server."""

    def __init__(self, width: int, height: int, mode: str = "RGB") -> None:
        self.width = width
        self.height = height
        self.mode = mode
        self.status_source: StatusSource | None = None
        self.dice_source: Callable[[], tuple[int, ...] | None] | None = None
        self.playing_source: Callable[[], bool] | None = None
        self.listeners: list[Callable[[], None]] = []
        self.clock: Callable[[], float] = time.monotonic
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._newest: Snapshot | None = None
        self._public: Snapshot | None = None
        self._hidden_until = 0.0
        self.held_back = 0
        """Frames watchers did not get because the pairing code was on them."""

    def latest(self) -> Snapshot | None:
        """The newest frame, as the table shows it: for paired pages (and the server's
        own questions, such as whether a game is on)."""
        with self._lock:
            return self._newest

    def public(self) -> tuple[Snapshot | None, bool]:
        """What a watcher may see, and whether a pairing code is on the panel now: while
        it is, the frame before it (its status words too, which name the code)."""
        with self._lock:
            hidden = self.clock() < self._hidden_until
            return (self._public if hidden else self._newest), hidden

    def code_shown(self) -> bool:
        with self._lock:
            return self.clock() < self._hidden_until

    def hide_for(self, seconds: float) -> None:
        """Show watchers no new frame for ``seconds``: the panel shows the pairing code,
        which only the people at the table (and the pages already paired) may see. The
        watchers' pages are woken to say that a code is up."""
        with self._lock:
            if self.clock() >= self._hidden_until:
                self._public = self._newest
            self._hidden_until = max(self._hidden_until, self.clock() + seconds)
        self._tell()

    def show(self, image: Image) -> None:
        """On the loop thread: copy the frame and the words; never raises."""
        try:
            rgb = image.convert("RGB").tobytes() if image.mode != "RGB" else image.tobytes()
            status = self.status_source() if self.status_source is not None else None
            dice = self.dice_source() if self.dice_source is not None else None
            playing = self.playing_source() if self.playing_source is not None else False
        except Exception:  # the page must never stop the table
            return
        snapshot = Snapshot(
            next(self._numbers), image.width, image.height, rgb, status, dice, playing
        )
        with self._lock:
            self._newest = snapshot
            if self.clock() < self._hidden_until:
                self.held_back += 1
        self._tell()

    def reveal(self) -> None:
        """The code is used up: watchers see the newest frame again."""
        with self._lock:
            self._hidden_until = 0.0
            self._public = None
        self._tell()

    def release(self) -> None:
        """The code's time on the panel may be over: wake the pages, so that watchers get
        the newest frame even if the table draws none (a later code keeps it hidden)."""
        self._tell()

    def _tell(self) -> None:
        with self._lock:
            listeners = list(self.listeners)
        for listener in listeners:
            with contextlib.suppress(Exception):  # a closed server loop: nothing to tell
                listener()

    def set_brightness(self, level: float) -> None:
        """The page shows the picture as drawn, not dimmed."""

    def close(self) -> None:
        with self._lock:
            self.listeners.clear()
