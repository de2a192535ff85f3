"""A recorded game played again through the rules, and written out for other programs.

* :func:`replay` turns a record's rolls and moves back into positions, event by event,
  and checks that they lead to the position the record ended in.
* Backgammon games and matches go out as GNU Backgammon's ``.mat`` match files, through
  the rules layer's own writer (the record format the game registered).
* Every game can go out as JSON lines that ``spieltisch rules apply`` replays: the first
  line describes the game and holds the start position (``"state"``); every further line
  is one event in the save file's form, ``{"player", "dice": [...]}`` or
  ``{"player", "move": notation}``, plus the position after it (``"state"``). Feeding
  each line's ``dice`` or ``move`` to ``rules apply`` with the previous line's state
  prints that line's state.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import rules
from controller.history.record import HistoryEntry
from controller.history.store import HistoryError
from controller.replay import replay_event
from rules.errors import RulesError
from rules.playout import PlayStep

JSONL_FORMAT = "spieltisch-history"
JSONL_VERSION = 1


def replay(record: HistoryEntry) -> list[PlayStep]:
    """Every roll and move of ``record`` with the positions before and after it.

    Raises :class:`HistoryError` if an event does not apply (a record made by rules
    that have changed since) or the events do not end in the recorded final position.
    """
    where = f"game {record.summary.id}"
    try:
        state = rules.state_from_json(record.start_state)
    except (RulesError, KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"{where}: its start position no longer loads: {exc}") from None
    steps: list[PlayStep] = []
    for number, entry in enumerate(record.history, start=1):
        try:
            step = replay_event(state, entry)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            problem = f"{where}: event {number} ({entry}) does not replay: {exc}"
            raise HistoryError(problem) from None
        steps.append(step)
        state = step.after
    if state.to_json() != record.final_state:
        raise HistoryError(f"{where}: its events do not lead to its recorded final position")
    return steps


def can_export_match(record: HistoryEntry) -> bool:
    """Whether the game registered a record format (Backgammon: ``.mat``)."""
    return rules.capabilities(record.summary.game).record_export is not None


def match_text(record: HistoryEntry) -> str:
    """The game or match as a ``.mat`` file (GNU Backgammon's ``import mat``)."""
    writer = rules.capabilities(record.summary.game).record_export
    if writer is None:
        raise HistoryError(f"{record.summary.game} has no match-file format; export as JSON lines")
    return str(writer(replay(record)))


def json_lines(record: HistoryEntry) -> Iterator[str]:
    """The game as JSON lines (see the module's description)."""
    steps = replay(record)
    header: dict[str, Any] = {
        "format": JSONL_FORMAT,
        "version": JSONL_VERSION,
        **record.summary.to_json(),
        "state": record.start_state,
    }
    yield _line(header)
    for entry, step in zip(record.history, steps, strict=True):
        yield _line({**entry, "state": step.after.to_json()})


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
