"""Checks every command shares on what a person typed or a file held.

Kept in one place so that ``config check``, ``run`` and each ``sim`` mode reject the
same input with the same line, and so that an error line never repeats a huge input:
a 100 KB argument or a 4 000-digit number is quoted by its first few dozen characters.
"""

from __future__ import annotations

import errno
import math
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from controller.i18n import N_
from rules.errors import SHOWN_LIMIT, shown

QUOTE_LIMIT = SHOWN_LIMIT
"""At most this many characters of an input appear in an error line."""

BOM = "\ufeff"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters with a note of the full length (the
    rules' own messages quote with the same function)."""
    return shown(value, limit)


def clip(text: str, limit: int = 300) -> str:
    """The first line of ``text``, never longer than about ``limit``: a safety net for
    messages built below the command line that hold a long input (a path, a library's
    own words). The start and the end stay, since the end usually says what is wrong."""
    line = text.splitlines()[0] if text else ""
    if len(line) <= limit:
        return line
    half = limit // 2
    return f"{line[:half]}…({len(line) - 2 * half} characters)…{line[-half:]}"


def is_finite_number(value: Any) -> bool:
    """True for an int or a finite float (NaN and infinity fail every range check
    silently, so they are refused by name)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or math.isfinite(value)  # a huge int overflows isfinite


class TomlError(ValueError):
    """A file that is not TOML this program can read; the message is one line."""


MAX_TOML_BYTES = 1024 * 1024
"""A config is a few KiB of text; anything longer is not one (``/dev/zero`` has no end)."""

FILE_KINDS = {
    stat.S_IFIFO: N_("FIFO"),
    stat.S_IFCHR: N_("character device"),
    stat.S_IFBLK: N_("block device"),
    stat.S_IFDIR: N_("directory"),
    stat.S_IFSOCK: N_("socket"),
}


class NotAConfigFile(OSError):
    """``path`` is not a regular file (``kind`` says what it is: "FIFO", ...), or it is
    larger than :data:`MAX_TOML_BYTES` (``kind`` is None)."""

    def __init__(self, path: Path, kind: str | None) -> None:
        reason = f"a {kind}, not a regular file" if kind else "larger than 1 MiB"
        super().__init__(errno.EINVAL if kind else errno.EFBIG, reason, str(path))
        self.kind = kind


def read_limited(path: Path, limit: int = MAX_TOML_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Opened without blocking and checked on the open descriptor before anything is read:
    a FIFO would block the open (and the reader with it) until someone writes, and a
    device such as ``/dev/zero`` never ends, so both are :class:`NotAConfigFile`, as
    is a file longer than ``limit``."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotAConfigFile(path, FILE_KINDS.get(stat.S_IFMT(mode), N_("special file")))
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise NotAConfigFile(path, None)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_toml(path: Path) -> dict[str, Any]:
    """Parse ``path``: a leading UTF-8 byte order mark (as Windows editors write) is
    skipped; nesting too deep for the parser is one line, not a crash. Only a regular
    file of at most :data:`MAX_TOML_BYTES` is read (:func:`read_limited`)."""
    text = read_limited(path).decode("utf-8")
    if text.startswith(BOM):
        text = text[len(BOM) :]
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(f"TOML syntax error: {exc}") from None
    except RecursionError:
        raise TomlError("TOML syntax error: values nested too deeply") from None
