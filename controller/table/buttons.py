"""The table's buttons: a press's kind (down, held, up), the system button's timing,
and waking from sleep.

Why apart from the table: what a press *does* in each state is the machine's table of
button triggers (``BUTTONS`` in :mod:`controller.machine`), a held OK that hurries the
bots and a long system press during an animation included; this room only says which
trigger a press is, or that it is swallowed because it woke the panel. The table fires
the trigger (:class:`Press`); nothing here writes into it.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.session import Session
from controller.table.clock import TableTime
from hardware.interfaces import ButtonEvent


@dataclass(frozen=True)
class Press:
    """What a press is: the machine's ``trigger`` to fire (None: none), whether the
    press ``woke`` the panel (and does nothing else), whether it is a ``seat``'s press
    (one its state does not list counts as ignored), and whether to draw again."""

    trigger: str | None = None
    woke: bool = False
    seat: bool = False
    redraw: bool = False


class Buttons:
    def __init__(self) -> None:
        self.swallowed: set[tuple[int | None, str]] = set()
        """Buttons whose press woke the panel: their held and up events are dropped."""
        self.system_was_held = False

    def press(self, event: ButtonEvent, time: TableTime) -> Press:
        """Which trigger ``event`` is (the time is handed already)."""
        key = (event.seat, event.button)
        if key in self.swallowed:
            if event.kind == "up":
                self.swallowed.discard(key)
            return Press()
        if event.kind == "down":
            time.pressed()
            if time.asleep:
                self.swallowed.add(key)
                return Press(woke=True)
        if event.button == "system":
            return Press(self.system(event, time), redraw=True)
        if event.kind == "up" or event.seat is None:
            return Press()
        trigger = event.button if event.kind == "down" else f"{event.button}_{event.kind}"
        return Press(trigger, seat=True, redraw=True)

    def system(self, event: ButtonEvent, time: TableTime) -> str | None:
        """The system button's own timing (a very long press shuts down: the table's
        ``tick``); a held or tapped press is the machine's ``system_held``/``system_tap``."""
        if event.kind == "down":
            time.system_down()
            self.system_was_held = False
            return None
        if event.kind == "up":
            tapped = time.system_up() and not self.system_was_held
            return "system_tap" if tapped else None
        self.system_was_held = True
        return "system_held"


def seat_on_turn(session: Session, event: ButtonEvent | None) -> bool:
    """The shared guard: the press comes from the seat whose player is on turn (an
    automatic roll: any human)."""
    player = session.player
    seat = None if event is None else event.seat
    if seat is None or player is None or session.is_bot(player):
        return False
    if player not in session.seats:
        return any(session.kinds[p] == "human" for p in session.seats)
    return session.seats[player] == seat


def bots_on_turn(session: Session | None) -> bool:
    """Only bots (or the table itself: an automatic roll) are on turn now (the machine
    asks this only in the states where someone is on turn)."""
    if session is None:
        return False
    player = session.player
    return player is None or session.is_bot(player) or player not in session.seats
