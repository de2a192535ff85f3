"""Saving the session so a pulled plug loses at most the move in flight.

A save is written atomically (:mod:`hardware.atomic_file`): a temp file in the same
directory, flushed and fsynced, ``os.replace``d over the old save, then the directory is
fsynced so the rename itself survives a power cut. Saves are plain JSON; nothing is
ever unpickled or evaluated. A corrupt, truncated or wrong-version save, or one that is
not a game this program can play (:mod:`controller.save_checks`), is moved aside with a
timestamp and reported, and the appliance starts at the menu: a bad file never causes a
crash loop.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path

from controller.disk_reserve import FULL, DiskReserve
from controller.history import pending as pending_records
from controller.history.pending import PendingRecord
from controller.i18n import _
from controller.save_checks import check_playable
from controller.save_format import encode, with_key
from controller.session import SAVE_VERSION, SaveVersionError, Session
from hardware.atomic_file import sync_directory as sync_directory
from hardware.atomic_file import write_text_atomically

log = logging.getLogger(__name__)

SAVE_NAME = "session.json"
TEMP_PREFIX = ".session-"
TEMP_SUFFIX = ".tmp"


ENCODING = "utf-8-sig"
"""Saves are written as UTF-8 without a byte-order mark; one an editor put at the start
is read past, as the config reader does."""

MAX_SAVE_BYTES = 32 * 1024 * 1024
"""Far above any real game (a long backgammon match saves ~100 kB), with room for the
records of many games the history could not write yet."""


def damage(exc: BaseException) -> str:
    """What is wrong with an unreadable save, in the players' language. The JSON
    parser's and the save checks' own words are English (the log has them): the panel
    says what kind of damage it is, and for broken JSON where it starts."""
    if isinstance(exc, json.JSONDecodeError):
        detail = _("not JSON (line {line}, column {column})")
        return _("corrupt save: {reason}").format(
            reason=detail.format(line=exc.lineno, column=exc.colno)
        )
    if isinstance(exc, SaveVersionError):
        # Not damage: the file is whole, only from an older or newer table.
        found = exc.found if isinstance(exc.found, int) else "?"
        return _("save from another version (save version {found}, not {version})").format(
            found=found, version=SAVE_VERSION
        )
    if isinstance(exc, (RecursionError, OverflowError)):
        return _("corrupt save: {reason}").format(
            reason=_("nested too deeply or a number too large")
        )
    return _("corrupt save: {reason}").format(reason=_("the game in it is not a valid one"))


def first_line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


def check_history(data: object) -> None:
    """The move history must be what :class:`Session` writes: a list of
    ``{"player", "dice": [ints]}`` and ``{"player", "move": notation}`` entries."""
    if not isinstance(data, dict) or "history" not in data:
        return  # Session.from_json reports a missing or wrong top level
    history = data["history"]
    if not isinstance(history, list):
        raise ValueError("save history must be a list")
    for index, entry in enumerate(history):
        ok = isinstance(entry, dict) and isinstance(entry.get("player"), str | None)
        if ok and "dice" in entry:
            dice = entry["dice"]
            ok = isinstance(dice, list) and all(type(d) is int for d in dice)
        elif ok:
            ok = isinstance(entry.get("move"), str)
        if not ok:
            raise ValueError(f"save history entry {index} is malformed: {entry!r:.60}")


def unfinished_game(state_dir: Path | None) -> tuple[str, str] | None:
    """The game and preset of the unfinished game saved in ``state_dir``: the game the
    table resumes when it starts, so a game in progress whether the table runs or not.
    None for no directory, no save, a save holding only records for the history, a
    finished game (the save keeps the final position after the game is over, while
    the table is back in its menu), or a save the table will move aside as damaged.
    Read without touching the file: moving a damaged save aside, with its message on
    the panel, is the table's own job, and the updater and the simulator read this."""
    if state_dir is None:
        return None
    path = Path(state_dir) / SAVE_NAME
    try:
        if not path.is_file() or path.stat().st_size > MAX_SAVE_BYTES:
            return None
        data = json.loads(path.read_text(encoding=ENCODING))
        if not isinstance(data, dict) or data.get("game") is None:
            return None
        session = Session.from_json(data)
    except (OSError, ValueError, RecursionError):  # InvalidStateError is a ValueError
        return None
    if session.state.is_terminal():
        return None
    return session.game, session.preset


class CorruptSaveError(ValueError):
    """The save could not be used; it has been moved to ``moved_to``."""

    def __init__(self, message: str, moved_to: Path | None) -> None:
        super().__init__(message)
        self.moved_to = moved_to


