"""The text simulator: bot players on every seat, the board redrawn move by move.

``sim --display text`` shows what the rules do with real dice (a seeded RNG) where
there is neither a window nor a keyboard. It checks its input as every other display
does (``controller.cli.sim_checks``): the seats must fit the game, a ``--config`` must be
valid. It has no buttons, so the bot plays every seat, a "human" one too. With
``--state-dir`` it saves after every roll and move in the table's own save format and
resumes an unfinished game from there, as the table does after a power cut.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
import time
from types import FrameType
from typing import IO, Any

import rules
from controller.games import presentation
from controller.i18n import _, ngettext
from controller.persistence import SaveStore
from controller.session import Session
from controller.state_dir import describe
from controller.text.board import legend, render_board
from controller.words import colour_word
from rules.bots import make_bot
from rules.core import State
from rules.playout import PlayStep, steps

CLEAR = "\x1b[H\x1b[2J"


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    p = sub.add_parser("sim", help="simulator: watch bots play in the terminal")
    p.add_argument("--game", help="game name (default: the menu's first game)")
    p.add_argument("--preset", help="preset (default: the game's default)")
    p.add_argument("--players", type=int, help="number of players")
    p.add_argument("--bots", default="random", help="bot kind for every seat")
    p.add_argument("--seed", type=int, help="dice seed (default: random)")
    p.add_argument(
        "--delay",
        type=float,
        help="seconds between moves (default 0.4 on a terminal, 0 when piped)",
    )
    p.add_argument("--display", default="text", choices=["text"], help="where to draw")


class Stopped(Exception):
    """SIGTERM or SIGHUP (the terminal was closed) ended the game being watched."""


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signal.Signals(signum).name)


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """Watch a bot game; SIGTERM and SIGHUP end it at once with exit 0, as they end
    the other displays (a closed terminal must not leave a game playing unseen)."""
    previous = {}
    if threading.current_thread() is threading.main_thread():  # only it may set handlers
        previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        return watch(args, out)
    except Stopped:
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def watch(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    out = out if out is not None else sys.stdout
    store = start_store(getattr(args, "state_dir", None))
    # --game named a game that is not the one saved (or --new): it starts over the save
    resume = store is not None and not getattr(args, "fresh", False)
    session = store.load() if resume and store is not None else None
    seed: int | None = None
    if session is not None:
        played = len(session.history)
        where = store.path if store else ""
        line = ngettext(
            "resuming the game saved in {path} ({n} step)",
            "resuming the game saved in {path} ({n} steps)",
            played,
        )
        out.write(line.format(path=where, n=played) + "\n")
    else:
        session, seed = new_session(args)
    state = session.state
    game = state.game
    players = state.players
    bot = make_bot(args.bots)
    bots = dict.fromkeys(players, bot)
    tty = out.isatty()
    delay = args.delay if args.delay is not None else (0.4 if tty else 0.0)
    origin = _("seed {seed}").format(seed=seed) if seed is not None else _("resumed")
    bots_line = ngettext("{n} bot", "{n} bots", len(players)).format(n=len(players))
    out.write(f"{game.name}/{game.preset}, {bots_line}, {origin}\n")
    if legend(game.name):
        out.write(_("legend: {legend}").format(legend=legend(game.name)) + "\n")
    out.write(render_board(state, colour=tty) + "\n")
    moves = sum(1 for entry in session.history if "move" in entry)
    opening: list[str] = []
    for step in steps(state, bots, session.rng):
        keep(session, step, store)
        if step.dice is not None:
            state = step.after
            if state.is_terminal():  # a roll ended it (Mini-Maki: black caught red)
                rolled = ",".join(map(str, step.dice))
                frame = render_board(state, colour=tty)
                said = _("{who} rolled {dice}").format(who=colour_word(step.player), dice=rolled)
                out.write((CLEAR if tty else "\n") + f"{said}\n{frame}\n")
            elif state.is_chance():  # a throw no move follows: the opening roll
                opening.append(opening_throw(step.player, step.dice, step.before))
                if not state.is_opening():
                    starter = colour_word(state.current_player or "")
                    opening[-1] += _(" -> {who} starts").format(who=starter)
            continue  # any other roll shows with the move it leads to
        moves += 1
        dice = ",".join(map(str, step.before.dice_shown()))
        notation = step.move.notation if step.move is not None else "?"
        frame = render_board(step.after, colour=tty)
        header = _("move {number}: {who} rolled {dice} and played {move}").format(
            number=moves, who=colour_word(step.player), dice=dice, move=notation
        )
        if opening:
            header = _("opening roll: {throws}").format(throws=", ".join(opening)) + "\n" + header
            opening = []
        out.write((CLEAR if tty else "\n") + header + "\n" + frame + "\n")
        out.flush()
        if delay > 0:
            time.sleep(delay)
        state = step.after
    winner = colour_word(state.winners()[0])
    line = ngettext(
        "{who} wins after {n} move ({origin})", "{who} wins after {n} moves ({origin})", moves
    )
    out.write(line.format(who=winner, n=moves, origin=origin) + "\n")
    return 0


def new_session(args: argparse.Namespace) -> tuple[Session, int]:
    """A new game and its seed: for the seats of ``--seats`` (``args.seat_kinds``, as
    ``sim_checks`` resolved them), else for ``--players`` bots (without it, as many as
    the game seats by default)."""
    game = rules.get_game(args.game, args.preset)
    kinds: list[str] | None = getattr(args, "seat_kinds", None)
    if getattr(args, "seats", None) is None or kinds is None:
        count = len(game.new_state(args.players).players)
        kinds = ["bot"] * count
    elif args.players is not None:
        playing = sum(1 for kind in kinds if kind != "empty")
        if playing != args.players:
            raise ValueError(f"--players {args.players}, but --seats seats {playing} players")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    return Session.start(game.name, game.preset, kinds, seed=seed, bot=args.bots), seed


def start_store(directory: Any) -> SaveStore | None:
    """The save store in ``directory``; a directory that cannot hold it stops the game
    at once, in words (the raw ``[Errno 17] File exists`` said nothing about --state-dir)."""
    if directory is None:
        return None
    store = SaveStore(directory)
    try:
        store.prepare()
    except OSError as exc:
        raise ValueError(f"--state-dir {directory}: {describe(exc)}") from None
    return store


def keep(session: Session, step: PlayStep, store: SaveStore | None) -> None:
    """Record ``step`` in the session as the table does, and save it at once."""
    if step.dice is not None:
        session.history.append({"player": step.before.current_player, "dice": list(step.dice)})
    elif step.move is not None:
        session.history.append({"player": step.before.current_player, "move": step.move.notation})
    session.state = step.after
    if store is not None:
        store.save(session)


def opening_throw(player: str, dice: tuple[int, ...], before: State) -> str:
    """One throw of the opening roll as "red 4"; "(again)" starts the re-throw of a tie."""
    rethrow = presentation(before.game.name).opening_rethrow
    again = _("(again) ") if rethrow is not None and rethrow(before) else ""
    return f"{again}{colour_word(player)} {','.join(map(str, dice))}"
