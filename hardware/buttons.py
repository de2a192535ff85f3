"""Arcade buttons on GPIO pins through gpiozero ``Button``, with software debounce.

Each seat has an OK/ROLL and a NEXT button, plus one system button; each is wired from
its BCM pin to ground and read with the internal pull-up (``pull_up=False`` for
buttons switching to 3.3 V with external pull-downs).

Threads (one loop thread owns the game; everything else only enqueues events): gpiozero
calls ``when_activated``/``when_deactivated`` on the thread that saw the edge; a
``threading.Timer`` settles bounces that end in a level change, and another times a
hold. All of them only pass a ``ButtonEvent`` to the sink, which enqueues it; a lock
keeps the debounce state and the event order consistent across those threads.

Debounce is ours (``hardware/debounce.py``), not gpiozero's ``bounce_time``, because
not every pin factory honours that (the mock pins do not) and a lock-out that reports
the first edge at once gives no added latency. Holds are ours too: a button that stays
pressed for ``hold_s`` gives one ``held`` event per press, timed by a timer that exists
only while the button is down. gpiozero's ``Button`` times holds on a thread per button
that wakes ten times a second for ever; with nine buttons that was the whole CPU cost
of a table asleep. So each pin is gpiozero's ``DigitalInputDevice`` (what ``Button``
is, without the hold thread).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from hardware.debounce import Debouncer
from hardware.interfaces import (
    ButtonEvent,
    ButtonName,
    EventKind,
    EventSink,
    HardwareError,
    ThreadedInput,
)
from hardware.specs import ButtonWiring

Key = tuple[int | None, ButtonName]
"""(seat, button); the system button is (None, "system")."""


def button_pins(spec: ButtonWiring) -> dict[Key, int]:
    """Every configured button and its BCM pin, seats first, in seat order."""
    pins: dict[Key, int] = {}
    for seat, seat_pins in enumerate(spec.seats):
        pins[(seat, "ok")] = seat_pins.ok
        pins[(seat, "next")] = seat_pins.next
    if spec.system is not None:
        pins[(None, "system")] = spec.system
    return pins


def describe(key: Key) -> str:
    """A button as people say it: "seat 2 NEXT" or "system"."""
    seat, button = key
    return "system" if seat is None else f"seat {seat + 1} {button.upper()}"


class GpioButtons(ThreadedInput):
    """The ``InputBackend`` for buttons on GPIO pins.

    ``pin_factory`` is gpiozero's (``MockFactory()`` in tests; ``None`` picks the
    default, lgpio on a Pi). ``clock`` stamps edges and drives the debounce; tests
    inject a controllable one so bounce timing is exact without sleeping.
    """

    def __init__(
        self,
        spec: ButtonWiring,
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import DigitalInputDevice
        from gpiozero.exc import GPIOZeroError

        self._spec = spec
        self._clock = clock
        self._lock = threading.RLock()
        self._sink: EventSink | None = None
        self._timer: threading.Timer | None = None
        self._closed = False
        self.pins = button_pins(spec)
        self._buttons: dict[Key, Any] = {}
        self._debounce: dict[Key, Debouncer] = {}
        self._held: dict[Key, bool] = {}
        self._hold_timers: dict[Key, threading.Timer] = {}
        try:
            for key, pin in self.pins.items():
                self._buttons[key] = DigitalInputDevice(
                    pin, pull_up=spec.pull_up, bounce_time=None, pin_factory=pin_factory
                )
                self._debounce[key] = Debouncer(spec.debounce_s, bool(self._buttons[key].is_active))
                self._held[key] = False
        except (GPIOZeroError, OSError) as exc:
            self.close()
            raise HardwareError(
                f"cannot open GPIO{pin} for {describe(key)}: {exc or type(exc).__name__} "
                "(off a Pi use input.type = 'keyboard')"
            ) from None

    def pressed(self, key: Key) -> bool:
        """Whether ``key`` is down now, read from its pin: a button held while the table
        starts sends no edge, so the start asks (controller.start_reset), before
        :meth:`start` and without the debounce (a held button does not bounce)."""
        with self._lock:
            return bool(self._buttons[key].is_active)

    def start(self, sink: EventSink) -> None:
        with self._lock:
            self._sink = sink
        for key, button in self._buttons.items():
            button.when_activated = self._callback(key, True)
            button.when_deactivated = self._callback(key, False)

    def _callback(self, key: Key, pressed: bool) -> Callable[[], None]:
        return lambda: self._edge(key, pressed)

    def _edge(self, key: Key, pressed: bool) -> None:
        with self._lock:
            now = self._clock()
            level = self._debounce[key].edge(pressed, now)
            if level is not None:
                self._report(key, level, now)
            self._schedule()

    def _on_held(self, key: Key) -> None:
        with self._lock:
            self._hold_timers.pop(key, None)
            if self._closed:
                return
            if self._debounce[key].level and not self._held[key]:
                self._held[key] = True
                self._emit(key, "held", self._clock())

    def poll(self) -> None:
        """Report bounces that have settled; the timer calls this, tests may too."""
        with self._lock:
            self._timer = None
            now = self._clock()
            for key, debouncer in self._debounce.items():
                level = debouncer.settle(now)
                if level is not None:
                    self._report(key, level, now)
            self._schedule()

    def _report(self, key: Key, pressed: bool, at: float) -> None:
        old = self._hold_timers.pop(key, None)
        if old is not None:
            old.cancel()
        if pressed:
            self._held[key] = False
            if not self._closed:
                timer = threading.Timer(self._spec.hold_s, self._on_held, args=(key,))
                timer.daemon = True
                self._hold_timers[key] = timer
                timer.start()
        self._emit(key, "down" if pressed else "up", at)

    def _emit(self, key: Key, kind: EventKind, at: float) -> None:
        if self._sink is not None and not self._closed:
            self._sink(ButtonEvent(key[0], key[1], kind, at))

    def _schedule(self) -> None:
        if self._timer is not None or self._closed:
            return
        deadlines = [d for d in (b.deadline() for b in self._debounce.values()) if d is not None]
        if not deadlines:
            return
        delay = max(0.0, min(deadlines) - self._clock()) + 0.001
        self._timer = threading.Timer(delay, self.poll)
        self._timer.daemon = True
        self._timer.start()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            for timer in self._hold_timers.values():
                timer.cancel()
            self._hold_timers.clear()
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()