class SaveStore:
    def __init__(self, directory: str | Path, name: str = SAVE_NAME) -> None:
        self.directory = Path(directory)
        self.path = self.directory / name
        self.writes = 0
        self.pending: list[PendingRecord] = []
        self.reserve = DiskReserve(self.directory)
        """The game records the last loaded save carried (see :meth:`save`)."""

    def prepare(self) -> int:
        """Create the directory and delete temp files a crash left behind."""
        self.directory.mkdir(parents=True, exist_ok=True)
        removed = 0
        for stale in self.directory.glob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}"):
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()
                removed += 1
        if removed:
            log.info("removed %d stale temp file(s) in %s", removed, self.directory)
        self.reserve.ensure()
        return removed

    def save(
        self,
        session: Session | None,
        pending: Sequence[PendingRecord] = (),
        text: str | None = None,
    ) -> None:
        """Write the session atomically; ``None`` (no game) removes the save. Game
        records the history could not write yet (``pending``) travel inside it, so a
        power cut cannot lose them; with no game they are the whole save. ``text`` is
        the session already in its save format (the table made it when it queued the
        save): it is written as it is, not encoded again."""
        if session is None and not pending:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
                self._sync_directory()
            return
        if session is None:
            text = encode({"version": SAVE_VERSION, "game": None})
        elif text is None:
            text = encode(session.to_json())
        if pending:
            text = with_key(text, pending_records.KEY, [record.to_json() for record in pending])
        entries = len(session.history) if session else 0
        try:
            self._write(text, entries)
        except OSError as exc:
            # The save that ends a game, or carries records, may use the reserve.
            final = bool(pending) or (session is not None and session.state.is_terminal())
            if exc.errno not in FULL or not final or not self.reserve.release():
                raise
            self._sync_directory()
            self._write(text, entries)

    def drop_pending(self) -> None:
        """The records the save carried are in the history now: write it without them
        (a save with no game goes); the game in it stays as it was."""
        try:
            data = json.loads(self.path.read_text(encoding=ENCODING))
        except (OSError, ValueError, RecursionError):
            return
        if not isinstance(data, dict) or data.pop(pending_records.KEY, None) is None:
            return
        if data.get("game") is None:
            self.save(None)
        else:
            self._write(encode(data), len(data.get("history", [])))

    def _write(self, data: str, entries: int) -> None:
        try:
            self._write_file(data)
        except FileNotFoundError:  # the directory could not be made at start-up; perhaps now
            self.directory.mkdir(parents=True, exist_ok=True)
            self._write_file(data)
        self.writes += 1
        # The kill -9 test reads this line to know what was committed before the kill.
        log.debug("saved %d history entries", entries)

    def read_pending(self) -> list[PendingRecord]:
        """Only the game records the save carries (a new game is about to replace
        it); a save that cannot be read carries none and is left as it is."""
        self.pending = []
        try:
            if self.path.stat().st_size <= MAX_SAVE_BYTES:
                data = json.loads(self.path.read_text(encoding=ENCODING))
                if isinstance(data, dict):
                    self.pending = pending_records.from_save(data)
        except (OSError, ValueError, RecursionError):
            pass
        return self.pending

    def _write_file(self, data: str) -> None:
        """The save, whole, fsynced with its directory; the owner's alone (0600)."""
        write_text_atomically(
            self.path, data, durable=True, mode=0o600, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX
        )

    def load(self) -> Session | None:
        """The saved unfinished game, None if there is none (or it was finished).

        Raises :class:`CorruptSaveError` after moving an unusable save aside.
        """
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise self._move_aside(_("cannot read save: {reason}").format(reason=exc)) from None
        # A FIFO or device would block or never end; a huge file would exhaust memory.
        if not stat.S_ISREG(info.st_mode):
            raise self._move_aside(_("corrupt save: not a regular file"))
        if info.st_size > MAX_SAVE_BYTES:
            size = info.st_size
            raise self._move_aside(_("corrupt save: {size} bytes is too big").format(size=size))
        try:
            text = self.path.read_text(encoding=ENCODING)
        except (OSError, UnicodeDecodeError) as exc:
            raise self._move_aside(_("cannot read save: {reason}").format(reason=exc)) from None
        try:
            data = json.loads(text)
            if isinstance(data, dict):
                self.pending = pending_records.from_save(data)
                if data.get("game") is None and pending_records.KEY in data:
                    return None  # only records waiting for the history, no game
            check_history(data)
            session = Session.from_json(data)
            check_playable(data, session)
        except (ValueError, RecursionError, OverflowError) as exc:  # JSONDecodeError too
            log.warning("corrupt save %s: %s", self.path, first_line(exc))
            raise self._move_aside(damage(exc)) from None
        except Exception as exc:
            # A parser bug must not turn one bad file into a crash loop at every boot:
            # the save goes aside like any other bad one, with the bug in the log.
            log.exception("unexpected error reading the save")
            problem = f"{type(exc).__name__}: {first_line(exc)}"
            reason = _("corrupt save: {reason}").format(reason=problem)
            raise self._move_aside(reason) from None
        if session.state.is_terminal():
            return None
        return session

    def _move_aside(self, reason: str) -> CorruptSaveError:
        stamp = time.strftime("%Y%m%dT%H%M%S")
        target = self.path.with_name(f"{self.path.name}.bad-{stamp}")
        counter = 1
        while target.exists():
            counter += 1
            target = self.path.with_name(f"{self.path.name}.bad-{stamp}-{counter}")
        try:
            os.replace(self.path, target)
            self._sync_directory()
        except OSError as exc:
            log.error("could not move the bad save aside: %s", exc)
            aside = _("{reason} (could not move it aside: {problem})")
            return CorruptSaveError(aside.format(reason=reason, problem=exc), None)
        log.error("%s; moved to %s", reason, target)
        moved = _("{reason}; moved to {name}").format(reason=reason, name=target.name)
        return CorruptSaveError(moved, target)

    def _sync_directory(self) -> None:
        sync_directory(self.directory)
