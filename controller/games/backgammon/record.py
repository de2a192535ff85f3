"""What a Backgammon history record adds: the match's length and score, and its games.

A Backgammon match is one record; its games (winner, points, how they were won, the
cube, the Crawford game, the score after each) are derived from the final position's
list of finished games, which the rules keep for every Backgammon game and match. The
history keeps what every game of a match has in its own fields, and the cube and the
Crawford game as this family's extras (:class:`RecordedMatchGame` reads them back).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.games.record_extras import RecordedGame, RecordExtras
from controller.i18n import _, ngettext
from controller.words import colour_word
from rules.backgammon.facts import crawford_rule
from rules.core import State

_KIND_FACTOR = {"single": 1, "gammon": 2, "backgammon": 3}


@dataclass(frozen=True)
class RecordedMatchGame:
    """One game of a Backgammon match as the history keeps it, with its cube and its
    Crawford flag typed."""

    number: int
    winner: str
    points: int
    kind: str
    """single, gammon, backgammon, or drop (a double was refused)."""
    cube: int
    """The doubling cube's value when the game ended; for a drop, its value before the
    refused double (which is what the winner scores). 1 where there is no cube."""
    crawford: bool
    """The game was played under the rule that forbids doubling (Crawford)."""
    score: dict[str, int]
    """The match score after this game."""

    def recorded(self) -> RecordedGame:
        """The history's generic game, the cube and Crawford flag as extras."""
        extras = {"cube": self.cube, "crawford": self.crawford}
        return RecordedGame(self.number, self.winner, self.points, self.kind, self.score, extras)

    @classmethod
    def of(cls, game: RecordedGame) -> RecordedMatchGame:
        """Read a game of the history back (a game recorded without extras: cube 1)."""
        cube, crawford = game.extras.get("cube", 1), game.extras.get("crawford", False)
        return cls(
            game.number, game.winner, game.points, game.kind, int(cube), bool(crawford), game.score
        )


def record_extras(final: State, data: Mapping[str, Any]) -> RecordExtras:
    """``final`` is the last position, ``data`` its JSON (the record has made it)."""
    result = {k: data[k] for k in ("match_length", "score") if k in data}
    games = match_games(data, crawford_rule(final.game))
    return RecordExtras(result, tuple(game.recorded() for game in games))


def match_games(final: Mapping[str, Any], crawford_rule: bool) -> tuple[RecordedMatchGame, ...]:
    """The games of a Backgammon match (or single game) from its final position.

    The cube is the points divided by what the game was won by; a dropped double scores
    the cube as it stood. The Crawford game is the one right after a side first came
    within one point of the match length, as the rules play it.
    """
    finished = final.get("games")
    if not isinstance(finished, list):
        return ()
    length = int(final.get("match_length") or 0)
    sides = [str(p) for p in final.get("players", ())]
    score = dict.fromkeys(sides, 0)
    games = []
    crawford = False
    for number, game in enumerate(finished, start=1):
        winner, points, kind = str(game["winner"]), int(game["points"]), str(game["kind"])
        before = dict(score)
        if length:
            score[winner] = score.get(winner, 0) + points
        cube = points // _KIND_FACTOR.get(kind, 1)
        games.append(RecordedMatchGame(number, winner, points, kind, cube, crawford, dict(score)))
        away = length - 1
        crawford = (
            crawford_rule
            and bool(length)
            and away in score.values()
            and away not in before.values()
        )
    return tuple(games)


def recorded_game_line(recorded: RecordedGame) -> str:
    """One game of a match in ``spieltisch history show``: who won how much and how,
    the cube, the score after it, and whether it was the Crawford game."""
    played = RecordedMatchGame.of(recorded)
    score = ":".join(str(v) for v in played.score.values())
    crawford = _(", Crawford game") if played.crawford else ""
    line = _("  game {number}: {winner} won {points} ({kind}), cube {cube}, score {score}")
    points = ngettext("{n} point", "{n} points", played.points).format(n=played.points)
    return (
        line.format(
            number=played.number,
            winner=colour_word(played.winner),
            points=points,
            kind=played.kind,
            cube=played.cube,
            score=score,
        )
        + crawford
    )
