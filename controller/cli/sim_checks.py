"""What ``spieltisch sim`` checks before it opens anything, the same for every display.

A typo in ``--seats``, ``--game``, ``--preset`` or ``--config`` is one line and exit 2
whether a window, the terminal or the text board would follow: the text board used to
play a bot game over a broken config or a seat list the game cannot seat. Here too:
the panels ``--size`` names, whether there is a screen for a window, and what the
simulator says about a game in progress in ``--state-dir``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import NamedTuple

import rules
from controller.config import Config, default_config, load_config
from controller.games import presentation
from controller.i18n import _
from controller.input_checks import is_finite_number, quote
from controller.persistence import unfinished_game
from controller.session import COACHED, SEAT_KINDS
from rules.bots import BOT_KINDS

MAX_DELAY_S = 60.0
"""The text board's longest pause between moves (``--delay``)."""

MENU_SEATS = ("human", "bot", "bot", "bot")
"""The seats when neither ``--seats`` nor ``--game`` says otherwise."""


class PanelSize(NamedTuple):
    """A panel the simulator can show: its size and mode ("RGB", or "1": one colour)."""

    width: int
    height: int
    mode: str

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"


PANEL_SIZES = {
    "16": PanelSize(16, 16, "RGB"),
    "16x16": PanelSize(16, 16, "RGB"),
    "32": PanelSize(32, 32, "RGB"),
    "32x32": PanelSize(32, 32, "RGB"),
    "32x8": PanelSize(32, 8, "1"),
    "8x8": PanelSize(8, 8, "1"),
}
"""``--size``: every panel the views have layouts for (hardware.specs' colour and
one-colour sizes), by the names a builder knows them."""


