"""Aggregate statistics of many played games (``spieltisch rules play``).

Every game reports its finishing order, its die throws (each die of each roll, the
opening roll and failed tries included) and its moves (passes excluded). A final state
may add game-specific numbers through its ``play_stats`` capability: keys ending in ``_mean`` are
averaged over the games, all other keys are summed (e.g. Backgammon's gammon count).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core import State
from rules.registry import capabilities


class PlaySummary:
    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)
        self.games = 0
        self.wins = dict.fromkeys(self.players, 0)
        self.throws = 0
        self.moves = 0
        self.extra: dict[str, float] = {}

    def add(
        self,
        winners: Sequence[str],
        throws: int,
        moves: int,
        final: State | None = None,
    ) -> None:
        self.games += 1
        if winners:
            self.wins[winners[0]] = self.wins.get(winners[0], 0) + 1
        self.throws += throws
        self.moves += moves
        stats = capabilities(final.game.name).play_stats if final is not None else None
        if final is not None and stats is not None:
            for key, value in stats(final).items():
                self.extra[key] = self.extra.get(key, 0) + value

    def to_json(self) -> dict[str, Any]:
        n = max(self.games, 1)
        data: dict[str, Any] = {
            "games": self.games,
            "wins": self.wins,
            "rolls_mean": round(self.throws / n, 4),
            "moves_mean": round(self.moves / n, 4),
        }
        for key, total in sorted(self.extra.items()):
            data[key] = round(total / n, 4) if key.endswith("_mean") else total
        return data
