"""The history database's schema, its versions and the errors it raises.

Schema versions are counted in ``PRAGMA user_version``: :data:`MIGRATIONS` ``[i]``
brings a database from version ``i`` to ``i + 1``, each step in one transaction. A
database from a newer program is refused, never changed. At this program's own version
every table must have exactly the columns the migrations make up to the version the
database says it is (:data:`EXPECTED`).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from pathlib import Path

from controller.history.judge import Columns, Shapes, examine, is_corruption

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 0.05
"""How long a write waits for another program's lock on the database (a backup, the
``sqlite3`` shell) before it fails and is retried with the next save: the table's loop
writes, and must not stall for longer than a frame or two."""

SCHEMA_V1 = """
CREATE TABLE records (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    preset TEXT NOT NULL,
    started TEXT,
    ended TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('finished', 'abandoned')),
    winner TEXT,
    places TEXT NOT NULL,
    result TEXT NOT NULL,
    rolls INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    start_state TEXT NOT NULL,
    final_state TEXT NOT NULL,
    history TEXT NOT NULL
);
CREATE INDEX records_by_game ON records (game, outcome, ended);
CREATE TABLE seats (
    record_id INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    colour TEXT,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot', 'empty')),
    bot TEXT
);
CREATE INDEX seats_by_record ON seats (record_id);
CREATE TABLE match_games (
    record_id INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    winner TEXT NOT NULL,
    points INTEGER NOT NULL,
    kind TEXT NOT NULL,
    cube INTEGER NOT NULL,
    crawford INTEGER NOT NULL,
    score TEXT NOT NULL,
    PRIMARY KEY (record_id, number)
);
"""
"""Version 1: one row per game (a Backgammon match is one game here), its seats, and
the games of a Backgammon match. Positions, results and the move history are JSON
text: the save file's format, which the rules and ``spieltisch rules`` read."""

SEAT_NAMES_V2 = """
ALTER TABLE seats ADD COLUMN person TEXT;
ALTER TABLE seats ADD COLUMN name TEXT;
"""
"""Version 2: the named player who sat at a seat: the person's id (``p3``, given by
``controller.players.book`` and never reused) and the name they played under, kept in
the record itself so that a renamed or removed player's games stay readable. Both are
NULL for a guest, a bot, an empty seat and every game recorded before names."""

V1_EXTRAS = (
    """'{"cube":' || cube || ',"crawford":' || (CASE WHEN crawford THEN 'true' ELSE 'false' END)"""
    " || '}'"
)
"""Version 1's two Backgammon columns of a match's game as the JSON object of the
family's extras that replaced them, built in SQL (no JSON functions needed): the
migration to version 3 writes it."""

MATCH_EXTRAS_V3 = f"""
CREATE TABLE match_games_v2 (
    record_id INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    winner TEXT NOT NULL,
    points INTEGER NOT NULL,
    kind TEXT NOT NULL,
    score TEXT NOT NULL,
    extras TEXT NOT NULL,
    PRIMARY KEY (record_id, number)
);
INSERT INTO match_games_v2 (record_id, number, winner, points, kind, score, extras)
    SELECT record_id, number, winner, points, kind, score, {V1_EXTRAS} FROM match_games;
DROP TABLE match_games;
ALTER TABLE match_games_v2 RENAME TO match_games;
"""
"""Version 3: a game of a match keeps what every game has (its winner, points, how it
was won, the score after it) in columns, and what only its family knows (Backgammon's
cube and Crawford game) as a JSON object in ``extras``, so the history names no game's
fields; the ``cube`` and ``crawford`` columns of versions 1 and 2 move into it."""

MIGRATIONS: tuple[str, ...] = (SCHEMA_V1, SEAT_NAMES_V2, MATCH_EXTRAS_V3)
VERSION = len(MIGRATIONS)
TABLES = frozenset({"records", "seats", "match_games"})


class HistoryError(ValueError):
    """A one-line problem with the history (an unknown game, a newer database)."""


class CorruptHistoryError(HistoryError):
    """SQLite cannot use the database; ``moved_to`` is where it was set aside, if it was."""

    def __init__(self, message: str, moved_to: Path | None = None) -> None:
        super().__init__(message)
        self.moved_to = moved_to


def newer(name: str, version: int) -> str:
    """Why a database from a newer program is left alone."""
    return (
        f"{name} is schema version {version}, newer than this program's {VERSION}:"
        " update spieltisch"
    )


def migrate(connection: sqlite3.Connection, step: int, quiet: bool = False) -> None:
    """Run migration ``step`` (version ``step`` to ``step + 1``) in one transaction."""
    try:
        connection.executescript(
            f"BEGIN IMMEDIATE;\n{MIGRATIONS[step]}\nPRAGMA user_version = {step + 1};\nCOMMIT;"
        )
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    if not quiet:
        log.info("history database migrated to schema version %d", step + 1)


def connect_for_writing(path: Path) -> sqlite3.Connection:
    """The table's connection: WAL, ``synchronous=FULL``, foreign keys, a short wait
    for another program's lock, and the schema brought up to :data:`VERSION`. Raises
    :class:`CorruptHistoryError` for a database that is not ours or damaged, and
    :class:`HistoryError` for a newer one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        mode = str(connection.execute("PRAGMA journal_mode=WAL").fetchone()[0])
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
        found = examine(connection, path.name, EXPECTED, VERSION)
    except sqlite3.DatabaseError as exc:
        connection.close()
        if is_corruption(exc):
            raise CorruptHistoryError(f"corrupt history database: {exc}") from None
        raise
    if mode.lower() != "wal":
        log.warning("the history database runs in %s mode, not WAL", mode)
    if found.version > VERSION:
        connection.close()
        raise HistoryError(newer(path.name, found.version))
    if found.problem is not None:
        connection.close()
        raise CorruptHistoryError(found.problem)
    for step in range(found.version, VERSION):
        migrate(connection, step)
    return connection


def expected_columns() -> Shapes:
    """Each version's tables and their columns, from the migrations themselves."""
    shapes: dict[int, Columns] = {}
    with contextlib.closing(sqlite3.connect(":memory:", isolation_level=None)) as db:
        for step in range(VERSION):
            migrate(db, step, quiet=True)
            shapes[step + 1] = {
                table: tuple(str(row[1]) for row in db.execute(f"PRAGMA table_info({table})"))
                for table in sorted(TABLES)
            }
    return shapes


EXPECTED = expected_columns()
