"""Start a game that the companion page's Setup asked for, on the loop thread.

The page only puts a :class:`~controller.events.StartGameEvent` on the queue; here the
table starts it from the same places its own menu starts one (the menu, the setup, the
statistics, a message, a game that is over) and never in the middle of a game: a game
being played is ended only at the table, with the system button, so nobody on the
network can end it for the players. Every refusal is a notice on the panel.
"""

from __future__ import annotations

import logging

from controller.events import StartGameEvent
from controller.i18n import _
from controller.machine import Mode
from controller.session import Session
from controller.table import Table
from rules.errors import RulesError

log = logging.getLogger(__name__)

NOTICE_S = 3.0
STARTABLE = (Mode.MENU, Mode.SETUP, Mode.STATISTICS, Mode.MESSAGE, Mode.GAME_OVER)
"""Where the table's own menu could start a game, or is one press away from it."""


def game_on(table: Table) -> bool:
    """A game is being played (or the table is shutting down): no start from the page."""
    return table.state not in STARTABLE


def start_requested(table: Table, event: StartGameEvent) -> bool:
    """Start ``event``'s game at ``table``; False (and a notice) where it cannot."""
    if game_on(table):
        table.flash(_("game on: end it first"), NOTICE_S)
        return False
    count = table.options.seat_count
    kinds = list(event.seats) + ["empty"] * (count - len(event.seats))
    try:
        if any(kind != "empty" for kind in kinds[count:]):
            raise ValueError(f"a player at a seat beyond the table's {count}")
        session = Session.start(event.game, event.preset, kinds[:count], bot=event.bot)
    except (RulesError, ValueError) as exc:
        log.warning("the page's game does not start: %s", exc)
        table.flash(_("cannot start that game"), NOTICE_S)
        return False
    if table.state is Mode.GAME_OVER:
        table.finish()
    elif table.state is Mode.STATISTICS:
        table.back()
    elif table.state is Mode.MESSAGE:
        table.dismiss()
    log.info("the companion page starts %s/%s", event.game, session.preset)
    table.start_session(session)
    return True
