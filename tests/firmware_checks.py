"""Checks of the firmware's pure modules that run under CPython *and* MicroPython.

The Pico runs MicroPython, so passing under CPython alone proves little about the
firmware: a CPython-only idiom in ``protocol``, ``link``, ``debounce`` or ``panel``
would only show on the board. This file is therefore written in the subset both
interpreters share (plain functions and asserts; no pytest, typing or dataclasses)
and is run twice by ``tests/test_firmware_checks.py``: imported under CPython, one
pytest test per check, and as a script under the MicroPython unix port::

    micropython tests/firmware_checks.py [FIRMWARE_DIR]

which prints ``PASS name``, ``SKIP name: reason`` or ``FAIL name`` plus the indented
traceback for every ``check_*`` function and exits 1 if any failed. The example
packets are read from ``firmware/PROTOCOL.md`` itself, so the document and the code
cannot drift apart.
"""

import io
import sys


def _parent(path):
    """``os.path.dirname`` for both interpreters (MicroPython has no ``os.path``)."""
    cut = max(path.rfind("/"), path.rfind("\\"))
    if cut < 0:
        return "."
    return path[:cut] if cut > 0 else path[:1]


def _firmware_dir():
    if __name__ == "__main__" and len(sys.argv) > 1:
        return sys.argv[1]
    return _parent(_parent(__file__)) + "/firmware"


FIRMWARE_DIR = _firmware_dir()
if FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, FIRMWARE_DIR)

import debounce  # noqa: E402  (firmware modules are top-level modules, as on the Pico)
import panel as panel_mod  # noqa: E402
import protocol as fw  # noqa: E402
from link import FIRMWARE_VERSION, Link  # noqa: E402

# -- test doubles shaped like what the Pico hands the pure modules -----------------------


class Strip:
    """Shaped like MicroPython's ``neopixel.NeoPixel``: ``buf`` in GRB order, ``write()``."""

    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3):
        self.pin = pin
        self.n = n
        self.buf = bytearray(n * bpp)
        self.writes = []

    def write(self):
        self.writes.append(bytes(self.buf))


class Wire:
    """Collects what the firmware writes, decoded with the firmware's own decoder."""

    def __init__(self):
        self.packets = []
        self.raw = b""
        self._decoder = fw.Decoder(256)

    def write(self, data):
        self.raw += bytes(data)
        self._decoder.feed(data, lambda t, s, p: self.packets.append((t, s, bytes(p))))


def make_link(width=2, height=2, hold_ms=300):
    strip = Strip(None, width * height)
    wire = Wire()
    buttons = [(0, fw.BTN_OK), (0, fw.BTN_NEXT), (fw.SYSTEM_SEAT, fw.BTN_SYSTEM)]
    link = Link(panel_mod.Panel(strip, width, height), wire.write, buttons, 10, hold_ms)
    return link, strip, wire


class Skip(Exception):
    """Raised by a check that does not apply to this interpreter; says why."""


def raises(exc_type, func, *args):
    """The exception ``func(*args)`` raises; fails the check if it raises nothing."""
    try:
        func(*args)
    except exc_type as exc:
        return exc
    raise AssertionError("expected " + exc_type.__name__)


def decode_all(raw, max_payload=64):
    got = []
    fw.Decoder(max_payload).feed(raw, lambda t, s, p: got.append((t, s, bytes(p))))
    return got


# -- the example packets of PROTOCOL.md --------------------------------------------------


def spec_examples(text):
    """``[(name, bytes)]`` from the example table: rows ``| name | `a5 5a ...` |``."""
    examples = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().split("|")]
        # "| a | b |" splits into ["", "a", "b", ""]
        if len(cells) != 4 or cells[0] or cells[3]:
            continue
        name, code = cells[1], cells[2]
        if code.startswith("`a5 5a") and code.endswith("`"):
            examples.append((name, bytes.fromhex(code[1:-1].replace(" ", ""))))
    return examples


