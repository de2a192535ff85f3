"""The terminal simulator: bot players on every seat, the board redrawn move by move.

This is the laptop stand-in for the table until the LED views exist: it shows what the
rules do with real dice (a seeded RNG) and is the README's first command.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import IO, Any

import rules
from controller.games import first_game
from controller.text_board import legend, render_board
from rules.bots import make_bot
from rules.core import State
from rules.playout import steps

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


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    out = out if out is not None else sys.stdout
    game = rules.get_game(args.game or first_game(), args.preset)
    state = game.new_state(args.players)
    players = state.to_json()["players"]
    bot = make_bot(args.bots)
    bots = dict.fromkeys(players, bot)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    tty = out.isatty()
    delay = args.delay if args.delay is not None else (0.4 if tty else 0.0)
    out.write(f"{game.name}/{game.preset}, {len(players)} bots, seed {seed}\n")
    if legend(game.name):
        out.write(f"legend: {legend(game.name)}\n")
    out.write(render_board(state, colour=tty) + "\n")
    moves = 0
    opening: list[str] = []
    for step in steps(state, bots, rng):
        if step.dice is not None:
            state = step.after
            if state.is_terminal():  # a roll ended it (Mini-Maki: black caught red)
                rolled = ",".join(map(str, step.dice))
                frame = render_board(state, colour=tty)
                out.write((CLEAR if tty else "\n") + f"{step.player} rolled {rolled}\n{frame}\n")
            elif state.is_chance():  # a throw no move follows: the opening roll
                opening.append(opening_throw(step.player, step.dice, step.before))
                if state.to_json().get("phase") != "opening":
                    opening[-1] += f" -> {state.current_player} starts"
            continue  # any other roll shows with the move it leads to
        moves += 1
        dice = ",".join(map(str, step.before.to_json().get("dice", [])))
        notation = step.move.notation if step.move is not None else "?"
        frame = render_board(step.after, colour=tty)
        header = f"move {moves}: {step.player} rolled {dice} and played {notation}"
        if opening:
            header = "opening roll: " + ", ".join(opening) + "\n" + header
            opening = []
        out.write((CLEAR if tty else "\n") + header + "\n" + frame + "\n")
        out.flush()
        if delay > 0:
            time.sleep(delay)
        state = step.after
    out.write(f"{state.winners()[0]} wins after {moves} moves (seed {seed})\n")
    return 0


def opening_throw(player: str, dice: tuple[int, ...], before: State) -> str:
    """One throw of the opening roll as "red 4"; "(again)" starts the re-throw of a tie."""
    data = before.to_json()
    opening = data.get("opening") or {}
    tie = len(opening.get("contenders", ())) < len(data.get("players", ()))
    again = "(again) " if tie and not opening.get("rolls") else ""
    return f"{again}{player} {','.join(map(str, dice))}"
