"""The firmware's pure modules and main.py, run under CPython (firmware/PROTOCOL.md).

``machine``, ``neopixel`` and ``micropython`` exist only on the Pico; the fixture below
puts minimal stand-ins into ``sys.modules`` for the test that imports ``main.py``.
Everything else here is the real firmware code.
"""

from __future__ import annotations

import ast
import importlib
import os
import select
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
sys.path.insert(0, str(FIRMWARE))

import debounce  # noqa: E402  (firmware modules are top-level modules, as on the Pico)
import panel as panel_mod  # noqa: E402
import protocol as fw  # noqa: E402
from link import FIRMWARE_VERSION, Link  # noqa: E402

PICO_FILES = ["main.py", "protocol.py", "debounce.py", "panel.py", "link.py"]


class Strip:
    """Shaped like MicroPython's ``neopixel.NeoPixel``: ``buf`` in GRB order, ``write()``."""

    ORDER = (1, 0, 2, 3)

    def __init__(self, pin: object, n: int, bpp: int = 3) -> None:
        self.pin = pin
        self.n = n
        self.buf = bytearray(n * bpp)
        self.writes: list[bytes] = []

    def write(self) -> None:
        self.writes.append(bytes(self.buf))


# -- MicroPython compatibility ------------------------------------------------------------


