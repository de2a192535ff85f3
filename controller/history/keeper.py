"""The table's side of the history: record each game as it ends, and never stop play.

The table hands over a game when it ends or is abandoned, right after the frame that
shows it (like the save). The save of the final position is written first and carries
the record; then the record is committed; then the save is written without it
(:class:`controller.safekeeping.Safekeeping`), so a kill between any two steps leaves a
save and a history that agree. A record that cannot be written (disk full, read-only,
gone, locked) stays in memory, travels inside the save file
(:mod:`controller.history.pending`) and is tried again as soon as a save succeeds
(the appliance retries every few seconds meanwhile); the panel shows the same short
warning as a failed save, once per run of failures. A database found
damaged (``quick_check`` at start, "malformed" on any use) or at a path SQLite cannot
use is moved aside, the panel says so once, and a new one takes the record.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from controller.history import files as history_files
from controller.history.judge import is_corruption
from controller.history.pending import PendingRecord
from controller.history.record import HistoryEntry, Summary, record_of
from controller.history.stats import tally
from controller.history.store import CorruptHistoryError, HistoryError, HistoryStore
from controller.i18n import _
from controller.players import book as players_book
from controller.players import leaderboard
from controller.scene import Leader, StatisticsPage
from controller.session import Session, utc_now

log = logging.getLogger(__name__)

CHART_GAMES = 50
"""The statistics screen counts each game's last this many finished games."""
BACKLOG_LIMIT = 100
"""Records kept in memory while the disk fails (the oldest go first beyond this)."""

_SQLITE_ERRNO = {
    3: errno.EACCES,  # SQLITE_PERM
    5: errno.EBUSY,  # SQLITE_BUSY: another program holds the database locked
    6: errno.EBUSY,  # SQLITE_LOCKED
    8: errno.EROFS,  # SQLITE_READONLY
    13: errno.ENOSPC,  # SQLITE_FULL
    23: errno.EACCES,  # SQLITE_AUTH
}


def as_os_error(exc: Exception, directory: Path | None = None) -> OSError:
    """The disk problem behind a failed write, as the errno the save warning knows.

    SQLite names a full or read-only database itself, but reports a file it could not
    open or write (a read-only disk, a missing directory) only as such: then the
    directory itself is asked what is wrong with it.
    """
    if isinstance(exc, OSError):
        return exc
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    number = _SQLITE_ERRNO.get(code)
    if number is None and directory is not None:
        number = disk_problem(directory)
    return OSError(number or errno.EIO, str(exc))


def disk_problem(directory: Path) -> int | None:
    """Why nothing can be written in ``directory``, as an errno (None: no idea)."""
    try:
        info = os.statvfs(directory)
    except OSError as exc:
        return exc.errno
    if info.f_flag & os.ST_RDONLY:
        return errno.EROFS
    if info.f_bavail == 0:
        return errno.ENOSPC
    if not os.access(directory, os.W_OK):
        return errno.EACCES
    return None


def moved_notice(moved: Path) -> str:
    """The panel's words for a database set aside."""
    return _("history damaged, moved to {name}").format(name=moved.name)


def statistics_pages(summaries: list[Summary], directory: Path) -> tuple[StatisticsPage, ...]:
    """Per game its wins per colour and, where named players played it, its
    leaderboard right after (players called by their names in the book now)."""
    names_now = {p.id: p.name for p in players_book.read(directory)}
    boards = leaderboard.boards(summaries, names_now).games
    pages: list[StatisticsPage] = []
    for game, counted in tally(summaries).items():
        pages.append(StatisticsPage(game, counted.games, tuple(counted.wins())))
        board = boards.get(game)
        if board:
            leaders = tuple(Leader(p.name, p.won, p.games) for p in board)
            pages.append(StatisticsPage(game, counted.games, (), leaders))
    return tuple(pages)


