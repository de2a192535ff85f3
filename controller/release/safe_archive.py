"""Unpack a tar file that may be hostile, into a fresh directory, or refuse it whole.

Update bundles and backups come from outside the table (a phone's upload, a USB
stick), so neither ``tarfile.extractall`` nor its filters are trusted with them: every
member is checked here before one byte of it is written, and the caller unpacks into a
new temporary directory that it deletes when anything is refused. What is refused, each
in one line naming the member:

* a file that is no tar at all (gzip-compressed or plain);
* names that are absolute, contain ``..``, a backslash or an empty part, or that the
  caller's list of expected names does not hold, and the same name twice;
* anything but regular files and directories: links, devices, FIFOs;
* too many members, one member or all of them together larger than the limits. The
  limits are counted on the bytes the decompressor hands out, so a small file that
  inflates without end (a "zip bomb") is stopped at the limit, never read to its end.
"""

from __future__ import annotations

import gzip
import tarfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Protocol

GZIP_MAGIC = b"\x1f\x8b"
_COPY_CHUNK = 1 << 16


class ArchiveError(ValueError):
    """The archive is refused; the message is one line naming why."""


@dataclass(frozen=True)
class Limits:
    members: int
    member_bytes: int
    total_bytes: int


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class _Capped:
    """A read-only stream that refuses to hand out more than ``cap`` bytes."""

    def __init__(self, raw: _Readable, cap: int, what: str) -> None:
        self.raw = raw
        self.cap = cap
        self.what = what
        self.count = 0

    def read(self, size: int = -1) -> bytes:
        want = self.cap + 1 - self.count if size < 0 else min(size, self.cap + 1 - self.count)
        data = self.raw.read(max(want, 0))
        self.count += len(data)
        if self.count > self.cap:
            raise ArchiveError(
                f"{self.what} unpacks to more than {self.cap // (1 << 20)} MB (a compressed bomb?)"
            )
        return data


def check_name(name: str) -> str:
    """``name`` as a safe relative POSIX path, or :class:`ArchiveError`."""
    if not name or "\\" in name or "\x00" in name:
        raise ArchiveError(f"the member {name!r} has a name that is not a plain path")
    if name.startswith("/"):
        raise ArchiveError(f"the member {name!r} has an absolute path")
    parts = PurePosixPath(name).parts
    stripped = name[2:] if name.startswith("./") else name
    if ".." in parts or any(p == "" for p in stripped.rstrip("/").split("/")):
        raise ArchiveError(f"the member {name!r} escapes the archive's directory")
    return PurePosixPath(stripped).as_posix()


def unpack(
    archive: Path,
    destination: Path,
    expected: Callable[[str], bool],
    limits: Limits,
    what: str = "the archive",
) -> list[str]:
    """Unpack ``archive`` into the existing empty directory ``destination``; returns the
    names of the files written. Raises :class:`ArchiveError` at the first problem (the
    caller removes ``destination``)."""
    try:
        with archive.open("rb") as raw:
            head = raw.read(2)
            raw.seek(0)
            stream: _Readable = gzip.GzipFile(fileobj=raw) if head == GZIP_MAGIC else raw
            capped = _Capped(stream, limits.total_bytes + (1 << 20), what)
            try:
                # the bytes the decompressor hands out are counted by the cap
                return _unpack(capped, destination, expected, limits, what)  # type: ignore[arg-type]
            except (tarfile.TarError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
                raise ArchiveError(f"{what} is not a readable tar file ({exc})") from None
    except IsADirectoryError:
        raise ArchiveError(f"{archive} is a directory, not a file") from None


def _unpack(
    stream: IO[bytes],
    destination: Path,
    expected: Callable[[str], bool],
    limits: Limits,
    what: str,
) -> list[str]:
    written: list[str] = []
    seen: set[str] = set()
    total = 0
    count = 0
    with tarfile.open(fileobj=stream, mode="r|") as tar:
        for member in tar:
            count += 1
            if count > limits.members:
                raise ArchiveError(f"{what} has more than {limits.members} members")
            name = check_name(member.name)
            if member.isdir():
                continue
            if not member.isfile():
                kind = "a link" if member.issym() or member.islnk() else "a device or FIFO"
                raise ArchiveError(f"the member {name!r} is {kind}, not a file")
            if not expected(name):
                raise ArchiveError(f"the member {name!r} does not belong in {what}")
            if name in seen:
                raise ArchiveError(f"the member {name!r} is there twice")
            seen.add(name)
            if member.size > limits.member_bytes:
                raise ArchiveError(
                    f"the member {name!r} is larger than {limits.member_bytes // (1 << 20)} MB"
                )
            total += member.size
            if total > limits.total_bytes:
                raise ArchiveError(
                    f"{what} unpacks to more than {limits.total_bytes // (1 << 20)} MB"
                )
            source = tar.extractfile(member)
            if source is None:  # pragma: no cover - isfile() members always have data
                raise ArchiveError(f"the member {name!r} has no data")
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("xb") as out:
                while chunk := source.read(_COPY_CHUNK):
                    out.write(chunk)
            written.append(name)
    return written
