"""What a game family adds to the history record of one of its games.

Why a hook: most games are one game per record, with a winner and places, which the
generic record keeps. A game played as a match (several games in one record) has more
to say: the match's length and score, and each game's winner, points and how it was
won. Only the family knows where its final position keeps those, so it derives them
(``Presentation.record_extras``); the history stores and shows them for any game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RecordedMatchGame:
    """One game of a match kept in one record (a single game of such a family is a
    match of one)."""

    number: int
    winner: str
    points: int
    kind: str
    """How it was won, in the rules' words: e.g. single, gammon, backgammon, or drop
    (a double was refused)."""
    cube: int
    """The doubling cube's value when the game ended; for a drop, its value before the
    refused double (which is what the winner scores). 1 where there is no cube."""
    crawford: bool
    """The game was played under a match rule that forbids doubling (Crawford)."""
    score: dict[str, int]
    """The match score after this game."""

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winner": self.winner,
            "points": self.points,
            "kind": self.kind,
            "cube": self.cube,
            "crawford": self.crawford,
            "score": dict(self.score),
        }


@dataclass(frozen=True)
class RecordExtras:
    """A family's additions to a record: summary fields and the games of a match."""

    result: Mapping[str, Any] = field(default_factory=dict)
    """Fields added to the record's JSON as they are (e.g. a match's length and
    score); plain JSON values."""
    games: tuple[RecordedMatchGame, ...] = ()


NO_EXTRAS = RecordExtras()
