"""Debounced buttons with a hold event, firmware side; pure, no ``machine``.

Why time-based and not a counter: the main loop's period varies (a 32×32 frame takes
~30 ms to clock out), so "N equal samples" would mean a different time every loop.
A level counts only after it has been read unchanged for ``debounce_ms``; a press that
stays down for ``hold_ms`` (counted from its last raw edge) also reports one HELD.
Times are ``time.ticks_ms()`` values, which wrap at 2**30 on MicroPython, so every
difference goes through ``ticks_diff``. MicroPython-compatible: no dataclasses, no typing.
"""

TICKS_PERIOD = 1 << 30
_TICKS_HALF = TICKS_PERIOD >> 1

UP = 0
DOWN = 1
HELD = 2


def ticks_diff(new: int, old: int) -> int:
    """``new - old`` in wrapping ms ticks, like MicroPython's ``time.ticks_diff``."""
    return ((new - old + _TICKS_HALF) & (TICKS_PERIOD - 1)) - _TICKS_HALF


class Debouncer:
    """Turns raw pressed/released samples of ``count`` buttons into clean events."""

    def __init__(self, count: int, debounce_ms: int = 20, hold_ms: int = 1000) -> None:
        if count < 1 or count > 32:
            raise ValueError(f"button count must be 1..32, got {count}")
        self.count = count
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self.stable = [False] * count
        self.candidate = [False] * count
        self.since = [0] * count
        self.held = [False] * count
        self.started = False

    def mask(self) -> int:
        """Bit i set while button i is (debounced) down."""
        bits = 0
        for i in range(self.count):
            if self.stable[i]:
                bits |= 1 << i
        return bits

    def update(self, pressed, now_ms: int) -> list:
        """Feed one sample per button; returns ``[(index, UP|DOWN|HELD), ...]``.

        The first call only learns the levels: a button already held at power-up
        reports nothing until it is released and pressed again.
        """
        events = []
        if not self.started:
            for i in range(self.count):
                self.stable[i] = self.candidate[i] = bool(pressed[i])
                self.since[i] = now_ms
                self.held[i] = self.stable[i]
            self.started = True
            return events
        for i in range(self.count):
            level = bool(pressed[i])
            if level != self.candidate[i]:
                self.candidate[i] = level
                self.since[i] = now_ms
            elapsed = ticks_diff(now_ms, self.since[i])
            if level != self.stable[i]:
                if elapsed >= self.debounce_ms:
                    self.stable[i] = level
                    self.held[i] = False
                    events.append((i, DOWN if level else UP))
            elif level and not self.held[i] and elapsed >= self.hold_ms:
                self.held[i] = True
                events.append((i, HELD))
        return events
