"""The appliance's page, started beside the table instead of before it.

Importing aiohttp and announcing ``spieltisch.local`` over mDNS took as long as the
whole rest of the start (3.4 s to READY without the page, 7.0 s with it, on a laptop;
a Pi Zero 2 W pays several times that). systemd waits for READY, which the table sends
with its first frame, and a family waits for the panel. So the page starts on its own
thread while the table already plays; it talks to the table only through the event
queue and the publisher, as it always did, so nothing else changes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from controller.web.attach import serve
from controller.web.publish import FramePublisher

if TYPE_CHECKING:
    from controller.app import Appliance
    from controller.web.mdns import Announcement
    from controller.web.server import WebServer

log = logging.getLogger(__name__)

START_WAIT_S = 30.0
"""How long :meth:`PageBeside.close` waits for a start still under way (a slow SD card
importing aiohttp), so that a table stopped early never leaves the server behind."""


class PageBeside:
    """Starts the server, then the mDNS announcement, on a thread of its own."""

    def __init__(
        self,
        app: Appliance,
        publisher: FramePublisher,
        port: int,
        phone_seats: Sequence[int] = (),
        config_path: Path | None = None,
        language: str | None = None,
    ) -> None:
        self.server: WebServer | None = None
        self.announcement: Announcement | None = None
        self._thread = threading.Thread(
            target=self._start,
            args=(app, publisher, port, tuple(phone_seats), config_path, language),
            name="companion-page-start",
            daemon=True,
        )

    def start(self) -> PageBeside:
        self._thread.start()
        return self

    def _start(
        self,
        app: Appliance,
        publisher: FramePublisher,
        port: int,
        phone_seats: Sequence[int],
        config_path: Path | None,
        language: str | None,
    ) -> None:
        server = serve(app, publisher, port, phone_seats, config_path, language)
        if server is None:
            return  # serve() has said why, in one line; the table plays on
        self.server = server
        from controller.web.mdns import announce

        self.announcement = announce(server.port)

    def refresh_addresses(self) -> None:
        """The host's addresses changed (a network was joined): announce the name at
        them, or announce it at all if that failed at the start (no network then)."""
        if self._thread.is_alive() or self.server is None:
            return
        from controller.web.mdns import announce

        try:
            if self.announcement is None:
                self.announcement = announce(self.server.port)
            else:
                self.announcement.refresh()
        except Exception as exc:  # mDNS is a convenience: the page works by its address
            log.error("cannot announce spieltisch.local again: %s", exc)

    def close(self) -> None:
        """Withdraw the announcement and stop the server, once its start is over."""
        self._thread.join(START_WAIT_S)
        if self._thread.is_alive():
            log.error("companion page: its start did not finish in %.0f s", START_WAIT_S)
            return
        if self.announcement is not None:
            self.announcement.close()
        if self.server is not None:
            self.server.stop()
