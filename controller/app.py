"""Assemble the appliance: config -> hardware -> table + loop, and run it.

``spieltisch run`` (systemd) and ``spieltisch sim`` (a laptop) both end here; they
differ only in the config (real panel and GPIO buttons vs. an emulator window and the
keyboard). Tests build an :class:`Appliance` with injected fakes: luma's dummy device,
gpiozero's MockFactory pins, a temp state directory and a fake clock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from controller import early_signals, setup_memory
from controller.bot_worker import BotWorker
from controller.config import Config
from controller.events import EventQueue, ReloadEvent, ShutdownEvent
from controller.history.keeper import HistoryKeeper
from controller.i18n import _
from controller.loop import Loop, Renderer, StatusView
from controller.persistence import CorruptSaveError, SaveStore
from controller.players import book as players_book
from controller.release import notice as update_notice
from controller.safekeeping import Safekeeping
from controller.scene import STATISTICS_ITEM, MenuItem, MessageScene
from controller.sdnotify import Notifier
from controller.session import Session
from controller.table import Table, TableOptions, bot_kind, default_menu
from controller.voice.speaker import Voice
from hardware.interfaces import Display, InputBackend, Sound

log = logging.getLogger(__name__)

DEFAULT_STATE_DIR = Path("/var/lib/spieltisch")


def menu_for(first_game: str, first_preset: str | None) -> tuple[MenuItem, ...]:
    """Every game, the configured one first (its rule set chosen first in setup)."""
    return default_menu(first_game, first_preset)


def table_options(config: Config, **overrides: Any) -> TableOptions:
    seats = len(config.buttons.seats) or 4
    options = TableOptions(
        seat_count=seats,
        preset_timer_s=config.game.move_timer_s,
        bot=config.game.bot,
        default_seats=tuple("human" if p == "phone" else p for p in config.players),
        physical_dice=config.game.physical_dice,
        bot_delay_s=config.game.bot_delay_s,
        sleep_after_s=config.sleep_after_min * 60.0,
        menu=menu_for(config.game.name, config.game.preset),
    )
    return dataclasses.replace(options, **overrides)


def drawable(menu: tuple[MenuItem, ...], display: Display) -> tuple[MenuItem, ...]:
    """The menu's games that this panel can draw: a one-colour 32×8 or 8×8 module has
    layouts for Mini-Maki (and Backgammon on 32×8) only, and choosing MÄDN there ended
    the table with "no layout". A menu none of whose games fit stays as it is (the
    config check has already said that the panel has no layouts)."""
    from controller.views import supports

    size = (display.width, display.height, display.mode)
    fitting = tuple(item for item in menu if supports(item.game, *size))
    return fitting or menu


class Appliance:
    """Everything one running table needs, wired together but not yet started."""

    def __init__(
        self,
        config: Config,
        *,
        display: Display,
        inputs: Sequence[InputBackend],
        sound: Sound | None,
        state_dir: Path | None,
        render: Renderer,
        clock: Callable[[], float] = time.monotonic,
        notifier: Notifier | None = None,
        poweroff: Callable[[], None] | None = None,
        options: TableOptions | None = None,
        bot_thread: bool = True,
        events: EventQueue | None = None,
        farewell_s: float = 1.5,
        voice: Voice | None = None,
        status_view: StatusView | None = None,
    ) -> None:
        self.config = config
        self.voice = voice
        self.display = display
        self.inputs = list(inputs)
        self.sound = sound
        self.events = events if events is not None else EventQueue()
        self.store = SaveStore(state_dir) if state_dir is not None else None
        self.notifier = notifier or Notifier({})
        self.worker = BotWorker(self.events) if bot_thread else None
        self.poweroff = poweroff
        self.poweroff_requested = False
        self.farewell_s = farewell_s
        options = options or table_options(config)
        if state_dir is not None and not options.last_setups:
            setups, people = setup_memory.read_all(state_dir)
            options = dataclasses.replace(options, last_setups=setups, last_people=people)
        if state_dir is not None:
            options = dataclasses.replace(
                options, named_players=functools.partial(players_book.read, state_dir)
            )
        options = dataclasses.replace(options, menu=drawable(options.menu, display))
        seats = options.seat_count

        def history(
            warn: Callable[[OSError], None], notice: Callable[[str], None]
        ) -> HistoryKeeper:
            assert state_dir is not None
            return HistoryKeeper(state_dir, seats, warn, bot_kind, notice=notice)

        self.keeper = Safekeeping(self.store, clock, history if state_dir is not None else None)
        """Carries out the table's saves and records, and says what their failures show."""
        self.history: HistoryKeeper | None = self.keeper.history
        """Every game played is recorded in the state directory (controller.history.store)."""
        if self.history is not None:
            options = dataclasses.replace(options, menu=(*options.menu, STATISTICS_ITEM))
        self.table = Table(
            options,
            sound=sound,
            ask_bot=self.worker.request if self.worker else None,
            poweroff=self._request_poweroff if poweroff is not None else None,
            statistics=self.history.statistics if self.history else None,
        )
        self.loop = Loop(
            self.table,
            self.events,
            display,
            render,
            clock=clock,
            watchdog=self.notifier.watchdog,
            watchdog_interval=self.notifier.watchdog_interval,
            on_first_frame=self.notifier.ready,
            keeper=self.keeper,
            voice=voice,
            status_view=status_view,
        )
        for backend in self.inputs:
            # Only backends that must be pumped from this thread (pygame's keyboard) say
            # how often; GPIO buttons time their own debounce, and polling them here would
            # wake an idle table 50 times a second.
            if backend.poll_interval is not None:
                self.loop.add_poller(backend.poll, backend.poll_interval)

    def start(self, new_game: Session | None = None) -> None:
        """Start ``new_game`` if given (it replaces any saved game, as a game chosen in
        the menu does), else resume a saved game (or report a bad save); then start the
        inputs."""
        self.table.at(self.loop.clock())
        readable = self.keeper.prepare()
        resume: Session | None = None
        if self.store is not None and readable:
            if new_game is not None:
                self.store.read_pending()  # the game it replaces is dropped, its records not
            else:
                try:
                    resume = self.store.load()
                except CorruptSaveError as exc:
                    self.table.show_text(str(exc))
            if self.history is not None and self.store.pending:
                # before the first save, which carries them on while they wait
                self.history.restore(self.store.pending)
                if not self.history.backlog:
                    with contextlib.suppress(OSError):
                        self.store.drop_pending()
        if self.store is not None and readable:
            # what the last update did (installed, or switched back), said once
            notice = update_notice.unseen(self.store.directory)
            if notice is not None:
                self.table.show_text(notice)
        if new_game is not None:
            self.table.start_session(new_game)
        elif resume is not None:
            log.info("resuming %s/%s, %s to play", resume.game, resume.preset, resume.player)
            self.table.start_session(resume)
        for backend in self.inputs:
            backend.start(self.events.put)

    def _request_poweroff(self) -> None:
        """The table saved and asked to power off (system button held very long).

        Only noted here: :meth:`run` first lets the shutdown animation play on the panel,
        then closes the hardware (which darkens the LEDs) and only then powers off.
        """
        self.poweroff_requested = True

    def run(self, new_game: Session | None = None) -> ShutdownEvent | None:
        self.start(new_game)
        try:
            shutdown = self.loop.run()
            if self.poweroff_requested:
                self.farewell()
        finally:
            self.close()
        if self.poweroff_requested and self.poweroff is not None:
            self.poweroff()
        return shutdown

    def farewell(self) -> None:
        """Play the shutdown animation ("bye" scrolling) for ``farewell_s`` seconds.

        The wait is on the event queue, so a SIGTERM (systemd stopping us) cuts it short.
        """
        start = self.loop.clock()
        interval = max(self.table.options.frame_interval_s, 0.01)
        for _frame in range(int(self.farewell_s / interval) + 2):  # bounded, whatever the clock
            elapsed = self.loop.clock() - start
            image = self.loop.render(
                MessageScene(_("bye"), elapsed, "shutdown"),
                self.display.width,
                self.display.height,
                self.display.mode,
            )
            with contextlib.suppress(Exception):
                self.display.show(image)
            if elapsed >= self.farewell_s:
                return
            if isinstance(self.events.get(interval), ShutdownEvent):
                return

    def close(self) -> None:
        for backend in self.inputs:
            with contextlib.suppress(Exception):
                backend.close()
        if self.worker is not None:
            self.worker.close(timeout=0.2)
        self.keeper.close()
        with contextlib.suppress(Exception):
            self.display.close()
        if self.sound is not None:
            with contextlib.suppress(Exception):
                self.sound.close()
        if self.voice is not None:
            with contextlib.suppress(Exception):
                self.voice.close()


