"""The wire format (firmware/PROTOCOL.md), host side: the host codec against the spec.

The firmware's codec is checked against the same example packets, under CPython and
MicroPython, by ``tests/test_firmware_checks.py``; both read the examples out of
PROTOCOL.md with one parser (``spec_examples``), so the document, the host and the
firmware cannot drift apart.
"""

from __future__ import annotations

import zlib

import pytest

from hardware import bridge_protocol as bp
from tests.firmware_checks import examples_by_type, fw, read_spec, spec_examples

EXAMPLES = spec_examples(read_spec())
BY_TYPE = examples_by_type()


@pytest.mark.parametrize(("name", "raw"), EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_spec_examples_decode_and_reencode_identically_with_the_host_codec(
    name: str, raw: bytes
) -> None:
    """PROTOCOL.md §7: every example packet is exactly what the host's encoder produces."""
    (packet,) = bp.Decoder().feed(raw)
    assert bp.encode(packet.type, packet.seq, packet.payload) == raw, name


def test_every_message_type_of_the_host_codec_has_a_spec_example() -> None:
    assert sorted(BY_TYPE) == sorted(msg.value for msg in bp.MsgType)


def test_check_values_of_the_host_crcs_match_the_spec() -> None:
    """PROTOCOL.md §2: CRC-8/SMBUS check 0xF4, CRC-32 (zlib's) check 0xCBF43926."""
    assert bp.crc8(b"123456789") == 0xF4
    assert zlib.crc32(b"123456789") == 0xCBF43926


def test_overhead_is_eleven_bytes_per_packet() -> None:
    """PROTOCOL.md §2: a 32×32 FRAME is 3072 + 11 bytes on the wire."""
    assert len(bp.frame(0, bytes(3072))) == 3083 == 3072 + bp.OVERHEAD == 3072 + fw.OVERHEAD


def test_message_type_numbers_agree_between_host_and_firmware() -> None:
    for msg in bp.MsgType:
        assert getattr(fw, msg.name) == msg.value
    assert fw.PROTOCOL_VERSION == bp.PROTOCOL_VERSION
    assert (fw.ERR_UNKNOWN_TYPE, fw.ERR_BAD_LENGTH) == (1, 2)


def test_hello_reply_parses_versions_size_and_buttons() -> None:
    """PROTOCOL.md §4.1 with the example HELLO_REPLY."""
    (packet,) = bp.Decoder().feed(BY_TYPE[bp.MsgType.HELLO_REPLY])
    info = bp.HelloInfo.parse(packet.payload)
    assert info.firmware_version == "1.0.0"
    assert (info.width, info.height, info.hold_ms, info.down_mask) == (16, 16, 1000, 0)
    assert info.buttons == (
        bp.BridgeButton(0, "ok"),
        bp.BridgeButton(0, "next"),
        bp.BridgeButton(None, "system"),
    )


def test_button_report_parses_seat_button_kind_and_mask() -> None:
    """PROTOCOL.md §5.4 with the example BUTTON packet."""
    (packet,) = bp.Decoder().feed(BY_TYPE[bp.MsgType.BUTTON])
    assert packet.seq == 7
    assert bp.ButtonReport.parse(packet.payload) == bp.ButtonReport(0, "next", "down", 2)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"\x00\x01", "BUTTON of 2 bytes"),
        (bytes([0, 7, 1, 0, 0, 0, 0]), "button id 7"),
        (bytes([0, 0, 9, 0, 0, 0, 0]), "BUTTON kind 9"),
    ],
)
def test_malformed_button_payloads_raise_one_clear_error(payload: bytes, message: str) -> None:
    with pytest.raises(bp.BridgeProtocolError, match=message):
        bp.ButtonReport.parse(payload)


def test_malformed_hello_replies_raise_one_clear_error() -> None:
    with pytest.raises(bp.BridgeProtocolError, match="need >= 13"):
        bp.HelloInfo.parse(b"\x01")
    good = bytes([1, 1, 0, 0, 16, 16, 0xE8, 3, 0, 0, 0, 0, 1, 0, 0])
    with pytest.raises(bp.BridgeProtocolError, match="lists 1 buttons"):
        bp.HelloInfo.parse(good[:-1])
    with pytest.raises(bp.BridgeProtocolError, match="panel size 64x16"):
        bp.HelloInfo.parse(good[:4] + b"\x40" + good[5:])


def test_host_builders_reject_out_of_range_values() -> None:
    with pytest.raises(bp.BridgeProtocolError, match="brightness 256"):
        bp.brightness(0, 256)
    with pytest.raises(bp.BridgeProtocolError, match="at most 32"):
        bp.ping(0, bytes(33))


def test_a_packet_split_into_single_bytes_is_still_one_packet() -> None:
    raw = bp.frame(9, bytes(range(48)))
    host = bp.Decoder()
    got = [p for byte in raw for p in host.feed(bytes([byte]))]
    assert got == [bp.Packet(bp.MsgType.FRAME, 9, bytes(range(48)))]


def test_a_false_marker_inside_pixels_does_not_hide_the_next_packet() -> None:
    """PROTOCOL.md §6.1: pixel data that contains A5 5A and a plausible header."""
    tricky = b"\xa5\x5a\x02\x00\x10\x00" + bytes(10)  # looks like a header, bad HCRC
    raw = bp.frame(1, tricky + bytes(32)) + bp.ping(2)
    assert [p.seq for p in bp.Decoder().feed(raw)] == [1, 2]


def test_garbage_with_a_valid_false_header_swallows_then_releases_the_next_packet() -> None:
    """PROTOCOL.md §6.1: a false header that passes HCRC is undone by the CRC rescan."""
    fields = bytes([0x02, 0x00, 0x20, 0x00])  # FRAME, LEN 32
    false_header = b"\xa5\x5a" + fields + bytes([bp.crc8(fields)])
    real = bp.ping(5, b"hi")
    stream = false_header + real + bytes(40)  # enough bytes for the bogus LEN + CRC
    assert [(p.seq, p.payload) for p in bp.Decoder().feed(stream)] == [(5, b"hi")]
