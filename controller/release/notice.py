"""The last update's outcome, said once on the panel when the table starts.

The update runs as root beside the table (``spieltisch update``, the systemd units) and
writes its outcome to ``update/notice.json`` in the state directory; the table, at its
next start, shows it once in its own language ("update to 0.3.0 failed: the table
failed to start; back on 0.2.1") and notes in ``update-notice.seen`` that it did, so a
later restart does not say it again. A file that cannot be read is no notice, never a
failure: the table must start whatever the update left behind.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.i18n import N_, _
from hardware.atomic_file import write_text_atomically

SEEN = "update-notice.seen"
NOTICE = Path("update") / "notice.json"
BACKUP_NOTICE = Path("backup-notice.json")
"""A restore or factory reset asked for on the page and done at start
(controller.backup.staged): said the same way."""

REASONS = {
    "the table failed to start": N_("the table failed to start"),
    "the table was not ready in time": N_("the table was not ready in time"),
    "the switch did not happen": N_("the switch did not happen"),
}


def read_notice(state_dir: Path, name: Path = NOTICE) -> dict[str, Any] | None:
    """The last update's outcome (``text``, ``ok``, ``time``, ``kind``...), if any. Only
    ``json`` here: the table reads it at every start, before anything else is needed."""
    try:
        with (state_dir / name).open(encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def words(notice: dict[str, Any], say: Callable[[str], str] = _) -> str:
    """The notice in the table's language, or in ``say``'s (the page's: a catalog's
    gettext); the English ``text`` for unknown kinds."""
    _ = say
    kind = notice.get("kind")
    to, back = str(notice.get("to")), str(notice.get("back"))
    reason = str(notice.get("reason", ""))
    if reason in REASONS:
        reason = _(REASONS[reason])
    if kind == "confirmed":
        return _("updated to {version}").format(version=to)
    if kind == "rolled-back":
        return _("update to {version} failed: {reason}; back on {previous}").format(
            version=to, reason=reason, previous=back
        )
    if kind == "unfinished":
        return _("update to {version} did not finish; still on {previous}").format(
            version=to, previous=back
        )
    if kind == "refused":
        return _("update refused: {reason}").format(reason=reason)
    if kind == "restored":
        return _("backup restored")
    if kind == "reset":
        return _("factory reset done")
    if kind in ("restore-refused", "reset-refused"):
        return _("not done: {reason}").format(reason=str(notice.get("text", "")))
    return str(notice.get("text", ""))


def unseen(state_dir: Path) -> str | None:
    """The notices' words the table has not shown yet (the update's, then a restore's or
    reset's); marks them shown."""
    said = [
        text
        for text in (
            _unseen(state_dir, NOTICE, SEEN),
            _unseen(state_dir, BACKUP_NOTICE, "backup-notice.seen"),
        )
        if text
    ]
    return "; ".join(said) if said else None


def _unseen(state_dir: Path, name: Path, seen_name: str) -> str | None:
    notice = read_notice(state_dir, name)
    if notice is None:
        return None
    stamp = repr(notice.get("time"))
    seen = state_dir / seen_name
    with contextlib.suppress(OSError, UnicodeDecodeError):
        if seen.read_text(encoding="utf-8").strip() == stamp:
            return None
    with contextlib.suppress(OSError):
        write_text_atomically(seen, stamp + "\n")
    return words(notice) or None
