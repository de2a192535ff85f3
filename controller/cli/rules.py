"""``spieltisch rules ...``: a JSON command line over the rules layer.

It exists for scripting, tests and bug reports; other programs script against it, so its
commands and JSON formats stay stable. Every answer is JSON on stdout, every bad input
is one line on stderr and exit code 2. Games plug in through the registry;
optional per-game extras (GNU Backgammon Position IDs, summaries) are looked up by
attribute so this module never names a game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any

import rules
from controller.input_checks import clip, quote
from controller.text.board import render_board
from rules.bots import BOT_KINDS, make_bot
from rules.core import Bot, Game, Move, State
from rules.errors import InvalidDiceError, InvalidStateError, RulesError
from rules.playout import GameRecord, PlayStep, play_game
from rules.summary import PlaySummary


class CliError(ValueError):
    """Bad command-line input that is not a rules error (file, flag, JSON syntax)."""


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    """Register ``rules`` and its subcommands on the top-level parser."""
    top = sub.add_parser("rules", help="JSON command line over the rules layer")
    cmds = top.add_subparsers(dest="rules_command", required=True, metavar="COMMAND")

    cmds.add_parser("games", help="list games and presets")

    def game_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", help="game name (see `spieltisch rules games`)")
        p.add_argument("--preset", help="preset name (default: the game's default)")

    new = cmds.add_parser("new", help="print a start position as JSON")
    game_args(new)
    new.add_argument("--players", type=int, help="number of players")
    new.add_argument("--first", help="skip the opening roll: this colour starts")
    new.add_argument(
        "--position-id",
        "--position",
        dest="position_id",
        help=POSITION_ID_HELP,
    )

    moves = cmds.add_parser("moves", help="legal moves of a state, each with its result")
    game_args(moves)
    state_args(moves)
    moves.add_argument(
        "--jsonl",
        action="store_true",
        help='read {"state": ..., "dice": [...]} lines from stdin, answer one line each',
    )

    apply = cmds.add_parser("apply", help="roll dice and/or apply a move; print the state")
    game_args(apply)
    state_args(apply)
    apply.add_argument("--move", help="move notation, e.g. 12-18 or pass")

    hint = cmds.add_parser("hint", help="the move a bot would choose")
    game_args(hint)
    state_args(hint)
    hint.add_argument("--bot", default="strong", help="bot kind (default: strong)")
    hint.add_argument(
        "--seed", type=int, default=0, help="seed of the bot's random choices (default 0)"
    )
    hint.add_argument(
        "--jsonl",
        action="store_true",
        help='read {"state": ..., "dice": [...]} lines from stdin, answer (and flush) each',
    )

    show = cmds.add_parser("show", help="print a readable board")
    game_args(show)
    state_args(show)

    play = cmds.add_parser("play", help="play whole bot games and print a JSON summary")
    game_args(play)
    play.add_argument("--players", type=int, help="number of players")
    play.add_argument(
        "--bots", default="random", help="bot kind per seat, comma-separated (one = all seats)"
    )
    play.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    play.add_argument(
        "--seed", type=int, default=0, help="seed of the dice and the bots (default 0)"
    )
    play.add_argument(
        "--export",
        metavar="FILE",
        help=f"with --games 1: write the game in the game's record format ({_record_formats()})",
    )


def state_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--state", help="state JSON file, or - for stdin")
    p.add_argument(
        "--position-id",
        "--position",
        dest="position_id",
        help=POSITION_ID_HELP,
    )
    p.add_argument(
        "--dice",
        nargs="+",
        metavar="DIE",
        help="roll to apply first, e.g. 6, or two dice as 3,1 or 3 1",
    )


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """Dispatch one ``rules`` subcommand; raises ``ValueError`` subclasses on bad input."""
    command: Callable[[argparse.Namespace, IO[str]], int] = COMMANDS[args.rules_command]
    return command(args, out if out is not None else sys.stdout)


# -- helpers -------------------------------------------------------------------------


def emit(out: IO[str], data: object) -> None:
    out.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")


def parse_dice(words: Sequence[str]) -> tuple[int, ...]:
    """The dice of ``--dice 3,1``, ``--dice 3 1`` and ``--dice 3, 1`` alike."""
    parts = [part for word in words for part in word.split(",") if part.strip()]
    try:
        if parts:
            return tuple(int(part) for part in parts)
    except ValueError:
        pass
    given = " ".join(words)
    raise InvalidDiceError(f"--dice takes numbers like 6, 3,1 or 3 1, got {given!r}")


def load_json_text(text: str, where: str | None) -> Any:
    """Parse JSON; ``where`` names the source ("stdin", a file), None for a line of a
    ``--jsonl`` stream whose answer already says which line it is."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if where is None:
            raise CliError(f"not valid JSON: {exc.msg} (column {exc.colno})") from None
        raise CliError(f"{where} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
    except RecursionError:
        prefix = "" if where is None else f"{where}: "
        raise CliError(f"{prefix}JSON nested too deeply") from None


def read_state_json(path: str) -> Any:
    if path == "-":
        return load_json_text(read_text(b"".join(stdin_lines()), "stdin"), "stdin")
    try:
        with open(path, "rb") as fh:
            return load_json_text(read_text(fh.read(), path), path)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from None


def stdin_lines() -> Iterator[bytes]:
    """Standard input line by line as bytes (readline, not a read-ahead iterator), so
    that a line that is not UTF-8 is one bad line rather than the end of the stream.
    A text stream without a byte buffer (a test's StringIO) is encoded back."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        return iter(buffer.readline, b"")
    return (line.encode("utf-8", "surrogateescape") for line in iter(sys.stdin.readline, ""))


def read_text(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(f"{where} is not UTF-8 text (byte {exc.start})") from None


def game_of(args: argparse.Namespace) -> Game:
    return rules.get_game(args.game, args.preset)


def state_from(game: Game, data: Any) -> State:
    """Parse a JSON state for ``game``; a missing game/preset key is filled in."""
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"a state must be a JSON object, got {type(data).__name__}")
    named = data.get("game", game.name)
    if named != game.name:
        raise InvalidStateError(f"the state is for {quote(named)}, not {game.name!r}")
    preset = data.get("preset", game.preset)
    if not isinstance(preset, str):
        raise InvalidStateError('"preset" must be a string')
    chosen = rules.get_game(game.name, preset)
    return chosen.state_from_json(data)


def _record_formats() -> str:
    """The games whose rules write a record file, with its suffix ("backgammon: .mat")."""
    formats = {g: rules.capabilities(g).record_suffix for g in rules.game_names()}
    return ", ".join(f"{g}: {suffix}" for g, suffix in formats.items() if suffix) or "none"


def _games_with_position_ids() -> str:
    return ", ".join(g for g in rules.game_names() if rules.capabilities(g).position_id) or "none"


POSITION_ID_HELP = (
    "GNU Backgammon Position ID (POSID or POSID:MATCHID) or XGID "
    f"({_games_with_position_ids()} only)"
)
"""The games that read one are the ones whose rules declare it."""


def from_position_id(game: Game, text: str, option: str = "--position-id") -> State:
    """A state from a GNU Backgammon Position ID, for the games that have them."""
    reader = rules.capabilities(game.name).position_id
    if reader is None:
        raise CliError(f"{option} is only for {_games_with_position_ids()}, not {game.name}")
    return reader(game, text)


def interchange(state: State) -> dict[str, str]:
    """The identifiers printed beside a state (a Backgammon Position ID), if any."""
    describe = rules.capabilities(state.game.name).interchange
    return describe(state) if describe is not None else {}


def input_state(args: argparse.Namespace) -> State:
    game = game_of(args)
    if args.position_id is not None:
        state: State = from_position_id(game, args.position_id)
    elif args.state is not None:
        state = state_from(game, read_state_json(args.state))
    else:
        raise CliError("give the position with --state FILE (or - for stdin)")
    if args.dice is not None:
        state = state.roll(parse_dice(args.dice))
    return state


def move_entries(state: State) -> list[dict[str, Any]]:
    """Every legal move with its resulting state (and Position ID where the game has one)."""
    entries = []
    for move in state.legal_moves():
        after = state.apply(move)
        entry: dict[str, Any] = {"move": move.notation, "state": after.to_json()}
        entry.update(interchange(after))
        entries.append(entry)
    return entries


def decision(state: State) -> State:
    if state.is_terminal():
        raise InvalidStateError("the game is over; there are no moves")
    if state.is_chance():
        raise InvalidDiceError(f"{state.current_player} must roll first: give the roll with --dice")
    return state


# -- commands ------------------------------------------------------------------------


def cmd_games(args: argparse.Namespace, out: IO[str]) -> int:
    games = []
    for name in rules.game_names():
        default = rules.get_game(name)
        games.append(
            {
                "name": name,
                "presets": rules.presets(name),
                "default_preset": rules.default_preset(name),
                "players": list(default.player_counts),
            }
        )
    emit(out, {"games": games, "bots": sorted(BOT_KINDS)})
    return 0


def cmd_new(args: argparse.Namespace, out: IO[str]) -> int:
    game = game_of(args)
    if args.position_id is not None:
        emit(out, from_position_id(game, args.position_id).to_json())
        return 0
    kwargs: dict[str, Any] = {}
    if args.first is not None:
        kwargs["first"] = args.first
    emit(out, game.new_state(args.players, **kwargs).to_json())
    return 0


def answer_moves(state: State) -> dict[str, Any]:
    state = decision(state)
    return {"state": state.to_json(), "moves": move_entries(state)}


def cmd_moves(args: argparse.Namespace, out: IO[str]) -> int:
    if not args.jsonl:
        emit(out, answer_moves(input_state(args)))
        return 0
    game = game_of(args)
    return answer_stream(game, stdin_lines(), answer_moves, out)


Responder = Callable[[State], dict[str, Any]]


def answer_stream(game: Game, lines: Iterator[bytes], respond: Responder, out: IO[str]) -> int:
    """Answer (and flush) each non-blank line as soon as it is read (readline, not a
    read-ahead iterator), so another program can converse through a pipe; a bad line
    gets an error object and the stream goes on. Raises ``CliError`` at the end if
    any line was rejected."""
    failures = total = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        total += 1
        answer = answer_line(game, line, number, respond)
        failures += "error" in answer
        emit(out, answer)
        out.flush()
    if failures:
        raise CliError(f"{failures} of {total} input lines were rejected (see their answers)")
    return 0


def answer_line(game: Game, line: bytes, number: int, respond: Responder) -> dict[str, Any]:
    """The answer to one ``--jsonl`` line: ``respond``'s object, or ``{"error": ...}``
    naming the line. Never raises for any input: this is what keeps a stream
    answering (the fuzz test feeds it deep nesting, wrong types, huge numbers,
    invalid UTF-8 and 10 MB lines)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return {"error": f"line {number}: not UTF-8 text (byte {exc.start})"}
    try:
        return respond(jsonl_state(game, text))
    except ValueError as exc:
        return {"error": f"line {number}: {clip(str(exc))}"}
    except RecursionError:
        return {"error": f"line {number}: nested too deeply"}
    except Exception as exc:
        # A rules bug must cost one answer, not the stream: say so, plainly.
        detail = clip(str(exc), 120)
        return {"error": f"line {number}: cannot use this line ({type(exc).__name__}: {detail})"}


def jsonl_state(game: Game, line: str) -> State:
    item = load_json_text(line, None)
    if not isinstance(item, Mapping):
        raise CliError('each line must be an object {"state": ..., "dice": [...]}')
    if "position_id" in item:
        position_id = item["position_id"]
        if not isinstance(position_id, str):
            raise CliError(f'"position_id" must be a string, got {quote(position_id)}')
        state: State = from_position_id(game, position_id, "position_id")
    elif "state" in item:
        state = state_from(game, item["state"])
    else:
        raise CliError('each line needs "state" (or "position_id")')
    dice = item.get("dice")
    if dice is not None:
        if isinstance(dice, int) and not isinstance(dice, bool):
            dice = [dice]
        if not isinstance(dice, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) for d in dice
        ):
            raise InvalidDiceError(f'"dice" must be a list of numbers, got {quote(dice)}')
        state = state.roll(tuple(dice))
    return state


