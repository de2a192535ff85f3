"""Pictures written whole or not at all: a temporary file beside the target, renamed.

A screenshot, a captured frame or a recording is read by someone else while the
program may still be writing: a person opening the newest picture, a test waiting for
the file, a script collecting frames. Written in place, a reader can open a file that
is only half there ("image file is truncated"). Written to a temporary file in the
same directory and renamed over the target, the target name only ever holds a complete
file. The temporary name starts with a dot and ends in ``.part``, so a glob for the
pictures (``*.png``) never sees one.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomically(target: Path, write: Callable[[BinaryIO], object]) -> Path:
    """Call ``write`` with a binary file, then rename that file to ``target``; returns
    ``target``. On any failure the temporary file is removed and ``target`` is as it
    was. The file is created as any new file is (mode 0666 less the umask), not with
    ``mkstemp``'s 0600, and without touching the process's umask, which other threads
    share."""
    fd, temp = _create_beside(target)
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    return target


def _create_beside(target: Path) -> tuple[int, Path]:
    """A new, empty temporary file in ``target``'s directory: its descriptor and path."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    for _attempt in range(100):
        temp = target.with_name(f".{target.name}-{secrets.token_hex(4)}.part")
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target}")
