"""The history database: every game played at the table, kept in SQLite.

Why SQLite (the standard library's ``sqlite3``): one file, ``history.sqlite3`` in the
state directory, next to the save; transactions, so a power cut leaves either the whole
record or none of it; and any SQLite tool can read it. It runs in WAL mode with
``synchronous=FULL``: a commit returns only after the write-ahead log is on the disk,
so a game whose record was committed survives a SIGKILL or a pulled plug.

Schema versions are counted in ``PRAGMA user_version``: :data:`MIGRATIONS` ``[i]``
brings a database from version ``i`` to ``i + 1``, each step in one transaction. A
database from a newer program is refused, never changed.

A database SQLite cannot read (not a database, a malformed page found by
``quick_check`` at the appliance's start or by any later use, not ours), or a path it
could never use (:mod:`controller.history.files`), is moved aside as
``history.sqlite3.bad-<time>`` (its write-ahead log with it, so the pair still opens)
and a new one is started, as :mod:`controller.persistence` does for a bad
save; the old records are not lost but set apart, for ``sqlite3 .recover``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from controller.history.files import set_aside, unusable
from controller.history.record import HistoryEntry, RecordedMatchGame, Seat, Summary
from controller.persistence import sync_directory

log = logging.getLogger(__name__)

DB_NAME = "history.sqlite3"

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

MIGRATIONS: tuple[str, ...] = (SCHEMA_V1,)
VERSION = len(MIGRATIONS)
TABLES = frozenset({"records", "seats", "match_games"})

_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26

_SUMMARY_COLUMNS = "id, uid, game, preset, started, ended, outcome, places, result, rolls, moves"


class HistoryError(ValueError):
    """A one-line problem with the history (an unknown game, a newer database)."""


class CorruptHistoryError(HistoryError):
    """SQLite cannot use the database; ``moved_to`` is where it was set aside, if it was."""

    def __init__(self, message: str, moved_to: Path | None = None) -> None:
        super().__init__(message)
        self.moved_to = moved_to


def is_corruption(exc: sqlite3.Error) -> bool:
    """Damage to the file, as opposed to a full, read-only or vanished disk."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
    text = str(exc)
    return "malformed" in text or "not a database" in text


