"""``spieltisch history stats``: who wins, per game, per seat colour, per kind of player
and per named person, as tables or as one JSON document (``--json``).

Apart from the other history commands because it counts instead of listing: the
colours and kinds from :mod:`controller.history.stats`, the people from
:mod:`controller.players.leaderboard`, called by the names the family's book gives
them now.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import IO

from controller.games.presentation import title
from controller.history.stats import tally
from controller.history.store import HistoryError, HistoryStore
from controller.i18n import _, ngettext
from controller.players import book as players_book
from controller.players import leaderboard
from controller.words import bot_word, colour_word, seat_word


def emit(out: IO[str], data: object) -> None:
    out.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")


def kind_label(kind: str) -> str:
    """A kind of player the statistics count ("human", "bot (strong)")."""
    if kind.startswith("bot (") and kind.endswith(")"):
        return f"{seat_word('bot')} ({bot_word(kind[5:-1])})"
    return seat_word(kind)


def cmd_stats(store: HistoryStore | None, args: argparse.Namespace, out: IO[str]) -> int:
    if args.last is not None and args.last < 1:
        raise HistoryError("--last must be at least 1")
    summaries = store.finished(args.last) if store is not None else []
    counted = tally(summaries)
    names_now = (
        {p.id: p.name for p in players_book.read(store.directory)} if store is not None else {}
    )
    boards = leaderboard.boards(summaries, names_now).games
    if args.json:
        found = {game: t.to_json() for game, t in counted.items()}
        for game, board in boards.items():
            found[game]["leaderboard"] = [p.to_json() for p in board]
        emit(out, found)
        return 0
    if not counted:
        out.write(_("no finished games yet") + "\n")
        return 0
    for game, t in counted.items():
        finished = ngettext("{n} finished game", "{n} finished games", t.games)
        out.write(f"{title(game)}: {finished.format(n=t.games)}\n")
        colours = [(colour_word(c), t.colours[c].seated, won, t.games) for c, won in t.wins()]
        table(out, (_("colour"), _("seated"), _("won"), _("of all games")), colours)
        kinds = [(kind_label(k), n.seated, n.won, n.seated) for k, n in t.player_kinds()]
        table(out, (_("player"), _("games"), _("won"), _("of its games")), kinds)
        people = [(p.name, p.games, p.won, p.games) for p in boards.get(game, [])]
        if people:
            table(out, (_("person"), _("games"), _("won"), _("of their games")), people)
        for side in t.unplayed_sides():
            line = _("{side} is played by no one: the game itself moves it")
            out.write("  " + line.format(side=colour_word(side)) + "\n")
    return 0


def table(
    out: IO[str], titles: tuple[str, str, str, str], rows: Sequence[tuple[str, int, int, int]]
) -> None:
    """Rows of (name, count, wins, out of): the count and wins in columns under their
    titles, and the wins as a share of "out of" (a dash where that is none)."""
    name_title, count_title, won_title, share_title = titles
    width = max(len(name_title), *(len(name) for name, *_counts in rows))
    count_w = max(6, len(count_title))
    won_w = max(4, len(won_title))
    out.write(
        f"  {name_title:<{width}}  {count_title:>{count_w}}  {won_title:>{won_w}}  {share_title}\n"
    )
    for name, count, won, total in rows:
        share = f"{100 * won / total:5.1f} %" if total else "    –"
        out.write(f"  {name:<{width}}  {count:{count_w}d}  {won:{won_w}d}  {share}\n")
