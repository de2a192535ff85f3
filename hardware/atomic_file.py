"""Files written whole or not at all: a temporary file beside the target, renamed.

Every file the program replaces goes through :func:`write_atomically`, so that one
place decides how it is done:

* A reader never sees half a file. A screenshot, a captured frame or a recording is
  read by someone else while the program may still be writing: a person opening the
  newest picture, a test waiting for the file, a script collecting frames. Written in
  place, a reader can open a file that is only half there ("image file is truncated").
  Written to a temporary file in the same directory and renamed over the target, the
  target name only ever holds a complete file. The temporary name starts with a dot and
  ends in ``.part`` unless the caller names it, so a glob for the pictures (``*.png``)
  never sees one.
* ``durable``: a pulled plug leaves the old file or the new one. The save, the config
  and the boot partition's settings are fsynced before the rename, and the directory
  after it (:func:`sync_directory`), so the rename itself survives the power cut.
  Pictures are not: a frame a second would wear the card for nothing.
* The permission bits are the caller's to choose: as any new file (0666 less the
  umask), exact bits (a save is the owner's alone), or the bits of the file replaced
  (a config the owner made readable to others stays so).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomically(
    target: Path,
    write: Callable[[BinaryIO], object],
    *,
    durable: bool = False,
    mode: int | None = None,
    keep_mode: bool = False,
    prefix: str | None = None,
    suffix: str = ".part",
) -> Path:
    """Call ``write`` with a binary file, then rename that file to ``target``; returns
    ``target``. On any failure the temporary file is removed and ``target`` is as it
    was.

    ``durable``: the file is fsynced before the rename and its directory after it.
    ``mode``: the file's exact permission bits; None creates it as any new file is
    (0666 less the umask), not with ``mkstemp``'s 0600, and without touching the
    process's umask, which other threads share. ``keep_mode``: the bits of the file
    being replaced, if there is one (else ``mode``). ``prefix`` and ``suffix`` name the
    temporary file (``prefix`` + random + ``suffix``; the prefix defaults to a dot and
    the target's name), so that an owner can find one a power cut left behind."""
    if keep_mode:
        with contextlib.suppress(FileNotFoundError):
            mode = stat.S_IMODE(target.stat().st_mode)
    fd, temp = _create_beside(target, prefix or f".{target.name}-", suffix, mode)
    try:
        with os.fdopen(fd, "wb") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            write(out)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if durable:
        sync_directory(target.parent)
    return target


def write_text_atomically(
    target: Path,
    text: str,
    *,
    durable: bool = False,
    mode: int | None = None,
    keep_mode: bool = False,
    prefix: str | None = None,
    suffix: str = ".part",
) -> Path:
    """:func:`write_atomically` for ``text``, in UTF-8, its line ends as they are."""
    data = text.encode("utf-8")
    return write_atomically(
        target,
        lambda out: out.write(data),
        durable=durable,
        mode=mode,
        keep_mode=keep_mode,
        prefix=prefix,
        suffix=suffix,
    )


def sync_directory(directory: Path) -> None:
    """fsync a directory, so that a rename or a new file in it survives a power cut. A
    file system that cannot (some network mounts, vfat) is left alone: the data itself
    was synced, only the rename's durability is then up to it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _create_beside(target: Path, prefix: str, suffix: str, mode: int | None) -> tuple[int, Path]:
    """A new, empty temporary file in ``target``'s directory: its descriptor and path."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    for _attempt in range(100):
        temp = target.with_name(f"{prefix}{secrets.token_hex(4)}{suffix}")
        try:
            return os.open(temp, flags, 0o666 if mode is None else mode), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {target}")