class HistoryStore:
    """``history.sqlite3`` in ``directory``: open (and migrate) it, add and read records.

    Only the loop thread of the appliance writes; ``spieltisch history`` may read at
    the same time (WAL readers do not block the writer).
    """

    def __init__(self, directory: str | Path, name: str = DB_NAME) -> None:
        self.directory = Path(directory)
        self.path = self.directory / name
        self.connection: sqlite3.Connection | None = None

    # -- opening ------------------------------------------------------------------------

    def open(self, create: bool = True, check: bool = False) -> Path | None:
        """Connect, check and bring the schema up to :data:`VERSION`.

        With ``create`` (the appliance) a missing database is made, and an unreadable
        one is moved aside and replaced by a new one: the return value is then where it
        went (else None). So is a path SQLite could never use (a directory, a dangling
        symlink, a symlink to a device, a directory as its ``-wal``). With ``check``
        (the appliance's start) SQLite's ``quick_check`` reads every page first, so a
        damaged page is found now, not when the statistics screen comes up empty.
        Without ``create`` (``spieltisch history``) nothing is created or moved: a
        missing file raises :class:`HistoryError`, an unreadable one
        :class:`CorruptHistoryError`.
        """
        self.close()
        if not create and not self.path.exists():
            raise HistoryError(f"no games recorded yet ({self.path} does not exist)")
        moved = None
        if create and (problem := unusable(self.path)) is not None:
            log.error("the history database cannot be used: %s", problem)
            moved = self.move_aside()
        try:
            self.connection = self._connect(create)
            if check:
                self._quick_check()
        except CorruptHistoryError as exc:
            self.close()
            if not create:
                raise
            log.error("%s", exc)
            moved = self.move_aside()
            self.connection = self._connect(create)
        return moved

    def _quick_check(self) -> None:
        """SQLite's ``quick_check`` (every page, not the index contents): the damage a
        garbled page does, found at start instead of on first use."""
        try:
            found = [str(row[0]) for row in self._db().execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:
            if not is_corruption(exc):
                raise
            found = [str(exc)]
        if found != ["ok"]:
            first = " ".join(found[0].split())[:200]
            raise CorruptHistoryError(f"damaged history database: {first}")

    def _connect(self, create: bool) -> sqlite3.Connection:
        if create:
            self.directory.mkdir(parents=True, exist_ok=True)
            target = str(self.path)
            connection = sqlite3.connect(target, timeout=2.0, isolation_level=None)
        else:
            uri = f"{self.path.resolve().as_uri()}?mode=rw"
            connection = sqlite3.connect(uri, timeout=2.0, isolation_level=None, uri=True)
        try:
            mode = str(connection.execute("PRAGMA journal_mode=WAL").fetchone()[0])
            connection.execute("PRAGMA synchronous=FULL")
            connection.execute("PRAGMA foreign_keys=ON")
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
            tables = {
                str(row[0])
                for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        except sqlite3.DatabaseError as exc:
            connection.close()
            if is_corruption(exc):
                raise CorruptHistoryError(f"corrupt history database: {exc}") from None
            raise
        if mode.lower() != "wal":
            log.warning("the history database runs in %s mode, not WAL", mode)
        if version > VERSION:
            connection.close()
            raise HistoryError(
                f"{self.path.name} is schema version {version}, newer than this program's"
                f" {VERSION}: update spieltisch"
            )
        if (version == 0 and tables) or (version > 0 and not tables >= TABLES):
            connection.close()
            raise CorruptHistoryError(f"corrupt history database: {self.path.name} is not ours")
        for step in range(version, VERSION):
            migrate(connection, step)
        return connection

    def move_aside(self) -> Path:
        """Rename the database (and its write-ahead log) to ``*.bad-<time>``."""
        self.close()
        target = set_aside(self.path)
        sync_directory(self.directory)
        log.error("the history database was unreadable; moved to %s, a new one is started", target)
        return target

    def close(self) -> None:
        if self.connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self.connection.close()
            self.connection = None

    # -- writing ------------------------------------------------------------------------

    def add(self, record: HistoryEntry) -> int:
        """Store ``record`` in one transaction; returns its id. A record with the same
        uid (the same game, recorded again after a power cut) is replaced, keeping its
        id."""
        summary = record.summary
        with self._transaction() as db:
            row = db.execute("SELECT id FROM records WHERE uid = ?", (summary.uid,)).fetchone()
            if row is not None:
                db.execute("DELETE FROM records WHERE id = ?", (row[0],))
            cursor = db.execute(
                "INSERT INTO records (id, uid, game, preset, started, ended, outcome, winner,"
                " places, result, rolls, moves, start_state, final_state, history)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    None if row is None else row[0],
                    summary.uid,
                    summary.game,
                    summary.preset,
                    summary.started,
                    summary.ended,
                    summary.outcome,
                    summary.winner,
                    _dump(list(summary.places)),
                    _dump(summary.result),
                    summary.rolls,
                    summary.moves,
                    _dump(record.start_state),
                    _dump(record.final_state),
                    _dump(record.history),
                ),
            )
            record_id = int(cursor.lastrowid or 0)
            db.executemany(
                "INSERT INTO seats (record_id, seat, colour, kind, bot) VALUES (?, ?, ?, ?, ?)",
                [(record_id, s.seat, s.colour, s.kind, s.bot) for s in summary.seats],
            )
            db.executemany(
                "INSERT INTO match_games (record_id, number, winner, points, kind, cube,"
                " crawford, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        record_id,
                        g.number,
                        g.winner,
                        g.points,
                        g.kind,
                        g.cube,
                        int(g.crawford),
                        _dump(g.score),
                    )
                    for g in summary.games
                ],
            )
        return record_id

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # -- reading ------------------------------------------------------------------------

    def summaries(self, limit: int | None = None) -> list[Summary]:
        """Every game, newest first (at most ``limit``)."""
        rows = self._db().execute(
            f"SELECT {_SUMMARY_COLUMNS} FROM records ORDER BY ended DESC, id DESC LIMIT ?",
            (-1 if limit is None else limit,),
        )
        return self._summaries(rows.fetchall())

    def finished(self, last: int | None = None) -> list[Summary]:
        """Finished games, newest first; with ``last`` only the last ones of each game
        (read backwards along the index, so the statistics screen opens as fast with
        ten thousand games recorded as with ten)."""
        db = self._db()
        query = f"SELECT {_SUMMARY_COLUMNS} FROM records WHERE outcome = 'finished'"
        if last is None:
            return self._summaries(db.execute(f"{query} ORDER BY ended DESC, id DESC").fetchall())
        rows: list[Any] = []
        for (game,) in db.execute("SELECT DISTINCT game FROM records").fetchall():
            rows += db.execute(
                f"{query} AND game = ? ORDER BY ended DESC, id DESC LIMIT ?", (game, last)
            ).fetchall()
        rows.sort(key=lambda row: (row[5], row[0]), reverse=True)  # ended, id
        return self._summaries(rows)

    def get(self, record_id: int) -> HistoryEntry:
        """The whole record of game ``record_id``; :class:`HistoryError` if there is none."""
        db = self._db()
        row = db.execute(
            f"SELECT {_SUMMARY_COLUMNS}, start_state, final_state, history FROM records"
            " WHERE id = ?",
            (record_id,),
        ).fetchone()
        if row is None:
            raise HistoryError(
                f"no game {record_id} in the history (see `spieltisch history list`)"
            )
        (summary,) = self._summaries([row[:-3]])
        return HistoryEntry(summary, _load(row[-3]), _load(row[-2]), _load(row[-1]))

    def count(self) -> int:
        return int(self._db().execute("SELECT count(*) FROM records").fetchone()[0])

    def integrity_check(self) -> list[str]:
        """SQLite's own full check: ``["ok"]`` for a sound file."""
        return [str(row[0]) for row in self._db().execute("PRAGMA integrity_check")]

    def version(self) -> int:
        return int(self._db().execute("PRAGMA user_version").fetchone()[0])

    def _summaries(self, rows: Sequence[Sequence[Any]]) -> list[Summary]:
        ids = [int(row[0]) for row in rows]
        seats: dict[int, list[Seat]] = {i: [] for i in ids}
        games: dict[int, list[RecordedMatchGame]] = {i: [] for i in ids}
        db = self._db()
        for chunk in range(0, len(ids), 500):
            part = ids[chunk : chunk + 500]
            marks = ",".join("?" * len(part))
            for rid, seat, colour, kind, bot in db.execute(
                "SELECT record_id, seat, colour, kind, bot FROM seats"
                f" WHERE record_id IN ({marks}) ORDER BY record_id, seat, colour",
                part,
            ):
                seats[rid].append(Seat(seat, colour, kind, bot))
            for rid, number, winner, points, kind, cube, crawford, score in db.execute(
                "SELECT record_id, number, winner, points, kind, cube, crawford, score"
                f" FROM match_games WHERE record_id IN ({marks}) ORDER BY record_id, number",
                part,
            ):
                games[rid].append(
                    RecordedMatchGame(
                        number, winner, points, kind, cube, bool(crawford), _load(score)
                    )
                )
        out = []
        for row in rows:
            rid, uid, game, preset, started, ended, outcome, places, result, rolls, moves = row
            out.append(
                Summary(
                    uid=uid,
                    game=game,
                    preset=preset,
                    started=started,
                    ended=ended,
                    outcome=outcome,
                    places=tuple(_load(places)),
                    seats=tuple(seats[rid]),
                    rolls=rolls,
                    moves=moves,
                    result=_load(result),
                    games=tuple(games[rid]),
                    id=rid,
                )
            )
        return out

    def _db(self) -> sqlite3.Connection:
        if self.connection is None:
            raise HistoryError("the history database is not open")
        return self.connection


def migrate(connection: sqlite3.Connection, step: int) -> None:
    """Run migration ``step`` (version ``step`` to ``step + 1``) in one transaction."""
    try:
        connection.executescript(
            f"BEGIN IMMEDIATE;\n{MIGRATIONS[step]}\nPRAGMA user_version = {step + 1};\nCOMMIT;"
        )
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    log.info("history database migrated to schema version %d", step + 1)


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _load(text: str) -> Any:
    return json.loads(text)
