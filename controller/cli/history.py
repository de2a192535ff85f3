"""``spieltisch history``: the games played at the table, from ``history.sqlite3``.

* ``list``: newest first, two lines each that fit 80 columns: number, date, game and
  length, then the result and the seats;
* ``show N``: game N move by move on the text board, in the table's words;
* ``export N FILE``: Backgammon games and matches as ``.mat`` (GNU Backgammon's
  ``import mat``), the other games as JSON lines that ``spieltisch rules apply`` replays
  (``--format`` chooses, else the file's ``.mat`` or ``.jsonl``; ``-`` writes to stdout);
* ``stats``: wins per seat colour, per kind of player and per named person, for each
  game (:mod:`controller.cli.history_stats`).

``--json`` on ``list``, ``show`` and ``stats`` prints one JSON document instead. It
reads while a table may be writing (WAL lets both go on); nothing is ever written from
here: the database is not created, migrated or moved aside, and a damaged game is
skipped with a line that names it. Bad input (an unknown game number, a
file that cannot be written, an unreadable database) is one line and exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import stat
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from controller import i18n
from controller.cli.history_stats import cmd_stats, emit, kind_label
from controller.games import move_words, presentation
from controller.games.presentation import game_and_rules, title
from controller.games.record_extras import RecordedGame
from controller.history.export import can_export_match, json_lines, match_text, replay
from controller.history.record import ABANDONED, FINISHED, HistoryEntry, Seat, Summary
from controller.history.store import HistoryError, HistoryStore
from controller.i18n import _, ngettext
from controller.words import bot_word, colour_word, seat_word
from hardware.atomic_file import write_text_atomically
from rules.core import State
from rules.playout import PlayStep
from rules.registry import RecordAnalysis, capabilities, game_info, game_names

FORMATS = ("mat", "jsonl")


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    """Register ``history`` and its subcommands on the top-level parser."""
    top = sub.add_parser("history", help="the games played at the table (list, show, export)")
    top.add_argument(
        "--state-dir",
        type=Path,
        help="the table's state directory (default: $STATE_DIRECTORY or /var/lib/spieltisch)",
    )
    cmds = top.add_subparsers(dest="history_command", required=True, metavar="COMMAND")
    listing = cmds.add_parser("list", help="every game, newest first")
    listing.add_argument("--limit", type=int, help="only the newest N games")
    listing.add_argument("--json", action="store_true", help="print JSON")
    show = cmds.add_parser("show", help="one game, move by move, on the text board")
    show.add_argument("id", type=int, help="the game's number (see list)")
    show.add_argument("--json", action="store_true", help="print JSON: the game and every event")
    export = cmds.add_parser("export", help="write a game out (.mat or JSON lines)")
    export.add_argument("id", type=int, help="the game's number (see list)")
    export.add_argument("file", help="where to write it (- for stdout)")
    export.add_argument(
        "--format",
        choices=FORMATS,
        help=f"mat ({_match_games()} only) or jsonl (default: mat for {_match_games()}, "
        "else jsonl)",
    )
    stats = cmds.add_parser("stats", help="wins per seat colour and per kind of player")
    stats.add_argument("--last", type=int, help="count only each game's last N finished games")
    stats.add_argument("--json", action="store_true", help="print JSON")


def _match_games() -> str:
    """The titles of the games whose rules write a record file (``.mat``)."""
    return ", ".join(g.title for g in map(game_info, game_names()) if g.capabilities.record_export)


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    command: Callable[[HistoryStore | None, argparse.Namespace, IO[str]], int] = COMMANDS[
        args.history_command
    ]
    i18n.use(i18n.language_from_environment(os.environ))  # the words follow the locale
    directory = state_dir(args.state_dir)
    check_directory(directory)
    with opened(directory) as store:
        return command(store, args, out if out is not None else sys.stdout)


def state_dir(given: Path | None) -> Path:
    if given is not None:
        return given
    from controller.app import DEFAULT_STATE_DIR

    return Path(os.environ.get("STATE_DIRECTORY", str(DEFAULT_STATE_DIR)).split(":")[0])


def check_directory(directory: Path) -> None:
    """The state directory must be one: a typo in ``--state-dir`` is an error (exit 2),
    not "no games recorded yet", and no raw errno."""
    try:
        info = directory.stat()
    except FileNotFoundError:
        raise HistoryError(
            f"state directory {directory} does not exist; name the table's with --state-dir"
        ) from None
    except OSError as exc:
        raise HistoryError(
            f"cannot read the state directory {directory}: {describe_os_error(exc)}"
        ) from None
    if not stat.S_ISDIR(info.st_mode):
        raise HistoryError(f"state directory {directory} is not a directory")
    if not os.access(directory, os.R_OK | os.X_OK):
        raise HistoryError(f"cannot read the state directory {directory}: permission denied")


def describe_os_error(exc: OSError) -> str:
    """The words of an OSError without its "[Errno N]" and the path it repeats."""
    return (exc.strerror or type(exc).__name__).lower()


@contextlib.contextmanager
def opened(directory: Path) -> Iterator[HistoryStore | None]:
    """The store, or None when no game was ever recorded there; SQLite's own errors
    (locked, unreadable) become one-line :class:`HistoryError`."""
    store = HistoryStore(directory)
    if not store.path.exists():
        yield None
        return
    try:
        store.open(create=False)
        yield store
    except sqlite3.Error as exc:
        raise HistoryError(f"cannot read {store.path}: {exc}") from None
    finally:
        store.close()


def record(store: HistoryStore | None, record_id: int) -> HistoryEntry:
    if store is None:
        raise HistoryError(f"no game {record_id}: no games recorded yet")
    return store.get(record_id)


# -- list ---------------------------------------------------------------------------------


def cmd_list(store: HistoryStore | None, args: argparse.Namespace, out: IO[str]) -> int:
    if args.limit is not None and args.limit < 1:
        raise HistoryError("--limit must be at least 1")
    summaries = store.summaries(args.limit) if store is not None else []
    if args.json:
        emit(out, [s.to_json() for s in summaries])
        return 0
    if not summaries:
        out.write(_("no games recorded yet") + "\n")
        return 0
    number_width = max(len(str(s.id)) for s in summaries)
    game_width = max(len(game_and_rules(s.game, s.preset)) for s in summaries)
    for s in summaries:
        for line in list_lines(s, number_width, game_width):
            out.write(line + "\n")
    return 0


LIST_WIDTH = 80
"""``history list`` fits an ordinary terminal: each game on two lines of at most this
many characters (its seats and result on one line had grown to about 190)."""


def list_lines(summary: Summary, number_width: int, game_width: int) -> list[str]:
    """A game in ``history list``: its number, time, game and length, then, indented
    under them, the result and who sat where (wrapped, never wider than 80)."""
    first = "  ".join(
        [
            f"{summary.id}".rjust(number_width),
            local_time(summary.started or summary.ended),
            game_and_rules(summary.game, summary.preset).ljust(game_width),
            length_text(summary),
        ]
    )
    indent = " " * (number_width + 2)
    second = f"{result_text(summary)} · {seats_by_kind(summary)}"
    wrapped = textwrap.wrap(
        second, LIST_WIDTH, initial_indent=indent, subsequent_indent=indent + "  "
    )
    return [first.rstrip(), *wrapped]


def seats_by_kind(summary: Summary) -> str:
    """Who sat where, the colours of one kind of player together: "red, blue: human;
    green: bot (strong)" (one "red bot (random)" per seat made a line 190 long)."""
    kinds: dict[str, list[str]] = {}
    for seat in summary.seats:
        if seat.colour is not None:
            named = f" ({seat.name})" if seat.name and seat.kind == "human" else ""
            kinds.setdefault(kind_label(seat.player_kind()), []).append(
                colour_word(seat.colour) + named
            )
    return "; ".join(f"{', '.join(colours)}: {kind}" for kind, colours in kinds.items())