def read_spec():
    with open(FIRMWARE_DIR + "/PROTOCOL.md", encoding="utf-8") as spec:
        return spec.read()


def examples_by_type():
    """The example packets keyed by their TYPE byte (one example per message type)."""
    by_type = {}
    for name, raw in spec_examples(read_spec()):
        assert raw[2] not in by_type, "two examples of type " + hex(raw[2]) + ": " + name
        by_type[raw[2]] = raw
    return by_type


MESSAGE_TYPES = (
    fw.HELLO,
    fw.FRAME,
    fw.BRIGHTNESS,
    fw.PING,
    fw.HELLO_REPLY,
    fw.ACK,
    fw.ERROR,
    fw.BUTTON,
    fw.PONG,
)


def check_the_spec_has_one_example_packet_per_message_type():
    got = sorted(examples_by_type())
    assert got == sorted(MESSAGE_TYPES), [hex(t) for t in got]


def check_spec_examples_decode_and_reencode_byte_for_byte():
    """PROTOCOL.md §7: every example is exactly what the firmware's encoder produces."""
    for name, raw in spec_examples(read_spec()):
        packets = decode_all(raw)
        assert len(packets) == 1, name + ": decodes to " + repr(packets)
        ptype, seq, payload = packets[0]
        assert fw.encode(ptype, seq, payload) == raw, name


def _example_link():
    """The panel and buttons the spec's HELLO_REPLY example describes."""
    return make_link(16, 16, hold_ms=1000)


def check_the_firmware_answers_the_spec_examples_with_the_spec_examples():
    """HELLO, PING and BRIGHTNESS in; HELLO_REPLY, PONG and ACK out, byte for byte."""
    spec = examples_by_type()
    for request, answer in ((fw.HELLO, fw.HELLO_REPLY), (fw.PING, fw.PONG)):
        link, _, wire = _example_link()
        link.feed(spec[request], 0)
        assert wire.raw == spec[answer], (hex(request), wire.raw, spec[answer])
    link, _, wire = _example_link()
    link.feed(spec[fw.BRIGHTNESS], 0)
    assert wire.raw == spec[fw.ACK], wire.raw
    assert link.panel.brightness == 128, link.panel.brightness


def check_the_spec_error_example_is_the_answer_to_a_frame_of_the_wrong_size():
    link, strip, wire = _example_link()
    link.feed(fw.encode(fw.FRAME, 5, bytes(6)), 0)
    assert wire.raw == examples_by_type()[fw.ERROR], wire.raw
    assert strip.writes == []


def check_the_spec_frame_example_lights_a_two_pixel_panel_red_and_blue():
    link, strip, wire = make_link(2, 1)
    link.feed(examples_by_type()[fw.FRAME], 0)
    assert strip.writes == [bytes([0, 255, 0, 0, 0, 255])], strip.writes  # GRB order
    assert wire.packets == [(fw.ACK, 4, bytes([fw.FRAME]))], wire.packets


def check_the_spec_button_example_is_what_the_seventh_event_sends():
    """Event 7 (seat 0 NEXT down, mask 2) after three presses and releases of OK."""
    link, _, wire = _example_link()
    link.poll_buttons([False, False, False], 0)
    t = 0
    for _ in range(3):
        for level in (True, False):
            link.poll_buttons([level, False, False], t + 1)
            link.poll_buttons([level, False, False], t + 20)
            t += 20
    link.poll_buttons([False, True, False], t + 1)
    link.poll_buttons([False, True, False], t + 20)
    assert len(wire.packets) == 7, wire.packets
    assert wire.raw.endswith(examples_by_type()[fw.BUTTON]), wire.raw


# -- protocol: CRCs, framing, resynchronisation -------------------------------------------


def check_crc_check_values_match_the_spec():
    """PROTOCOL.md §2: CRC-8/SMBUS check 0xF4, CRC-32 check 0xCBF43926."""
    assert fw.crc8(b"123456789") == 0xF4
    assert fw.crc32(b"123456789") == 0xCBF43926


