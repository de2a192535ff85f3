"""Put the companion page beside a table: the mirror in the display chain, the server
started once the appliance exists. ``run`` and ``sim`` call these two functions only
when the page is switched on, so that without it nothing of the page is imported."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from controller.page_start import game_on
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
    config_path: Path | None = None,
    language: str | None = None,
) -> WebServer | None:
    """Start the server for ``app``; None (and one logged line) if it cannot listen or
    aiohttp is missing: the table plays on without its page. ``config_path`` is the
    file the Setup page saves to (the one the appliance was started with; None: the
    page cannot save), and the history is read from ``app``'s state directory.
    ``language`` is the table's language setting (the config's or ``--lang``; None
    leaves the pages' language to the browser, as the table leaves its own to the
    locale)."""
    table = app.table
    publisher.status_source = table.status
    publisher.dice_source = lambda: table.motion.last_dice
    publisher.playing_source = lambda: game_on(table)
    try:
        from controller.web.server import WebServer

        server = WebServer(
            publisher,
            app.events,
            port,
            phone_seats=phone_seats,
            hold_s=app.config.buttons.hold_s,
            config_path=config_path,
            state_dir=app.store.directory if app.store is not None else None,
            language=language,
        ).start()
    except ImportError as exc:
        log.error("companion page off: %s (install spieltisch[web])", exc)
        return None
    except OSError as exc:
        log.error("companion page off: %s", exc)
        return None
    log.warning("companion page on http://0.0.0.0:%d/", server.port)
    return server
