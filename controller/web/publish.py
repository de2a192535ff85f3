"""Snapshots of the table for the page, published on the loop thread while it draws.

:class:`FramePublisher` is a display that the loop's tee shows every frame to, next to
the panel. On the loop thread it only copies the pixels and reads the status words
(the same :class:`~controller.sim.status.TableStatus` the simulator shows); the
server thread is woken through its asyncio loop and reads the newest snapshot. Old
snapshots are simply replaced, so a slow page can never hold the table back or make
anything grow.
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

    def status_json(self) -> dict[str, Any]:
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
        self._latest: Snapshot | None = None
        self._pending: Snapshot | None = None
        self._hidden_until = 0.0
        self.held_back = 0
        """Frames not published because the pairing code was on them."""

    def latest(self) -> Snapshot | None:
        with self._lock:
            return self._latest

    def hide_for(self, seconds: float) -> None:
        """Publish no frame for ``seconds``: the panel shows the pairing code, which
        only the people at the table may see (the page keeps the frame before it)."""
        with self._lock:
            self._hidden_until = self.clock() + seconds

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
            if self.clock() < self._hidden_until:
                self.held_back += 1
                self._pending = snapshot
                return
            self._latest = snapshot
            self._pending = None
        self._tell()

    def reveal(self) -> None:
        """The code is off the panel or used up: publish the newest frame held back."""
        with self._lock:
            self._hidden_until = 0.0
            pending, self._pending = self._pending, None
            if pending is not None:
                self._latest = pending
        if pending is not None:
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
