"""When does the picture change next? Views answer it while they draw.

Why: the table must draw exactly when its picture changes by itself (a blink phase, a
scroll step, a countdown step, a colour-blind dip, a dice flip, a move step) and never
otherwise, so that a static picture costs nothing and a moving one is never frozen in
a random phase. Rather than keep a second, hand-written schedule beside every view
(which drifts from what the view really draws), every time-dependent decision a view
makes goes through one of the helpers below. Each helper returns what the view needs
*and* notes the first moment after ``t`` at which its answer changes. Only helpers
that the view actually consulted for this picture leave a note, so the earliest note
is exactly the next moment the picture can differ.

Use :func:`collect` around a render::

    with timing.collect() as change:
        image = views.render(scene, 16, 16, "RGB")
    change.at  # the scene time of the next change, or None: the picture is static

Outside :func:`collect` the helpers just compute (golden tests, the docs pictures).
The notes are kept per context (``contextvars``), so renders on other threads do not
mix.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from controller.scene import MoveAnimation, RollAnimation

EPS = 1e-6
"""Slack for float boundaries: at a noted moment the new phase is already in force."""


@dataclass
class NextChange:
    """The earliest moment noted during one render (None: nothing changes by itself)."""

    at: float | None = None

    def note(self, at: float) -> None:
        if self.at is None or at < self.at:
            self.at = at


_current: ContextVar[NextChange | None] = ContextVar("next_change", default=None)


@contextmanager
def collect() -> Iterator[NextChange]:
    """Collect the notes of the views drawn inside the ``with`` block."""
    change = NextChange()
    token = _current.set(change)
    try:
        yield change
    finally:
        _current.reset(token)


@contextmanager
def ignored() -> Iterator[None]:
    """Draw something whose changes do not matter (the frozen picture behind sleep)."""
    token = _current.set(None)
    try:
        yield
    finally:
        _current.reset(token)


def note(at: float) -> None:
    """The picture changes at scene time ``at``."""
    change = _current.get()
    if change is not None:
        change.note(at)


def ticks(t: float, rate: float) -> int:
    """How many 1/``rate`` s steps have passed at ``t`` (a scroll offset, a stripe)."""
    count = math.floor(t * rate + EPS)
    note((count + 1) / rate)
    return count


def phase(t: float, period: float, on: float, start: float = 0.0) -> bool:
    """True during the first ``on`` seconds of every ``period`` counted from ``start``."""
    cycles = math.floor((t - start) / period + EPS)
    begin = start + cycles * period
    if t - begin < on - EPS:
        note(begin + on)
        return True
    note(begin + period)
    return False


def blink(t: float, hz: float = 2.0, since: float = 0.0) -> bool:
    """A square wave, on for the first half of each period counted from ``since``
    (previews blink at 2 Hz from the press that chose them, starting on)."""
    return phase(t, 1.0 / hz, 0.5 / hz, start=since)


def whole_seconds(t: float, left: float) -> int:
    """A countdown of ``left`` seconds shown in whole seconds (5, 4, ... 1, then 0):
    the number steps down once a second, exactly when a second has run out."""
    shown = max(0, math.ceil(left - EPS))
    if shown > 0:
        note(t + left - (shown - 1))
    return shown


def at_progress(anim: RollAnimation | MoveAnimation, progress: float) -> None:
    """An animation's picture changes when it reaches ``progress`` (0..1). Animations
    built without a start and a length (pictures of one moment) note nothing."""
    if anim.length > 0 and progress <= 1.0:
        note(anim.started + progress * anim.length)


def step_index(anim: MoveAnimation, share: float, count: int) -> int:
    """Which of ``count`` equal steps spread over the first ``share`` of the animation
    is shown (the last one from then on)."""
    if count <= 1 or share <= 0:
        return max(0, count - 1)
    index = min(count - 1, math.floor(anim.progress / share * count + EPS))
    if index < count - 1:
        at_progress(anim, (index + 1) * share / count)
    return index
