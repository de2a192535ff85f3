"""Software debounce for one button: a leading-edge lock-out with a settling check.

A microswitch bounces for a few milliseconds when pressed or released. gpiozero's
``bounce_time`` is not honoured by every pin factory (its mock pins ignore it), so the
debounce lives here, as plain logic with the time passed in, which makes it exact to
test.

The rule: the first edge that changes the reported level is reported at once (no
added latency), and then the button is locked for ``window`` seconds: further edges
only update the raw level. When the lock has expired and the raw level has been
stable for ``window`` (``settle``), a differing raw level is reported too. So ten
edges within 5 ms give exactly one press, and a bouncing tap that ends released still
gets its release. The caller must call ``settle`` once ``deadline()`` has passed.
"""

from __future__ import annotations

import math


class Debouncer:
    """Debounced level of one button; ``True`` means pressed."""

    def __init__(self, window: float, level: bool = False) -> None:
        if window < 0:
            raise ValueError(f"debounce window {window} s is negative")
        self.window = window
        self.level = level
        """The debounced (reported) level."""
        self._raw = level
        self._reported_at = -math.inf
        self._edge_at = -math.inf

    def edge(self, raw: bool, at: float) -> bool | None:
        """A raw edge seen at time ``at``; returns the new level if it is reported now."""
        self._raw = raw
        self._edge_at = at
        if raw != self.level and at - self._reported_at >= self.window:
            return self._report(raw, at)
        return None

    def settle(self, now: float) -> bool | None:
        """Report a raw level that differs and has been stable long enough, else None."""
        if self._raw == self.level:
            return None
        if now - self._reported_at >= self.window and now - self._edge_at >= self.window:
            return self._report(self._raw, now)
        return None

    def deadline(self) -> float | None:
        """When ``settle`` could next report something, or None if nothing is pending."""
        if self._raw == self.level:
            return None
        return max(self._reported_at, self._edge_at) + self.window

    def _report(self, level: bool, at: float) -> bool:
        self.level = level
        self._reported_at = at
        return level
