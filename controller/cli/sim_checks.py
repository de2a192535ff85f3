"""What ``spieltisch sim`` checks before it opens anything, the same for every display.

A typo in ``--seats``, ``--game``, ``--preset`` or ``--config`` is one line and exit 2
whether a window, the terminal or the text board would follow: the text board used to
play a bot game over a broken config or a seat list the game cannot seat.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import rules
from controller.config import Config, default_config, load_config
from controller.games import presentation
from controller.input_checks import is_finite_number, quote
from controller.persistence import MAX_SAVE_BYTES, SAVE_NAME
from controller.session import SEAT_KINDS, Session
from rules.bots import BOT_KINDS

MAX_DELAY_S = 60.0
"""The text board's longest pause between moves (``--delay``)."""

MENU_SEATS = ("human", "bot", "bot", "bot")
"""The seats when neither ``--seats`` nor ``--game`` says otherwise."""


def default_seats(game: str | None) -> list[str]:
    """You and bots, as many as the game seats at most (Backgammon: you and one bot)."""
    if game is None:
        return list(MENU_SEATS)
    counts = rules.get_game(game).player_counts
    most = min(max(counts), len(MENU_SEATS))
    if presentation(game).fewest_players_first:  # Mini-Maki: the solitaire
        most = min(min(counts), len(MENU_SEATS))
    return ["human"] + ["bot"] * (most - 1)


def check_output_file(option: str, given: str | Path | None) -> None:
    """A file the sim writes at the end (``--record``, ``--screenshot``) must be one it
    can write: found out before the game, not after it, when the picture would be lost."""
    if given is None:
        return
    path = Path(given)
    if path.is_dir():
        raise ValueError(f"{option} {quote(str(path))}: it is a directory; name a file in it")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(
            f"{option} {quote(str(path))}: the folder {quote(str(folder))} does not exist"
        )
    if not os.access(folder, os.W_OK):
        raise ValueError(
            f"{option} {quote(str(path))}: no permission to write in {quote(str(folder))}"
        )


def validate_sim_args(args: argparse.Namespace) -> list[str]:
    """Check ``--seats``, ``--game``, ``--preset`` and that the game can seat the
    players chosen (raises ``ValueError``). Returns the seat kinds."""
    given = args.seats
    delay = getattr(args, "delay", None)
    if delay is not None and not (is_finite_number(delay) and 0 <= delay <= MAX_DELAY_S):
        raise ValueError(f"--delay {quote(delay)}: allowed: seconds from 0 to {MAX_DELAY_S}")
    check_output_file("--record", getattr(args, "record", None))
    check_output_file("--screenshot", getattr(args, "screenshot", None))
    if args.game is not None:
        rules.get_game(args.game, args.preset)  # an unknown game or preset raises
    elif args.preset is not None:
        raise ValueError(f"--preset {args.preset} needs --game")
    if given is None:
        return default_seats(args.game)
    kinds = [k.strip() for k in given.split(",")]
    # A phone seat (a human seat played from the companion page) needs the page.
    known: tuple[str, ...] = (*SEAT_KINDS, *BOT_KINDS)  # a bot kind: a bot of that level
    if getattr(args, "web", None) is not None:
        known = (*known, "phone")
    bad = [k for k in kinds if k not in known]
    if bad:
        allowed = ", ".join(known)
        hint = "; phone needs --web" if bad[0] == "phone" else ""
        raise ValueError(
            f"--seats: {quote(bad[0])} is not a seat kind ({allowed}) in {quote(given)}{hint}"
        )
    if not 1 <= len(kinds) <= 4:
        raise ValueError(f"--seats takes 1 to 4 seats, got {len(kinds)} in {quote(given)}")
    if args.game is not None:
        counts = rules.get_game(args.game, args.preset).player_counts
        playing = sum(1 for k in kinds if k != "empty")
        if playing not in counts:
            raise ValueError(
                f"--seats: {args.game} is for {', '.join(map(str, counts))} players, "
                f"{playing} chosen in {quote(given)}"
            )
    return kinds


def sim_config(args: argparse.Namespace) -> Config:
    """``--config FILE`` validated exactly as ``run`` and ``config check`` do (a
    ``ConfigError`` lists every problem), or the simulator's defaults."""
    return load_config(args.config) if args.config is not None else default_config()


def saved_game(state_dir: Path | None) -> tuple[str, str] | None:
    """The game and preset of the unfinished game saved in ``state_dir``, or None
    (no directory, no save, a finished game, or a save the table will report as
    damaged when it starts). Read without touching the file: a damaged save is the
    appliance's to move aside, with its message on the panel."""
    if state_dir is None:
        return None
    path = Path(state_dir) / SAVE_NAME
    try:
        if not path.is_file() or path.stat().st_size > MAX_SAVE_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        session = Session.from_json(data)
    except (OSError, ValueError, RecursionError):  # InvalidStateError is a ValueError
        return None
    if session.state.is_terminal():
        return None
    return session.game, session.preset


def game_to_start(args: argparse.Namespace) -> str | None:
    """What ``--game`` does with a game in progress in ``--state-dir``, decided before
    anything opens. A save of the same game and preset is resumed (the note returned
    says so; the caller prints it); a different one is never replaced silently: that
    is a one-line error naming both ways on (``ValueError``), and ``--new`` discards it
    on purpose. Clears ``args.game`` when the save is to be resumed."""
    if args.game is None or getattr(args, "new", False):
        return None
    saved = saved_game(args.state_dir)
    if saved is None:
        return None
    game, preset = saved
    wanted = rules.get_game(args.game, args.preset)
    where = quote(str(args.state_dir))
    if (game, preset) == (wanted.name, wanted.preset):
        args.game = args.preset = None
        return f"resuming the {game} ({preset}) game in progress in {where}; --new starts a new one"
    raise ValueError(
        f"--state-dir {where} holds a {game} ({preset}) game in progress: "
        f"leave out --game to resume it, or add --new to discard it"
    )