def cmd_apply(args: argparse.Namespace, out: IO[str]) -> int:
    state = input_state(args)
    if args.move is not None:
        state = decision(state)
        state = state.apply(state.parse_move(args.move))
    elif args.dice is None:
        raise CliError("give --dice, --move or both")
    emit(out, state.to_json())
    return 0


def answer_hint(bot: Bot, state: State, rng: random.Random) -> dict[str, Any]:
    """The bot's move as one entry of ``rules moves`` (move, state, Position ID...)."""
    state = decision(state)
    move: Move = bot.choose(state, rng)
    after = state.apply(move)
    entry: dict[str, Any] = {"move": move.notation, "state": after.to_json()}
    entry.update(interchange(after))
    details = rules.capabilities(state.game.name).hint_details
    if details is not None:
        entry.update(details(state, move))
    return entry


def cmd_hint(args: argparse.Namespace, out: IO[str]) -> int:
    bot = make_bot(args.bot)
    rng = random.Random(args.seed)
    if not args.jsonl:
        emit(out, answer_hint(bot, input_state(args), rng))
        return 0
    game = game_of(args)
    return answer_stream(game, stdin_lines(), lambda s: answer_hint(bot, s, rng), out)


def cmd_show(args: argparse.Namespace, out: IO[str]) -> int:
    out.write(render_board(input_state(args)) + "\n")
    return 0


