"""Keep Python's cyclic garbage collector out of a bot's timed decision.

A bot keeps to a time budget per decision: its search reads the clock and stops in
time. CPython's collector, though, runs whenever allocations cross its thresholds,
wherever that happens, and a full collection walks every tracked object of the process.
In a benchmark process that had played several hundred Backgammon games, full
collections took 7-23 ms, and three of the four decisions more than 2 ms past an 83 ms
budget in 43 000 had one inside (docs/bots.md). The search cannot see that time coming.

So the worker pauses the collector while a bot decides and lets it run afterwards,
when the table is showing the move anyway. The collection is moved, not saved, and a
decision's garbage is bounded by its budget. Pauses nest, and may overlap when more
than one thread decides (the collector is the process's, not a thread's): it runs
again only once the last of them ends, and stays off if it was off before the first
began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Pauses:
    """How many pauses are open, and whether the collector ran before the first."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.was_enabled = False


_PAUSES = _Pauses()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic garbage collection inside the block (module docstring)."""
    with _PAUSES.lock:
        if _PAUSES.open == 0:
            _PAUSES.was_enabled = gc.isenabled()
            gc.disable()
        _PAUSES.open += 1
    try:
        yield
    finally:
        with _PAUSES.lock:
            _PAUSES.open -= 1
            if _PAUSES.open == 0 and _PAUSES.was_enabled:
                gc.enable()
