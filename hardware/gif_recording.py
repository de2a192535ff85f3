"""Record what the panel shows as an animated GIF, each frame as long as it was shown.

Why not luma's ``gifanim``: it gives every frame the same duration. The table sends a
frame only when the picture changes (a label scroll step, a blink phase, a dice flip),
so a picture may stand for a second or for 30 ms; played back at one fixed rate, ten
seconds of a menu would pass in a blink. This recorder notes when each frame arrived
and writes each one with the time until the next (Pillow's per-frame ``duration``).

Why each frame is encoded when it arrives: encoding a long session at the end took
seconds (300 frames of 512×512, 2.6 s), and a closed terminal (SIGHUP) or a stopping
session gives a program far less before it should be gone. So :meth:`show` has Pillow
encode the frame as a one-frame GIF at once and keeps its image block (the palette
as the frame's own colour table); closing only joins the blocks with each frame's
duration, which takes as long as writing the bytes. The file is written beside the
target and renamed into place when whole (no 0-byte or half file in the meantime, and
an older recording stays until the new one is complete), and ``progress`` is told how
many frames are done. Each frame is reduced to its palette at the panel's size and
only then scaled up: the same colours as reducing the large picture, for a fraction of
the time.
"""

from __future__ import annotations

import io
import struct
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import BinaryIO

from PIL import Image

from hardware.atomic_file import write_atomically
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
        self.frames: list[tuple[float, bytes]] = []
        """When each frame arrived, and its GIF image block (:func:`frame_block`)."""
        self.brightness = 1.0
        self._closed = False
        self.failure: HardwareError | None = None
        """Why the GIF could not be written, kept: whoever closes a display may swallow
        the error (the appliance closes its display quietly), the simulator must say it."""

    def show(self, image: Image.Image) -> None:
        small = image.convert("RGB").convert("P", palette=Image.Palette.ADAPTIVE)
        size = (self._width * self.scale, self._height * self.scale)
        block = frame_block(small.resize(size, Image.Resampling.NEAREST))
        self.frames.append((self.clock(), block))

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
        durations = self.durations_ms(self.clock())
        try:
            write_atomically(self.path, lambda out: self._write(out, durations), mode=0o644)
        except OSError as exc:
            self.failure = HardwareError(
                f"cannot write the recording {self.path}: {exc.strerror or exc}"
            )
            raise self.failure from None

    def _write(self, out: BinaryIO, durations: list[int]) -> None:
        """The GIF: header, endless loop, then each frame's delay and image block,
        telling ``progress`` as each frame is written."""
        width, height = self._width * self.scale, self._height * self.scale
        out.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0x70, 0, 0))
        out.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")  # loop forever
        total = len(self.frames)
        for done, ((_at, block), ms) in enumerate(zip(self.frames, durations, strict=True), 1):
            delay = round(ms / 10)  # GIF delays are in hundredths of a second
            out.write(b"\x21\xf9\x04\x04" + struct.pack("<H", delay) + b"\x00\x00")
            out.write(block)
            if self.progress is not None:
                self.progress(done, total)
        out.write(b"\x3b")


def frame_block(image: Image.Image) -> bytes:
    """``image`` as one frame of a GIF: its image descriptor, its palette as the
    frame's local colour table, and its LZW data, taken from Pillow's one-frame GIF
    of it (the GIF89a layout: header, screen descriptor, global table, extensions,
    image)."""
    buffer = io.BytesIO()
    image.save(buffer, format="GIF")
    data = buffer.getvalue()
    screen = data[10]
    pos = 13
    table = b""
    if screen & 0x80:
        size = 3 * (2 << (screen & 7))
        table, pos = data[pos : pos + size], pos + size
    while data[pos] == 0x21:  # an extension (label, then its sub-blocks): not needed
        pos = _after_sub_blocks(data, pos + 2)
    if data[pos] != 0x2C:
        raise ValueError("Pillow wrote no image block")
    descriptor = bytearray(data[pos : pos + 10])
    pos += 10
    if descriptor[9] & 0x80:  # a local table already
        size = 3 * (2 << (descriptor[9] & 7))
        table, pos = data[pos : pos + size], pos + size
    else:
        descriptor[9] = (descriptor[9] & 0x40) | 0x80 | (screen & 7)
    start = pos
    end = _after_sub_blocks(data, pos + 1)  # the LZW code size, then the data
    return bytes(descriptor) + table + data[start:end]


def _after_sub_blocks(data: bytes, pos: int) -> int:
    """The position after the GIF sub-blocks starting at ``pos`` (ended by length 0)."""
    while data[pos]:
        pos += data[pos] + 1
    return pos + 1
