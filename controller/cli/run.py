"""``spieltisch run`` (the appliance, started by systemd) and ``spieltisch sim`` (a laptop).

Both build an :class:`~controller.app.Appliance`; ``run`` from the config file and the
real hardware, ``sim`` from command-line choices with the table drawn in a window (LEDs,
clickable seat buttons, a status line) or in the terminal (the matrix, the status line
and the key legend), and the keyboard for the buttons.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING

from controller.cli import sim_checks as checks
from controller.cli.sim_checks import PanelSize, game_to_start, sim_config, validate_sim_args
from controller.i18n import _
from controller.sim.legend import key_help

if TYPE_CHECKING:
    from controller.config import Config, ConfigError
    from controller.events import EventQueue
    from controller.sdnotify import Notifier
    from controller.voice.speaker import Voice, VoiceSettings
    from hardware.interfaces import Display, InputBackend

# The heavy imports (views, Pillow, luma, the app) happen inside the commands, so that
# `spieltisch rules ...` starts fast and `run` reaches its first frame sooner.

log = logging.getLogger("spieltisch")

POWEROFF = ["systemctl", "poweroff"]


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


def open_hardware(
    config: Config, events: EventQueue, notifier: Notifier | None = None
) -> tuple[Display, list[InputBackend]]:
    """The panel and the buttons (:func:`hardware.build.open_hardware`); a serial
    bridge's link state becomes status events, and the unit's STATUS= says whether the
    panel is connected (with why not)."""
    from controller.bridge_status import BridgeStatus
    from hardware.build import open_hardware as open_devices

    display, buttons = open_devices(config.hardware, BridgeStatus(events, notifier))
    return display, [buttons]


def wait_for_config(
    path: Path, error: ConfigError, events: EventQueue, notifier: Notifier
) -> Config | None:
    """Show ``error`` on the panel until the file is fixed (see controller.config_wait).
    With no panel chosen yet (a :class:`PanelNotChosen`), wait for one without drawing.

    Raises :class:`ExitCode` with ``EX_CONFIG`` when not even the display can be used.
    """
    from controller.bridge_status import BridgeStatus
    from controller.config import display_section
    from controller.config_wait import EX_CONFIG, ConfigWait, PanelNotChosen
    from controller.views import render
    from hardware.build import open_panel

    if not isinstance(error, PanelNotChosen):
        for line in error.errors:
            log.error("config error: %s", line)
    spec = display_section(path)
    if spec is None:
        log.error("the [display] section is not usable either, so the panel stays dark")
        raise ExitCode(EX_CONFIG)
    try:
        display, _bridge = open_panel(spec, BridgeStatus(events, None))
    except (OSError, ValueError) as exc:
        log.error("cannot open the panel to show the config error: %s", first_line(exc))
        raise ExitCode(EX_CONFIG) from None
    voice = config_problem_said()
    try:
        return ConfigWait(path, error, display, render, events, notifier).run(errors_logged=True)
    finally:
        voice.close()
        with contextlib.suppress(Exception):
            display.close()


def config_problem_said(settings: VoiceSettings | None = None) -> Voice:
    """Say once that the settings have a problem (the panel shows which): with the
    voice's defaults, since the file that would set it is the one that is wrong. Only
    this one sentence is needed, so nothing else is rendered meanwhile."""
    from controller.voice.catalog import Prompt
    from controller.voice.speaker import VoiceSettings, build_voice

    voice = build_voice(settings or VoiceSettings(), warm=False)
    voice.say(Prompt("config"))
    return voice


def sim_voice(
    config: Config, choice: str, sink: Path | None = None, names: Sequence[str] = ()
) -> Voice | None:
    """The simulator's voice: the laptop's sound when asked for, or by default when a
    person plays at a terminal (not under tests or pipes); files in ``sink`` when that
    is given (``--voice-to``), whatever ``choice``; None: silent. ``names``: the
    family's named players, whose sentences are rendered ahead."""
    from controller.voice.speaker import build_voice

    if sink is not None:
        settings = replace(config.voice, enabled=True)
        return build_voice(settings, simulator=True, names=names, sink=sink)
    on = choice == "on" or (choice == "auto" and sys.stdout.isatty() and sys.stdin.isatty())
    if not on or not config.voice.enabled:
        return None
    return build_voice(config.voice, simulator=True, names=names)