def panel_size(text: str) -> PanelSize:
    """``--size``'s value; argparse turns the ValueError into its usage error."""
    try:
        return PANEL_SIZES[text.strip().lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(
            _("{size} is not a panel size (choose from 16, 32, 32x8, 8x8)").format(size=repr(text))
        ) from None


def has_screen() -> bool:
    """Whether a window can open here (else the simulator draws in the terminal)."""
    return bool(
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("SDL_VIDEODRIVER")
        or sys.platform in ("darwin", "win32")
    )


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
        raise ValueError(
            _("{option} {path}: it is a directory; name a file in it").format(
                option=option, path=quote(str(path))
            )
        )
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(
            _("{option} {path}: the folder {folder} does not exist").format(
                option=option, path=quote(str(path)), folder=quote(str(folder))
            )
        )
    if not os.access(folder, os.W_OK):
        raise ValueError(
            _("{option} {path}: no permission to write in {folder}").format(
                option=option, path=quote(str(path)), folder=quote(str(folder))
            )
        )


def check_output_folder(option: str, given: Path | None) -> None:
    """A folder the sim writes into as it plays (``--voice-to``) must be one it can
    write, or be one it can make: said in one line before the window opens, not as an
    errno after it (or a warning for each prompt). Nothing is made here: a refused
    command leaves no folder behind."""
    if given is None:
        return
    path = Path(given)
    folder = path
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise ValueError(
            _("{option} {path}: {folder} is a file, not a folder").format(
                option=option, path=quote(str(path)), folder=quote(str(folder))
            )
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(
            _("{option} {path}: no permission to write in {folder}").format(
                option=option, path=quote(str(path)), folder=quote(str(folder))
            )
        )


def check_panel(game: str, size: tuple[int, int, str] | None) -> None:
    """``--game`` must have a layout for ``--size`` (the one-colour panels have only
    some games): one line before a window opens, not an end in the middle."""
    if size is None:
        return
    from controller.views import supports

    width, height, mode = size
    if not supports(game, width, height, mode):
        fitting = [g for g in rules.game_names() if supports(g, width, height, mode)]
        raise ValueError(
            _("--game {game} cannot be drawn on the {size} panel; there: {games}").format(
                game=game, size=f"{width}x{height}", games=", ".join(fitting)
            )
        )


def validate_sim_args(args: argparse.Namespace) -> list[str]:
    """Check ``--seats``, ``--game``, ``--preset`` and that the game can seat the
    players chosen (raises ``ValueError``). Returns the seat kinds."""
    given = args.seats
    delay = getattr(args, "delay", None)
    if delay is not None and not (is_finite_number(delay) and 0 <= delay <= MAX_DELAY_S):
        raise ValueError(
            _("--delay {delay}: allowed: seconds from 0 to {most}").format(
                delay=quote(delay), most=MAX_DELAY_S
            )
        )
    check_output_file("--record", getattr(args, "record", None))
    check_output_file("--screenshot", getattr(args, "screenshot", None))
    check_output_folder("--voice-to", getattr(args, "voice_to", None))
    if args.game is not None:
        rules.get_game(args.game, args.preset)  # an unknown game or preset raises
        check_panel(args.game, getattr(args, "size", None))
    elif args.preset is not None:
        raise ValueError(_("--preset {preset} needs --game").format(preset=args.preset))
    if given is None:
        return default_seats(args.game)
    kinds = [k.strip() for k in given.split(",")]
    # A phone seat (a human seat played from the companion page) needs the page.
    # a bot kind: a bot of that level; "coached": a human with the coach
    known: tuple[str, ...] = (*SEAT_KINDS, COACHED, *BOT_KINDS)
    if getattr(args, "web", None) is not None:
        known = (*known, "phone")
    bad = [k for k in kinds if k not in known]
    if bad:
        allowed = ", ".join(known)
        hint = _("; phone needs --web") if bad[0] == "phone" else ""
        raise ValueError(
            _("--seats: {kind} is not a seat kind ({allowed}) in {given}").format(
                kind=quote(bad[0]), allowed=allowed, given=quote(given)
            )
            + hint
        )
    if not 1 <= len(kinds) <= 4:
        raise ValueError(
            _("--seats takes 1 to 4 seats, got {count} in {given}").format(
                count=len(kinds), given=quote(given)
            )
        )
    if args.game is not None:
        counts = rules.get_game(args.game, args.preset).player_counts
        playing = sum(1 for k in kinds if k != "empty")
        if playing not in counts:
            raise ValueError(
                _("--seats: {game} is for {counts} players, {playing} chosen in {given}").format(
                    game=args.game,
                    counts=", ".join(map(str, counts)),
                    playing=playing,
                    given=quote(given),
                )
            )
    return kinds


def sim_config(args: argparse.Namespace) -> Config:
    """``--config FILE`` validated exactly as ``run`` and ``config check`` do (a
    ``ConfigError`` lists every problem), or the simulator's defaults."""
    return load_config(args.config) if args.config is not None else default_config()


def saved_game(state_dir: Path | None) -> tuple[str, str] | None:
    """The game and preset of the unfinished game saved in ``state_dir``, or None
    (controller.persistence.unfinished_game, which the updater reads too)."""
    return unfinished_game(state_dir)


def resume_notice(game: str, preset: str, state_dir: Path) -> str:
    """What the simulator says when it resumes the game saved in ``state_dir``."""
    return _(
        "resuming the {game} ({preset}) game in progress in {where}; --new starts a new one"
    ).format(game=game, preset=preset, where=quote(str(state_dir)))


def resuming(args: argparse.Namespace) -> str | None:
    """The notice for a game the table will resume from ``--state-dir`` by itself
    (no ``--game`` was asked for), or None."""
    if args.game is not None:
        return None
    saved = saved_game(args.state_dir)
    if saved is None:
        return None
    game, preset = saved
    return _(
        "resuming the {game} ({preset}) game in progress in {where}; --game with --new "
        "starts a new one"
    ).format(game=game, preset=preset, where=quote(str(args.state_dir)))


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
        return resume_notice(game, preset, args.state_dir)
    raise ValueError(
        _(
            "--state-dir {where} holds a {game} ({preset}) game in progress: "
            "leave out --game to resume it, or add --new to discard it"
        ).format(where=where, game=game, preset=preset)
    )
