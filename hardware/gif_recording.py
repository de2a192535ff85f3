"""Record what the panel shows as an animated GIF, each frame as long as it was shown.

Why not luma's ``gifanim``: it gives every frame the same duration. The table sends a
frame only when the picture changes (a label scroll step, a blink phase, a dice flip),
so a picture may stand for a second or for 30 ms; played back at one fixed rate, ten
seconds of a menu would pass in a blink. This recorder notes when each frame arrived
and writes each one with the time until the next (Pillow's per-frame ``duration``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

from PIL import Image

from hardware.interfaces import FixedSizePanel, HardwareError

LONGEST_MS = 60_000
"""A GIF frame lasts at most this long (an hour asleep would be one frame anyway)."""


class GifRecorder(FixedSizePanel):
    """A ``Display`` that keeps every frame with its time and writes the GIF on close."""

    def __init__(
        self,
        path: str | Path,
        width: int,
        height: int,
        mode: str = "RGB",
        scale: int = 16,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self._width = width
        self._height = height
        self._mode = mode
        self.scale = max(1, scale)
        self.clock = clock
        self.frames: list[tuple[float, Image.Image]] = []
        self.brightness = 1.0
        self._closed = False

    def show(self, image: Image.Image) -> None:
        size = (self._width * self.scale, self._height * self.scale)
        big = image.convert("RGB").resize(size, Image.Resampling.NEAREST)
        self.frames.append((self.clock(), big))

    def set_brightness(self, level: float) -> None:
        self.brightness = level

    def durations_ms(self, end: float) -> list[int]:
        """How long each frame stood, the last one until ``end``."""
        times = [at for at, _ in self.frames] + [end]
        return [max(20, min(LONGEST_MS, round((b - a) * 1000))) for a, b in pairwise(times)]

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if not self.frames:
            return
        images = [image for _, image in self.frames]
        try:
            images[0].save(
                self.path,
                save_all=True,
                append_images=images[1:],
                duration=self.durations_ms(self.clock()),
                loop=0,
                format="GIF",
            )
        except OSError as exc:
            raise HardwareError(f"cannot write the recording {self.path}: {exc}") from None
