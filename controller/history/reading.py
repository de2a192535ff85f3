"""Opening the history database for reading only: ``spieltisch history`` and the page.

Why a module of its own: a reader must never write, and SQLite does not make that
easy. Even a read-only connection (``mode=ro``) to a WAL database makes its ``-wal``
and ``-shm`` beside it, and any connection applies whatever log lies there. So the
database is read in place only while a table may hold it (its ``-shm`` is there, and
SQLite's locks in it keep the read consistent); otherwise the file alone is read as it
is (``immutable``), or a copy of the file with a log a table left behind. A log that
makes a sound history foreign, damaged or smaller is not read at all
(:func:`controller.history.judge.log_fault`); the table sets it aside at its next start.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import stat
import tempfile
from pathlib import Path

from controller.history.judge import connect_read_only, examine, has_log, log_fault, log_path
from controller.history.schema import (
    EXPECTED,
    VERSION,
    CorruptHistoryError,
    HistoryError,
    migrate,
    newer,
)

log = logging.getLogger(__name__)

Scratch = tempfile.TemporaryDirectory[str]


def open_read_only(path: Path) -> tuple[sqlite3.Connection, Scratch | None]:
    """A connection to the history at ``path`` that writes nothing, and the temporary
    directory of the copy it reads, if any (the caller removes it when done). A
    missing or empty database raises :class:`HistoryError`, an unreadable one
    :class:`CorruptHistoryError`; an older one is read from a migrated copy."""
    connection, scratch, version = _open_as_it_is(path)
    if version == VERSION:
        return connection, scratch
    try:
        return migrated_copy(connection)
    finally:
        connection.close()
        if scratch is not None:
            scratch.cleanup()


def _open_as_it_is(path: Path) -> tuple[sqlite3.Connection, Scratch | None, int]:
    """:func:`open_read_only` without the migration: also the version found."""
    if not path.exists():
        raise HistoryError(f"no games recorded yet ({path} does not exist)")
    connection, scratch = reader_connection(path)
    try:
        logged = has_log(path)
        found = examine(connection, path.name, EXPECTED, VERSION, uids=logged)
        if logged:
            alone = connect_read_only(path, alone=True, timeout=2.0)
            without = examine(alone, path.name, EXPECTED, VERSION, uids=True)
            fault = log_fault(path, found, without, VERSION)
            if fault is not None:
                log.warning("%s; read without it", fault)
                connection.close()
                connection, found = alone, without
            else:
                alone.close()
        problem = None
        if found.version > VERSION:
            problem = HistoryError(newer(path.name, found.version))
        elif found.problem is not None:
            problem = CorruptHistoryError(found.problem)
        elif found.version == 0:
            problem = HistoryError(f"no games recorded yet ({path.name} is empty)")
        if problem is not None:
            raise problem
    except BaseException:
        connection.close()
        if scratch is not None:
            scratch.cleanup()
        raise
    return connection, scratch, found.version


def migrated_copy(connection: sqlite3.Connection) -> tuple[sqlite3.Connection, Scratch]:
    """A database of an older schema, as this program reads it: a consistent copy
    (SQLite's backup API) in a temporary directory, migrated there. The table migrates
    the file itself at its next start; until then a reader pays for the copy, and the
    file stays as it is."""
    scratch = tempfile.TemporaryDirectory(prefix="spieltisch-history-")
    try:
        copy = sqlite3.connect(str(Path(scratch.name) / "history.sqlite3"), isolation_level=None)
        connection.backup(copy)
        for step in range(int(copy.execute("PRAGMA user_version").fetchone()[0]), VERSION):
            migrate(copy, step, quiet=True)
        return copy, scratch
    except BaseException:
        scratch.cleanup()
        raise


def reader_connection(path: Path) -> tuple[sqlite3.Connection, Scratch | None]:
    """The database with its log, read without writing (see the module's description)."""
    if stat.S_ISREG(_mode(path.with_name(path.name + "-shm"))):
        return connect_read_only(path, timeout=2.0), None
    if not has_log(path):
        return connect_read_only(path, alone=True), None
    scratch = tempfile.TemporaryDirectory(prefix="spieltisch-history-")
    copy = Path(scratch.name) / path.name
    try:
        shutil.copyfile(path, copy)
        shutil.copyfile(log_path(path), log_path(copy))
        return connect_read_only(copy, timeout=2.0), scratch
    except BaseException:
        scratch.cleanup()
        raise


def _mode(path: Path) -> int:
    """The file type and mode of ``path`` (0 if it is missing or cannot be read)."""
    try:
        return os.stat(path).st_mode
    except OSError:
        return 0