def check_the_pure_python_crc32_fallback_agrees_with_the_builtin():
    """A MicroPython build without ``binascii.crc32`` uses the table; it must agree."""
    data = bytes(range(256)) * 3
    builtin = fw.crc32(data)
    saved = fw._crc32
    try:
        fw._crc32 = None
        assert fw.crc32(data) == builtin, (fw.crc32(data), builtin)
        assert fw.crc32(b"123456789") == 0xCBF43926
    finally:
        fw._crc32 = saved
    assert saved is not None, "this interpreter has no binascii.crc32"


def check_overhead_is_eleven_bytes_per_packet():
    """PROTOCOL.md §2: a 32×32 FRAME is 3072 + 11 bytes on the wire."""
    assert len(fw.encode(fw.FRAME, 0, bytes(3072))) == 3083 == 3072 + fw.OVERHEAD


def check_a_packet_split_into_single_bytes_is_still_one_packet():
    raw = fw.encode(fw.FRAME, 9, bytes(range(48)))
    got = []
    decoder = fw.Decoder(48)
    for byte in raw:
        decoder.feed(bytes([byte]), lambda t, s, p: got.append((t, s, bytes(p))))
    assert got == [(fw.FRAME, 9, bytes(range(48)))], got


def check_reading_exactly_what_the_decoder_wants_yields_every_packet():
    """main.py's path: ``readinto(space(wanted()))`` straight into the decoder buffer."""
    packets = [fw.encode(fw.PING, 1, b"abc"), fw.encode(fw.FRAME, 2, bytes(range(12)))]
    stream = io.BytesIO(b"\x00\xa5noise" + packets[0] + packets[1])
    decoder = fw.Decoder(12)
    got = []
    reads = 0
    while True:
        count = stream.readinto(decoder.space(decoder.wanted()))
        if not count:
            break
        reads += 1
        decoder.commit(count, lambda t, s, p: got.append((t, s, bytes(p))))
    assert got == [(fw.PING, 1, b"abc"), (fw.FRAME, 2, bytes(range(12)))], got
    assert reads < 12, reads  # whole packets per read, not byte by byte


def check_a_false_marker_inside_pixels_does_not_hide_the_next_packet():
    """PROTOCOL.md §6.1: pixel data that contains A5 5A and a plausible header."""
    tricky = b"\xa5\x5a\x02\x00\x10\x00" + bytes(10)  # looks like a header, bad HCRC
    raw = fw.encode(fw.FRAME, 1, tricky + bytes(32)) + fw.encode(fw.PING, 2)
    assert [s for _, s, _ in decode_all(raw)] == [1, 2]


def check_garbage_with_a_valid_false_header_swallows_then_releases_the_next_packet():
    """PROTOCOL.md §6.1: a false header that passes HCRC is undone by the CRC rescan."""
    fields = bytes([0x02, 0x00, 0x20, 0x00])  # FRAME, LEN 32
    false_header = b"\xa5\x5a" + fields + bytes([fw.crc8(fields)])
    stream = false_header + fw.encode(fw.PING, 5, b"hi") + bytes(40)
    got = decode_all(stream)
    assert [(s, p) for _, s, p in got] == [(5, b"hi")], got


# -- debounce --------------------------------------------------------------------------------


def check_bounces_shorter_than_the_debounce_time_give_one_clean_press():
    """PROTOCOL.md §5.4: a level counts once read unchanged for the debounce time."""
    d = debounce.Debouncer(1, debounce_ms=20, hold_ms=1000)
    assert d.update([False], 0) == []
    samples = [(1, True), (3, False), (5, True), (8, False), (9, True), (28, True), (29, True)]
    events = [e for t, level in samples for e in d.update([level], t)]
    assert events == [(0, debounce.DOWN)], events
    assert d.mask() == 1
    assert d.update([False], 40) == []
    assert d.update([False], 60) == [(0, debounce.UP)]
    assert d.mask() == 0