def bots_for(kinds: str, players: Sequence[str]) -> dict[str, Bot]:
    names = [k.strip() for k in kinds.split(",") if k.strip()]
    if len(names) == 1:
        names = names * len(players)
    if len(names) != len(players):
        raise CliError(f"--bots names {len(names)} bots for {len(players)} seats")
    return {colour: make_bot(kind) for colour, kind in zip(players, names, strict=True)}


def cmd_play(args: argparse.Namespace, out: IO[str]) -> int:
    game = game_of(args)
    if args.games < 1:
        raise CliError("--games must be at least 1")
    if args.export is not None and args.games != 1:
        raise CliError("--export writes one game: use it with --games 1")
    start = game.new_state(args.players)
    players = list(start.players)
    bots = bots_for(args.bots, players)
    rng = random.Random(args.seed)
    summary = PlaySummary(players)
    all_random = all(bot.name == "random" for bot in bots.values())
    fast = rules.capabilities(game.name).fast_playout if all_random else None
    if args.export is not None:
        record = export_game(game, start, bots, rng, args.export)
        summary.add(record.winners, record.throws, record.moves, record.final)
        emit(out, summary.to_json())
        return 0
    for _ in range(args.games):
        if fast is not None:
            winners, throws, moves, _passes = fast(start, rng)
            summary.add(winners, throws, moves)
        else:
            record = play_game(start, bots, rng)
            summary.add(record.winners, record.throws, record.moves, record.final)
    emit(out, summary.to_json())
    return 0


def export_game(
    game: Game, start: State, bots: dict[str, Bot], rng: random.Random, path: str
) -> GameRecord:
    """Play one game and write it in the game's record format (Backgammon: ``.mat``)."""
    exporter = rules.capabilities(game.name).record_export
    if exporter is None:
        raise CliError(f"--export has no record format for {game.name}")
    recorded: list[PlayStep] = []
    record = play_game(start, bots, rng, on_step=recorded.append)
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(exporter(recorded))
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror}") from None
    return record


COMMANDS: dict[str, Callable[[argparse.Namespace, IO[str]], int]] = {
    "games": cmd_games,
    "new": cmd_new,
    "moves": cmd_moves,
    "apply": cmd_apply,
    "hint": cmd_hint,
    "show": cmd_show,
    "play": cmd_play,
}


__all__ = ["CliError", "RulesError", "add_parser", "run"]