def named_players(state_dir: Path | None) -> list[str]:
    """The family's names, for the voice to render their sentences ahead."""
    if state_dir is None:
        return []
    from controller.players.book import read

    return [player.name for player in read(state_dir)]


class ExitCode(Exception):
    """Leave ``run`` with this exit status (after the reason has been logged)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def first_line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


def run_appliance(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """The appliance. Exit 0 on SIGTERM; 78 (EX_CONFIG) when the config or the panel
    cannot be used at all. A config error with a usable panel is shown there while the
    process waits for a fixed file, instead of exiting into systemd's restart loop."""
    from controller.app import DEFAULT_STATE_DIR, Appliance, install_signal_handlers
    from controller.config import ConfigError, load_table_config
    from controller.config_wait import EX_CONFIG, unchosen_panel
    from controller.events import EventQueue, NoticeEvent
    from controller.sdnotify import Notifier
    from controller.start_reset import reset_if_held
    from controller.state_dir import resolve_state_dir
    from controller.views import render
    from controller.voice.speaker import build_voice
    from hardware.build import build_sound
    from rules.build_info import describe_build

    setup_logging(args.log_level)
    log.info("starting; %s", describe_build())
    from controller.backup.staged import at_start

    staged = at_start(resolve_state_dir(args.state_dir, DEFAULT_STATE_DIR), Path(args.config))
    if staged is not None:
        log.warning("%s", staged)
    events = EventQueue()
    notifier = Notifier()
    install_signal_handlers(events)
    speak(None)  # a config error on the panel is shown in the locale's language
    from controller.appliance import ram_data

    in_ram = ram_data.reason(args.data_marker)
    if in_ram is not None:
        log.error("%s (%s): nothing is kept past a power-off", ram_data.words(in_ram), in_ram)
        notifier.standing = ram_data.words(in_ram)  # said with every status, from READY on
    try:
        try:
            config = load_table_config(args.config)
            pending = unchosen_panel(config)
            if pending is not None:
                raise pending
        except ConfigError as exc:
            fixed = wait_for_config(args.config, exc, events, notifier)
            if fixed is None:
                notifier.stopping()
                return 0
            config = fixed
        speak(config.language)
        if in_ram is not None:
            notifier.standing = ram_data.words(in_ram)  # in the config's language
        state_dir = resolve_state_dir(args.state_dir, DEFAULT_STATE_DIR)
        try:
            display, inputs = open_hardware(config, events, notifier)
        except OSError as exc:
            log.error("cannot open the hardware: %s", first_line(exc))
            raise ExitCode(EX_CONFIG) from None
    except ExitCode as exit_code:
        sys.stderr.write(
            f"spieltisch: error: cannot start the table with {args.config}; see the lines "
            f"above (exit {exit_code.code})\n"
        )
        return exit_code.code
    config = reset_if_held(config, display, inputs, state_dir, Path(args.config))
    publisher = None
    if config.web.enabled:
        from controller.web.attach import mirrored

        display, publisher = mirrored(display)
    app = Appliance(
        config,
        display=display,
        inputs=inputs,
        sound=build_sound(config.sound),
        voice=build_voice(config.voice, names=named_players(state_dir)),
        state_dir=state_dir,
        render=render,
        notifier=notifier,
        poweroff=poweroff,
        events=events,
    )
    page = None
    if publisher is not None:
        # beside the table, not before it: READY comes with the first frame
        from controller.web.beside import PageBeside

        phones = [i for i, p in enumerate(config.players) if p == "phone"]
        page = PageBeside(
            app, publisher, config.web.port, phones, Path(args.config), config.language
        ).start()
    from controller.appliance.watch import NetworkWatch

    # The image's network supervisor says what the panel should show (hotspot, address)
    # through a file; a thread of its own turns it into notices on the table's queue.
    refresh = page.refresh_addresses if page is not None else None
    watch = NetworkWatch(args.network_status, events, on_online=refresh).start()
    if in_ram is not None:
        # on the panel as the table starts, as the network's notices are
        events.put(NoticeEvent(notifier.standing, ram_data.SHOW_S))
    try:
        shutdown = app.run()
    finally:
        watch.close()
        if page is not None:
            page.close()
    app.notifier.stopping()
    log.info("stopped (%s)", shutdown.reason if shutdown else "table")
    return 0