def check_a_long_press_reports_held_once_then_up():
    """PROTOCOL.md §5.4: HELD once per press after the hold time, UP still follows."""
    d = debounce.Debouncer(2, debounce_ms=10, hold_ms=500)
    d.update([False, False], 0)
    log = []
    for t in range(5, 1300, 5):
        log += [(t, e) for e in d.update([t < 1000, False], t)]
    want = [(15, (0, debounce.DOWN)), (505, (0, debounce.HELD)), (1010, (0, debounce.UP))]
    assert log == want, log


def check_a_button_held_at_power_up_reports_nothing_until_pressed_again():
    """PROTOCOL.md §5.4: a button already down at power-up reports nothing."""
    d = debounce.Debouncer(1, debounce_ms=10, hold_ms=100)
    assert d.update([True], 0) == []
    assert [e for t in range(0, 300, 5) for e in d.update([True], t)] == []
    events = [e for t in range(300, 400, 5) for e in d.update([320 <= t < 350], t)]
    assert [k for _, k in events] == [debounce.UP, debounce.DOWN, debounce.UP], events


def check_debounce_survives_the_ticks_ms_wraparound():
    """``time.ticks_ms()`` wraps at 2**30 on the Pico; differences use ``ticks_diff``."""
    period = debounce.TICKS_PERIOD
    assert debounce.ticks_diff(5, period - 5) == 10
    assert debounce.ticks_diff(period - 5, 5) == -10
    d = debounce.Debouncer(1, debounce_ms=20, hold_ms=1000)
    start = period - 10
    d.update([False], start)
    assert d.update([True], (start + 5) % period) == []
    assert d.update([True], (start + 24) % period) == []
    assert d.update([True], (start + 25) % period) == [(0, debounce.DOWN)]


def check_ticks_diff_agrees_with_the_interpreters_own():
    """Where ``time.ticks_diff`` exists (MicroPython), ours gives the same differences."""
    import time

    native = getattr(time, "ticks_diff", None)
    if native is None:
        raise Skip("this interpreter has no time.ticks_diff")
    for new, old in ((5, 1), (1, 5), (1000, 0), (0, 1000)):
        assert debounce.ticks_diff(new, old) == native(new, old), (new, old)


def check_debouncer_rejects_an_impossible_button_count():
    exc = raises(ValueError, debounce.Debouncer, 33)
    assert str(exc) == "button count must be 1..32, got 33", str(exc)


# -- panel mapping, brightness, power limit ----------------------------------------------------


def check_serpentine_rows_run_backwards_every_other_row():
    assert panel_mod.led_index_map(3, 2, serpentine=True) == [0, 1, 2, 5, 4, 3]
    assert panel_mod.led_index_map(3, 2, serpentine=False) == [0, 1, 2, 3, 4, 5]


def check_vertical_and_flipped_chains_map_every_pixel_once():
    table = panel_mod.led_index_map(2, 3, serpentine=True, vertical=True, flip_y=True)
    # column 0 runs bottom-up from LED 0, column 1 top-down from LED 3
    assert table == [2, 3, 1, 4, 0, 5], table
    for bits in range(16):
        flags = [bool(bits & (1 << i)) for i in range(4)]
        table = panel_mod.led_index_map(4, 3, flags[0], flags[1], flags[2], flags[3])
        assert sorted(table) == list(range(12)), (flags, table)


def check_panel_writes_grb_in_chain_order_with_brightness_applied():
    """PROTOCOL.md §4.2/§4.3: row-major RGB in, chain order and brightness out."""
    strip = Strip(None, 4)
    p = panel_mod.Panel(strip, 2, 2, serpentine=True)
    frame = bytes([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120])
    p.show(frame)
    # logical (0,1) is LED 3 and (1,1) is LED 2 on a serpentine panel; order GRB
    want = bytes([20, 10, 30, 50, 40, 60, 110, 100, 120, 80, 70, 90])
    assert strip.writes[-1] == want, strip.writes[-1]
    p.set_brightness(128)
    p.show(frame)
    assert strip.writes[-1][:3] == bytes([10, 5, 15]), strip.writes[-1]
    p.set_brightness(0)
    p.show(frame)
    assert strip.writes[-1] == bytes(12)


