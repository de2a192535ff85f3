"""The table's buttons: a press's kind (down, held, up), the system button's timing,
waking from sleep, and a held OK that hurries the bots.

Why apart from the table: what a press *does* in each state is the machine's table of
button triggers; this object only decides which trigger a press is (or that it is
swallowed, or that it hurries the bots), and then fires it on the table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from controller.machine import Mode
from controller.session import Session
from controller.table.banner import Banner
from controller.table.clock import TableTime
from controller.table.motion import Motion
from controller.table.options import TableOptions
from controller.table.turns import Turns
from hardware.interfaces import ButtonEvent

log = logging.getLogger(__name__)

NO_TURN = (Mode.MENU, Mode.SETUP, Mode.GAME_OVER, Mode.CONFIRM_MENU, Mode.MESSAGE, Mode.SHUTDOWN)
"""States in which nobody is on turn (a held OK hurries nobody)."""


class ButtonTable(Protocol):
    """What the presses use of the table (``controller.table.Table``)."""

    state: Mode
    options: TableOptions
    time: TableTime
    session: Session | None
    motion: Motion
    banner: Banner
    turns: Turns
    machine: Any
    poweroff: Callable[[], None] | None
    since: float
    over_since: float
    dirty: bool
    ignored_presses: int

    @property
    def now(self) -> float: ...

    def require_session(self) -> Session: ...
    def clear_action(self, *_press: object) -> None: ...
    def trigger(self, name: str, *args: object) -> bool: ...
    def shut_down(self) -> bool: ...


class Buttons:
    def __init__(self, table: ButtonTable) -> None:
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
                self.wake()
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

    def seat_on_turn(self, event: ButtonEvent | None) -> bool:
        """The shared guard: the press comes from the seat whose player is on turn (an
        automatic roll: any human)."""
        session = self.table.require_session()
        player = session.player
        seat = None if event is None else event.seat
        if seat is None or player is None or session.is_bot(player):
            acts = False
        elif player not in session.seats:
            acts = any(session.kinds[p] == "human" for p in session.seats)
        else:
            acts = session.seats[player] == seat
        self.table.ignored_presses += not acts
        return acts

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

    def waiting_for_a_person(self) -> bool:
        """Nothing will happen until someone presses: the panel may fall asleep."""
        busy = (Mode.ROLLING, Mode.MOVING, Mode.NEXT_TURN, Mode.SHUTDOWN)
        return self.table.time.idle() and self.table.state not in busy

    def wake(self) -> None:
        self.table.time.asleep = False
        self.table.since = self.table.banner.since = self.table.over_since = self.table.time.now
        self.table.dirty = True

    def shutdown_held(self) -> bool:
        """The system button has been held for ``shutdown_hold_s``: the table shuts
        down (and asks for the power to go off)."""
        held = self.table.time.shutdown_due()
        if held is None:
            return False
        if self.table.state is not Mode.SHUTDOWN:
            log.warning("system button held %.1f s: shutting down", held)
            self.table.shut_down()
            if self.table.poweroff is not None:
                self.table.poweroff()
        return True

    def fall_asleep(self) -> bool:
        """After ``sleep_after_s`` without a press, while the table waits for a person,
        the panel sleeps; True when it just fell asleep."""
        sleep = self.table.time.sleep_at(self.waiting_for_a_person())
        if sleep is None or self.table.now < sleep:
            return False
        self.table.time.asleep = True
        return True
