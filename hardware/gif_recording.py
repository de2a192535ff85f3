"""Record what the panel shows as an animated GIF, each frame as long as it was shown.

Why not luma's ``gifanim``: it gives every frame the same duration. The table sends a
frame only when the picture changes (a label scroll step, a blink phase, a dice flip),
so a picture may stand for a second or for 30 ms; played back at one fixed rate, ten
seconds of a menu would pass in a blink. This recorder notes when each frame arrived
and writes each one with the time until the next (Pillow's per-frame ``duration``).

Writing a long session takes a while (a frame is a 512×512 picture), so the file is
written beside the target and renamed into place when whole (no 0-byte or half file
in the meantime, and an older recording stays until the new one is complete), and
``progress`` is told how many frames are done, so the simulator can say so. Each frame
is reduced to its palette at the panel's size and only then scaled up: the same colours
as reducing the large picture, for a fraction of the time.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
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
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.path = Path(path)
        self.progress = progress
        """Called with (frames written, frames in all) while the file is written."""
        self._width = width
        self._height = height
        self._mode = mode
        self.scale = max(1, scale)
        self.clock = clock
        self.frames: list[tuple[float, Image.Image]] = []
        self.brightness = 1.0
        self._closed = False
        self.failure: HardwareError | None = None
        """Why the GIF could not be written, kept: whoever closes a display may swallow
        the error (the appliance closes its display quietly), the simulator must say it."""

    def show(self, image: Image.Image) -> None:
        small = image.convert("RGB").convert("P", palette=Image.Palette.ADAPTIVE)
        size = (self._width * self.scale, self._height * self.scale)
        self.frames.append((self.clock(), small.resize(size, Image.Resampling.NEAREST)))

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
        durations = self.durations_ms(self.clock())
        temp = ""
        try:
            fd, temp = tempfile.mkstemp(
                prefix=f".{self.path.name}-", suffix=".part", dir=self.path.parent or "."
            )
            os.fchmod(fd, 0o644)  # as an ordinary new file, not mkstemp's 0600
            with os.fdopen(fd, "wb") as out:
                images[0].save(
                    out,
                    save_all=True,
                    append_images=self._counted(images),
                    duration=durations,
                    loop=0,
                    format="GIF",
                )
            os.replace(temp, self.path)
        except OSError as exc:
            if temp:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
            self.failure = HardwareError(
                f"cannot write the recording {self.path}: {exc.strerror or exc}"
            )
            raise self.failure from None

    def _counted(self, images: list[Image.Image]) -> Iterator[Image.Image]:
        """The frames after the first, telling ``progress`` as Pillow takes each one."""
        total = len(images)
        if self.progress is not None:
            self.progress(1, total)
        for done, image in enumerate(images[1:], start=2):
            yield image
            if self.progress is not None:
                self.progress(done, total)