def local_time(stamp: str) -> str:
    """``2025-06-01 14:02`` in this machine's time zone."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def seat_label(seat: Seat) -> str:
    """A seat in words: "red human", "blue bot (strong)", "seat 3 empty"."""
    if seat.colour is None:
        return _("seat {number} empty").format(number=seat.seat + 1)
    colour = colour_word(seat.colour)
    if seat.kind == "bot":
        return _("{colour} bot ({bot})").format(colour=colour, bot=bot_word(seat.bot or ""))
    if seat.name is not None:
        return f"{colour} {seat_word(seat.kind)} ({seat.name})"
    return f"{colour} {seat_word(seat.kind)}"


def result_text(summary: Summary) -> str:
    if summary.outcome == ABANDONED:
        return _("abandoned")
    if summary.winner is None:
        return _("no winner")
    winner = colour_word(summary.winner)
    length = summary.result.get("match_length")
    score = summary.result.get("score")
    if length and isinstance(score, dict) and summary.winner in score:
        other = ":".join(str(v) for side, v in score.items() if side != summary.winner)
        return _("{winner} won {score} (match to {length})").format(
            winner=winner, score=f"{score[summary.winner]}:{other}", length=length
        )
    if summary.games:
        last = summary.games[-1]
        return _("{winner} won {points} ({kind})").format(
            winner=winner, points=points(last.points), kind=last.kind
        )
    return _("{winner} won").format(winner=winner)


def outcome_word(outcome: str) -> str:
    return {ABANDONED: _("abandoned"), FINISHED: _("finished")}.get(outcome, outcome)


def recorded_game_line(played: RecordedGame) -> str:
    """One game of a match: who won how much and how, and the score after it (a
    family that keeps more of its games says it, ``Presentation.record_game_line``)."""
    score = ":".join(str(v) for v in played.score.values())
    return _("  game {number}: {winner} won {points} ({kind}), score {score}").format(
        number=played.number,
        winner=colour_word(played.winner),
        points=points(played.points),
        kind=played.kind,
        score=score,
    )


def points(count: int) -> str:
    return ngettext("{n} point", "{n} points", count).format(n=count)


def length_text(summary: Summary) -> str:
    text = ngettext("{n} move", "{n} moves", summary.moves).format(n=summary.moves)
    if summary.started is None:
        return text
    try:
        seconds = (
            datetime.fromisoformat(summary.ended) - datetime.fromisoformat(summary.started)
        ).total_seconds()
    except ValueError:
        return text
    minutes = round(seconds / 60)
    if minutes < 1:
        return _("{length}, <1 min").format(length=text)
    return _("{length}, {minutes} min").format(length=text, minutes=minutes)


# -- show ---------------------------------------------------------------------------------


def analysis_lines(game: str, analysis: RecordAnalysis) -> list[str]:
    """The analysis in the game's words; a game without words for it shows its JSON."""
    words = presentation(game).analysis_lines
    if words is None:
        return [f"analysis: {json.dumps(analysis.to_json(), sort_keys=True)}"]
    return words(analysis)


