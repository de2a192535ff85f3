"""Put the companion page beside a table: the mirror in the display chain, the server
started once the appliance exists. ``run`` and ``sim`` call these two functions only
when the page is switched on, so that without it nothing of the page is imported."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from controller.web.publish import FramePublisher
from hardware.interfaces import Display
from hardware.tee import TeeDisplay

if TYPE_CHECKING:
    from controller.app import Appliance
    from controller.web.server import WebServer

log = logging.getLogger(__name__)


def mirrored(display: Display) -> tuple[Display, FramePublisher]:
    """``display`` with a publisher beside it that sees every frame the panel shows."""
    publisher = FramePublisher(display.width, display.height, display.mode)
    return TeeDisplay(display, publisher), publisher


def serve(
    app: Appliance,
    publisher: FramePublisher,
    port: int,
    phone_seats: Sequence[int] = (),
) -> WebServer | None:
    """Start the server for ``app``; None (and one logged line) if it cannot listen or
    aiohttp is missing: the table plays on without its page."""
    table = app.table
    publisher.status_source = table.status
    publisher.dice_source = lambda: table.motion.last_dice
    try:
        from controller.web.server import WebServer

        server = WebServer(
            publisher,
            app.events,
            port,
            phone_seats=phone_seats,
            hold_s=app.config.buttons.hold_s,
        ).start()
    except ImportError as exc:
        log.error("companion page off: %s (install spieltisch[web])", exc)
        return None
    except OSError as exc:
        log.error("companion page off: %s", exc)
        return None
    log.warning("companion page on http://0.0.0.0:%d/", server.port)
    return server
