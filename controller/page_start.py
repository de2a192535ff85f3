"""Start a game that the companion page's Setup asked for, and take the settings it
saved, on the loop thread.

The page only puts a :class:`~controller.events.StartGameEvent` on the queue; here the
table starts it (the machine's ``start_from_page``) from the same places its own menu
starts one (the menu, the setup, the statistics, a message, a game that is over) and
never in the middle of a game: a game
being played is ended only at the table, with the system button, so nobody on the
network can end it for the players. Every refusal is a notice on the panel.

Saved settings that concern only time and light (the move timer, the brightness, the
sleep time) change the running table's knobs here, between two events, exactly as if
it had started with them: a move timer already counting down runs out as it began,
the next one is the new length; sleep is measured from the last press with the new
minutes. Nothing the players chose for the game on the table changes.
"""

from __future__ import annotations

import logging

from controller.events import SettingsEvent, StartGameEvent
from controller.i18n import _
from controller.machine import page_may_start
from controller.session import Session
from controller.table import Table
from hardware.interfaces import Display
from rules.errors import RulesError

log = logging.getLogger(__name__)

NOTICE_S = 3.0


def game_on(table: Table) -> bool:
    """A game is being played (or the table is shutting down): no start from the page."""
    return not page_may_start(table.state)


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
        session = Session.start(
            event.game, event.preset, kinds[:count], bot=event.bot, people=dict(event.people)
        )
    except (RulesError, ValueError) as exc:
        log.warning("the page's game does not start: %s", exc)
        table.flash(_("cannot start that game"), NOTICE_S)
        return False
    log.info("the companion page starts %s/%s", event.game, session.preset)
    started = table.trigger("start_from_page", session)
    if started:
        table.begun_from_page(session)
    return started


def settings_saved(table: Table, display: Display, event: SettingsEvent) -> None:
    """Use ``event``'s move timer, brightness and sleep time from now on."""
    table.retime(event.move_timer_s, event.sleep_after_min * 60.0)
    try:
        display.set_brightness(event.brightness)
    except (OSError, ValueError) as exc:  # the config's check allows 0..1 only
        log.warning("the page's brightness %s is not set: %s", event.brightness, exc)
    log.info(
        "the companion page set the move timer %.1f s, brightness %.2f, sleep %.1f min",
        event.move_timer_s,
        event.brightness,
        event.sleep_after_min,
    )
    table.redraw()