def record_analysis(summary: Summary, steps: Sequence[PlayStep]) -> RecordAnalysis | None:
    """The game's analysis of a finished record (Backgammon's error rates, luck and
    worst decisions), or None where the game has none."""
    if summary.outcome != FINISHED or not steps:
        return None
    analyse = capabilities(summary.game).record_analysis
    return None if analyse is None else analyse(steps)


def cmd_show(store: HistoryStore | None, args: argparse.Namespace, out: IO[str]) -> int:
    from controller.text.board import render_board

    game = record(store, args.id)
    steps = replay(game)
    summary = game.summary
    if args.json:
        events = [
            {**entry, "state": step.after.to_json()}
            for entry, step in zip(game.history, steps, strict=True)
        ]
        data = {**summary.to_json(), "start_state": game.start_state, "events": events}
        analysis = record_analysis(summary, steps)
        if analysis is not None:
            data["analysis"] = analysis.to_json()
        emit(out, data)
        return 0
    colour = out.isatty()
    outcome = outcome_word(summary.outcome)
    name = game_and_rules(summary.game, summary.preset)
    out.write(
        _("game {number}: {game}, {outcome}").format(number=summary.id, game=name, outcome=outcome)
        + "\n"
    )
    played_at = local_time(summary.started or summary.ended)
    out.write(
        _("played {time}, {length}").format(time=played_at, length=length_text(summary)) + "\n"
    )
    out.write(
        _("seats: {seats}").format(seats=", ".join(seat_label(s) for s in summary.seats)) + "\n"
    )
    out.write(_("result: {result}").format(result=result_text(summary)) + "\n")
    game_line = presentation(summary.game).record_game_line or recorded_game_line
    for played in summary.games:
        out.write(game_line(played) + "\n")
    if steps:
        out.write("\n" + render_board(steps[0].before, colour=colour) + "\n")
    analysis = record_analysis(summary, steps)
    if analysis is not None:
        out.write("\n".join(analysis_lines(summary.game, analysis)) + "\n")
    for number, step in enumerate(steps, start=1):
        out.write(f"{number:4d}  {event_words(step)}\n")
        if step.dice is None:
            out.write(render_board(step.after, colour=colour) + "\n")
    return 0


