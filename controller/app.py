"""Assemble the appliance: config -> hardware -> table + loop, and run it.

``spieltisch run`` (systemd) and ``spieltisch sim`` (a laptop) both end here; they
differ only in the config (real panel and GPIO buttons vs. an emulator window and the
keyboard). Tests build an :class:`Appliance` with injected fakes: luma's dummy device,
gpiozero's MockFactory pins, a temp state directory and a fake clock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import logging
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from controller.bot_worker import BotWorker
from controller.config import Config
from controller.events import EventQueue, ReloadEvent, ShutdownEvent
from controller.history.keeper import HistoryKeeper
from controller.i18n import N_, _
from controller.loop import Loop, Renderer
from controller.persistence import CorruptSaveError, SaveStore
from controller.scene import STATISTICS_ITEM, MenuItem, MessageScene
from controller.sdnotify import Notifier
from controller.session import Session
from controller.state_dir import is_usable_directory, report_unusable
from controller.table import Table, TableOptions, bot_kind, default_menu
from hardware.interfaces import Display, InputBackend, Sound

log = logging.getLogger(__name__)

DEFAULT_STATE_DIR = Path("/var/lib/spieltisch")

SAVE_WARNING_S = 4.0
RETRY_S = 2.0
"""While saving or recording fails, both are tried again this often."""
_SAVE_PROBLEMS = {
    errno.ENOSPC: N_("disk full"),
    errno.EDQUOT: N_("disk full"),
    errno.EROFS: N_("disk read-only"),
    errno.EACCES: N_("no permission"),
    errno.EPERM: N_("no permission"),
    errno.EEXIST: N_("not a directory"),
    errno.ENOTDIR: N_("not a directory"),
}


DISK_ERROR = N_("disk error")


def save_warning(exc: OSError) -> str:
    """A few words for the panel: why the game is not being saved."""
    problem = _(_SAVE_PROBLEMS.get(exc.errno or 0, DISK_ERROR))
    return _("not saved: {problem}").format(problem=problem)


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
    for key, value in overrides.items():
        setattr(options, key, value)
    return options


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
    ) -> None:
        self.config = config
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
        self.history: HistoryKeeper | None = None
        """Every game played is recorded in the state directory (controller.history.store)."""
        if state_dir is not None:
            self.history = HistoryKeeper(
                state_dir,
                options.seat_count,
                self._history_failed,
                bot_kind,
                notice=lambda text: self.table.flash(text, SAVE_WARNING_S),
            )
            options = dataclasses.replace(options, menu=(*options.menu, STATISTICS_ITEM))
        self.table = Table(
            options,
            sound=sound,
            save=self._save,
            ask_bot=self.worker.request if self.worker else None,
            poweroff=self._request_poweroff if poweroff is not None else None,
            record=self.history.record if self.history else None,
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
        )
        for backend in self.inputs:
            # Only backends that must be pumped from this thread (pygame's keyboard) say
            # how often; GPIO buttons time their own debounce, and polling them here would
            # wake an idle table 50 times a second.
            poll = getattr(backend, "poll", None)
            interval = getattr(backend, "poll_interval", None)
            if poll is not None and interval is not None:
                self.loop.add_poller(poll, float(interval))
        self.save_failures = 0
        """Every failed save since start (diagnostics and tests)."""
        self.failing_saves = 0
        """Failed saves in a row: the panel warns once per run of failures."""
        self._retrying = False

    def _save(self, session: Session | None) -> None:
        """Save after a move. A full, read-only or forbidden state directory must not
        stop the game: the old save stays whole (the write is atomic), the panel shows
        a short warning when saving starts failing, and saving is retried every
        :data:`RETRY_S` seconds (and with the next move) until it works. Game records
        the history could not write yet travel inside the save, and are written to
        the history as soon as a save succeeds again."""
        if self.store is None:
            return
        pending = self.history.pending() if self.history is not None else []
        try:
            self.store.save(session, pending)
        except OSError as exc:
            self.save_failures += 1
            self.failing_saves += 1
            if self.failing_saves == 1:
                log.error("saving the game failed: %s; the game goes on", exc)
                self.table.flash(save_warning(exc), SAVE_WARNING_S)
            self._keep_retrying()
            return
        if self.failing_saves:
            log.warning("saving works again after %d failed saves", self.failing_saves)
            self.failing_saves = 0
            self.store.reserve.ensure()
        if self.history is not None and self.history.backlog:
            self.history.flush()
        if pending and self.history is not None and not self.history.backlog:
            with contextlib.suppress(OSError):  # written: the save need not carry them
                self.store.save(session)
        if not self.history or not self.history.backlog:
            self.loop.remove_poller(self._retry)
            self._retrying = False

    def _keep_retrying(self) -> None:
        """Retry the save (and the records) every :data:`RETRY_S` s while they fail,
        also while nobody plays: a game that ended on a full disk is written as soon
        as the disk has room, not when the next game starts."""
        if not self._retrying:
            self._retrying = True
            self.loop.add_poller(self._retry, RETRY_S)
            self.loop.pollers[-1][2] = self.loop.clock() + RETRY_S

    def _retry(self) -> None:
        self._save(self.table.session)

    def _history_failed(self, exc: OSError) -> None:
        """A record could not be written: the same warning as a failed save, and it is
        retried until it is written (it travels in the save meanwhile)."""
        self.table.flash(save_warning(exc), SAVE_WARNING_S)
        self._keep_retrying()

    def start(self, new_game: Session | None = None) -> None:
        """Start ``new_game`` if given (it replaces any saved game, as a game chosen in
        the menu does), else resume a saved game (or report a bad save); then start the
        inputs."""
        self.table.at(self.loop.clock())
        readable = self.store is not None and self._prepare_state_dir(self.store)
        if self.history is not None and (notice := self.history.open()) is not None:
            self.table.flash(notice, SAVE_WARNING_S)
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
        if new_game is not None:
            self.table.start_session(new_game)
        elif resume is not None:
            log.info("resuming %s/%s, %s to play", resume.game, resume.preset, resume.player)
            self.table.start_session(resume)
        for backend in self.inputs:
            backend.start(self.events.put)

    def _prepare_state_dir(self, store: SaveStore) -> bool:
        """Make the state directory. One that cannot be made or written (a file in its
        place, a read-only disk) is one line in the log and "not saved: ..." on the
        panel, and the table plays on; the saves that follow fail quietly until the
        disk lets them. Returns whether a save there can still be read (a read-only
        disk still resumes its game)."""
        try:
            store.prepare()
        except OSError as exc:
            report_unusable(store.directory, exc)
            self.failing_saves = 1  # said once: the failed saves that follow are quiet
            self.table.flash(save_warning(exc), SAVE_WARNING_S)
            return is_usable_directory(store.directory)
        return True

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
                self.display.show(image)  # type: ignore[arg-type]
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
        if self.history is not None:
            self.history.close()
        with contextlib.suppress(Exception):
            self.display.close()
        if self.sound is not None:
            with contextlib.suppress(Exception):
                self.sound.close()


def install_signal_handlers(events: EventQueue, *, hangup_quits: bool = False) -> None:
    """SIGTERM/SIGINT only enqueue a shutdown: the loop saves and returns.

    SIGHUP means two things. To ``run`` (a service, no terminal) it asks for the config
    to be read again (while ``run`` waits for a fixed one; the playing table ignores it
    rather than dying of the default action). To the simulator (``hangup_quits``) it is
    what it was made for: its terminal was closed (a closed window, ``tmux
    kill-session``), so it saves and exits like SIGTERM instead of playing on unseen.
    """

    def handler(signum: int, frame: FrameType | None) -> None:
        events.put(ShutdownEvent(reason=signal.Signals(signum).name))

    def reload(signum: int, frame: FrameType | None) -> None:
        events.put(ReloadEvent())

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, handler if hangup_quits else reload)
