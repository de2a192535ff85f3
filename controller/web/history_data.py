"""What the History page shows, read from the history database.

Every function here opens the database read-only (``HistoryStore.open(create=False)``:
nothing is created or moved aside from the page), does its work and closes it again,
on one of the server's worker threads, so a long list never holds up the live stream.
A *player* is the colour a side is drawn in and who played it ("orange human", "blue
bot (strong)"), as the panel and the Live page call it (Backgammon's white is orange);
a *person* is a named player (:mod:`controller.players`), counted beside them.
Everything here is ids (games, rule sets, colours, kinds); the page puts them into its
language with the words :mod:`controller.web.page_words` hands it.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from controller.games import presentation
from controller.history.export import can_export_match, json_lines, match_text, replay
from controller.history.record import HistoryEntry, Summary, seat_order
from controller.history.stats import tally
from controller.history.store import HistoryError, HistoryStore
from controller.players import book as players_book
from controller.players import leaderboard
from controller.scene import Scene
from controller.views import ViewLayoutError, check, render
from controller.views.palette import ID_CYCLE_S
from controller.web.dice_stats import test_faces
from rules.playout import PlayStep

LIST_LIMIT = 200
"""The newest games matching the filters that the list shows."""
STATS_LIMIT = 500
"""The newest games matching the filters that the statistics read move by move."""
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

log = logging.getLogger(__name__)


class FilterError(ValueError):
    """A filter the page cannot use (one line)."""


@dataclass(frozen=True)
class Filters:
    game: str | None = None
    player: str | None = None
    since: str | None = None
    until: str | None = None

    @classmethod
    def parse(cls, query: dict[str, str]) -> Filters:
        game = query.get("game") or None
        if game is not None and game not in rules.game_names():
            raise FilterError(f"game: {game[:30]!r} is none of {', '.join(rules.game_names())}")
        player = query.get("player") or None
        if player is not None and len(player) > 60:
            raise FilterError("player: at most 60 characters")
        dates = []
        for name in ("from", "to"):
            value = query.get(name) or None
            if value is not None and not DATE.fullmatch(value):
                raise FilterError(f"{name}: a date as YYYY-MM-DD")
            dates.append(value)
        return cls(game, player, dates[0], dates[1])

    def keep(self, summary: Summary) -> bool:
        if self.game is not None and summary.game != self.game:
            return False
        day = summary.ended[:10]
        if self.since is not None and day < self.since:
            return False
        if self.until is not None and day > self.until:
            return False
        return self.player is None or self.player in players_of(summary).values()


def drawn(game: str, side: str | None) -> str | None:
    """The colour ``side`` is drawn in on the panel (Backgammon's white is orange),
    which is what the Live page and the panel call it."""
    if side is None:
        return None
    return presentation(game).side_colours.get(side, side)


def players_of(summary: Summary) -> dict[str, str]:
    """Side -> the player's name for the page: the colour it is drawn in and who
    played it ("orange human", "blue bot (strong)"); the page puts each part into its
    language."""
    return {
        side: f"{drawn(summary.game, side)} {seat.player_kind()}"
        for side, seat in summary.players().items()
    }


@contextlib.contextmanager
def opened(directory: Path | None) -> Iterator[HistoryStore]:
    if directory is None:
        raise HistoryError("this table keeps no history (no state directory)")
    store = HistoryStore(directory)
    store.open(create=False)
    try:
        yield store
    finally:
        store.close()


def summary_json(summary: Summary) -> dict[str, Any]:
    data = summary.to_json()
    data["players"] = players_of(summary)
    data["names"] = {side: seat.name for side, seat in summary.players().items() if seat.name}
    data["winner_colour"] = drawn(summary.game, summary.winner)
    data["has_mat"] = rules.capabilities(summary.game).record_export is not None
    return data


def kept(directory: Path | None) -> list[Summary]:
    """Every kept game, newest first; none before the table recorded its first."""
    if directory is not None and not HistoryStore(directory).path.exists():
        return []
    with opened(directory) as store:
        return store.summaries()


def listing(directory: Path | None, filters: Filters) -> dict[str, Any]:
    summaries = kept(directory)
    players = sorted({name for s in summaries for name in players_of(s).values()})
    matching = [s for s in summaries if filters.keep(s)]
    return {
        "games": [summary_json(s) for s in matching[:LIST_LIMIT]],
        "matched": len(matching),
        "shown": min(len(matching), LIST_LIMIT),
        "players": players,
        "game_names": list(rules.game_names()),
    }


def statistics(directory: Path | None, filters: Filters) -> dict[str, Any]:
    """Per game: the tallies of ``spieltisch history stats``; per player: games, wins
    and the dice with their χ² test."""
    chosen = [s for s in kept(directory) if filters.keep(s)][:STATS_LIMIT]
    records = []
    if chosen:
        with opened(directory) as store:
            for summary in chosen:
                try:
                    records.append(store.get(summary.id or 0))
                except HistoryError as exc:  # one damaged game: the others still count
                    log.warning("%s; skipped", exc)
    games: dict[str, Any] = {}
    for name, game_tally in tally(chosen).items():
        games[name] = game_tally.to_json()
        colours = games[name]["colours"]
        games[name]["colours"] = {drawn(name, side): count for side, count in colours.items()}
    sums: dict[str, tuple[int, int, int]] = {}
    for summary in chosen:
        recorded, moves, rolls = sums.get(summary.game, (0, 0, 0))
        sums[summary.game] = (recorded + 1, moves + summary.moves, rolls + summary.rolls)
    for name, (recorded, moves, rolls) in sums.items():
        entry = games.setdefault(name, {"games": 0, "colours": {}, "kinds": {}})
        entry.update(recorded=recorded, moves=moves, rolls=rolls)
    players: dict[str, dict[str, Any]] = {}
    faces: dict[str, list[int]] = {}
    for record in records:
        names = players_of(record.summary)
        for colour in seat_order(list(names)):
            player = players.setdefault(names[colour], {"games": 0, "won": 0})
            player["games"] += 1
            player["won"] += int(record.summary.winner == colour)
        for event in record.history:
            dice = event.get("dice")
            colour = str(event.get("player") or "")
            if isinstance(dice, list) and colour in names:
                faces.setdefault(names[colour], []).extend(d for d in dice if isinstance(d, int))
    for name, player in players.items():
        player["dice"] = test_faces(faces.get(name, [])).to_json()
    return {
        "games": games,
        "players": dict(sorted(players.items())),
        "read": len(records),
        "limit": STATS_LIMIT,
        **people_statistics(directory, chosen, records),
    }


def people_statistics(
    directory: Path | None, chosen: list[Summary], records: list[HistoryEntry]
) -> dict[str, Any]:
    """The named players: each game's leaderboard, and per person their games, wins
    and dice with the same χ² test as the colours' (a person's dice are those thrown
    at whatever seat they sat)."""
    names_now = {p.id: p.name for p in players_book.read(directory)} if directory else {}
    found = leaderboard.boards(chosen, names_now)
    faces: dict[str, list[int]] = {}
    for record in records:
        seated = leaderboard.people_in(record.summary)
        for event in record.history:
            dice = event.get("dice")
            thrower = seated.get(str(event.get("player") or ""))
            if isinstance(dice, list) and thrower is not None:
                faces.setdefault(thrower[0], []).extend(d for d in dice if isinstance(d, int))
    people = []
    for person in leaderboard.ranked(found.people.values()):
        entry: dict[str, Any] = person.to_json()
        entry["dice"] = test_faces(faces.get(person.key, [])).to_json()
        people.append(entry)
    return {
        "leaderboards": {g: [p.to_json() for p in board] for g, board in found.games.items()},
        "people": people,
    }


class Replays:
    """The replayed steps of the last few games opened (the page steps through one
    game frame by frame: it is replayed once, not once per frame)."""

    def __init__(self, directory: Path | None, keep: int = 4) -> None:
        self.directory = directory
        self.keep = keep
        self.cache: OrderedDict[int, tuple[HistoryEntry, list[PlayStep]]] = OrderedDict()

    def get(self, record_id: int) -> tuple[HistoryEntry, list[PlayStep]]:
        if record_id in self.cache:
            self.cache.move_to_end(record_id)
            return self.cache[record_id]
        with opened(self.directory) as store:
            record = store.get(record_id)
        found = (record, replay(record))
        self.cache[record_id] = found
        while len(self.cache) > self.keep:
            self.cache.popitem(last=False)
        return found


def game(replays: Replays, record_id: int) -> dict[str, Any]:
    record, steps = replays.get(record_id)
    name = record.summary.game
    moves = []
    for number, (event, step) in enumerate(zip(record.history, steps, strict=True), start=1):
        item: dict[str, Any] = {"n": number, "player": drawn(name, step.player)}
        if step.dice is not None:
            item["dice"] = list(step.dice)
            sides = opening_sides(step.before)
            if len(sides) == len(step.dice) > 1:
                # both sides throw one die each: the rules name the first side as the
                # thrower, but the throw is both sides', one die each
                throws = zip(sides, step.dice, strict=True)
                item["opening"] = [[drawn(name, side), die] for side, die in throws]
        else:
            item["move"] = event.get("move")
        moves.append(item)
    return {"game": summary_json(record.summary), "moves": moves, "frames": len(steps) + 1}


def opening_sides(state: rules.State) -> list[str]:
    """The sides of an opening roll ``state`` waits for, in the order of its dice
    (each throws one die; the higher begins); none if it waits for another roll."""
    return list(state.players) if state.is_opening() else []


STEADY_T = ID_CYCLE_S / 2
"""The time a replay frame is drawn at: after every seat's identification dips (at
most four seats dipping twice 0.15 s each) and before the next cycle's, so each piece
shows at the full brightness the live panel shows most of the time."""


def frame_png(
    replays: Replays, record_id: int, number: int, width: int, height: int, mode: str
) -> bytes:
    """Frame ``number`` of the replay as PNG: 0 is the start position, ``k`` the
    position after the ``k``-th roll or move, drawn by the panel's own view at the
    panel's size (16×16 RGB where the game has no layout for it)."""
    record, steps = replays.get(record_id)
    if not 0 <= number <= len(steps):
        raise HistoryError(f"game {record_id} has frames 0 to {len(steps)}")
    if number == 0:
        state = steps[0].before if steps else rules.state_from_json(record.start_state)
        dice = None
    else:
        state = steps[number - 1].after
        dice = next((s.dice for s in reversed(steps[:number]) if s.dice is not None), None)
    try:
        check(state.game.name, width, height, mode)
    except ViewLayoutError:
        width, height, mode = 16, 16, "RGB"
    scene = Scene(state=state, dice=dice, t=STEADY_T)
    image = render(scene, width, height, mode).convert("RGB")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def match_file(replays: Replays, record_id: int) -> str:
    record, _steps = replays.get(record_id)
    if not can_export_match(record):
        raise HistoryError(f"{record.summary.game} has no .mat format: download the JSON")
    return match_text(record)


def json_document(replays: Replays, record_id: int) -> str:
    """The game as one JSON document: the JSON lines of ``spieltisch history export``
    (header, then every event with the position after it) as an array."""
    record, _steps = replays.get(record_id)
    return "[\n" + ",\n".join(json_lines(record)) + "\n]\n"
