"""``spieltisch run`` (the appliance, started by systemd) and ``spieltisch sim`` (a laptop).

Both build an :class:`~controller.app.Appliance`; ``run`` from the config file and the
real hardware, ``sim`` from command-line choices with luma.emulator standing in for the
panel (a pygame window, or ``asciiblock`` in a terminal) and the keyboard for the buttons.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from hardware.keyboard import key_help

if TYPE_CHECKING:
    from controller.config import Config
    from controller.events import EventQueue
    from hardware.interfaces import Display, InputBackend

# The heavy imports (views, Pillow, luma, the app) happen inside the commands, so that
# `spieltisch rules ...` starts fast and `run` reaches its first frame sooner.

log = logging.getLogger("spieltisch")

DEFAULT_CONFIG = Path("/etc/spieltisch/config.toml")
POWEROFF = ["systemctl", "poweroff"]


def add_parsers(sub: argparse._SubParsersAction[Any]) -> None:
    run = sub.add_parser("run", help="the appliance: real panel and buttons (systemd starts this)")
    run.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help="config TOML file")
    run.add_argument(
        "--state-dir",
        type=Path,
        help="where the game is saved (default: $STATE_DIRECTORY or /var/lib/spieltisch)",
    )
    run.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING, ERROR")

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
        default="human,bot,bot,bot",
        help="per seat: human, bot or empty (default human,bot,bot,bot)",
    )
    sim.add_argument(
        "--display",
        choices=["auto", "pygame", "asciiblock", "text"],
        default="auto",
        help="auto: a pygame window if there is a screen, else asciiblock in this terminal; "
        "text: watch bots play on a text board",
    )
    sim.add_argument("--size", type=int, choices=[16, 32], default=16, help="panel size")
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
    sim.add_argument("--state-dir", type=Path, help="save and resume the game here")
    sim.add_argument("--seed", type=int, help="dice seed (default: random)")
    # the text watcher's options
    sim.add_argument("--players", type=int, help=argparse.SUPPRESS)
    sim.add_argument("--bots", default="random", help=argparse.SUPPRESS)
    sim.add_argument("--delay", type=float, help="text mode: seconds between moves")


def setup_logging(level: str = "INFO") -> None:
    logging.basicConfig(
        level=getattr(logging, level.upper(), logging.INFO),
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # transitions logs every state change at INFO; in journald that drowns the table's
    # own messages, so it only speaks up for warnings unless DEBUG was asked for.
    if logging.getLogger().level > logging.DEBUG:
        logging.getLogger("transitions").setLevel(logging.WARNING)


def poweroff() -> None:
    """A fixed argument list, never a shell string."""
    log.warning("powering off")
    try:
        result = subprocess.run(POWEROFF, check=False)
    except OSError as exc:  # no systemctl (a laptop): say so, the table just stops
        log.error("cannot power off: %s", exc)
        return
    if result.returncode != 0:
        # e.g. polkit said no; systemd restarts the table (Restart=always), nothing is lost
        log.error("%s failed with exit code %d", " ".join(POWEROFF), result.returncode)


def open_hardware(config: Config, events: EventQueue) -> tuple[Display, list[InputBackend]]:
    from controller.events import StatusEvent
    from hardware.build import build_display, build_input

    spec = config.hardware
    inputs: list[InputBackend] = []
    bridge = None
    if spec.display.type == "bridge" or spec.input_type == "bridge":
        from hardware.bridge import open_bridge

        def status(online: bool) -> None:
            events.put(StatusEvent("display", online, "serial bridge"))

        bridge = open_bridge(spec.display.port, size=spec.display.logical_size, on_status=status)
    if spec.display.type == "bridge" and bridge is not None:
        display: Display = bridge.display()
    else:
        display = build_display(spec.display)
    if spec.input_type == "bridge" and bridge is not None:
        inputs.append(bridge.input())
    else:
        inputs.append(build_input(spec))
    return display, inputs


def run_appliance(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    from controller.app import DEFAULT_STATE_DIR, Appliance, install_signal_handlers
    from controller.config import load_config
    from controller.events import EventQueue
    from controller.sdnotify import Notifier
    from controller.views import render
    from hardware.build import build_sound

    setup_logging(args.log_level)
    config = load_config(args.config)
    state_dir = args.state_dir or Path(os.environ.get("STATE_DIRECTORY", DEFAULT_STATE_DIR))
    events = EventQueue()
    display, inputs = open_hardware(config, events)
    app = Appliance(
        config,
        display=display,
        inputs=inputs,
        sound=build_sound(config.sound),
        state_dir=Path(str(state_dir).split(":")[0]),
        render=render,
        notifier=Notifier(),
        poweroff=poweroff,
        events=events,
        solve_minimaki=True,
    )
    install_signal_handlers(app.events)
    shutdown = app.run()
    app.notifier.stopping()
    log.info("stopped (%s)", shutdown.reason if shutdown else "table")
    return 0


def has_screen() -> bool:
    return bool(
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("SDL_VIDEODRIVER")
        or sys.platform in ("darwin", "win32")
    )


def run_sim(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    import rules
    from controller import text_sim
    from controller.app import Appliance, install_signal_handlers, table_options
    from controller.config import default_config, load_config
    from controller.session import SEAT_KINDS, Session
    from controller.table import FAST_PACE
    from controller.views import render
    from hardware.build import build_display, build_input
    from hardware.interfaces import HardwareError
    from hardware.tee import TeeDisplay

    choice = args.display
    if choice == "auto" and not has_screen() and not sys.stdin.isatty():
        # No window and no keyboard to play with: watch the bots on the text board.
        sys.stderr.write("spieltisch sim: no screen and no terminal: showing a bot game as text\n")
        choice = "text"
    if choice == "text":
        if args.game is None:
            args.game = "maedn"
        return text_sim.run(args, out)
    if choice == "auto":
        choice = "pygame" if has_screen() else "asciiblock"
    setup_logging("WARNING")
    config = load_config(args.config) if args.config else default_config()
    display_spec = replace(
        config.display,
        type=choice,
        width=args.size,
        height=args.size,
        rotation=0,
        mapping="row",
        max_current_ma=0,
        scale=max(1, 512 // args.size) if choice == "pygame" else 1,
        brightness=1.0,
    )
    hardware = replace(config.hardware, display=display_spec, input_type="keyboard")
    config = replace(config, hardware=hardware)
    display: Display = build_display(display_spec)
    if args.record is not None:
        from hardware.gif_recording import GifRecorder

        recorder = GifRecorder(args.record, display.width, display.height, display.mode, 16)
        display = TeeDisplay(display, recorder)
    inputs = [build_input(hardware)]
    kinds = [k.strip() for k in args.seats.split(",")]
    bad = [k for k in kinds if k not in SEAT_KINDS]
    if bad or not 1 <= len(kinds) <= 4:
        raise ValueError(f"--seats takes up to 4 of {', '.join(SEAT_KINDS)}, got {args.seats!r}")
    pace = FAST_PACE if args.fast else {}
    options = table_options(config, seat_count=4, default_seats=tuple(kinds), **pace)
    if args.state_dir is not None:
        args.state_dir.mkdir(parents=True, exist_ok=True)
    app = Appliance(
        config,
        display=display,
        inputs=inputs,
        sound=None,
        state_dir=args.state_dir,
        render=render,
        options=options,
        solve_minimaki=args.state_dir is not None,
    )
    session = None
    if args.game is not None:
        game_kinds = kinds + ["empty"] * (4 - len(kinds))
        preset = args.preset or rules.default_preset(args.game)
        session = Session.start(args.game, preset, game_kinds, seed=args.seed, bot=config.game.bot)
    sys.stderr.write(f"spieltisch sim: {choice} {args.size}x{args.size}; keys: {key_help()}\n")
    install_signal_handlers(app.events)
    try:
        app.run(new_game=session)
    except HardwareError as exc:
        raise HardwareError(f"simulator: {exc}") from None
    return 0
