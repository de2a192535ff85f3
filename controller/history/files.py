"""The files behind the history database, and which of them SQLite could never use.

``history.sqlite3`` and its ``-wal`` and ``-shm`` must each be a regular file (or a
symlink to one), or be missing. A directory, a dangling symlink or a symlink to a
device (``/dev/null``) makes every record fail with "unable to open database file", or
worse, lets SQLite write its log next to the device. Such a path is set aside under a
``.bad-<time>`` name (never deleted: a symlink is renamed, its target is not touched),
but only what is broken: a database file SQLite cannot use goes with its side files
and a new database is started; a log or index that cannot be used goes alone, and the
games in the database file stay where they are.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
from pathlib import Path

SIDE_FILES = ("-wal", "-shm")
"""SQLite's write-ahead log and its shared-memory index, beside the database."""


def companions(path: Path) -> list[Path]:
    """The database and the files SQLite keeps beside it."""
    return [path, *(path.with_name(path.name + suffix) for suffix in SIDE_FILES)]


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def unusable(path: Path) -> str | None:
    """Why SQLite could not keep the database at ``path``, in words (None: it can, as
    far as the file types go; a full or read-only disk is not a reason here)."""
    found = broken(path)
    return found[0][1] if found else None


def broken(path: Path) -> list[tuple[Path, str]]:
    """Each of the database's files that SQLite could never use, with the reason."""
    found = []
    for candidate in companions(path):
        reason = _unusable_file(candidate)
        if reason is not None:
            found.append((candidate, reason))
    return found


def _unusable_file(candidate: Path) -> str | None:
    try:
        info = os.lstat(candidate)
    except OSError:
        return None  # missing, or the directory itself fails: a disk problem
    if stat.S_ISREG(info.st_mode):
        return None
    if stat.S_ISLNK(info.st_mode):
        try:
            target = os.stat(candidate)
        except FileNotFoundError:
            return f"{candidate.name} is a dangling symlink"
        except OSError as exc:
            return f"{candidate.name} is a symlink that cannot be followed ({exc.strerror})"
        if not stat.S_ISREG(target.st_mode):
            return f"{candidate.name} is a symlink to {_kind(target.st_mode)}"
        return None
    return f"{candidate.name} is {_kind(info.st_mode)}"


def exists(path: Path) -> bool:
    """True if the database or one of its side files is there in any form (a dangling
    symlink too, which :meth:`Path.exists` calls missing)."""
    return any(os.path.lexists(candidate) for candidate in companions(path))


def set_aside(path: Path) -> Path:
    """Rename the database and its log to ``<name>.bad-<time>`` (and ``-wal``), so the
    pair still opens for ``sqlite3 .recover``; a regular ``-shm`` (only an index into
    the log, rebuilt from it) is removed, anything else in its place renamed too.
    Returns the new name of the database."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.bad-{stamp}")
    counter = 1
    while any(os.path.lexists(p) for p in companions(target)):
        counter += 1
        target = path.with_name(f"{path.name}.bad-{stamp}-{counter}")
    for source, moved in zip(companions(path), companions(target), strict=True):
        try:
            info = os.lstat(source)
        except FileNotFoundError:
            continue
        if source.name.endswith("-shm") and stat.S_ISREG(info.st_mode):
            with contextlib.suppress(FileNotFoundError):
                source.unlink()
            continue
        os.replace(source, moved)
    return target


def set_aside_side_files(path: Path, names: list[Path]) -> Path:
    """Rename only the side files ``names`` of the database at ``path`` (its log, its
    index) to ``<name>.bad-<time>``: the database itself is sound and stays. A regular
    ``-shm`` beside a log set aside is removed (it only indexes that log; SQLite makes
    a new one). Returns the new name of the first."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    shm = path.with_name(path.name + "-shm")
    if shm not in names and any(n.name.endswith("-wal") for n in names):
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.lstat(shm).st_mode):
                shm.unlink()
    first: Path | None = None
    for source in names:
        if not os.path.lexists(source):
            continue
        target = source.with_name(f"{source.name}.bad-{stamp}")
        counter = 1
        while os.path.lexists(target):
            counter += 1
            target = source.with_name(f"{source.name}.bad-{stamp}-{counter}")
        os.replace(source, target)
        first = first or target
    return first if first is not None else path