def check_power_limit_dims_a_frame_that_would_draw_too_much_current():
    """A full-white 16×16 panel would draw ~15 A; the firmware caps it at its budget."""
    strip = Strip(None, 256)
    p = panel_mod.Panel(strip, 16, 16, max_ma=2000)
    p.show(bytes([255]) * 768)
    drawn = sum(strip.writes[-1]) * panel_mod.MA_PER_CHANNEL / 255
    assert 1900 < drawn <= 2000, drawn
    p.show(bytes([255, 0, 0]) + bytes(765))  # one red pixel: far below the budget
    assert strip.writes[-1][1] == 255


# -- the Link: the firmware's behaviour per packet ------------------------------------------------


def check_hello_is_answered_with_versions_size_and_the_button_list():
    """PROTOCOL.md §4.1."""
    link, _, wire = make_link(3, 2)
    link.feed(fw.encode(fw.HELLO, 42, b"\x01"), 0)
    assert len(wire.packets) == 1, wire.packets
    ptype, seq, payload = wire.packets[0]
    assert (ptype, seq) == (fw.HELLO_REPLY, 42)
    assert payload[:6] == bytes([1]) + bytes(FIRMWARE_VERSION) + bytes([3, 2]), payload
    assert payload[6:8] == (300).to_bytes(2, "little")
    assert payload[12:] == bytes([3, 0, 0, 0, 1, 0xFF, 2]), payload


def check_a_frame_is_drawn_then_acked_and_a_wrong_size_is_refused():
    """PROTOCOL.md §4.2: ACK after the LEDs were written; other lengths: BAD_LENGTH."""
    link, strip, wire = make_link()
    link.feed(fw.encode(fw.FRAME, 7, bytes([255, 0, 0]) * 4), 0)
    assert strip.writes[-1] == bytes([0, 255, 0]) * 4
    assert wire.packets == [(fw.ACK, 7, bytes([fw.FRAME]))], wire.packets
    link.feed(fw.encode(fw.FRAME, 8, bytes(5)), 1)
    assert wire.packets[-1] == (fw.ERROR, 8, bytes([fw.ERR_BAD_LENGTH, fw.FRAME]))
    assert len(strip.writes) == 1


def check_brightness_redraws_the_current_frame_at_once():
    """PROTOCOL.md §4.3: the current frame is redrawn at once."""
    link, strip, wire = make_link()
    link.feed(fw.encode(fw.FRAME, 1, bytes([200]) * 12), 0)
    link.feed(fw.encode(fw.BRIGHTNESS, 2, b"\x00"), 1)
    assert strip.writes[-1] == bytes(12)
    assert wire.packets[-1] == (fw.ACK, 2, bytes([fw.BRIGHTNESS])), wire.packets


def check_ping_is_answered_with_the_button_mask_and_the_echoed_payload():
    """PROTOCOL.md §4.4."""
    link, _, wire = make_link()
    link.poll_buttons([False, False, False], 0)
    link.poll_buttons([False, True, False], 1)
    link.poll_buttons([False, True, False], 20)
    link.feed(fw.encode(fw.PING, 9, b"abc"), 21)
    assert wire.packets[-1] == (fw.PONG, 9, bytes([2, 0, 0, 0]) + b"abc"), wire.packets


def check_unknown_types_and_bad_lengths_get_an_error_with_the_offending_seq():
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
    ], wire.packets