def event_words(step: PlayStep) -> str:
    """One roll or move in the table's words: "red rolls 5", "white: double",
    "opening roll: white 4, black 6 · black begins"."""
    who = colour_word(step.player) if step.player else _("dice")
    if step.dice is not None:
        if opening(step.before):
            return opening_words(step)
        return _("{who} rolls {dice}").format(who=who, dice="-".join(map(str, step.dice)))
    if step.move is None:
        return f"{who}: ?"
    return _("{who}: {move}").format(who=who, move=move_words(step.before, step.move))


def opening(state: State) -> bool:
    """Whether a throw in ``state`` decides who begins (the opening roll)."""
    return state.is_opening()


def opening_words(step: PlayStep) -> str:
    """An opening throw: one die per side when all throw at once (Backgammon: the first
    die white's, the second black's), else the thrower's; then who begins, once that is
    decided, or that all throw again."""
    assert step.dice is not None
    players = step.before.players
    if len(players) > 1 and len(step.dice) == len(players):
        thrown = ", ".join(f"{colour_word(p)} {d}" for p, d in zip(players, step.dice, strict=True))
    else:
        who = colour_word(step.player) if step.player else _("dice")
        thrown = _("{who} rolls {dice}").format(who=who, dice="-".join(map(str, step.dice)))
    line = _("opening roll: {words}").format(words=thrown)
    after = step.after
    if not opening(after) and after.current_player is not None:
        return line + _(" · {who} begins").format(who=colour_word(after.current_player))
    if len(players) > 1 and len(step.dice) == len(players) and len(set(step.dice)) == 1:
        return line + _(" · a tie, all throw again")
    return line


# -- export -------------------------------------------------------------------------------


def cmd_export(store: HistoryStore | None, args: argparse.Namespace, out: IO[str]) -> int:
    game = record(store, args.id)
    chosen = args.format or format_of(args.file) or ("mat" if can_export_match(game) else "jsonl")
    if chosen == "mat" and not can_export_match(game):
        raise HistoryError(
            _(
                "{file}: {game} has no match file (.mat); export it as JSON lines,"
                " e.g. to a .jsonl file"
            ).format(file=args.file, game=title(game.summary.game))
        )
    if chosen == "mat":
        text = match_text(game)
    else:
        text = "".join(f"{line}\n" for line in json_lines(game))
    if args.file == "-":
        out.write(text)
        return 0
    write_file(Path(args.file), text)
    return 0


SUFFIXES = {".mat": "mat", ".jsonl": "jsonl", ".json": "jsonl"}
"""The format a file's name asks for when ``--format`` does not say: a ``.mat`` file
holds a match file or nothing (JSON in it went out with exit 0, and GNU Backgammon
could not read it)."""


def format_of(file: str) -> str | None:
    return None if file == "-" else SUFFIXES.get(Path(file).suffix.lower())


def write_file(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all: a temp file beside ``path``, then a rename,
    so a full disk never leaves half an export (or damages an older one)."""
    try:
        write_text_atomically(path, text, mode=0o600, suffix="")
    except OSError as exc:
        raise HistoryError(f"cannot write {path}: {exc.strerror}") from None


COMMANDS: dict[str, Callable[[HistoryStore | None, argparse.Namespace, IO[str]], int]] = {
    "list": cmd_list,
    "show": cmd_show,
    "export": cmd_export,
    "stats": cmd_stats,
}
