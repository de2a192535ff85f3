"""Where the table keeps its save and its history, and what to say when it cannot.

The state directory comes from ``--state-dir`` exactly as given (a path may contain a
``:``, e.g. ``games:2024``), else from ``$STATE_DIRECTORY``, which systemd sets and in
which it joins several directories with ``:`` (the first one is ours), else the
default. A directory that cannot be made or written at start-up never stops play: the
problem is one line in the log naming the path, the panel shows "not saved: …", and
the table plays on; saving resumes by itself once the disk lets it.
"""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Mapping
from pathlib import Path

log = logging.getLogger(__name__)

_PROBLEMS = {
    errno.EEXIST: "it is a file, not a directory",
    errno.ENOTDIR: "a part of it is a file, not a directory",
    errno.ENOENT: "it does not exist and cannot be made",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "no permission to write there",
    errno.EPERM: "no permission to write there",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk is full",
    errno.ELOOP: "it is a symlink loop",
}


def resolve_state_dir(
    given: Path | None, default: Path, environ: Mapping[str, str] | None = None
) -> Path:
    """``given`` untouched; else the first of ``$STATE_DIRECTORY``'s ``:``-joined
    directories (systemd's convention); else ``default``."""
    if given is not None:
        return given
    env = os.environ if environ is None else environ
    joined = env.get("STATE_DIRECTORY", "")
    first = joined.split(":")[0] if joined else ""
    return Path(first) if first else default


def describe(exc: OSError) -> str:
    """The problem in words, without the raw ``[Errno N]``."""
    number = exc.errno or 0
    words = _PROBLEMS.get(number)
    if words is not None:
        return words
    return exc.strerror or str(exc) or type(exc).__name__


def report_unusable(directory: Path, exc: OSError) -> str:
    """Log once why ``directory`` cannot hold the save; returns that line."""
    line = f"state directory {directory}: {describe(exc)}; the table plays on without saving"
    log.error("%s", line)
    return line


def is_usable_directory(directory: Path) -> bool:
    """True if ``directory`` is a directory one may at least read a save from."""
    try:
        return directory.is_dir()
    except OSError:
        return False
