"""What a Backgammon history record adds: the match's length and score, and its games.

A Backgammon match is one record; its games (winner, points, how they were won, the
cube, the Crawford game, the score after each) are derived from the final position's
list of finished games, which the rules keep for every Backgammon game and match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games.record_extras import RecordedMatchGame, RecordExtras
from rules.backgammon.facts import crawford_rule
from rules.core import State

_KIND_FACTOR = {"single": 1, "gammon": 2, "backgammon": 3}


def record_extras(final: State, data: Mapping[str, Any]) -> RecordExtras:
    """``final`` is the last position, ``data`` its JSON (the record has made it)."""
    result = {k: data[k] for k in ("match_length", "score") if k in data}
    return RecordExtras(result, match_games(data, crawford_rule(final.game)))


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
