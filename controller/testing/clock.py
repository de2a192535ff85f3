"""A monotonic clock moved by hand, for code that takes a ``clock`` function.

The loop, the table, the button debouncer, the simulator's window and the GIF recorder
all read time through a ``clock`` argument (``time.monotonic`` in the appliance). Given
this clock instead, time stands still until the caller moves it, so debounce windows,
holds, animations and bot delays happen exactly when a test says, with no sleeping and
no timing flakiness.
"""

from __future__ import annotations


class FakeClock:
    """Seconds that move only when told: call it to read, :meth:`advance` by a span,
    :meth:`advance_to` a deadline, or set :attr:`now`.

    It never runs backwards (setting :attr:`now` to an earlier moment raises), as a
    monotonic clock never does; code under test may rely on that. It starts well away
    from zero, as ``time.monotonic`` on a machine that has been up a while, so a zero
    that means "never" is not mistaken for the start."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start

    def __call__(self) -> float:
        return self._now

    @property
    def now(self) -> float:
        return self._now

    @now.setter
    def now(self, moment: float) -> None:
        if moment < self._now:
            raise ValueError(f"a monotonic clock cannot go back from {self._now} to {moment}")
        self._now = moment

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass (a press held that long, a bounce's gap)."""
        self.now = self._now + seconds

    def advance_to(self, moment: float | None) -> None:
        """Move on to ``moment``, a deadline; a deadline already past, or none at all,
        leaves the clock where it is (the code is late, not early)."""
        if moment is not None and moment > self._now:
            self._now = moment
