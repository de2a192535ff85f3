"""The arguments of ``spieltisch run`` and ``spieltisch sim``: kept apart from what the
commands do, so that each module stays one job and short."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from controller.appliance import ram_data
from controller.cli import sim_checks as checks
from controller.cli.sim_checks import PanelSize
from controller.sim.legend import key_help

DEFAULT_CONFIG = Path("/etc/spieltisch/config.toml")
DISPLAY_ALIASES = {"pygame": "window", "asciiblock": "terminal"}
"""The simulator's displays by their earlier names (luma's emulators they replaced)."""


def add_parsers(sub: argparse._SubParsersAction[Any]) -> None:
    run = sub.add_parser("run", help="the appliance: real panel and buttons (systemd starts this)")
    run.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help="config TOML file")
    run.add_argument(
        "--state-dir",
        type=Path,
        help="where the game is saved (default: $STATE_DIRECTORY or /var/lib/spieltisch)",
    )
    run.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING, ERROR")
    run.add_argument(
        "--network-status",
        type=Path,
        default=Path("/run/spieltisch/network.json"),
        metavar="FILE",
        help="the network supervisor's status, shown on the panel when it changes "
        "(the image's hotspot and address; a missing file shows nothing)",
    )
    run.add_argument(
        "--data-marker",
        type=Path,
        default=ram_data.MARKER,
        metavar="FILE",
        help="the card image's sign that its data partition could not be mounted and /data "
        "is in RAM: the status and the panel then say that games are not saved",
    )

    sim = sub.add_parser(
        "sim",
        help="simulator: play on a laptop (window or terminal, keyboard as buttons)",
        epilog="keys: " + key_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sim.add_argument("--game", help="start this game at once (default: show the menu)")
    sim.add_argument("--preset", help="preset of --game")
    sim.add_argument(
        "--seats",
        help="per seat: human, bot or empty (default: you and bots, human,bot,bot,bot "
        "or as many as --game seats)",
    )
    sim.add_argument(
        "--display",
        type=lambda name: DISPLAY_ALIASES.get(name, name),
        choices=["auto", "window", "terminal", "text"],
        default="auto",
        help="auto: the window if there is a screen, else this terminal; "
        "text: watch bots play on a text board",
    )
    sim.add_argument(
        "--screenshot",
        type=Path,
        metavar="FILE",
        help="window: write the whole window as a PNG to FILE on F12, and at exit if F12 "
        "was not pressed (without it, F12 writes spieltisch-DATE-TIME.png here)",
    )
    sim.add_argument(
        "--lang",
        metavar="LANG",
        help="the table's language: de or en (default: the config's, else the locale's)",
    )
    sim.add_argument(
        "--size",
        type=checks.panel_size,
        default=PanelSize(16, 16, "RGB"),
        metavar="SIZE",
        help="the panel: 16 or 32 (colour, 16x16 or 32x32), or 32x8 or 8x8 (one-colour "
        "LED modules, as builders may wire a max7219)",
    )
    sim.add_argument(
        "--record",
        type=Path,
        help="also record the panel as an animated GIF (each frame as long as it was shown)",
    )
    sim.add_argument(
        "--fast",
        action="store_true",
        help="short delays: bots, forced moves, dice and moves go quickly",
    )
    sim.add_argument("--config", type=Path, help="take game settings from this config file")
    sim.add_argument(
        "--state-dir",
        type=Path,
        help="save and resume the game here; with --game, a game of that game and preset "
        "in progress there is resumed, another one is refused (leave out --game to "
        "resume it, or add --new)",
    )
    sim.add_argument(
        "--new",
        action="store_true",
        help="with --game and --state-dir: start a new game even over a game in progress "
        "there (that game is discarded; the history keeps the games already finished)",
    )
    sim.add_argument("--seed", type=int, help="dice seed (default: random)")
    sim.add_argument(
        "--voice",
        choices=["auto", "on", "off"],
        default="auto",
        help="spoken prompts through the laptop's sound (paplay or aplay); auto: on when "
        "played at a terminal and the config's [voice] is enabled",
    )
    sim.add_argument(
        "--voice-to",
        type=Path,
        metavar="DIR",
        help="write every spoken prompt to DIR as 0001.wav, 0002.wav, ... in order, with "
        "prompts.txt listing each file's time, length and words, instead of playing it "
        "(needs espeak-ng or rendered prompts; the config's [voice] volume applies)",
    )
    sim.add_argument(
        "--web",
        type=int,
        nargs="?",
        const=8080,
        metavar="PORT",
        help="serve the companion page on PORT (default 8080); a seat set to phone is "
        "played from it",
    )
    # the text watcher's options
    sim.add_argument("--players", type=int, help="text mode: number of players")
    sim.add_argument("--bots", default="random", help="text mode: bot kind (default random)")
    sim.add_argument("--delay", type=float, help="text mode: seconds between moves")
