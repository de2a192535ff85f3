"""The loop: the one thread that owns the machine, the session and the display.

It sleeps on the event queue until the next deadline: one the table asked for (a bot's
delay, the move timer, sleep, a watchdog ping) or the moment the picture changes by
itself, which the views reported while drawing the last frame (a blink phase, a scroll
step, a countdown step, a dice flip; :mod:`controller.views.timing`). It draws exactly
then, and after anything that changed the table (a press shows in the very next frame).
A picture that does not change by itself, and a table with nothing due, block on the
queue with no timeout: no polling, no redraws, no CPU.

A frame identical to the one on the panel is not sent again (a press that changes
nothing, a blink phase hidden under a banner).

After drawing, the loop hands the prompts the table queued to the voice (which only
takes them: it speaks on a thread of its own), then carries out the saves and records
(a press lights its frame first, the fsync follows in the same iteration): it hands them to the
:class:`~controller.safekeeping.Safekeeping`, asks it to retry while the disk refuses,
and shows over the board what it says about a failure.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PIL import Image

from controller.events import (
    BotMoveEvent,
    EventQueue,
    NamesEvent,
    NoticeEvent,
    SettingsEvent,
    ShutdownEvent,
    StartGameEvent,
    StatusEvent,
    WakeEvent,
)
from controller.page_start import settings_saved, start_requested
from controller.safekeeping import SAVE_WARNING_S, Safekeeping
from controller.scene import AnyScene
from controller.table import Table
from controller.table.effects import Speak
from controller.views import qr, timing
from controller.voice.speaker import Voice
from hardware.display import DisplayClosed
from hardware.interfaces import ButtonEvent, Display

if TYPE_CHECKING:
    from controller.sim.status import TableStatus

log = logging.getLogger(__name__)

Renderer = Callable[[AnyScene, int, int, str], Image.Image]
"""(scene, width, height, mode) -> the frame: :func:`controller.views.render`."""
StatusView = Callable[["TableStatus", bool], None]
"""Where the table's status line goes beside the frame (the simulator's window and
terminal write it in words), given whether the frame is unchanged and must be drawn
again by the view itself."""

MIN_FRAME_GAP = 0.001
"""A view that reports a change at (or before) the moment it drew is redrawn no sooner
than this, so a rounding slip can never spin the loop."""


class Loop:
    def __init__(
        self,
        table: Table,
        events: EventQueue,
        display: Display,
        render: Renderer,
        clock: Callable[[], float] = time.monotonic,
        watchdog: Callable[[], None] | None = None,
        watchdog_interval: float | None = None,
        on_first_frame: Callable[[], object] | None = None,
        keeper: Safekeeping | None = None,
        voice: Voice | None = None,
        status_view: StatusView | None = None,
    ) -> None:
        self.table = table
        self.events = events
        self.display = display
        self.render = render
        self.qr: tuple[tuple[str, ...], float, float] | None = None
        """The pairing QR code's rows and when its notice began and ends."""
        self.clock = clock
        self.watchdog = watchdog
        self.watchdog_interval = watchdog_interval
        self.on_first_frame = on_first_frame
        self.keeper = keeper
        """Carries out saves and records (None: they are dropped, as in a demo)."""
        self.voice = voice
        """Says the table's prompts (None: they are dropped)."""
        self.status_view = status_view
        """Shows the status line in words (None: a panel shows none)."""
        self.frames = 0
        """Frames sent to the panel."""
        self.renders = 0
        """Pictures drawn (a picture equal to the one shown is not sent again)."""
        self.next_frame: float | None = None
        """When the picture on the panel changes by itself (None: it does not)."""
        self.last_image: bytes | None = None
        self.last_status: TableStatus | None = None
        self.display_failures = 0
        self.next_ping = 0.0
        self.running = False
        self.shutdown: ShutdownEvent | None = None
        self.panel_online = True
        self.pollers: list[list[Any]] = []  # [function, interval, next due]
        table.begin(clock(), panel=(display.width, display.height))

    def add_poller(self, poll: Callable[[], None], interval: float) -> None:
        """Call ``poll`` on this thread every ``interval`` s (pygame's event pump)."""
        self.pollers.append([poll, interval, 0.0])

    def remove_poller(self, poll: Callable[[], None]) -> None:
        """Stop calling ``poll`` (a retry that is no longer needed)."""
        self.pollers = [entry for entry in self.pollers if entry[0] != poll]

    def step(self, timeout_cap: float | None = None) -> bool:
        """One iteration: wait for an event or a deadline, handle it, draw if needed.
        Returns False once the loop should stop."""
        table = self.table
        now = self.clock()
        table.at(now)
        wake = table.next_wakeup()
        if self.next_frame is not None:
            wake = self.next_frame if wake is None else min(wake, self.next_frame)
        if self.watchdog is not None and self.watchdog_interval:
            wake = self.next_ping if wake is None else min(wake, self.next_ping)
        for _poll, _interval, due in self.pollers:
            wake = due if wake is None else min(wake, due)
        if self.keeper is not None and self.keeper.retry_at is not None:
            wake = self.keeper.retry_at if wake is None else min(wake, self.keeper.retry_at)
        timeout = None if wake is None else max(0.0, wake - now)
        if timeout_cap is not None:
            timeout = timeout_cap if timeout is None else min(timeout, timeout_cap)
        event = self.events.get(timeout)
        now = self.clock()
        if event is not None:
            self.dispatch(event, now)
        table.tick(now)
        self.ping(now)
        self.run_pollers(now)
        if table.dirty or (self.next_frame is not None and now >= self.next_frame):
            self.draw()
        self.carry_out(now)
        return not (table.stop_requested or self.shutdown is not None)

    def dispatch(self, event: object, now: float) -> None:
        table = self.table
        if isinstance(event, ButtonEvent):
            table.handle(event, now)
        elif isinstance(event, BotMoveEvent):
            table.bot_arrived(event.request, event.move, now)
        elif isinstance(event, ShutdownEvent):
            log.info("shutdown requested (%s)", event.reason)
            self.shutdown = event
            table.shutting_down(now)
        elif isinstance(event, StatusEvent):
            self.panel_online = event.online if event.device == "display" else self.panel_online
            text = f"{event.device} {'online' if event.online else 'offline'}"
            log.warning("%s %s", text, event.detail)
            shown = text if event.online else f"panel offline: {event.detail}"[:40]
            table.notify(shown, 2.5, now)
        elif isinstance(event, WakeEvent):
            table.redraw()
        elif isinstance(event, NoticeEvent):
            table.notify(event.text, event.seconds, now)
            self.qr = (event.qr, table.banner.since, table.banner.until) if event.qr else None
        elif isinstance(event, StartGameEvent):
            table.at(now)
            start_requested(table, event)
        elif isinstance(event, SettingsEvent):
            settings_saved(table, self.display, event)
        elif isinstance(event, NamesEvent) and self.voice is not None:
            self.voice.learn(event.names)

    def draw(self) -> None:
        table = self.table
        scene = table.scene()
        with timing.collect() as change:
            image = self.render(scene, self.display.width, self.display.height, self.display.mode)
            if self.qr is not None and table.now < self.qr[2]:
                image = qr.overlay(image, self.qr[0], table.now, self.qr[1])
        self.renders += 1
        table.drawn()
        self.next_frame = None
        if change.at is not None:
            self.next_frame = max(change.at, table.now + MIN_FRAME_GAP)
        pixels = image.tobytes()
        same = pixels == self.last_image
        self.hand_status(draw=same)
        if same:
            return
        try:
            self.display.show(image)
        except DisplayClosed:
            self.shutdown = ShutdownEvent(reason="window closed")
        except OSError as exc:
            # An unplugged panel must not stop the game: it stays saved and playable.
            self.display_failures += 1
            if self.display_failures == 1 or self.display_failures % 100 == 0:
                log.error("display failed (%d times): %s", self.display_failures, exc)
            self.last_image = None
        else:
            self.display_failures = 0
            self.last_image = pixels
        self.frames += 1
        if self.frames == 1 and self.on_first_frame is not None:
            self.on_first_frame()

    def carry_out(self, now: float) -> None:
        """Hand the prompts to the voice, carry out the saves and records the table
        queued, retry what failed if a retry is due, and show what the keeper says
        about it."""
        effects = self.table.take_effects()
        if self.voice is not None:
            for effect in effects:
                if isinstance(effect, Speak):
                    self.voice.say(effect.prompt)
        if self.keeper is None:
            return
        self.keeper.carry_out(effects)
        self.keeper.retry(now)
        for text in self.keeper.take_notices():
            self.table.notify(text, SAVE_WARNING_S, now)

    def first_frame(self) -> None:
        """The first frame, at once: what the start queued (a resumed game's save, a
        warning about the disk) is carried out first, so the frame already says it."""
        self.carry_out(self.clock())
        self.table.redraw()
        self.draw()

    def hand_status(self, draw: bool) -> None:
        """Give the status view (the simulator's words) the status line whenever it
        changed, even under an unchanged frame: a press in setup that changes only the
        words must show at once."""
        if self.status_view is None:
            return
        status = self.table.status()
        if status != self.last_status:
            self.last_status = status
            self.status_view(status, draw)

    def run_pollers(self, now: float) -> None:
        for entry in self.pollers:
            poll, interval, due = entry
            if now >= due:
                entry[2] = now + interval
                try:
                    poll()
                except DisplayClosed:
                    self.shutdown = ShutdownEvent(reason="window closed")

    def ping(self, now: float) -> None:
        if self.watchdog is None or not self.watchdog_interval:
            return
        if now >= self.next_ping:
            self.watchdog()
            self.next_ping = now + self.watchdog_interval

    def run(self) -> ShutdownEvent | None:
        """Run until shutdown; returns the shutdown event (None: the table stopped)."""
        self.running = True
        self.first_frame()
        try:
            while self.step():
                pass
        finally:
            self.running = False
            self.carry_out(self.clock())
        return self.shutdown
