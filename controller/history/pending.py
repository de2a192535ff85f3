"""Game records the history could not write yet, in the form the save file carries.

A game that ends while the disk refuses SQLite (full, read-only, a database being set
aside) must survive a power cut: so until its record is committed, the record travels
inside the save file (``"pending_records"``), written atomically with the final
position. At the next start the table writes them to the history; writing a record
twice replaces it (same uid), so a record that was in fact committed before the cut
is not duplicated. Each entry is what the record is made from: the session's JSON
(the save's own format), the outcome and the end time.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.history.record import OUTCOMES
from controller.save_checks import check_playable
from controller.session import Session

log = logging.getLogger(__name__)

KEY = "pending_records"


@dataclass(frozen=True)
class PendingRecord:
    """A game handed to the history and not committed yet."""

    session: Session
    outcome: str
    ended: str

    @property
    def uid(self) -> str:
        return self.session.started or ""

    def to_json(self) -> dict[str, Any]:
        return {"session": self.session.to_json(), "outcome": self.outcome, "ended": self.ended}


def from_save(data: Mapping[str, Any]) -> list[PendingRecord]:
    """The pending records a save carries; a bad entry is logged and skipped (the
    game it describes is then lost to the history, never the table's start)."""
    raw = data.get(KEY, [])
    if not isinstance(raw, list):
        log.error("the save's %s is not a list; ignored", KEY)
        return []
    found = []
    for index, entry in enumerate(raw):
        try:
            if not isinstance(entry, Mapping):
                raise ValueError("not an object")
            outcome, ended = entry.get("outcome"), entry.get("ended")
            if outcome not in OUTCOMES or not isinstance(ended, str):
                raise ValueError("outcome or end time missing")
            session = Session.from_json(entry["session"])
            check_playable(entry["session"], session)  # else its record could not be shown
            found.append(PendingRecord(session, str(outcome), ended))
        except (KeyError, TypeError, ValueError, RecursionError) as exc:
            log.error("the save's pending record %d is unusable (%s); skipped", index, exc)
    return found
