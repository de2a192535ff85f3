"""The table's time: the moment it was handed, what is scheduled, the move timer, the
pace and sleep, in one object.

Why one object: every deadline the table keeps (a bot's delay, a roll's end, the move
timer, the long system press, sleep) is measured against the same ``now``, which the
loop hands over and nothing else writes. The table asks this object what is due and
when it must be woken, and tells it what happened (a press, a hurry).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Knobs(Protocol):
    """The options the time reads (``controller.table.options.TableOptions``)."""

    fast_factor: float
    sleep_after_s: float
    shutdown_hold_s: float


class TableTime:
    def __init__(self, options: Knobs) -> None:
        self.options = options
        self.now = 0.0
        self.action_at: float | None = None
        """When the one scheduled action (a bot's move, a roll's end, ...) is due."""
        self.action: Callable[[], object] | None = None
        self.timer_end: float | None = None
        """When the move timer runs out (None: no timer runs)."""
        self.timer_total: float | None = None
        self.hurry = False
        """A held OK is hurrying the bots along (until a human is on turn)."""
        self.last_activity = 0.0
        self.asleep = False
        self.system_down_at: float | None = None
        """When the system button went down (held long enough, the table shuts down)."""

    def at(self, now: float) -> None:
        """The loop handed the time: it is ``now``."""
        self.now = now

    def pressed(self) -> None:
        """A button went down: sleep is measured from now."""
        self.last_activity = self.now

    def system_down(self) -> None:
        self.system_down_at = self.now

    def system_up(self) -> bool:
        """The system button went up; True if it had been down (not yet a shutdown)."""
        was_down, self.system_down_at = self.system_down_at is not None, None
        return was_down

    def calm(self) -> None:
        """Stop hurrying (a human is on turn, or the game is over)."""
        self.hurry = False

    def stop_timer(self) -> None:
        self.timer_end = None

    def fall_asleep(self) -> None:
        self.asleep = True

    def wake(self) -> None:
        self.asleep = False

    def pace(self) -> float:
        """The factor on bots' delays and animations: short while hurrying."""
        return self.options.fast_factor if self.hurry else 1.0

    def schedule(self, delay: float, action: Callable[[], object], paced: bool = True) -> None:
        """Run ``action`` ``delay`` s from now; a ``paced`` delay (a bot's) shrinks while
        a held OK hurries the bots."""
        self.action_at = self.now + delay * (self.pace() if paced else 1.0)
        self.action = action
        self.last_activity = self.now

    def start_timer(self, seconds: float) -> None:
        """The move timer runs for ``seconds`` from now (its countdown shows)."""
        self.timer_end = self.now + seconds
        self.timer_total = seconds

    def clear(self) -> None:
        """Nothing is scheduled and no move timer runs."""
        self.action_at = None
        self.action = None
        self.timer_end = None

    def hurry_up(self) -> bool:
        """Start hurrying; what is scheduled comes sooner. False if already hurrying."""
        if self.hurry:
            return False
        self.hurry = True
        if self.action_at is not None and self.action_at > self.now:
            self.action_at = self.now + (self.action_at - self.now) * self.options.fast_factor
        return True

    def due_action(self) -> Callable[[], object] | None:
        """The scheduled action if it is due now (it is then no longer scheduled)."""
        if self.action_at is None or self.now < self.action_at:
            return None
        action, self.action_at, self.action = self.action, None, None
        return action

    def shutdown_due(self) -> float | None:
        """How long the system button has been held, once that means shut down."""
        hold = self.system_down_at
        if hold is not None and self.now - hold >= self.options.shutdown_hold_s:
            self.system_down_at = None
            return self.now - hold
        return None

    def idle(self) -> bool:
        """Nothing is scheduled and the system button is up."""
        return self.action_at is None and self.system_down_at is None

    def sleep_at(self, waiting: bool) -> float | None:
        """When the panel falls asleep, while ``waiting`` for a person."""
        after = self.options.sleep_after_s
        if self.asleep or not after or not waiting:
            return None
        return self.last_activity + after

    def deadlines(self, waiting: bool) -> list[float]:
        """The moments this object must be asked again."""
        times = [self.action_at] if self.action_at else []
        if self.system_down_at is not None:
            times.append(self.system_down_at + self.options.shutdown_hold_s)
        sleep = self.sleep_at(waiting)
        if sleep is not None:
            times.append(sleep)
        return times
