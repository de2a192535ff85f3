"""What the history keeps of one game: who sat where, how it ended, every roll and move.

A record is made from the table's :class:`~controller.session.Session` when the game
ends (or is abandoned), and must be cheap to make: the table writes it right after a
frame, so nothing here replays the game. The moves and rolls are kept exactly as the
save file holds them (``{"player", "dice": [...]}`` and ``{"player", "move": notation}``),
together with the start position, so a record can be replayed later
(:mod:`controller.history.export`) even if a future version starts games differently.

What only some games have (a match's score and its games) the game's family adds
through its presentation (``Presentation.record_extras``), from the final position.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import rules
from controller.games import presentation
from controller.games.record_extras import NO_EXTRAS, RecordedGame
from controller.session import Session

FINISHED = "finished"
ABANDONED = "abandoned"
OUTCOMES = (FINISHED, ABANDONED)

RULES_SIDE = "rules"
"""The kind of a side no seat plays: Mini-Maki's black pieces, moved by the dice."""

__all__ = [
    "ABANDONED",
    "FINISHED",
    "OUTCOMES",
    "RULES_SIDE",
    "HistoryEntry",
    "RecordedGame",
    "Seat",
    "Summary",
    "legacy_uid",
    "record_of",
    "seat_order",
]


@dataclass(frozen=True)
class Seat:
    """One physical seat: its player (colour or side) and who played it."""

    seat: int
    colour: str | None
    """None for an empty seat."""
    kind: str
    """human, bot or empty."""
    bot: str | None = None
    """The bot's kind (random, strong) for a bot seat."""
    person: str | None = None
    """The named player's id (``controller.players``) for a human seat with a name;
    None for a guest and in records made before names."""
    name: str | None = None
    """The name the person played under (kept here, so a renamed or removed player's
    games still say who played them)."""

    def label(self) -> str:
        if self.colour is None:
            return f"seat {self.seat + 1} empty"
        if self.kind == "bot":
            return f"{self.colour} bot ({self.bot})"
        if self.name is not None:
            return f"{self.colour} {self.kind} ({self.name})"
        return f"{self.colour} {self.kind}"

    def player_kind(self) -> str:
        """The kind the statistics count: human, or the bot with its kind."""
        return f"bot ({self.bot})" if self.kind == "bot" else self.kind

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "colour": self.colour,
            "kind": self.kind,
            "bot": self.bot,
        }
        if self.name is not None:
            data["person"] = self.person
            data["name"] = self.name
        return data


@dataclass(frozen=True)
class Summary:
    """Everything about a game except its moves: what ``history list`` shows."""

    uid: str
    """Tells games apart: the game's start time (a replayed last move after a power
    cut records the same game again, and replaces it, instead of adding a second)."""
    game: str
    preset: str
    started: str | None
    ended: str
    outcome: str
    places: tuple[str, ...]
    """Who finished first, second, ... (the winner first); may be partial."""
    seats: tuple[Seat, ...]
    rolls: int
    moves: int
    """Moves made (every decision but a pass)."""
    result: dict[str, Any] = field(default_factory=dict)
    """Game-specific results (the family's record extras): e.g. a match's length and
    final score."""
    games: tuple[RecordedGame, ...] = ()
    id: int | None = None

    @property
    def winner(self) -> str | None:
        if self.outcome != FINISHED or not self.places:
            return None
        return self.places[0]

    def players(self) -> dict[str, Seat]:
        """Colour -> its seat, for the seats that were played."""
        return {s.colour: s for s in self.seats if s.colour is not None}

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "preset": self.preset,
            "started": self.started,
            "ended": self.ended,
            "outcome": self.outcome,
            "winner": self.winner,
            "places": list(self.places),
            "seats": [s.to_json() for s in self.seats],
            "rolls": self.rolls,
            "moves": self.moves,
        }
        data.update(self.result)
        if self.games:
            data["games"] = [g.to_json() for g in self.games]
        return data


@dataclass(frozen=True)
class HistoryEntry:
    """A whole game: its summary, the start and final positions and every event."""

    summary: Summary
    start_state: dict[str, Any]
    final_state: dict[str, Any]
    history: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {
            **self.summary.to_json(),
            "start_state": self.start_state,
            "final_state": self.final_state,
            "history": self.history,
        }


def _seat_bot(session: Session, colour: str, bot: str) -> str | None:
    """The bot kind recorded for ``colour``: its own level, else ``bot``; None for a
    seat that is no bot."""
    if session.kinds[colour] != "bot":
        return None
    return session.bots.get(colour, bot)


def _seat_person(session: Session, colour: str) -> tuple[str | None, str | None]:
    """The named player at ``colour``'s seat (id, name); (None, None) for a guest."""
    person = session.people.get(colour)
    if person is None or session.kinds[colour] != "human":
        return None, None
    return person.id, person.name


def record_of(
    session: Session, outcome: str, ended: str, seat_count: int, bot: str
) -> HistoryEntry:
    """The record of ``session`` as it stands (``outcome``: finished or abandoned).

    ``seat_count`` is the number of seats wired at the table (the ones without a player
    are recorded as empty), ``bot`` the bot kind that played the bot seats that have
    no level of their own (``Session.bots``).
    """
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, got {outcome!r}")
    final = session.state.to_json()
    players = session.state.players
    start = rules.get_game(session.game, session.preset).new_state(len(players)).to_json()
    seats = [
        Seat(
            number,
            colour,
            session.kinds[colour],
            _seat_bot(session, colour, bot),
            *_seat_person(session, colour),
        )
        for colour, number in session.seats.items()
    ]
    taken = set(session.seats.values())
    seats += [Seat(n, None, "empty") for n in range(seat_count) if n not in taken]
    seats.sort(key=lambda s: (s.seat, s.colour or ""))
    rolls = sum(1 for entry in session.history if "dice" in entry)
    moves = sum(1 for entry in session.history if entry.get("move") not in (None, "pass"))
    extend = presentation(session.game).record_extras
    extras = NO_EXTRAS if extend is None else extend(session.state, final)
    summary = Summary(
        uid=session.started or legacy_uid(session),
        game=session.game,
        preset=session.preset,
        started=session.started,
        ended=ended,
        outcome=outcome,
        places=tuple(session.state.winners()),
        seats=tuple(seats),
        rolls=rolls,
        moves=moves,
        result=dict(extras.result),
        games=extras.games,
    )
    return HistoryEntry(summary, start, final, list(session.history))


def legacy_uid(session: Session) -> str:
    """An identity for a game saved before saves kept their start time: its first
    events, which a replayed last move does not change."""
    head = json.dumps([session.game, session.preset, session.kinds, session.history[:40]])
    return "legacy-" + hashlib.sha256(head.encode()).hexdigest()[:24]


def seat_order(colours: Sequence[str]) -> list[str]:
    """Colours in the order the table lists seats: red, blue, green, yellow, then the
    rest (Backgammon's white and black, Mini-Maki's sides) as they come."""
    fixed = ("red", "blue", "green", "yellow", "white", "black")
    known = [c for c in fixed if c in colours]
    return known + [c for c in dict.fromkeys(colours) if c not in fixed]
