"""What the table asks the loop to carry out: saves, history records and spoken
prompts, as effects.

Why effects and not calls: the table decides *that* a game is saved or recorded, never
*how* or what a failure shows. It queues an effect here; the loop takes the queue after
drawing the frame (a press lights its frame first, the fsync follows in the same loop
iteration) and hands it to :class:`controller.safekeeping.Safekeeping`, the one owner of
the disk and of what its failures show on the panel. A spoken prompt goes the same
way to the voice (:mod:`controller.voice`): the table says *that* a capture is worth
saying, the loop hands it to whatever speaks, before the saves, so the way from the
event to the loudspeaker does not wait on an fsync.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from controller.save_format import encode
from controller.session import Session
from controller.voice.catalog import Prompt
from rules.errors import InvalidStateError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Save:
    """Save this game (None: the table holds no game, the save file says so).

    ``session`` is a copy made when the save was queued (:func:`snapshot`), not the
    table's live game: the loop writes it after the next frame, and by then the live
    game may have moved on (a bot's roll, the next game of a match), so the file
    would hold a later moment than the one the table meant to keep. ``text`` is that
    moment in the save format, made once when it was queued: the store writes it as
    it is (None: the store encodes ``session`` itself)."""

    session: Session | None
    text: str | None = None


def snapshot(session: Session) -> Save:
    """The save of ``session``: its save file's text, made once, and an independent
    copy read back from it, so that what is queued is exactly what a resumed table
    reads back. A game that would not load by itself raises
    :class:`InvalidStateError` here, while the previous good save is still on disk."""
    text = encode(session.to_json())
    return Save(Session.from_json(json.loads(text)), text)


@dataclass(frozen=True)
class Record:
    """Hand this game to the history: it ``"finished"`` or was ``"abandoned"``."""

    session: Session
    outcome: str


@dataclass(frozen=True)
class RememberSetups:
    """Keep each game's last setup (rule set, seats) and its named seats (seat ->
    player id) for the next start (:mod:`controller.setup_memory`)."""

    setups: dict[str, tuple[str, tuple[str, ...]]]
    people: dict[str, dict[int, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Speak:
    """Say this prompt (the voice says the newest; a stale one is cut off)."""

    prompt: Prompt


Effect = Save | Record | RememberSetups | Speak


class Outbox:
    """The effects the table queued since the loop last took them."""

    def __init__(self) -> None:
        self.waiting: list[Effect] = []
        self.recorded: Session | None = None
        """The last game handed to the history: a game is recorded once."""

    def save(self, session: Session | None) -> None:
        """Save ``session``; a game that has ended is recorded first ("finished")."""
        if session is not None and session.state.is_terminal():
            self.record(session, "finished")
        if session is None:
            self.waiting.append(Save(None))
            return
        try:
            save = snapshot(session)
        except InvalidStateError as exc:
            # A bug, never the players' doing: keep the last save that loads rather
            # than replace it with one that would be moved aside as damaged.
            log.error("not saved: the game would not load again: %s", exc)
            return
        self.waiting.append(save)

    def record(self, session: Session | None, outcome: str) -> None:
        if session is None or session is self.recorded:
            return
        self.recorded = session
        self.waiting.append(Record(session, outcome))

    def remember(
        self,
        setups: dict[str, tuple[str, tuple[str, ...]]],
        people: dict[str, dict[int, str]] | None = None,
    ) -> None:
        seated = {game: dict(seats) for game, seats in (people or {}).items()}
        self.waiting.append(RememberSetups(dict(setups), seated))

    def speak(self, prompt: Prompt | None) -> None:
        if prompt is not None:
            self.waiting.append(Speak(prompt))

    def records_waiting(self) -> bool:
        return any(isinstance(effect, Record) for effect in self.waiting)

    def take(self) -> list[Effect]:
        """The queue, emptied: the prompts to say in their order, the records in
        theirs, then the last save (a save holds the whole game, so only the newest
        counts; it carries the records until the history has them), then the newest
        setups to remember."""
        waiting, self.waiting = self.waiting, []
        spoken: list[Effect] = [e for e in waiting if isinstance(e, Speak)]
        records = [e for e in waiting if isinstance(e, Record)]
        saves = [e for e in waiting if isinstance(e, Save)]
        setups = [e for e in waiting if isinstance(e, RememberSetups)]
        return spoken + records + saves[-1:] + setups[-1:]