@pytest.mark.parametrize("name", PICO_FILES)
def test_files_for_the_pico_use_only_what_micropython_has(name: str) -> None:
    """firmware/README: no dataclasses/typing, no variable annotations, no zip(strict)."""
    tree = ast.parse((FIRMWARE / name).read_text(encoding="utf-8"))
    allowed = {
        "binascii",
        "select",
        "sys",
        "time",
        "machine",
        "micropython",
        "neopixel",
        "protocol",
        "debounce",
        "panel",
        "link",
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert {a.name for a in node.names} <= allowed, ast.dump(node)
        elif isinstance(node, ast.ImportFrom):
            assert node.module in allowed, node.module
        assert not isinstance(node, ast.AnnAssign), f"{name}:{node.lineno} variable annotation"
        if isinstance(node, ast.Call):
            assert not any(k.arg == "strict" for k in node.keywords), f"{name}:{node.lineno}"


# -- debounce -----------------------------------------------------------------------------


def test_bounces_shorter_than_the_debounce_time_give_one_clean_press() -> None:
    """PROTOCOL.md §5.4: a level counts once read unchanged for the debounce time."""
    d = debounce.Debouncer(1, debounce_ms=20, hold_ms=1000)
    assert d.update([False], 0) == []
    samples = [(1, True), (3, False), (5, True), (8, False), (9, True), (28, True), (29, True)]
    events = [e for t, level in samples for e in d.update([level], t)]
    assert events == [(0, debounce.DOWN)]
    assert d.mask() == 1
    assert d.update([False], 40) == []
    assert d.update([False], 60) == [(0, debounce.UP)]
    assert d.mask() == 0


def test_a_long_press_reports_held_once_then_up() -> None:
    """PROTOCOL.md §5.4: HELD once per press after the hold time, UP still follows."""
    d = debounce.Debouncer(2, debounce_ms=10, hold_ms=500)
    d.update([False, False], 0)
    log = []
    for t in range(5, 1300, 5):
        log += [(t, e) for e in d.update([t < 1000, False], t)]
    assert log == [(15, (0, debounce.DOWN)), (505, (0, debounce.HELD)), (1010, (0, debounce.UP))]


def test_a_button_held_at_power_up_reports_nothing_until_pressed_again() -> None:
    """PROTOCOL.md §5.4: a button already down at power-up reports nothing."""
    d = debounce.Debouncer(1, debounce_ms=10, hold_ms=100)
    assert d.update([True], 0) == []
    assert [e for t in range(0, 300, 5) for e in d.update([True], t)] == []
    events = [e for t in range(300, 400, 5) for e in d.update([t >= 320 and t < 350], t)]
    assert [k for _, k in events] == [debounce.UP, debounce.DOWN, debounce.UP]


def test_debounce_survives_the_ticks_ms_wraparound() -> None:
    """time.ticks_ms() wraps at 2**30 on MicroPython; differences use ticks_diff."""
    period = debounce.TICKS_PERIOD
    assert debounce.ticks_diff(5, period - 5) == 10
    assert debounce.ticks_diff(period - 5, 5) == -10
    d = debounce.Debouncer(1, debounce_ms=20, hold_ms=1000)
    start = period - 10
    d.update([False], start)
    assert d.update([True], (start + 5) % period) == []
    assert d.update([True], (start + 24) % period) == []
    assert d.update([True], (start + 25) % period) == [(0, debounce.DOWN)]


def test_debouncer_rejects_an_impossible_button_count() -> None:
    with pytest.raises(ValueError, match=r"button count must be 1\.\.32, got 33"):
        debounce.Debouncer(33)


# -- panel mapping, brightness, power limit -------------------------------------------------


def test_serpentine_rows_run_backwards_every_other_row() -> None:
    table = panel_mod.led_index_map(3, 2, serpentine=True)
    assert table == [0, 1, 2, 5, 4, 3]
    assert panel_mod.led_index_map(3, 2, serpentine=False) == [0, 1, 2, 3, 4, 5]


def test_vertical_and_flipped_chains_map_every_pixel_once() -> None:
    table = panel_mod.led_index_map(2, 3, serpentine=True, vertical=True, flip_y=True)
    # column 0 runs bottom-up from LED 0, column 1 top-down from LED 3
    assert table == [2, 3, 1, 4, 0, 5]
    for flags in [(a, b, c, d) for a in (0, 1) for b in (0, 1) for c in (0, 1) for d in (0, 1)]:
        assert sorted(panel_mod.led_index_map(4, 3, *map(bool, flags))) == list(range(12))


def test_panel_writes_grb_in_chain_order_with_brightness_applied() -> None:
    """PROTOCOL.md §4.2/§4.3: row-major RGB in, chain order and brightness out."""
    strip = Strip(None, 4)
    p = panel_mod.Panel(strip, 2, 2, serpentine=True)
    frame = bytes([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120])
    p.show(frame)
    # logical (0,1) is LED 3 and (1,1) is LED 2 on a serpentine panel; order GRB
    assert strip.writes[-1] == bytes([20, 10, 30, 50, 40, 60, 110, 100, 120, 80, 70, 90])
    p.set_brightness(128)
    p.show(frame)
    assert strip.writes[-1][:3] == bytes([10, 5, 15])
    p.set_brightness(0)
    p.show(frame)
    assert strip.writes[-1] == bytes(12)


def test_power_limit_dims_a_frame_that_would_draw_too_much_current() -> None:
    """A full-white 16×16 panel draws ~15 A (DESIGN §4); the firmware caps it."""
    strip = Strip(None, 256)
    p = panel_mod.Panel(strip, 16, 16, max_ma=2000)
    p.show(bytes([255]) * 768)
    drawn = sum(strip.writes[-1]) * panel_mod.MA_PER_CHANNEL / 255
    assert 1900 < drawn <= 2000
    p.show(bytes([255, 0, 0]) + bytes(765))  # one red pixel: far below the budget
    assert strip.writes[-1][1] == 255


# -- the Link: the firmware's behaviour per packet ------------------------------------------


class Wire:
    """Collects what the firmware writes, decoded with the firmware's own decoder."""

    def __init__(self) -> None:
        self.packets: list[tuple[int, int, bytes]] = []
        self._decoder = fw.Decoder(256)

    def write(self, data: bytes) -> None:
        self._decoder.feed(data, lambda t, s, p: self.packets.append((t, s, bytes(p))))


def make_link(width: int = 2, height: int = 2) -> tuple[Link, Strip, Wire]:
    strip = Strip(None, width * height)
    wire = Wire()
    buttons = [(0, fw.BTN_OK), (0, fw.BTN_NEXT), (fw.SYSTEM_SEAT, fw.BTN_SYSTEM)]
    link = Link(panel_mod.Panel(strip, width, height), wire.write, buttons, 10, 300)
    return link, strip, wire


def test_hello_is_answered_with_versions_size_and_the_button_list() -> None:
    """PROTOCOL.md §4.1."""
    link, _, wire = make_link(3, 2)
    link.feed(fw.encode(fw.HELLO, 42, b"\x01"), 0)
    ((ptype, seq, payload),) = wire.packets
    assert (ptype, seq) == (fw.HELLO_REPLY, 42)
    assert payload[:6] == bytes([1, *FIRMWARE_VERSION, 3, 2])
    assert payload[6:8] == (300).to_bytes(2, "little")
    assert payload[12:] == bytes([3, 0, 0, 0, 1, 0xFF, 2])


def test_a_frame_is_drawn_then_acked_and_a_wrong_size_is_refused() -> None:
    """PROTOCOL.md §4.2: ACK after the LEDs were written; other lengths: BAD_LENGTH."""
    link, strip, wire = make_link()
    link.feed(fw.encode(fw.FRAME, 7, bytes([255, 0, 0]) * 4), 0)
    assert strip.writes[-1] == bytes([0, 255, 0]) * 4
    assert wire.packets == [(fw.ACK, 7, bytes([fw.FRAME]))]
    link.feed(fw.encode(fw.FRAME, 8, bytes(5)), 1)
    assert wire.packets[-1] == (fw.ERROR, 8, bytes([fw.ERR_BAD_LENGTH, fw.FRAME]))
    assert len(strip.writes) == 1


def test_brightness_redraws_the_current_frame_at_once() -> None:
    """PROTOCOL.md §4.3: the current frame is redrawn at once."""
    link, strip, wire = make_link()
    link.feed(fw.encode(fw.FRAME, 1, bytes([200]) * 12), 0)
    link.feed(fw.encode(fw.BRIGHTNESS, 2, b"\x00"), 1)
    assert strip.writes[-1] == bytes(12)
    assert wire.packets[-1] == (fw.ACK, 2, bytes([fw.BRIGHTNESS]))


def test_ping_is_answered_with_the_button_mask_and_the_echoed_payload() -> None:
    """PROTOCOL.md §4.4."""
    link, _, wire = make_link()
    link.poll_buttons([False, False, False], 0)
    link.poll_buttons([False, True, False], 1)
    link.poll_buttons([False, True, False], 20)
    link.feed(fw.encode(fw.PING, 9, b"abc"), 21)
    assert wire.packets[-1] == (fw.PONG, 9, bytes([2, 0, 0, 0]) + b"abc")


def test_unknown_types_and_bad_lengths_get_an_error_with_the_offending_seq() -> None:
    """PROTOCOL.md §5.3 and §6.5: new types are answered UNKNOWN_TYPE."""
    link, _, wire = make_link(16, 16)
    link.feed(fw.encode(0x10, 3, b""), 0)
    link.feed(fw.encode(fw.PING, 4, bytes(33)), 0)
    link.feed(fw.encode(fw.HELLO, 5, b""), 0)
    link.feed(fw.encode(fw.BRIGHTNESS, 6, b"\x01\x02"), 0)
    assert wire.packets == [
        (fw.ERROR, 3, bytes([fw.ERR_UNKNOWN_TYPE, 0x10])),
        (fw.ERROR, 4, bytes([fw.ERR_BAD_LENGTH, fw.PING])),
        (fw.ERROR, 5, bytes([fw.ERR_BAD_LENGTH, fw.HELLO])),
        (fw.ERROR, 6, bytes([fw.ERR_BAD_LENGTH, fw.BRIGHTNESS])),
    ]


def test_a_len_above_the_receivers_maximum_is_dropped_as_a_false_marker() -> None:
    """PROTOCOL.md §2: LEN > MAX_PAYLOAD = max(w*h*3, 32) is not a packet, no answer."""
    link, _, wire = make_link(2, 2)
    link.feed(fw.encode(fw.PING, 4, bytes(33)) + fw.encode(fw.PING, 5, bytes(32)), 0)
    assert [seq for _, seq, _ in wire.packets] == [5]
    assert link.decoder.dropped > 0


def test_button_events_count_up_from_one_and_carry_the_mask() -> None:
    """PROTOCOL.md §3 and §5.4: the first event has SEQ 1; the mask is after the event."""
    link, _, wire = make_link()
    for t, levels in [
        (0, [0, 0, 0]),
        (1, [1, 0, 0]),
        (12, [1, 0, 0]),
        (13, [1, 0, 1]),
        (24, [1, 0, 1]),
        (30, [0, 0, 1]),
        (41, [0, 0, 1]),
    ]:
        link.poll_buttons([bool(v) for v in levels], t)
    assert wire.packets == [
        (fw.BUTTON, 1, bytes([0, fw.BTN_OK, fw.KIND_DOWN, 1, 0, 0, 0])),
        (fw.BUTTON, 2, bytes([0xFF, fw.BTN_SYSTEM, fw.KIND_DOWN, 5, 0, 0, 0])),
        (fw.BUTTON, 3, bytes([0, fw.BTN_OK, fw.KIND_UP, 4, 0, 0, 0])),
    ]


def test_host_alive_turns_false_after_three_silent_seconds() -> None:
    """PROTOCOL.md §6.4: the on-board LED blinks when no valid packet came for 3 s."""
    link, _, _ = make_link()
    assert not link.host_alive(0)
    link.feed(fw.encode(fw.PING, 1), 1000)
    assert link.host_alive(3999)
    assert not link.host_alive(4000)
    link.feed(b"\xa5\x5agarbage", 4500)
    assert not link.host_alive(4600)


# -- main.py with stubbed MicroPython modules -------------------------------------------


class Pin:
    """Shaped like ``machine.Pin``: a level the test sets, pulled up by default."""

    IN = 0
    OUT = 1
    PULL_UP = 2
    levels: ClassVar[dict[object, int]] = {}

    def __init__(self, ident: object, mode: int = 0, pull: int | None = None) -> None:
        self.ident = ident
        self.mode = mode
        Pin.levels.setdefault(ident, 1)

    def value(self, level: int | None = None) -> int:
        if level is not None:
            Pin.levels[self.ident] = level
        return Pin.levels[self.ident]


@pytest.fixture
def pico_main(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """Import firmware/main.py with ``machine``/``neopixel``/``micropython`` stubbed."""
    machine = types.ModuleType("machine")
    machine.Pin = Pin  # type: ignore[attr-defined]
    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = Strip  # type: ignore[attr-defined]
    micropython = types.ModuleType("micropython")
    micropython.kbd_intr = lambda char: None  # type: ignore[attr-defined]
    for name, module in (
        ("machine", machine),
        ("neopixel", neopixel),
        ("micropython", micropython),
    ):
        monkeypatch.setitem(sys.modules, name, module)
    Pin.levels = {}
    monkeypatch.delitem(sys.modules, "main", raising=False)
    module = importlib.import_module("main")
    yield module
    sys.modules.pop("main", None)


def test_main_pin_map_buttons_become_protocol_buttons(pico_main: types.ModuleType) -> None:
    """firmware/main.py: the pin map at the top drives the HELLO button list."""
    buttons = pico_main.button_list()
    assert len(buttons) == len(pico_main.BUTTON_PINS)
    assert buttons[0] == (0, fw.BTN_OK)
    assert buttons[-1] == (fw.SYSTEM_SEAT, fw.BTN_SYSTEM)
    gpios = [gpio for gpio, _, _ in pico_main.BUTTON_PINS]
    assert len(set(gpios)) == len(gpios)
    assert pico_main.PANEL_PIN not in gpios


def test_main_loop_reads_a_frame_from_usb_and_reports_a_pressed_pin(
    pico_main: types.ModuleType,
) -> None:
    """The real main.py loop (``step``) with a pipe as USB stdin and stub pins."""
    out = Wire()
    link, pins = pico_main.build(out.write)
    strip = link.panel.strip
    assert strip.writes == [bytes(len(strip.buf))]  # dark at boot
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "rb", buffering=0) as stdin:
        poller = select.poll()
        poller.register(stdin, select.POLLIN)
        led = Pin("LED", Pin.OUT)
        size = pico_main.PANEL_WIDTH * pico_main.PANEL_HEIGHT * 3
        os.write(write_fd, fw.encode(fw.FRAME, 1, bytes([9]) * size))
        now = 0
        while not out.packets and now < 50:
            pico_main.step(link, pins, stdin, poller, led, now)
            now += 1
        assert out.packets == [(fw.ACK, 1, bytes([fw.FRAME]))]
        assert strip.writes[-1] == bytes([9]) * size
        assert led.value() == 1  # host alive
        pins[1].value(0)  # seat 0 NEXT pulled to GND
        for t in range(now, now + 40):
            pico_main.step(link, pins, stdin, poller, led, t)
        assert out.packets[-1][0] == fw.BUTTON
        assert out.packets[-1][2][:3] == bytes([0, fw.BTN_NEXT, fw.KIND_DOWN])
    os.close(write_fd)