def check_a_len_above_the_receivers_maximum_is_dropped_as_a_false_marker():
    """PROTOCOL.md §2: LEN > MAX_PAYLOAD = max(w*h*3, 32) is not a packet, no answer."""
    link, _, wire = make_link(2, 2)
    link.feed(fw.encode(fw.PING, 4, bytes(33)) + fw.encode(fw.PING, 5, bytes(32)), 0)
    assert [seq for _, seq, _ in wire.packets] == [5], wire.packets
    assert link.decoder.dropped > 0


def check_button_events_count_up_from_one_and_carry_the_mask():
    """PROTOCOL.md §3 and §5.4: the first event has SEQ 1; the mask is after the event."""
    link, _, wire = make_link()
    for t, levels in (
        (0, (0, 0, 0)),
        (1, (1, 0, 0)),
        (12, (1, 0, 0)),
        (13, (1, 0, 1)),
        (24, (1, 0, 1)),
        (30, (0, 0, 1)),
        (41, (0, 0, 1)),
    ):
        link.poll_buttons([bool(v) for v in levels], t)
    assert wire.packets == [
        (fw.BUTTON, 1, bytes([0, fw.BTN_OK, fw.KIND_DOWN, 1, 0, 0, 0])),
        (fw.BUTTON, 2, bytes([0xFF, fw.BTN_SYSTEM, fw.KIND_DOWN, 5, 0, 0, 0])),
        (fw.BUTTON, 3, bytes([0, fw.BTN_OK, fw.KIND_UP, 4, 0, 0, 0])),
    ], wire.packets


def check_host_alive_turns_false_after_three_silent_seconds():
    """PROTOCOL.md §6.4: the on-board LED blinks when no valid packet came for 3 s."""
    link, _, _ = make_link()
    assert not link.host_alive(0)
    link.feed(fw.encode(fw.PING, 1), 1000)
    assert link.host_alive(3999)
    assert not link.host_alive(4000)
    link.feed(b"\xa5\x5agarbage", 4500)
    assert not link.host_alive(4600)


def check_serve_reads_a_waiting_packet_and_scans_the_buttons():
    """``Link.serve``, main.py's loop turn, with a stream and a poller standing in."""

    class Ready:
        def poll(self, timeout_ms):
            return [(stream, 1)] if stream.tell() < len(data) else []

    link, strip, wire = make_link()
    data = fw.encode(fw.FRAME, 3, bytes([7]) * 12)
    stream = io.BytesIO(data)
    poller = Ready()
    for t, system_down in ((0, False), (15, True), (30, True)):
        link.serve(stream, poller, [False, False, system_down], t)
    assert strip.writes == [bytes([7]) * 12], strip.writes
    assert wire.packets[0] == (fw.ACK, 3, bytes([fw.FRAME])), wire.packets
    assert wire.packets[1][0] == fw.BUTTON, wire.packets
    assert wire.packets[1][2][:3] == bytes([0xFF, fw.BTN_SYSTEM, fw.KIND_DOWN])


# -- the runner ---------------------------------------------------------------------------------


def all_checks():
    """``[(name, function)]`` of every ``check_*`` in this module, sorted by name."""
    found = []
    for name, value in globals().items():
        if name.startswith("check_") and callable(value):
            found.append((name, value))
    return sorted(found)


def _traceback(exc):
    printer = getattr(sys, "print_exception", None)  # MicroPython
    if printer is not None:
        out = io.StringIO()
        printer(exc, out)
        return out.getvalue()
    import traceback  # CPython

    return "".join(traceback.format_exception(exc))


def run(checks, out):
    """Run every check, write ``PASS``/``SKIP``/``FAIL name`` (+ traceback); count failures."""
    failed = 0
    for name, check in checks:
        try:
            check()
        except Skip as exc:
            out.write("SKIP " + name + ": " + str(exc) + "\n")
        except Exception as exc:
            failed += 1
            out.write("FAIL " + name + "\n")
            for line in _traceback(exc).splitlines():
                out.write("    " + line + "\n")
        else:
            out.write("PASS " + name + "\n")
    return failed


if __name__ == "__main__":
    sys.exit(1 if run(all_checks(), sys.stdout) else 0)
