"""Copies of the history database that are whole: made through SQLite's backup API
(so a write-ahead log beside the file is included, and a writer may go on meanwhile),
and put back with their stale log removed first. The update takes one before a new
release may migrate the history; the backup takes one for its archive."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from pathlib import Path

from controller.persistence import sync_directory


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of SQLite database ``source`` (its WAL included) as ``target``,
    through SQLite's backup API; ``target`` appears whole or not at all."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    finally:
        src.close()
    with partial.open("rb+") as fh:
        os.fsync(fh.fileno())
    os.replace(partial, target)
    sync_directory(target.parent)


def schema_version(path: Path) -> int:
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(connection.execute("PRAGMA user_version").fetchone()[0])
    finally:
        connection.close()


def restore_database(copy: Path, target: Path) -> None:
    """Put ``copy`` back as ``target`` (its stale ``-wal``/``-shm`` removed first, so
    SQLite cannot replay the newer log onto the older file)."""
    partial = target.with_name(target.name + ".restoring")
    shutil.copyfile(copy, partial)
    with partial.open("rb+") as fh:
        os.fsync(fh.fileno())
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            target.with_name(target.name + suffix).unlink()
    os.replace(partial, target)
    sync_directory(target.parent)
