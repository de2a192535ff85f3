"""The update's small files in the state directory, and whom root believes about them.

The update runs as root, but its state (``update/state.json``, the notice) lives in the
service user's state directory: :func:`write_json` writes only into a directory that
is root's (or, for a table run without root, its own user's), and :func:`untrusted`
says why a file there may have been written by someone else.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from hardware.atomic_file import write_text_atomically


class UpdateError(ValueError):
    """The update is refused or failed before the switch; nothing changed. One line."""


def write_json(path: Path, data: object) -> None:
    """``data`` as ``path``, atomically (a synced new file renamed over the old). A
    directory that is a symlink, or another's (:func:`untrusted`), is refused: the state
    directory is the service user's, and root must not be led to write elsewhere, nor
    write its state where another could change it."""
    path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
    reason = not_ours(path.parent)
    if reason is not None:
        raise UpdateError(f"{reason}: refused")
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    write_text_atomically(path, text, durable=True, mode=0o644, prefix=f".{path.name}.", suffix="")


def read_json(path: Path) -> dict[str, Any] | None:
    try:
        with path.open(encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def untrusted(path: Path) -> str | None:
    """Why ``path`` may have been written by someone other than the updater, or None.

    The updater runs as root but keeps its state in the service user's state directory,
    so a table process gone wrong could leave a ``state.json`` there ("an update is on
    trial") to make root roll back or restore a history copy. The file and its directory
    are believed only if they are no symlinks, belong to root or to whoever runs this
    (the same user when a table runs without root), and no one else may write them."""
    for item in (path.parent, path):
        reason = not_ours(item)
        if reason is not None:
            return reason
    return None


def not_ours(item: Path) -> str | None:
    try:
        info = os.lstat(item)
    except FileNotFoundError:
        return None  # nothing there: nothing to believe or to distrust
    except OSError as exc:
        return f"{item}: {exc.strerror}"
    if stat.S_ISLNK(info.st_mode):
        return f"{item} is a symlink"
    if info.st_uid not in (0, os.geteuid()):
        return f"{item} belongs to uid {info.st_uid}, not to root"
    if info.st_mode & 0o022:
        return f"{item} may be written by others (mode {stat.S_IMODE(info.st_mode):o})"
    return None