def speak(setting: str | None) -> None:
    """Start speaking the table's language: ``setting`` (the config's or ``--lang``), else
    the locale's; one the table has no words for is a ``ValueError`` (exit 2)."""
    from controller import i18n

    i18n.use(i18n.table_language(setting, os.environ))


def say(text: str) -> None:
    """One line from the simulator on standard error, at once."""
    print(f"spieltisch sim: {text}", file=sys.stderr, flush=True)


def run_sim(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    """Play at a simulated table: the window, or the terminal with the keyboard.

    In the terminal everything printed while the board is drawn (logs, child processes)
    is held and printed after the terminal is restored, and so is any error (the caller
    prints it), so it is the last thing on screen.
    """
    from controller.held_output import held_output
    from controller.text import sim as text_sim

    if args.lang is not None:
        speak(args.lang)  # the checks below speak it too
    validate_sim_args(args)
    config = sim_config(args)  # a broken --config stops every display alike, before one opens
    speak(args.lang if args.lang is not None else config.language)
    choice = args.display
    if choice == "auto" and not checks.has_screen() and not sys.stdin.isatty():
        # No window and no keyboard to play with: watch the bots on the text board.
        say(_("no screen and no terminal: showing a bot game as text"))
        choice = "text"
    if choice == "text":
        if args.web is not None:
            raise ValueError(
                _("--web serves a played table: use it with --display window or terminal")
            )
        if args.record is not None:
            # The text board has no panel frames to record; saying so beats an empty file
            # or none at all after a whole game.
            raise ValueError(
                _("--record records the panel: use it with --display window or terminal")
            )
        if args.voice_to is not None:
            raise ValueError(
                _("--voice-to needs a played table: use it with --display window or terminal")
            )
        # The same promise as the table's: --game over a game in progress resumes it if
        # it is that game, is refused in one line if not, and --new discards it.
        asked_for = args.game is not None
        resuming_text = game_to_start(args) if asked_for else None
        if resuming_text is not None:
            say(resuming_text)
        args.fresh = asked_for and resuming_text is None
        if args.game is None:
            args.game, args.preset = config.game.name, config.game.preset
        args.seat_kinds = validate_sim_args(args)
        return text_sim.run(args, out)
    if choice == "auto":
        choice = "window" if checks.has_screen() else "terminal"
    if args.screenshot is not None and choice != "window":
        raise ValueError(_("--screenshot writes the window: use it with --display window"))
    # Before a window opens: a refusal is one line. The notice is printed, and the
    # terminal display also shows it (printed only, the board hid it until the end).
    args.resume_notice = checks.resuming(args) or game_to_start(args)
    if args.resume_notice is not None:
        say(args.resume_notice)
    setup_logging("WARNING")
    note = ""
    if choice == "window":
        from controller.sim.window import WindowUnavailable

        try:
            return play_sim(args, choice, None)
        except WindowUnavailable as exc:
            if args.display != "auto" or not sys.stdin.isatty() or args.screenshot:
                raise
            words = _("{problem}; played in the terminal instead").format(problem=exc)
            note = f"spieltisch sim: {words}\n"
    with held_output() as terminal:
        sys.stderr.write(note)  # shown after the game, with anything else logged
        return play_sim(args, "terminal", terminal)


def play_sim(args: argparse.Namespace, choice: str, terminal: int | None) -> int:
    import rules
    from controller.app import Appliance, install_signal_handlers, table_options
    from controller.events import WakeEvent
    from controller.session import Session
    from controller.sim.terminal import TerminalDisplay, UntilPressed
    from controller.sim.window import TableWindow
    from controller.table import FAST_PACE
    from controller.views import render
    from hardware.gif_recording import GifRecorder
    from hardware.interfaces import HardwareError
    from hardware.keyboard import TerminalKeys
    from hardware.tee import TeeDisplay

    config = sim_config(args)
    size: PanelSize = args.size
    display_spec = replace(
        config.display,
        width=size.width,
        height=size.height,
        rotation=0,
        mapping="row",
        max_current_ma=0,
        scale=max(1, 512 // size.width),  # the GIF of --record
        brightness=1.0,
    )
    hardware = replace(config.hardware, display=display_spec, input_type="keyboard")
    config = replace(config, hardware=hardware)
    closers: list[Display | InputBackend] = []
    recorder: GifRecorder | None = None
    try:
        inputs: list[InputBackend]
        primary: TerminalDisplay | TableWindow
        if terminal is not None:
            primary = TerminalDisplay(size.width, size.height, fd=terminal, mode=size.mode)
            primary.note = getattr(args, "resume_notice", None) or ""
            inputs = [UntilPressed(TerminalKeys(), primary.dismiss_note)]
        else:
            primary = TableWindow(
                size.width,
                size.height,
                mode=size.mode,
                hold_s=config.hardware.buttons.hold_s,
                screenshot=args.screenshot,
                say=say,
            )
            inputs = [primary]
        closers += [*inputs, primary]
        display: Display = primary
        if args.record is not None:
            from controller.record_progress import RecordProgress

            progress = RecordProgress(args.record, fd=terminal if terminal is not None else 2)
            recorder = GifRecorder(
                args.record, primary.width, primary.height, primary.mode, 16, progress=progress
            )
            display = TeeDisplay(primary, recorder)
            closers.append(display)
        publisher = None
        if args.web is not None:
            from controller.web.attach import mirrored

            display, publisher = mirrored(display)
        seat_kinds = validate_sim_args(args)
        phones = [i for i, kind in enumerate(seat_kinds) if kind == "phone"]
        kinds = ["human" if kind == "phone" else kind for kind in seat_kinds]
        pace = FAST_PACE if args.fast else {}
        options = table_options(config, seat_count=4, default_seats=tuple(kinds), **pace)
        app = Appliance(
            config,
            display=display,
            inputs=inputs,
            sound=None,
            state_dir=args.state_dir,
            render=render,
            options=options,
            voice=sim_voice(config, args.voice, args.voice_to, named_players(args.state_dir)),
            status_view=primary.show_status,
        )
        if isinstance(primary, TerminalDisplay):
            events = app.events
            primary.on_resize = lambda: events.put(WakeEvent())
        session = None
        if args.game is not None:
            game_kinds = kinds + ["empty"] * (4 - len(kinds))
            preset = args.preset or rules.default_preset(args.game)
            session = Session.start(
                args.game, preset, game_kinds, seed=args.seed, bot=config.game.bot
            )
        if terminal is None:
            say(_("window {size}; keys: {keys}").format(size=size, keys=key_help()))
        install_signal_handlers(app.events, hangup_quits=True)
        server = None
        if publisher is not None:
            from controller.web.attach import serve

            language = args.lang if args.lang is not None else config.language
            server = serve(app, publisher, args.web, phones, args.config, language)
            if server is not None:
                address = f"http://localhost:{server.port}/"
                say(_("companion page on {address}").format(address=address))
        try:
            app.run(new_game=session)
        except HardwareError as exc:
            raise HardwareError(f"simulator: {exc}") from None
        finally:
            if server is not None:
                server.stop()
    finally:
        # Put the terminal back before anything is printed (the error, the kept log).
        # The recording is written on close; its failure is said once the terminal is
        # back (it used to end a whole game on exit 0 with no GIF and no word).
        for closer in closers:
            with contextlib.suppress(Exception):
                closer.close()
    if recorder is not None and recorder.failure is not None:
        raise recorder.failure
    return 0
