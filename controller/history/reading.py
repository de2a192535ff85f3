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
    OLDEST_READABLE,
    VERSION,
    CorruptHistoryError,
    HistoryError,
    newer,
)

log = logging.getLogger(__name__)

Scratch = tempfile.TemporaryDirectory[str]


def open_read_only(path: Path) -> tuple[sqlite3.Connection, Scratch | None]:
    """A connection to the history at ``path`` that writes nothing, and the temporary
    directory of the copy it reads, if any (the caller removes it when done). A
    missing, empty or too old a database raises :class:`HistoryError`, an unreadable one
    :class:`CorruptHistoryError`."""
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
        elif found.version < OLDEST_READABLE:
            problem = HistoryError(
                f"{path.name} is schema version {found.version}: the table brings it"
                f" up to version {VERSION} at its next start"
            )
        if problem is not None:
            raise problem
    except BaseException:
        connection.close()
        if scratch is not None:
            scratch.cleanup()
        raise
    return connection, scratch


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
