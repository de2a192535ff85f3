"""Who wins, per person: each named player's games and wins, per game and in all.

A person is counted by the id the table gave them (``controller.players.book``), so a
renamed player keeps their games, and called by their name now where the book still
knows them, else by the name they last played under (a removed player's games stay
theirs, under that name). Seats without a name (guests, bots) are no person here: the
colour statistics count those. A person is counted once per game however many seats
they had (one person can sit at one seat only, but a hand-edited record might say
otherwise).

The order of a leaderboard: most wins first, then the higher share of games won, then
fewer games (the same wins in fewer games), then the name, so that it never depends on
the order the games were read in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import rules
from controller.history.record import Seat, Summary


@dataclass
class PersonTally:
    """One person's finished games (of one game, or of all)."""

    key: str
    """The person's id, or ``name:<name>`` for a record that has a name without one."""
    name: str
    games: int = 0
    won: int = 0

    @property
    def share(self) -> float:
        return self.won / self.games if self.games else 0.0

    def to_json(self) -> dict[str, object]:
        return {"person": self.key, "name": self.name, "games": self.games, "won": self.won}


@dataclass
class Boards:
    """Every game's leaderboard and everyone's totals."""

    games: dict[str, list[PersonTally]] = field(default_factory=dict)
    people: dict[str, PersonTally] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "games": {game: [p.to_json() for p in board] for game, board in self.games.items()},
            "people": [p.to_json() for p in ranked(self.people.values())],
        }


def person_key(seat: Seat) -> str | None:
    """Who sat at ``seat`` as a person (None: a guest, a bot, empty, an old record)."""
    if seat.name is None or seat.kind != "human":
        return None
    return seat.person or f"name:{seat.name}"


def people_in(summary: Summary) -> dict[str, tuple[str, str]]:
    """Colour -> (person key, name played under) for the named seats of a game."""
    found: dict[str, tuple[str, str]] = {}
    for colour, seat in summary.players().items():
        key = person_key(seat)
        if key is not None and seat.name is not None:
            found[colour] = (key, seat.name)
    return found


def ranked(tallies: Iterable[PersonTally]) -> list[PersonTally]:
    return sorted(tallies, key=lambda p: (-p.won, -p.share, p.games, p.name.casefold(), p.key))


def boards(summaries: Iterable[Summary], names_now: Mapping[str, str] | None = None) -> Boards:
    """The leaderboards of the finished games among ``summaries`` (newest first, as the
    history lists them: a person's newest recorded name wins where ``names_now``, the
    book's id -> name, does not know them)."""
    now = names_now or {}
    per_game: dict[str, dict[str, PersonTally]] = {}
    people: dict[str, PersonTally] = {}
    for summary in summaries:
        if summary.winner is None:
            continue
        named = people_in(summary)
        seated = {key: name for key, name in reversed(list(named.values()))}
        winner = named.get(summary.winner)
        winners = {winner[0]} if winner is not None else set()
        for key, name in seated.items():
            shown = now.get(key, name)
            for table in (per_game.setdefault(summary.game, {}), people):
                tally = table.setdefault(key, PersonTally(key, shown))
                tally.games += 1
                tally.won += int(key in winners)
    order = {name: index for index, name in enumerate(rules.game_names())}
    games = sorted(per_game, key=lambda g: (order.get(g, len(order)), g))
    return Boards({g: ranked(per_game[g].values()) for g in games}, people)
