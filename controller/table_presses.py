"""The table's buttons: a press's kind (down, held, up), the system button's timing,
waking from sleep, and a held OK that hurries the bots.

Why apart from the table: what a press *does* in each state is the machine's table of
button triggers; this object only decides which trigger a press is (or that it is
swallowed, or that it hurries the bots), and then fires it on the table.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from controller.machine import Mode
from hardware.interfaces import ButtonEvent

if TYPE_CHECKING:
    from controller.table import Table

log = logging.getLogger(__name__)

NO_TURN = (Mode.MENU, Mode.SETUP, Mode.GAME_OVER, Mode.CONFIRM_MENU, Mode.MESSAGE, Mode.SHUTDOWN)
"""States in which nobody is on turn (a held OK hurries nobody)."""


class Presses:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.swallowed: set[tuple[int | None, str]] = set()
        """Buttons whose press woke the panel: their held and up events are dropped."""
        self.system_was_held = False

    def handle(self, event: ButtonEvent) -> None:
        """Which trigger ``event`` is, fired on the table (the time is handed already)."""
        now = self.table.time.now
        key = (event.seat, event.button)
        if key in self.swallowed:
            if event.kind == "up":
                self.swallowed.discard(key)
            return
        if event.kind == "down":
            self.table.time.last_activity = now
            if self.table.time.asleep:
                self.table.wake()
                self.swallowed.add(key)
                return
        if event.button == "system":
            self.handle_system(event)
            self.table.dirty = True
        elif event.kind == "up" or event.seat is None:
            return
        elif event.button == "ok" and event.kind == "held" and self.bots_on_turn():
            self.hurry_up()
        else:
            trigger = event.button if event.kind == "down" else f"{event.button}_{event.kind}"
            if trigger in self.table.machine.get_triggers(self.table.state):
                self.table.trigger(trigger, event)  # a failed guard counts itself as ignored
            else:
                self.table.ignored_presses += 1  # harmless: this state does not list that press
            self.table.dirty = True

    def handle_system(self, event: ButtonEvent) -> None:
        """The system button's own timing (a very long press shuts down, :meth:`tick`);
        what a held or tapped press does is the machine's ``system_held``/``system_tap``."""
        if event.kind == "down":
            self.table.time.system_down_at = self.table.time.now
            self.system_was_held = False
        elif event.kind == "up":
            tapped = self.table.time.system_down_at is not None and not self.system_was_held
            self.table.time.system_down_at = None
            if tapped:
                self.table.trigger("system_tap", event)
        elif event.kind == "held":
            self.system_was_held = True
            self.cut_short_then_system_held(event)

    def cut_short_then_system_held(self, event: ButtonEvent | None = None) -> None:
        """A long press is never lost to an animation: the roll or move already happened
        in the session, so its animation is cut short first, and the press then counts
        for the state that follows ("back to menu?", or the menu after a game the move
        ended), as the machine's ``system_held`` says."""
        if self.table.state in (Mode.ROLLING, Mode.MOVING):
            self.table.clear_action()
            if self.table.state is Mode.ROLLING:
                self.table.turns.finish_roll()
            else:
                self.table.turns.finish_move()
        self.table.trigger("system_held", event)

    def bots_on_turn(self) -> bool:
        """Only bots (or the table itself: an automatic roll) are on turn now."""
        if self.table.session is None or self.table.state in NO_TURN:
            return False
        player = self.table.session.player
        return (
            player is None
            or self.table.session.is_bot(player)
            or player not in self.table.session.seats
        )

    def hurry_up(self) -> None:
        """A held OK: what is scheduled and what animates now runs at the fast pace."""
        if not self.table.time.hurry_up():
            return
        if self.table.state in (Mode.ROLLING, Mode.MOVING) and self.table.motion.length > 0:
            self.table.motion.hurry(self.table.time.now, self.table.options.fast_factor)
        self.table.dirty = True