class HistoryKeeper:
    def __init__(
        self,
        directory: Path,
        seat_count: int,
        warn: Callable[[OSError], None],
        bot_kind: Callable[[str], str] = lambda kind: kind,
        notice: Callable[[str], None] | None = None,
    ) -> None:
        self.store = HistoryStore(directory)
        self.notice = notice
        """Shows a short text on the panel (a damaged database set aside)."""
        self.seat_count = seat_count
        self.warn = warn
        self.bot_kind = bot_kind
        self.backlog: list[HistoryEntry] = []
        self.sources: dict[str, PendingRecord] = {}
        """What each waiting record is made from, by uid (the save file carries it)."""
        self.failures = 0
        """Every failed write since start (diagnostics and tests)."""
        self.failing = 0
        """Failed writes in a row: the panel warns once per run of failures."""
        self.disabled: str | None = None
        """Why no records are written at all (a database from a newer program)."""

    def open(self) -> str | None:
        """Open the database at start, if there is one (a table that never finished a
        game has none; the first record makes it), and check every page of it
        (``quick_check``). Returns a short notice for the panel when a damaged or
        unusable database had to be moved aside (None otherwise). Any other problem is
        logged and left for the first write to retry."""
        if not history_files.exists(self.store.path):
            return None
        try:
            moved = self.store.open(check=True)
        except CorruptHistoryError as exc:  # could not even be moved aside
            log.error("history: %s", exc)
            return None
        except HistoryError as exc:
            self.disabled = str(exc)
            log.error("history: %s; games are not recorded", exc)
            return None
        except (sqlite3.Error, OSError) as exc:
            log.error("history: cannot open %s: %s; will retry", self.store.path, exc)
            self.store.close()
            return None
        if moved is not None:
            return moved_notice(moved)
        return None

    def record(self, session: Session, outcome: str) -> None:
        """Record ``session`` (finished or abandoned). Never raises: play goes on."""
        self.queue(session, outcome)
        self.flush()

    def queue(self, session: Session, outcome: str) -> None:
        """Make the record of ``session`` and let it wait for :meth:`flush` (the save
        written first carries it meanwhile: :meth:`pending`). Never raises."""
        if self.disabled is not None:
            return
        try:
            record = record_of(
                session, outcome, utc_now(), self.seat_count, self.bot_kind(session.bot)
            )
        except Exception:  # a bug here must not stop the table
            log.exception("history: cannot make a record of %s", session.game)
            return
        self._queue(record, PendingRecord(session, outcome, record.summary.ended))

    def _queue(self, record: HistoryEntry, source: PendingRecord) -> None:
        uid = record.summary.uid
        self.backlog = [r for r in self.backlog if r.summary.uid != uid] + [record]
        self.sources[uid] = source
        if len(self.backlog) > BACKLOG_LIMIT:
            log.error("history: dropping %d unwritten records", len(self.backlog) - BACKLOG_LIMIT)
            del self.backlog[:-BACKLOG_LIMIT]
        self._forget_written()

    def _forget_written(self) -> None:
        waiting = {r.summary.uid for r in self.backlog}
        for uid in [uid for uid in self.sources if uid not in waiting]:
            del self.sources[uid]

    def pending(self) -> list[PendingRecord]:
        """The records not written yet, for the save file to carry (oldest first)."""
        return [self.sources[r.summary.uid] for r in self.backlog if r.summary.uid in self.sources]

    def restore(self, waiting: list[PendingRecord]) -> None:
        """Take over the records a save carried (a game that ended while the disk
        failed, then the power went) and write them now if the disk lets us."""
        if self.disabled is not None or not waiting:
            return
        for source in waiting:
            try:
                record = record_of(
                    source.session,
                    source.outcome,
                    source.ended,
                    self.seat_count,
                    self.bot_kind(source.session.bot),
                )
            except Exception:  # a bug here must not stop the table
                log.exception("history: cannot make a record of a saved %s", source.session.game)
                continue
            self._queue(record, source)
        log.info("history: %d record(s) carried by the save", len(self.backlog))
        self.flush()

    def flush(self) -> bool:
        """Write what is waiting; False if the disk refused (the records stay)."""
        while self.backlog:
            record = self.backlog[0]
            try:
                record_id = self._write(record)
            except (sqlite3.Error, OSError, HistoryError) as exc:
                self.store.close()  # reopened by the next attempt
                self.failures += 1
                self.failing += 1
                if self.failing == 1:
                    log.error("recording the game failed: %s; the game goes on", exc)
                    self.warn(as_os_error(exc, self.store.directory))
                return False
            except Exception:  # a bug, not the disk: this record would fail for ever
                log.exception("history: cannot store the record of %s", record.summary.uid)
                self.backlog.pop(0)
                self._forget_written()
                continue
            self.backlog.pop(0)
            self._forget_written()
            summary = record.summary
            # The kill -9 test reads this line: the record was committed.
            log.debug("recorded game %d %s (%s)", record_id, summary.uid, summary.outcome)
        if self.failing:
            log.warning("recording works again after %d failed writes", self.failing)
            self.failing = 0
        return True

    def _write(self, record: HistoryEntry) -> int:
        if self.store.connection is None:
            self._opened(self.store.open())
        try:
            return self.store.add(record)
        except sqlite3.DatabaseError as exc:
            if not self._damaged(exc):
                raise
            self._opened(self.store.open())
            return self.store.add(record)

    def _damaged(self, exc: sqlite3.Error) -> bool:
        """If ``exc`` says the file is damaged ("malformed", "not a database"), or its
        path is one SQLite cannot use, set it aside (once: the panel and the log say
        so) and return True; a full or read-only disk is left to the retries."""
        problem = history_files.unusable(self.store.path)
        if not is_corruption(exc) and problem is None:
            return False
        log.error("history: %s", problem or exc)
        if problem is not None:
            self._opened(self.store.open())  # sets aside only the files it cannot use
        else:
            self._opened(self.store.move_aside())
        return True

    def _opened(self, moved: Path | None) -> None:
        if moved is not None and self.notice is not None:
            self.notice(moved_notice(moved))

    def statistics(self, last: int = CHART_GAMES) -> tuple[StatisticsPage, ...]:
        """Per game, wins per seat colour over its ``last`` finished games; () if the
        database cannot be read (the screen then says there is nothing yet)."""
        try:
            if self.store.connection is None:
                if not history_files.exists(self.store.path):
                    return ()
                self._opened(self.store.open())
            summaries = self.store.finished(last=last)
            return statistics_pages(summaries, self.store.directory)
        except sqlite3.Error as exc:
            log.error("history: cannot read the statistics: %s", exc)
            self.store.close()
            if self._damaged(exc):
                with contextlib.suppress(sqlite3.Error, OSError, HistoryError):
                    self._opened(self.store.open())
        except (OSError, HistoryError) as exc:
            log.error("history: cannot read the statistics: %s", exc)
            self.store.close()
        except Exception:  # e.g. a record a future version wrote: never stop the table
            log.exception("history: cannot count the statistics")
        return ()

    def close(self) -> None:
        if self.backlog:
            self.flush()
        self.store.close()
