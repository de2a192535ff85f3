"""The running table's side: the network's status file, turned into notices.

A thread of its own looks at the file every :data:`POLL_S` seconds (one ``stat`` of a
file in /run; it is read only when it changed) and puts a
:class:`~controller.events.NoticeEvent` on the table's queue when there is something
new to say, and again every :data:`REPEAT_S` while the hotspot waits for a phone, so a
family that looks up later still finds the name and password. The loop never reads
the file and never waits for it: a missing, stale or damaged file shows nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path

from controller.appliance import panel, status
from controller.appliance.status import HOTSPOT, ONLINE, NetworkStatus
from controller.events import EventQueue, NoticeEvent

log = logging.getLogger(__name__)

POLL_S = 2.0
SHOW_S = 40.0
"""How long one notice stays over the board: the hotspot's line scrolls by twice."""
REPEAT_S = 120.0
"""How often the hotspot's notice comes back while no phone has set up the network."""


class NetworkWatch:
    def __init__(
        self,
        path: Path,
        events: EventQueue,
        clock: Callable[[], float] = time.monotonic,
        poll_s: float = POLL_S,
        on_online: Callable[[], None] | None = None,
    ) -> None:
        self.path = path
        self.events = events
        self.clock = clock
        self.poll_s = poll_s
        self.on_online = on_online
        """Called (on this thread) when the table went online: the companion page
        announces ``spieltisch.local`` at the new address."""
        self.stamp: tuple[int, int] | None = None
        self.shown: NetworkStatus | None = None
        self.shown_at = 0.0
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def check(self) -> NoticeEvent | None:
        """Look at the file once; the notice put on the queue, if any."""
        try:
            info = self.path.stat()
        except OSError:
            return None
        stamp = (info.st_mtime_ns, info.st_ino)
        now = self.clock()
        current = self.shown
        if stamp != self.stamp:
            self.stamp = stamp
            current = status.read(self.path) or current
        if current is None:
            return None
        repeat = current.state == HOTSPOT and now - self.shown_at >= REPEAT_S
        if current == self.shown and not repeat:
            return None
        self.shown, self.shown_at = current, now
        if current.state == ONLINE and self.on_online is not None:
            self.on_online()  # a new address (the unchanged status returned above)
        text = panel.words(current)
        if not text:
            return None
        notice = NoticeEvent(text, SHOW_S, panel.qr_rows(current))
        log.info("network on the panel: %s", text if current.state != HOTSPOT else current.state)
        self.events.put(notice)
        return notice

    def start(self) -> NetworkWatch:
        self.thread = threading.Thread(target=self._run, name="network-watch", daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        while True:
            try:
                self.check()
            except Exception:  # a notice is never worth the table
                log.exception("network status watch failed")
            if self.stop.wait(self.poll_s):
                return

    def close(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(5.0)
