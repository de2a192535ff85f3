"""Judging a history database through connections that cannot write to it.

Why: SQLite applies whatever write-ahead log lies beside a database, and nothing in
the log says which database it belongs to. The ``-wal`` of another database with the
same page size, or an old ``-wal`` beside a newer copy of the file (or a new one beside
an old copy put back), makes the pair read as someone else's database, as a damaged
one, or as one with fewer games. And the first read-write connection to close
checkpoints that log into the file: the games in it are gone before anyone could set
the file aside. So a database is judged before anything opens it for writing: once
with its log, read-only (``mode=ro``: SQLite neither checkpoints nor deletes the log),
and once as the file alone (``immutable``: SQLite does not look at the log at all). A
log that turns a sound history into a foreign, damaged or smaller one is the broken
part, and only it is set aside; the games in the file stay where they are.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26

Columns = Mapping[str, tuple[str, ...]]
"""The column names of each table the history keeps, in order."""
Shapes = Mapping[int, Columns]
"""Each schema version's tables and their columns, as the migrations make them."""


def is_corruption(exc: sqlite3.Error) -> bool:
    """Damage to the file, as opposed to a full, read-only or vanished disk."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    text = str(exc)
    return "malformed" in text or "not a database" in text


def log_path(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def has_log(path: Path) -> bool:
    """A write-ahead log with something in it lies beside ``path`` (an empty one is
    what SQLite leaves after a checkpoint: nothing to judge)."""
    try:
        info = os.stat(log_path(path))
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size > 0


def connect_read_only(path: Path, alone: bool = False, timeout: float = 0.05) -> sqlite3.Connection:
    """A connection that cannot change ``path`` or its log; with ``alone`` SQLite reads
    the file as it is on the disk, ignoring its log (and writes no ``-shm`` either)."""
    query = "immutable=1" if alone else "mode=ro"
    return sqlite3.connect(
        f"{path.resolve().as_uri()}?{query}", timeout=timeout, isolation_level=None, uri=True
    )


@dataclass(frozen=True)
class Finding:
    """What one read-only connection saw."""

    problem: str | None
    """Why it is not a usable history of ours (None: it is)."""
    version: int
    """Its schema version (``PRAGMA user_version``); 0 for an empty file."""
    uids: frozenset[str]
    """The games it holds (only when asked for)."""


def examine(
    connection: sqlite3.Connection,
    name: str,
    expected: Shapes,
    version_now: int,
    check: bool = False,
    uids: bool = False,
) -> Finding:
    """Read ``connection``'s schema (and with ``check`` every page, SQLite's
    ``quick_check``; with ``uids`` every game's uid). A database from a newer program
    is reported by its version only: it is refused, never judged. Errors that are not
    damage (a locked or vanished file) are raised."""
    try:
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if version > version_now:
            return Finding(None, version, frozenset())
        tables = [
            str(row[0])
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
        ]
        problem = schema_problem(connection, name, version, tables, expected, version_now)
        if problem is None and check:
            problem = quick_check(connection)
        found: frozenset[str] = frozenset()
        if problem is None and uids and version > 0:
            found = frozenset(str(r[0]) for r in connection.execute("SELECT uid FROM records"))
    except sqlite3.DatabaseError as exc:
        if not is_corruption(exc):
            raise
        return Finding(f"corrupt history database: {exc}", 0, frozenset())
    return Finding(problem, version, found)


def schema_problem(
    connection: sqlite3.Connection,
    name: str,
    version: int,
    tables: list[str],
    expected: Shapes,
    version_now: int,
) -> str | None:
    """Why the tables are not the history's (None: they are). At every version every
    table must have exactly the columns the migrations made up to it: a ``records``
    table of another shape would make every record fail ("has no column named ..."),
    for ever, and an older one of another shape would make its migration fail, or
    succeed and leave it so."""
    not_ours = f"corrupt history database: {name} is not ours"
    if version == 0:
        return not_ours if tables else None
    shape = expected.get(min(version, version_now))
    if shape is None or not set(tables) >= set(shape):
        return not_ours
    for table, columns in shape.items():
        found = tuple(str(row[1]) for row in connection.execute(f"PRAGMA table_info({table})"))
        if found != columns:
            return f"{not_ours} (its {table} table has other columns)"
    return None


def quick_check(connection: sqlite3.Connection) -> str | None:
    """SQLite's ``quick_check`` (every page, not the index contents): the damage a
    garbled page does, found now instead of on first use. None if the file is sound."""
    try:
        found = [str(row[0]) for row in connection.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:
        if not is_corruption(exc):
            raise
        found = [str(exc)]
    if found == ["ok"]:
        return None
    first = " ".join(found[0].split())[:200]
    return f"damaged history database: {first}"


@dataclass(frozen=True)
class Verdict:
    """What the table may do with the database at ``path``."""

    problem: str | None = None
    """Why SQLite's view of it (the file with its log) cannot be used; None: it can."""
    log_only: bool = False
    """Only the log is at fault: the file alone is a sound history of ours."""
    newer: int | None = None
    """The schema version of a database from a newer program (left alone)."""


def judge(path: Path, expected: Shapes, version_now: int, check: bool = False) -> Verdict:
    """Judge the database at ``path`` (a file that exists) without writing to it or to
    its log: usable as it is, usable without its log, or to be set aside whole.

    A log is at fault when the file alone is a sound history of ours and, read with
    the log, it is not ours, is damaged, or has lost games the file alone holds (the
    table replaces a record, never deletes one: a log of this database only ever adds).
    """
    with contextlib.closing(connect_read_only(path)) as connection:
        together = examine(connection, path.name, expected, version_now, check, uids=True)
    if together.version > version_now:
        return Verdict(newer=together.version)
    if not has_log(path):
        return Verdict(together.problem)
    with contextlib.closing(connect_read_only(path, alone=True)) as connection:
        alone = examine(connection, path.name, expected, version_now, uids=True)
        fault = log_fault(path, together, alone, version_now)
        # every page of the file alone is read only when it is to be kept without its
        # log: after a kill the log is nearly always this database's own
        if fault is not None and check and quick_check(connection) is not None:
            fault = None
    if fault is not None:
        return Verdict(fault, log_only=True)
    return Verdict(together.problem)


def log_fault(path: Path, together: Finding, alone: Finding, version_now: int) -> str | None:
    """Why the log beside ``path`` is the broken part (None: it is not, or the file
    alone is no better): the file alone is a sound history of ours, and with the log
    it is not ours, damaged, or has lost games the file alone holds (the table
    replaces a record, never deletes one: a log of this database only ever adds)."""
    if alone.problem is not None or alone.version > version_now:
        return None
    name = log_path(path).name
    if together.problem is not None:
        return f"{name} does not belong to {path.name} ({together.problem})"
    lost = alone.uids - together.uids
    if lost:
        return (
            f"{name} does not belong to {path.name}: with it"
            f" {len(lost)} of the {len(alone.uids)} games in the file are gone"
        )
    return None
