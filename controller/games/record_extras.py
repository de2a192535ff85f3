"""What a game family adds to the history record of one of its games.

Why a hook: most games are one game per record, with a winner and places, which the
generic record keeps. A game played as a match (several games in one record) has more
to say: the match's length and score, and each game's winner, points and how it was
won. Only the family knows where its final position keeps those, so it derives them
(``Presentation.record_extras``); the history stores and shows them for any game. What
one game of a match has beyond what every game has (Backgammon's cube and Crawford
game) is the family's own ``extras``: plain JSON the history keeps without reading it,
and which the family reads back into its own typed record
(``controller.games.backgammon.record``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RecordedGame:
    """One game of a match kept in one record (a single game of such a family is a
    match of one)."""

    number: int
    winner: str
    points: int
    kind: str
    """How it was won, in the rules' words: e.g. single, gammon, backgammon, or drop
    (a double was refused)."""
    score: dict[str, int]
    """The match score after this game."""
    extras: Mapping[str, Any] = field(default_factory=dict)
    """The family's own fields of the game, plain JSON values (Backgammon: the cube's
    value and whether it was the Crawford game)."""

    def to_json(self) -> dict[str, Any]:
        # the family's fields come before the score, where the history always showed them
        return {
            "number": self.number,
            "winner": self.winner,
            "points": self.points,
            "kind": self.kind,
            **self.extras,
            "score": dict(self.score),
        }


@dataclass(frozen=True)
class RecordExtras:
    """A family's additions to a record: summary fields and the games of a match."""

    result: Mapping[str, Any] = field(default_factory=dict)
    """Fields added to the record's JSON as they are (e.g. a match's length and
    score); plain JSON values."""
    games: tuple[RecordedGame, ...] = ()


NO_EXTRAS = RecordExtras()
