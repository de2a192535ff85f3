"""Say how far the simulator's GIF recording is written, while it is written.

Quitting a long ``--record`` session writes every frame kept (they were encoded as
they were shown, so this is quick, but it is the file the player waits for), so this
prints which file is written and
how many frames are done: one line updated in place on a terminal (at most every 2 %),
and only the first and the last line when the output is a file or a pipe. A terminal
that is gone (the simulator was hung up) is no reason to stop writing the file.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PREFIX = "spieltisch sim: "


class RecordProgress:
    """``progress(done, total)`` for :class:`hardware.gif_recording.GifRecorder`."""

    def __init__(self, path: Path, fd: int = 2) -> None:
        self.path = path
        self.fd = fd
        self.tty = _isatty(fd)
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        line = f"{PREFIX}writing {self.path}: {done}/{total} frames"
        if not self.tty:
            if done == 1:
                self._write(f"{PREFIX}writing {self.path}: {total} frames\n")
            elif done >= total:
                self._write(f"{PREFIX}wrote {self.path}\n")
            return
        if done >= total:
            self._write(f"\r{line}, done\x1b[K\n")
        elif done == 1 or percent >= self.shown + 2:
            self._write(f"\r{line} ({percent} %)\x1b[K")
            self.shown = percent

    def _write(self, text: str) -> None:
        with contextlib.suppress(OSError):
            os.write(self.fd, text.encode("utf-8", "replace"))


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False
