"""GPIO buttons: software debounce, holds and many seats at once, on gpiozero's MockFactory.

The pins are gpiozero's own mock pins (real gpiozero, no hand-made fake). They ignore
``bounce_time``, which is why the debounce is ours; a controllable clock is injected so
edge timing is exact without sleeping. Holds are timed on a timer thread in real time,
so those tests wait on an event (never on a fixed sleep).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from controller.testing.clock import FakeClock
from hardware.buttons import GpioButtons, button_pins, describe
from hardware.debounce import Debouncer
from hardware.interfaces import ButtonEvent, HardwareError
from hardware.specs import ButtonWiring, SeatPins

SEATS = (SeatPins(17, 27), SeatPins(22, 23), SeatPins(24, 25), SeatPins(5, 6))
SPEC = ButtonWiring(seats=SEATS, system=26, debounce_s=0.02, hold_s=5.0)
"""Long holds, so a test never sees one it did not ask for."""


class Recorder:
    """An event sink that lets a test wait for a given event."""

    def __init__(self) -> None:
        self.events: list[ButtonEvent] = []
        self._cond = threading.Condition()

    def __call__(self, event: ButtonEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def wait_for(self, kind: str, timeout: float = 10.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: any(e.kind == kind for e in self.events), timeout)

    def kinds(self) -> list[tuple[int | None, str, str]]:
        return [(e.seat, e.button, e.kind) for e in self.events]


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def open_buttons(
    factory: MockFactory, clock: FakeClock, spec: ButtonWiring = SPEC
) -> tuple[GpioButtons, Recorder]:
    buttons = GpioButtons(spec, pin_factory=factory, clock=clock)
    recorder = Recorder()
    buttons.start(recorder)
    return buttons, recorder


def bounce(factory: MockFactory, pin: int, clock: FakeClock, edges: int, span_s: float) -> None:
    """``edges`` alternating edges starting with a press (pin low), within ``span_s``."""
    mock = factory.pin(pin)
    for i in range(edges):
        (mock.drive_low if i % 2 == 0 else mock.drive_high)()
        clock.advance(span_s / edges)


# --- the debouncer alone ---------------------------------------------------------


def test_debouncer_reports_the_first_edge_at_once() -> None:
    d = Debouncer(0.02)
    assert d.edge(True, 0.0) is True
    assert d.level is True


def test_debouncer_ignores_edges_inside_the_window_then_settles() -> None:
    d = Debouncer(0.02)
    assert d.edge(True, 0.0) is True
    assert [d.edge(i % 2 == 0, 0.0005 * i) for i in range(1, 10)] == [None] * 9
    assert d.settle(0.010) is None, "still bouncing: not stable for a whole window"
    assert d.deadline() == pytest.approx(0.0045 + 0.02)
    assert d.settle(0.03) is False, "the tap ended released, so the release is reported"
    assert d.deadline() is None


def test_debouncer_accepts_fast_but_real_presses() -> None:
    d = Debouncer(0.02)
    reported = [d.edge(i % 2 == 0, 0.05 * i) for i in range(6)]
    assert reported == [True, False, True, False, True, False]


def test_debouncer_rejects_a_negative_window() -> None:
    with pytest.raises(ValueError, match="negative"):
        Debouncer(-1)


# --- gpiozero buttons on mock pins -----------------------------------------------


def test_ten_edges_within_5_ms_give_one_press(factory: MockFactory, fake_clock: FakeClock) -> None:
    buttons, rec = open_buttons(factory, fake_clock)
    try:
        bounce(factory, 17, fake_clock, edges=10, span_s=0.005)
        assert rec.kinds() == [(0, "ok", "down")]
        fake_clock.advance(0.05)
        buttons.poll()
        assert rec.kinds() == [(0, "ok", "down"), (0, "ok", "up")]
    finally:
        buttons.close()


def test_bouncy_press_and_bouncy_release_are_one_down_and_one_up(
    factory: MockFactory, fake_clock: FakeClock
) -> None:
    buttons, rec = open_buttons(factory, fake_clock)
    try:
        bounce(factory, 23, fake_clock, edges=9, span_s=0.004)  # ends pressed (low)
        fake_clock.advance(0.1)
        buttons.poll()
        assert rec.kinds() == [(1, "next", "down")]
        mock = factory.pin(23)
        for i in range(7):  # release bounce, ends released (high)
            (mock.drive_high if i % 2 == 0 else mock.drive_low)()
            fake_clock.advance(0.0005)
        fake_clock.advance(0.1)
        buttons.poll()
        assert rec.kinds() == [(1, "next", "down"), (1, "next", "up")]
    finally:
        buttons.close()


def test_event_stamps_come_from_the_clock_at_the_edge(
    factory: MockFactory, fake_clock: FakeClock
) -> None:
    buttons, rec = open_buttons(factory, fake_clock)
    try:
        start = fake_clock.now
        factory.pin(26).drive_low()
        assert rec.events == [ButtonEvent(None, "system", "down", start)]
        fake_clock.advance(0.05)
        factory.pin(26).drive_high()
    finally:
        buttons.close()


def test_repeated_presses_outside_the_window_all_count(
    factory: MockFactory, fake_clock: FakeClock
) -> None:
    buttons, rec = open_buttons(factory, fake_clock)
    try:
        mock = factory.pin(5)
        for _ in range(5):
            mock.drive_low()
            fake_clock.advance(0.04)
            mock.drive_high()
            fake_clock.advance(0.04)
        assert rec.kinds() == [(3, "ok", "down"), (3, "ok", "up")] * 5
    finally:
        buttons.close()


def test_four_seats_pressing_at_once_each_get_one_press(
    factory: MockFactory, fake_clock: FakeClock
) -> None:
    """Mash: all eight seat buttons pressed from eight threads at the same moment."""
    buttons, rec = open_buttons(factory, fake_clock)
    pins = [pin for seat in SEATS for pin in (seat.ok, seat.next)]
    barrier = threading.Barrier(len(pins))

    def press(pin: int) -> None:
        barrier.wait()
        factory.pin(pin).drive_low()

    try:
        threads = [threading.Thread(target=press, args=(pin,)) for pin in pins]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        downs = sorted((e.seat, e.button) for e in rec.events if e.kind == "down")
        expected = sorted((seat, b) for seat in range(4) for b in ("ok", "next"))
        assert downs == expected
        assert all(e.kind == "down" for e in rec.events)
        fake_clock.advance(0.05)
        for pin in pins:
            factory.pin(pin).drive_high()
        assert sum(e.kind == "up" for e in rec.events) == len(pins)
    finally:
        buttons.close()


def test_a_long_press_gives_one_held_event(factory: MockFactory, fake_clock: FakeClock) -> None:
    spec = ButtonWiring(seats=SEATS[:1], system=26, hold_s=0.05)
    buttons, rec = open_buttons(factory, fake_clock, spec)
    try:
        factory.pin(26).drive_low()
        assert rec.wait_for("held"), "no hold was reported"
        fake_clock.advance(0.1)
        factory.pin(26).drive_high()
    finally:
        buttons.close()
    assert rec.kinds() == [
        (None, "system", "down"),
        (None, "system", "held"),
        (None, "system", "up"),
    ]


def test_a_short_press_is_never_held(factory: MockFactory, fake_clock: FakeClock) -> None:
    spec = ButtonWiring(seats=SEATS[:1], system=26, hold_s=0.5)
    buttons, rec = open_buttons(factory, fake_clock, spec)
    try:
        factory.pin(26).drive_low()
        fake_clock.advance(0.05)
        factory.pin(26).drive_high()
    finally:
        buttons.close()  # cancels the hold timers: no hold can arrive after this
    assert rec.kinds() == [(None, "system", "down"), (None, "system", "up")]


def test_release_before_the_hold_thread_wakes_gives_no_hold(
    factory: MockFactory, fake_clock: FakeClock
) -> None:
    """A bounce on release must not leave a stale "held" for the next press."""
    spec = ButtonWiring(seats=SEATS[:1], system=None, hold_s=0.05)
    buttons, rec = open_buttons(factory, fake_clock, spec)
    try:
        bounce(factory, 17, fake_clock, edges=10, span_s=0.005)
        fake_clock.advance(0.05)
        buttons.poll()
    finally:
        buttons.close()
    assert "held" not in [k for _, _, k in rec.kinds()]


def test_pull_down_wiring_reads_a_high_pin_as_pressed(
    factory: MockFactory, fake_clock: FakeClock
) -> None:
    spec = ButtonWiring(seats=SEATS[:1], pull_up=False)
    buttons, rec = open_buttons(factory, fake_clock, spec)
    try:
        factory.pin(27).drive_high()
        assert rec.kinds() == [(0, "next", "down")]
        fake_clock.advance(0.05)
        factory.pin(27).drive_low()
        assert rec.kinds() == [(0, "next", "down"), (0, "next", "up")]
    finally:
        buttons.close()


def test_a_pin_already_in_use_is_a_one_line_hardware_error(factory: MockFactory) -> None:
    first = GpioButtons(ButtonWiring(seats=SEATS[:1]), pin_factory=factory)
    try:
        with pytest.raises(HardwareError) as info:
            GpioButtons(ButtonWiring(seats=SEATS[:1]), pin_factory=factory)
        assert "GPIO17" in str(info.value) and "seat 1 OK" in str(info.value)
        assert "\n" not in str(info.value)
    finally:
        first.close()


def test_button_pins_and_names_follow_seat_order() -> None:
    pins = button_pins(SPEC)
    assert list(pins)[:2] == [(0, "ok"), (0, "next")]
    assert pins[(None, "system")] == 26
    assert describe((1, "next")) == "seat 2 NEXT"
    assert describe((None, "system")) == "system"


def test_idle_buttons_keep_no_thread_awake(factory: MockFactory, fake_clock: FakeClock) -> None:
    """Nine idle buttons start no thread: a sleeping table costs no CPU. A hold timer
    exists only while a button is down."""
    # New threads only: a thread an earlier test left behind may end meanwhile, so
    # counting all threads would make this test depend on its neighbours.
    before = set(threading.enumerate())

    def started() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t not in before}

    buttons, rec = open_buttons(factory, fake_clock)
    try:
        assert started() == set()
        factory.pin(17).drive_low()
        assert len(started()) == 1  # the hold timer of seat 1 OK
        fake_clock.advance(0.05)
        factory.pin(17).drive_high()
        assert rec.kinds() == [(0, "ok", "down"), (0, "ok", "up")]
    finally:
        buttons.close()
