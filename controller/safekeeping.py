"""Saves and history records carried out, and the one policy for when they fail.

Why one owner: a save and a record fail for the same reasons (a full, read-only or
forbidden disk) and the players should hear about it the same way, once per run of
failures, while the game goes on. So this object alone writes the save file and hands
records to the history, retries while the disk refuses, and decides what the panel
says; the loop shows what it says (:meth:`take_notices`) and asks it to retry when
:attr:`retry_at` is due. The table only queues effects (:mod:`controller.table.effects`).
"""

from __future__ import annotations

import contextlib
import errno
import logging
from collections.abc import Callable, Sequence

from controller import setup_memory
from controller.history.keeper import HistoryKeeper
from controller.i18n import N_, _
from controller.persistence import SaveStore
from controller.state_dir import is_usable_directory, report_unusable
from controller.table.effects import Effect, Record, RememberSetups, Save

log = logging.getLogger(__name__)

SAVE_WARNING_S = 4.0
"""How long a warning about the disk stays over the board."""
RETRY_S = 2.0
"""While saving or recording fails, both are tried again this often."""
_SAVE_PROBLEMS = {
    errno.ENOSPC: N_("disk full"),
    errno.EDQUOT: N_("disk full"),
    errno.EROFS: N_("disk read-only"),
    errno.EACCES: N_("no permission"),
    errno.EPERM: N_("no permission"),
    errno.EEXIST: N_("not a directory"),
    errno.ENOTDIR: N_("not a directory"),
}


def save_warning(exc: OSError) -> str:
    """A few words for the panel: why the game is not being saved."""
    problem = _SAVE_PROBLEMS.get(exc.errno or 0, N_("disk error"))
    return _("not saved: {problem}").format(problem=_(problem))


class Safekeeping:
    """The save file and the history of one table, and what their failures show."""

    def __init__(
        self,
        store: SaveStore | None,
        clock: Callable[[], float],
        history: Callable[[Callable[[OSError], None], Callable[[str], None]], HistoryKeeper]
        | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.notices: list[str] = []
        """What the panel should say, oldest first (the loop takes them)."""
        self.history = history(self.record_failed, self.notices.append) if history else None
        self.latest: Save | None = None
        """The newest save (its game and text): what a retry saves."""
        self.retry_at: float | None = None
        """When saving (and recording) is tried again; None while both work."""
        self.save_failures = 0
        """Every failed save since start (diagnostics and tests)."""
        self.failing_saves = 0
        """Failed saves in a row: the panel warns once per run of failures."""

    def prepare(self) -> bool:
        """Make the state directory and open the history at start. One that cannot be
        made or written (a file in its place, a read-only disk) is one line in the log
        and "not saved: ..." on the panel, and the table plays on; the saves that
        follow fail quietly until the disk lets them. Returns whether a save there can
        still be read (a read-only disk still resumes its game)."""
        readable = True
        if self.store is not None:
            try:
                self.store.prepare()
            except OSError as exc:
                report_unusable(self.store.directory, exc)
                self.failing_saves = 1  # said once: the failed saves that follow are quiet
                self.notices.append(save_warning(exc))
                readable = is_usable_directory(self.store.directory)
        if self.history is not None and (notice := self.history.open()) is not None:
            self.notices.append(notice)
        return readable

    def take_notices(self) -> list[str]:
        notices, self.notices = self.notices, []
        return notices

    def carry_out(self, effects: Sequence[Effect]) -> None:
        """The save first, carrying the records of the games that just ended; then the
        records go to the history; then the save is written again without them.

        Why this order: a kill between any two of these steps leaves a save and a
        history that agree. Killed before the record is committed, the save holds the
        final position with the record in it, and the next start writes the record
        (the game is over, not resumed); killed after, the record is written again and
        replaces itself (same uid). Recorded first and saved second, a kill in between
        left a save one move short of the end, and the next start resumed a game that
        was already in the history."""
        records = [e for e in effects if isinstance(e, Record)]
        saves = [e for e in effects if isinstance(e, Save)]
        if self.history is not None:
            for record in records:
                self.history.queue(record.session, record.outcome)
        for effect in effects:
            if isinstance(effect, RememberSetups):
                self.remember(effect)
        if saves:
            self.latest = saves[-1]
            self.save(self.latest)
        elif records and self.history is not None:
            self.history.flush()  # a game that could not be saved is still recorded

    def remember(self, effect: RememberSetups) -> None:
        """Keep the last setups; a disk that refuses costs only that memory (the save's
        own failures are what the panel warns about)."""
        if self.store is None:
            return
        try:
            setup_memory.write(self.store.directory, effect.setups, effect.people)
        except OSError as exc:
            log.warning("the last setups were not kept: %s", exc)

    def retry(self, now: float) -> None:
        """Try the save (and the records) again if a retry is due; also while nobody
        plays: a game that ended on a full disk is written as soon as the disk has
        room, not when the next game starts."""
        if self.retry_at is not None and now >= self.retry_at:
            self.retry_at = now + RETRY_S
            self.save(self.latest)

    def save(self, latest: Save | None) -> None:
        """Save after a move. A full, read-only or forbidden state directory must not
        stop the game: the old save stays whole (the write is atomic), the panel shows
        a short warning when saving starts failing, and saving is retried every
        :data:`RETRY_S` seconds (and with the next move) until it works. Game records
        the history could not write yet travel inside the save, and are written to
        the history as soon as a save succeeds again."""
        history = self.history
        if self.store is None:
            if history is not None and history.backlog:
                history.flush()
            return
        pending = history.pending() if history is not None else []
        session = latest.session if latest is not None else None
        text = latest.text if latest is not None else None
        try:
            self.store.save(session, pending, text)
        except OSError as exc:
            self.save_failures += 1
            self.failing_saves += 1
            if self.failing_saves == 1:
                log.error("saving the game failed: %s; the game goes on", exc)
                self.notices.append(save_warning(exc))
            self.keep_retrying()
            if history is not None and history.backlog:
                history.flush()  # the history may still take what the save could not carry
            return
        if pending:
            # The kill -9 test reads this line: a kill from here on finds the records.
            log.debug("the save carries the records of %s", " ".join(r.uid for r in pending))
        if self.failing_saves:
            log.warning("saving works again after %d failed saves", self.failing_saves)
            self.failing_saves = 0
            self.store.reserve.ensure()
        if history is not None and history.backlog:
            history.flush()
        if pending and history is not None and not history.backlog:
            with contextlib.suppress(OSError):  # written: the save need not carry them
                self.store.save(session, text=text)
        if history is None or not history.backlog:
            self.retry_at = None

    def record_failed(self, exc: OSError) -> None:
        """A record could not be written: the same warning as a failed save, and it is
        retried until it is written (it travels in the save meanwhile). A database
        another program holds locked (a backup, the ``sqlite3`` shell) is no disk
        problem and loses nothing: it is only retried, the panel says nothing."""
        if exc.errno != errno.EBUSY:
            self.notices.append(save_warning(exc))
        self.keep_retrying()

    def keep_retrying(self) -> None:
        if self.retry_at is None:
            self.retry_at = self.clock() + RETRY_S

    def close(self) -> None:
        if self.history is not None:
            self.history.close()
