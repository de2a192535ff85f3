"""A wrong config shows on the panel, and the table waits for the file to be fixed.

systemd restarts a failed ``spieltisch run`` every few seconds, for ever. Exiting on a
bad config would leave the table dark in that restart loop, and the family at the table
would see a dead box with no idea why. So when the ``[display]`` section alone is usable,
``run`` opens the panel and scrolls the error there (the key and what is allowed), logs
the same line once, and reads the file again on SIGHUP and every few seconds. As soon
as the file is right, :meth:`ConfigWait.run` returns the new config and the table starts
as usual. Where not even the display can be used, ``run`` exits with :data:`EX_CONFIG`,
which the unit's ``RestartPreventExitStatus=`` keeps from spinning.

A fresh install may not know its panel yet (``display.type = "none"``, what
``install.sh --panel none`` writes). That is no error, only a step still to do, so the
same wait covers it: the unit is started (READY) with a status that says what to set,
``systemctl status`` shows it, and the table starts once the file names a panel.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from controller.config import Config, ConfigError, load_table_config
from controller.events import EventQueue, ReloadEvent, ShutdownEvent
from controller.i18n import _
from controller.scene import MessageScene
from controller.sdnotify import Notifier
from controller.views.text import SCROLL_PX_PER_S
from hardware.interfaces import Display
from hardware.specs import PANELS

log = logging.getLogger(__name__)

EX_CONFIG = 78
"""sysexits(3) EX_CONFIG: the unit does not restart on it (nothing would change)."""

RECHECK_S = 3.0
"""How often the file is read again without a SIGHUP: quick enough that a builder who
fixed the file over SSH sees the table come up at once, cheap enough to be invisible."""


class PanelNotChosen(ConfigError):
    """The config is right but names no panel yet (``display.type = "none"``)."""


def unchosen_panel(config: Config) -> PanelNotChosen | None:
    """A :class:`PanelNotChosen` naming what to set when ``config`` has no panel, else None."""
    if config.hardware.display.type != "none":
        return None
    return PanelNotChosen(
        [
            f"no panel chosen yet: set display.type in {config.source} to one of "
            f"{', '.join(PANELS)} (or run: sudo systemd/install.sh --panel TYPE)"
        ]
    )


def panel_text(error: ConfigError) -> str:
    """The errors without the file path (the panel is small; the log has the path)."""
    if isinstance(error, PanelNotChosen):
        return _("no panel chosen yet")
    lines = []
    for line in error.errors:
        _path, sep, rest = line.partition(": ")
        lines.append(rest if sep and rest else line)
    return _("config: {errors}").format(errors=" | ".join(lines))


class ConfigWait:
    """Shows a :class:`ConfigError` on ``display`` until ``path`` loads cleanly.

    The loop is a small one of its own (not the table's): there is no game, no buttons
    and no state to save, only a scrolling message, the watchdog and the file.
    """

    def __init__(
        self,
        path: Path,
        error: ConfigError,
        display: Display,
        render: Callable[[MessageScene, int, int, str], object],
        events: EventQueue,
        notifier: Notifier,
        clock: Callable[[], float] = time.monotonic,
        recheck_s: float = RECHECK_S,
    ) -> None:
        self.path = path
        self.error = error
        self.display = display
        self.render = render
        self.events = events
        self.notifier = notifier
        self.clock = clock
        self.recheck_s = recheck_s
        self.start = clock()
        self.next_check = self.start + recheck_s
        self.next_ping = self.start
        self.frames = 0
        self.checks = 0

    @property
    def text(self) -> str:
        return panel_text(self.error)

    def report(self, log_errors: bool = True) -> None:
        """The same words in the journal, once per distinct error, and to systemd."""
        if isinstance(self.error, PanelNotChosen):
            log.warning("%s", self.error.errors[0])
            log.warning(
                "waiting for a panel in %s (re-read on SIGHUP and every %.0f s)",
                self.path,
                self.recheck_s,
            )
            self.notifier.notify(f"READY=1\nSTATUS={self.error.errors[0]}")
            return
        if log_errors:
            for line in self.error.errors:
                log.error("config error: %s", line)
        log.error(
            "waiting for a fixed %s (re-read on SIGHUP and every %.0f s)", self.path, self.recheck_s
        )
        self.notifier.notify(f"READY=1\nSTATUS=config error: {self.error.errors[0]}")

    def draw(self, now: float) -> None:
        scene = MessageScene(self.text, now - self.start, "error")
        image = self.render(scene, self.display.width, self.display.height, self.display.mode)
        try:
            self.display.show(image)  # type: ignore[arg-type]
        except OSError as exc:
            if self.frames == 0:
                log.error("cannot show the config error on the panel: %s", exc)
        self.frames += 1

    def check(self, now: float) -> Config | None:
        """Read the file again: the config if it is right now, else None."""
        self.checks += 1
        self.next_check = now + self.recheck_s
        try:
            config = load_table_config(self.path)
            pending = unchosen_panel(config)
            if pending is not None:
                raise pending
        except ConfigError as exc:
            if exc.errors != self.error.errors:
                self.error = exc
                self.report()
            return None
        log.info("config %s is fixed; starting the table", self.path)
        return config

    def ping(self, now: float) -> None:
        interval = self.notifier.watchdog_interval
        if interval and now >= self.next_ping:
            self.notifier.watchdog()
            self.next_ping = now + interval

    def run(self, errors_logged: bool = False) -> Config | None:
        """Wait until the file is fixed (its config) or a shutdown arrives (None)."""
        self.report(log_errors=not errors_logged)
        frame_s = 1.0 / SCROLL_PX_PER_S  # one scroll step per frame, never more often
        next_frame = self.start
        while True:
            now = self.clock()
            if now >= next_frame:
                self.draw(now)
                next_frame = now + frame_s
            self.ping(now)
            deadlines = [next_frame, self.next_check]
            if self.notifier.watchdog_interval:
                deadlines.append(self.next_ping)
            event = self.events.get(max(0.0, min(deadlines) - self.clock()))
            if isinstance(event, ShutdownEvent):
                log.info("stopped while waiting for a fixed config (%s)", event.reason)
                return None
            now = self.clock()
            if isinstance(event, ReloadEvent) or now >= self.next_check:
                config = self.check(now)
                if config is not None:
                    return config