def install_signal_handlers(events: EventQueue, *, hangup_quits: bool = False) -> None:
    """SIGTERM/SIGINT only enqueue a shutdown: the loop saves and returns.

    SIGHUP means two things. To ``run`` (a service, no terminal) it asks for the config
    to be read again (while ``run`` waits for a fixed one; the playing table ignores it
    rather than dying of the default action). To the simulator (``hangup_quits``) it is
    what it was made for: its terminal was closed (a closed window, ``tmux
    kill-session``), so it saves and exits like SIGTERM instead of playing on unseen.

    A signal that came before this call, while ``run`` was still starting, was noted by
    :mod:`controller.early_signals` and is acted on here, as if it came now.
    """

    def handler(signum: int, frame: FrameType | None) -> None:
        events.put(ShutdownEvent(reason=signal.Signals(signum).name))

    def reload(signum: int, frame: FrameType | None) -> None:
        events.put(ReloadEvent())

    actions: dict[int, Callable[[int, FrameType | None], None]] = {
        signal.SIGTERM: handler,
        signal.SIGINT: handler,
    }
    if hasattr(signal, "SIGHUP"):
        actions[signal.SIGHUP] = handler if hangup_quits else reload
    for signum, action in actions.items():
        signal.signal(signum, action)
    # what arrived while the program was still importing (controller.early_signals)
    for noted in early_signals.take():
        if noted in actions:
            actions[noted](noted, None)
