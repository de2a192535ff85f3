"""A short text over the board (a device offline, "time!", a match score) and how long
it stays.

Why apart from the table: a banner is a text with a start and an end on the table's
clock, at least long enough to pass once across the panel; whoever shows one (the
table, the loop's notices) needs nothing else of the table.
"""

from __future__ import annotations

from controller.views.overlay import banner_seconds


class Banner:
    def __init__(self) -> None:
        self.text: str | None = None
        self.since = 0.0
        self.until = 0.0

    def show(self, text: str, seconds: float, now: float, panel: tuple[int, int]) -> None:
        """Show ``text`` from ``now`` for ``seconds``, and at least long enough to pass
        once across a panel of that size."""
        width, height = panel
        self.text = text
        self.since = now
        self.until = now + max(seconds, banner_seconds(text, width, height))

    def restart(self, now: float) -> None:
        """Its text passes from its first letter again from ``now`` (the panel woke)."""
        self.since = now

    def take_down(self, text: str) -> bool:
        """Take the text down now if it is ``text``; True if it was taken down."""
        if self.text is not None and self.text == text:
            self.text = None
            return True
        return False

    def expire(self, now: float) -> bool:
        """Take the text down if its time is over; True if it was taken down."""
        if self.text is not None and now >= self.until:
            self.text = None
            return True
        return False

    def deadline(self) -> float | None:
        return self.until if self.text and self.until else None
