"""What the kernel saw happen to the names in a directory (Linux inotify, by ctypes).

A file written in place is created, modified and closed under its own name, so a
reader can open it half written; a file written whole appears under its name by a
rename (``moved_to``) and is never written there. Tests ask the kernel which it was,
instead of hoping to catch a half-written file in the act.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
import sys
from pathlib import Path

import pytest

IN_MODIFY = 0x002
IN_CLOSE_WRITE = 0x008
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_NONBLOCK = os.O_NONBLOCK
KINDS = {
    IN_CREATE: "create",
    IN_MODIFY: "modify",
    IN_CLOSE_WRITE: "close_write",
    IN_MOVED_TO: "moved_to",
}
HEADER = struct.Struct("iIII")


class DirectoryEvents:
    """Records, from creation on, what happens to the names in ``directory``."""

    def __init__(self, directory: Path) -> None:
        if not sys.platform.startswith("linux"):
            pytest.skip("inotify is Linux's")
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        self.fd = libc.inotify_init1(IN_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            pytest.skip(f"no inotify: {os.strerror(ctypes.get_errno())}")
        mask = IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO
        if libc.inotify_add_watch(self.fd, str(directory).encode(), mask) < 0:
            os.close(self.fd)
            pytest.skip(f"cannot watch {directory}: {os.strerror(ctypes.get_errno())}")

    def names(self) -> dict[str, list[str]]:
        """Every name that something happened to so far, with what, in order."""
        found: dict[str, list[str]] = {}
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return found
            offset = 0
            while offset < len(data):
                _wd, mask, _cookie, size = HEADER.unpack_from(data, offset)
                raw = data[offset + HEADER.size : offset + HEADER.size + size]
                name = raw.rstrip(b"\0").decode()
                offset += HEADER.size + size
                for bit, kind in KINDS.items():
                    if mask & bit:
                        found.setdefault(name, []).append(kind)

    def close(self) -> None:
        os.close(self.fd)
