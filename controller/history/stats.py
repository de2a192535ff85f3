"""Who wins: finished games counted per game, per seat colour and per kind of player.

``spieltisch history stats`` prints these tallies, and the table's statistics screen
draws the wins per colour of each game's last games as a bar chart. A colour counts as
*seated* in a game when a seat played it; a side that no seat plays but that can win
(Mini-Maki's black pieces, moved by the dice) is counted under the kind ``rules``.

A kind of player is counted once per game it took part in, however many seats it had:
four bots at one table are one game for "bot (random)", not four, so its share of
wins is a share of the games it played (counting seats gave "6 seated, 2 won" for two
games, and a share over 100 % of what it could have won).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import rules
from controller.history.record import RULES_SIDE, Summary, seat_order


@dataclass
class Count:
    seated: int = 0
    won: int = 0

    def to_json(self) -> dict[str, int]:
        return {"seated": self.seated, "won": self.won}


@dataclass
class GameTally:
    """The finished games of one game (all presets)."""

    game: str
    games: int = 0
    colours: dict[str, Count] = field(default_factory=dict)
    kinds: dict[str, Count] = field(default_factory=dict)

    def add(self, summary: Summary) -> None:
        self.games += 1
        players = summary.players()
        for colour in players:
            self.colours.setdefault(colour, Count()).seated += 1
        for kind in {seat.player_kind() for seat in players.values()}:
            self.kinds.setdefault(kind, Count()).seated += 1
        winner = summary.winner
        if winner is None:
            return
        self.colours.setdefault(winner, Count()).won += 1
        winning_seat = players.get(winner)
        kind = winning_seat.player_kind() if winning_seat is not None else RULES_SIDE
        self.kinds.setdefault(kind, Count()).won += 1

    def player_kinds(self) -> list[tuple[str, Count]]:
        """The kinds of player that sat at the table, by name: the rules' own sides
        are no player (see :meth:`unplayed_sides`)."""
        return sorted((k, n) for k, n in self.kinds.items() if k != RULES_SIDE)

    def unplayed_sides(self) -> list[str]:
        """The colours no seat played that still won (the rules moved them)."""
        return [c for c in seat_order(list(self.colours)) if self.colours[c].seated == 0]

    def wins(self) -> list[tuple[str, int]]:
        """(colour, wins) for every colour that played or won, in seat order."""
        return [(c, self.colours[c].won) for c in seat_order(list(self.colours))]

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "colours": {c: self.colours[c].to_json() for c in seat_order(list(self.colours))},
            "kinds": {k: self.kinds[k].to_json() for k in sorted(self.kinds)},
        }


def tally(summaries: Iterable[Summary]) -> dict[str, GameTally]:
    """Finished games per game, in the order the rules list the games."""
    found: dict[str, GameTally] = {}
    for summary in summaries:
        if summary.winner is not None:
            found.setdefault(summary.game, GameTally(summary.game)).add(summary)
    order = {name: index for index, name in enumerate(rules.game_names())}
    return {g: found[g] for g in sorted(found, key=lambda g: (order.get(g, len(order)), g))}
