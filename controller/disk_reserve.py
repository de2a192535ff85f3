"""A little disk space kept back for the one save that must not fail.

When the disk fills up mid-game, the saves fail and the last good save stays whole:
a power cut then costs the moves since. But the save that ends a game (its final
position, and the record the history could not write) must land, or the finished game
comes back at the next start and its record is lost. So the state directory keeps a
file of zeros, ``.reserve``; when such a save finds the disk full, the reserve is
deleted and the save tried once more in the room it leaves. The reserve is made again
at start-up and once saving works again, but only while the disk has room to spare
for it (it never takes the last free space someone just made).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

RESERVE_NAME = ".reserve"
RESERVE_BYTES = 256 * 1024
"""Room for a long Backgammon match's final save (~100 kB) and its pending record."""
FULL = (errno.ENOSPC, errno.EDQUOT)


class DiskReserve:
    def __init__(self, directory: Path, size: int = RESERVE_BYTES) -> None:
        self.path = directory / RESERVE_NAME
        self.size = size

    @property
    def held(self) -> bool:
        try:
            return self.path.stat().st_size >= self.size
        except OSError:
            return False

    def ensure(self) -> bool:
        """Make the reserve if it is missing and the disk has twice its size free."""
        if self.held:
            return True
        try:
            info = os.statvfs(self.path.parent)
            if info.f_bavail * info.f_frsize < 2 * self.size:
                return False
            with self.path.open("wb") as fh:
                fh.write(b"\0" * self.size)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError:
            with contextlib.suppress(OSError):
                self.path.unlink()
            return False
        return True

    def release(self) -> bool:
        """Give the reserved room back to the disk; False if there was none."""
        if not self.held:
            return False
        try:
            self.path.unlink()
        except OSError:
            return False
        log.warning("disk full: the space kept in reserve takes this save")
        return True
