"""The history database: every game played at the table, kept in SQLite.

Why SQLite (the standard library's ``sqlite3``): one file, ``history.sqlite3`` in the
state directory, next to the save; transactions, so a power cut leaves either the whole
record or none of it; and any SQLite tool can read it. It runs in WAL mode with
``synchronous=FULL``: a commit returns only after the write-ahead log is on the disk,
so a game whose record was committed survives a SIGKILL or a pulled plug.

Schema versions are counted in ``PRAGMA user_version``, each step in one transaction;
a database from a newer program is refused, never changed
(:mod:`controller.history.schema`).

A database SQLite cannot read (not a database, a malformed page found by
``quick_check`` at the appliance's start or by any later use, not ours, tables of
another shape), or a path it could never use (:mod:`controller.history.files`), is
moved aside as ``history.sqlite3.bad-<time>`` (its write-ahead log with it, so the
pair still opens) and a new one is started, as :mod:`controller.persistence` does for
a bad save; the old records are not lost but set apart, for ``sqlite3 .recover``.
Before any of that the database is judged through read-only connections
(:mod:`controller.history.judge`), so nothing is written to a file that may be set
aside; a log that does not belong to the file is set aside alone.

Readers (``spieltisch history``, the page) never write
(:mod:`controller.history.reading`). One damaged record
is skipped with a line that names it; the others still list, count and export.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from controller.history.files import broken, set_aside, set_aside_side_files
from controller.history.judge import has_log, is_corruption, judge, log_path
from controller.history.reading import Scratch, open_read_only
from controller.history.record import HistoryEntry, RecordedGame, Seat, Summary
from controller.history.schema import (
    BUSY_TIMEOUT_S,
    EXPECTED,
    MIGRATIONS,
    VERSION,
    CorruptHistoryError,
    HistoryError,
    connect_for_writing,
    migrate,
    newer,
)
from controller.persistence import sync_directory

log = logging.getLogger(__name__)

DB_NAME = "history.sqlite3"

_SUMMARY_COLUMNS = "id, uid, game, preset, started, ended, outcome, places, result, rolls, moves"


__all__ = [
    "BUSY_TIMEOUT_S",
    "DB_NAME",
    "MIGRATIONS",
    "VERSION",
    "CorruptHistoryError",
    "HistoryError",
    "HistoryStore",
    "is_corruption",
    "migrate",
]


class HistoryStore:
    """``history.sqlite3`` in ``directory``: open (and migrate) it, add and read records.

    Only the loop thread of the appliance writes; ``spieltisch history`` may read at
    the same time (WAL readers do not block the writer).
    """

    def __init__(self, directory: str | Path, name: str = DB_NAME) -> None:
        self.directory = Path(directory)
        self.path = self.directory / name
        self.connection: sqlite3.Connection | None = None
        self.scratch: Scratch | None = None
        """A reader's copy of a database and its log, read where no table holds it."""

    # -- opening ------------------------------------------------------------------------

    def open(self, create: bool = True, check: bool = False) -> Path | None:
        """Connect, check and bring the schema up to :data:`VERSION`.

        With ``create`` (the appliance) a missing database is made, and an unreadable
        one is moved aside and replaced by a new one: the return value is then where it
        went (else None). So is a path SQLite could never use (a directory, a dangling
        symlink, a symlink to a device); a side file SQLite cannot use (a directory as
        ``-wal`` or ``-shm``), or a log that does not belong to the database, is set
        aside alone and the games stay. All of this is judged read-only first. With
        ``check`` (the appliance's start) SQLite's ``quick_check`` reads every page
        first, so a damaged page is found now, not when the statistics screen comes up
        empty. Without ``create`` (``spieltisch history``, the page) nothing is
        written at all: a missing file raises :class:`HistoryError`, an unreadable one
        :class:`CorruptHistoryError`.
        """
        self.close()
        if not create:
            self.connection, self.scratch = open_read_only(self.path)
            return None
        moved = self._set_aside_unusable()
        if self.path.exists():
            verdict = judge(self.path, EXPECTED, VERSION, check)
            if verdict.newer is not None:
                raise HistoryError(newer(self.path.name, verdict.newer))
            if verdict.problem is not None:
                log.error("%s", verdict.problem)
                moved = self._set_aside_log() if verdict.log_only else self.move_aside()
        elif has_log(self.path):
            log.error("%s has no database beside it", log_path(self.path).name)
            moved = self._set_aside_log()
        try:
            self.connection = connect_for_writing(self.path)
        except CorruptHistoryError as exc:  # damage the read-only judge did not see
            self.close()
            log.error("%s", exc)
            moved = self.move_aside()
            self.connection = connect_for_writing(self.path)
        return moved

    def _set_aside_unusable(self) -> Path | None:
        """Set aside what SQLite could never use: the database file with its side
        files, or only a side file (a directory as ``-shm``), keeping the games."""
        found = broken(self.path)
        if not found:
            return None
        log.error("the history database cannot be used: %s", found[0][1])
        if any(part == self.path for part, _reason in found):
            return self.move_aside()
        return self._set_aside_log([part for part, _reason in found])

    def _set_aside_log(self, parts: list[Path] | None = None) -> Path:
        """Rename the log (and its index), or ``parts``, aside; the database stays."""
        self.close()
        target = set_aside_side_files(self.path, parts or [log_path(self.path)])
        sync_directory(self.directory)
        log.error("moved %s aside; the games in %s are kept", target.name, self.path.name)
        return target

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
        if self.scratch is not None:
            self.scratch.cleanup()
            self.scratch = None

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
                "INSERT INTO seats (record_id, seat, colour, kind, bot, person, name)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (record_id, s.seat, s.colour, s.kind, s.bot, s.person, s.name)
                    for s in summary.seats
                ],
            )
            db.executemany(
                "INSERT INTO match_games (record_id, number, winner, points, kind, score,"
                " extras) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        record_id,
                        g.number,
                        g.winner,
                        g.points,
                        g.kind,
                        _dump(g.score),
                        _dump(dict(g.extras)),
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
        try:
            start = _load(row[-3], dict, "start_state")
            final = _load(row[-2], dict, "final_state")
            history = _load(row[-1], list, "history")
        except ValueError as exc:
            raise HistoryError(damaged(record_id, exc)) from None
        found = self._summaries([row[:-3]])
        if not found:
            raise HistoryError(damaged(record_id, "its summary does not read"))
        return HistoryEntry(found[0], start, final, history)

    def count(self) -> int:
        return int(self._db().execute("SELECT count(*) FROM records").fetchone()[0])

    def integrity_check(self) -> list[str]:
        """SQLite's own full check: ``["ok"]`` for a sound file."""
        return [str(row[0]) for row in self._db().execute("PRAGMA integrity_check")]

    def version(self) -> int:
        return int(self._db().execute("PRAGMA user_version").fetchone()[0])

    def _summaries(self, rows: Sequence[Sequence[Any]]) -> list[Summary]:
        """The summaries of ``rows``; a row whose JSON does not read is skipped with
        one line in the log that names it (the others still list and count)."""
        ids = [int(row[0]) for row in rows]
        seats: dict[int, list[Seat]] = {i: [] for i in ids}
        games: dict[int, list[RecordedGame]] = {i: [] for i in ids}
        bad: dict[int, Exception] = {}
        db = self._db()
        for chunk in range(0, len(ids), 500):
            part = ids[chunk : chunk + 500]
            marks = ",".join("?" * len(part))
            for rid, seat, colour, kind, bot, person, name in db.execute(
                "SELECT record_id, seat, colour, kind, bot, person, name FROM seats"
                f" WHERE record_id IN ({marks}) ORDER BY record_id, seat, colour",
                part,
            ):
                seats[rid].append(Seat(seat, colour, kind, bot, person, name))
            for rid, number, winner, points, kind, score, extra in db.execute(
                "SELECT record_id, number, winner, points, kind, score, extras"
                f" FROM match_games WHERE record_id IN ({marks}) ORDER BY record_id, number",
                part,
            ):
                try:
                    games[rid].append(
                        RecordedGame(
                            number,
                            winner,
                            points,
                            kind,
                            _load(score, dict, "match score"),
                            _load(extra, dict, "match game's extras"),
                        )
                    )
                except ValueError as exc:
                    bad[rid] = exc
        out = []
        for row in rows:
            rid, uid, game, preset, started, ended, outcome, places, result, rolls, moves = row
            try:
                if rid in bad:
                    raise bad[rid]
                out.append(
                    Summary(
                        uid=uid,
                        game=game,
                        preset=preset,
                        started=started,
                        ended=ended,
                        outcome=outcome,
                        places=tuple(_load(places, list, "places")),
                        seats=tuple(seats[rid]),
                        rolls=rolls,
                        moves=moves,
                        result=_load(result, dict, "result"),
                        games=tuple(games[rid]),
                        id=rid,
                    )
                )
            except ValueError as exc:
                log.warning("%s; skipped", damaged(rid, exc))
        return out

    def _db(self) -> sqlite3.Connection:
        if self.connection is None:
            raise HistoryError("the history database is not open")
        return self.connection


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _load(text: object, kind: type, column: str) -> Any:
    """The JSON in ``column`` of a row, which must be a ``kind``; ValueError naming the
    column if it is not (a row changed by hand, or damaged)."""
    try:
        data = json.loads(text) if isinstance(text, str | bytes) else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, kind):
        raise ValueError(f"its {column} is not JSON of the right kind")
    return data


def damaged(record_id: object, problem: object) -> str:
    """One line naming a damaged record (``spieltisch history`` prints it)."""
    return f"game {record_id} in the history is damaged ({problem})"
