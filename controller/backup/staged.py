"""A restore or factory reset asked for on the page, carried out at the table's next start.

The running table holds the history database open (its writer keeps a write-ahead log
beside it); replacing the file under that connection could let the old connection's
log land on the new file. So the page only checks the backup whole, stages it in the
state directory's ``inbox/`` (or stages the reset) and asks the table to restart; the
next ``spieltisch run`` does the work before it opens anything, with the same checks
and the same safety backup as ``spieltisch backup``. The outcome is written as
``backup-notice.json`` and said once on the panel (controller.release.notice).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from hardware.atomic_file import write_text_atomically

if TYPE_CHECKING:
    from controller.backup.archive import BackupPlaces

log = logging.getLogger(__name__)

INBOX = "inbox"
RESTORE = "restore.tar.gz"
RESET = "factory-reset"
NOTICE = "backup-notice.json"


def stage_restore(places: BackupPlaces, upload: Path) -> None:
    """Check ``upload`` whole (raises :class:`BackupError`), then stage it."""
    from controller.backup.archive import check

    with tempfile.TemporaryDirectory(dir=places.state_dir) as work:
        check(upload, Path(work))
    inbox = places.state_dir / INBOX
    inbox.mkdir(exist_ok=True)
    os.replace(upload, inbox / RESTORE)


def stage_reset(places: BackupPlaces) -> None:
    inbox = places.state_dir / INBOX
    inbox.mkdir(exist_ok=True)
    (inbox / RESET).write_text("asked for on the page\n", encoding="utf-8")


def write_notice(places: BackupPlaces, kind: str, text: str, ok: bool) -> None:
    """The outcome, said once on the panel at the table's start."""
    data = {"kind": kind, "text": text, "ok": ok, "time": time.time()}
    write_text_atomically(places.state_dir / NOTICE, json.dumps(data))


def at_start(state_dir: Path, config: Path) -> str | None:
    """``spieltisch run``'s first step: carry out what the page staged, if anything. The
    backup code (and its cryptography) is imported only then, not at every start."""
    inbox = state_dir / INBOX
    if not ((inbox / RESTORE).is_file() or (inbox / RESET).is_file()):
        return None
    from controller.backup.archive import BackupPlaces
    from controller.release.layout import KEYS_DIR

    return carry_out(BackupPlaces(state_dir, config, KEYS_DIR))


def carry_out(places: BackupPlaces) -> str | None:
    """Do a staged restore or reset (at start, before anything opens the files); returns
    the line logged, or None when nothing was staged. A staged file that is refused is
    moved aside, so the next start does not try it again."""
    from controller.backup.archive import BackupError, factory_reset, restore

    inbox = places.state_dir / INBOX
    staged, reset = inbox / RESTORE, inbox / RESET
    try:
        if staged.is_file():
            try:
                kept, _manifest = restore(places, staged)
            except BackupError as exc:
                shutil.move(str(staged), str(inbox / f"{RESTORE}.refused"))
                write_notice(places, "restore-refused", str(exc), False)
                return f"restore refused: {exc}"
            staged.unlink()
            write_notice(places, "restored", str(kept), True)
            return f"restored the backup from the page; what it replaced is in {kept}"
        if reset.is_file():
            reset.unlink()
            try:
                kept = factory_reset(places)
            except BackupError as exc:
                write_notice(places, "reset-refused", str(exc), False)
                return f"factory reset refused: {exc}"
            write_notice(places, "reset", str(kept), True)
            return f"factory reset done; what it removed is in {kept}"
    except OSError as exc:
        return f"restore or reset failed: {exc}"
    return None
