"""Wire format of the serial bridge, host side (firmware/PROTOCOL.md).

The firmware has its own small implementation (``firmware/protocol.py``) written for
MicroPython's limits; this one is the host's typed version. Keeping two codecs is
deliberate: each is checked against the example packets in PROTOCOL.md and against
the other end to end, so the spec, not one shared module, is the contract — which is
what a second firmware has to follow too.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum

SYNC = b"\xa5\x5a"
HEADER_LEN = 7
TRAILER_LEN = 4
OVERHEAD = HEADER_LEN + TRAILER_LEN
PROTOCOL_VERSION = 1
MAX_PANEL_SIDE = 32
MAX_PAYLOAD = MAX_PANEL_SIDE * MAX_PANEL_SIDE * 3
MAX_PING_PAYLOAD = 32
SYSTEM_SEAT = 0xFF


class MsgType(IntEnum):
    HELLO = 0x01
    FRAME = 0x02
    BRIGHTNESS = 0x03
    PING = 0x04
    HELLO_REPLY = 0x81
    ACK = 0x82
    ERROR = 0x83
    BUTTON = 0x84
    PONG = 0x85


class ErrorCode(IntEnum):
    UNKNOWN_TYPE = 1
    BAD_LENGTH = 2
    BAD_VALUE = 3


BUTTON_NAMES = ("ok", "next", "system")
KIND_NAMES = ("up", "down", "held")


class BridgeProtocolError(ValueError):
    """A packet passed its CRC but its payload does not follow PROTOCOL.md."""


def crc8(data: bytes | memoryview) -> int:
    """CRC-8/SMBUS (poly 0x07, init 0) over the header fields TYPE, SEQ, LEN."""
    crc = 0
    for byte in bytes(data):
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def encode(ptype: int, seq: int, payload: bytes = b"") -> bytes:
    """One complete packet (PROTOCOL.md §2)."""
    if len(payload) > 0xFFFF:
        raise BridgeProtocolError(f"payload of {len(payload)} bytes does not fit LEN")
    fields = struct.pack("<BBH", ptype & 0xFF, seq & 0xFF, len(payload))
    body = fields + bytes((crc8(fields),)) + payload
    return SYNC + body + struct.pack("<I", zlib.crc32(body))


@dataclass(frozen=True, slots=True)
class Packet:
    type: int
    seq: int
    payload: bytes


class Decoder:
    """Stream parser with resync: garbage, false markers and bad CRCs are skipped.

    On any failed check only the first byte of the suspected start marker is dropped
    and the search resumes right after it, so a good packet that was swallowed by a
    false marker's length is found again. Memory is bounded: at most one maximal packet
    is buffered, so a full buffer always decides and the parser never waits for bytes
    it already has.
    """

    def __init__(self, max_payload: int = MAX_PAYLOAD) -> None:
        self.max_payload = max_payload
        self._buf = bytearray()
        self.packets = 0
        self.dropped = 0
        self.crc_errors = 0

    @property
    def pending(self) -> int:
        """Bytes held while waiting for the rest of a packet (never above one packet)."""
        return len(self._buf)

    def reset(self) -> None:
        """Forget partial input, e.g. after reopening the port."""
        self._buf.clear()

    def feed(self, data: bytes) -> list[Packet]:
        return list(self.iter_feed(data))

    def iter_feed(self, data: bytes) -> Iterator[Packet]:
        limit = HEADER_LEN + self.max_payload + TRAILER_LEN
        view = memoryview(data)
        pos = 0
        while pos < len(view):
            take = min(limit - len(self._buf), len(view) - pos)
            self._buf += view[pos : pos + take]
            pos += take
            yield from self._parse()

    def _skip(self, count: int) -> None:
        del self._buf[:count]
        self.dropped += count

    def _parse(self) -> Iterator[Packet]:
        buf = self._buf
        while buf:
            start = buf.find(SYNC)
            if start < 0:
                keep = 1 if buf[-1] == SYNC[0] else 0
                self._skip(len(buf) - keep)
                return
            if start:
                self._skip(start)
            if len(buf) < HEADER_LEN:
                return
            ptype, seq, length, hcrc = struct.unpack_from("<BBHB", buf, 2)
            if length > self.max_payload or crc8(memoryview(buf)[2:6]) != hcrc:
                self._skip(1)
                continue
            end = HEADER_LEN + length
            if len(buf) < end + TRAILER_LEN:
                return
            (crc,) = struct.unpack_from("<I", buf, end)
            if zlib.crc32(memoryview(buf)[2:end]) != crc:
                self.crc_errors += 1
                self._skip(1)
                continue
            packet = Packet(ptype, seq, bytes(buf[HEADER_LEN:end]))
            del buf[: end + TRAILER_LEN]
            self.packets += 1
            yield packet


@dataclass(frozen=True, slots=True)
class BridgeButton:
    """One button wired to the Pico, as HELLO_REPLY lists it (seat None: the system
    button); the host's GPIO wiring is :class:`hardware.specs.ButtonWiring`."""

    seat: int | None
    button: str


@dataclass(frozen=True, slots=True)
class HelloInfo:
    """What the firmware reports in HELLO_REPLY (PROTOCOL.md §4.1)."""

    protocol: int
    firmware: tuple[int, int, int]
    width: int
    height: int
    hold_ms: int
    down_mask: int
    buttons: tuple[BridgeButton, ...]

    @property
    def firmware_version(self) -> str:
        return ".".join(str(part) for part in self.firmware)

    @classmethod
    def parse(cls, payload: bytes) -> HelloInfo:
        if len(payload) < 13:
            raise BridgeProtocolError(f"HELLO_REPLY of {len(payload)} bytes, need >= 13")
        proto, major, minor, patch, width, height, hold_ms, mask, count = struct.unpack_from(
            "<BBBBBBHIB", payload
        )
        if len(payload) != 13 + 2 * count:
            raise BridgeProtocolError(
                f"HELLO_REPLY lists {count} buttons but has {len(payload)} bytes"
            )
        if not (1 <= width <= MAX_PANEL_SIDE and 1 <= height <= MAX_PANEL_SIDE):
            raise BridgeProtocolError(f"panel size {width}x{height} is outside 1..32")
        buttons = tuple(
            BridgeButton(_seat(payload[13 + 2 * i]), _button_name(payload[14 + 2 * i]))
            for i in range(count)
        )
        return cls(proto, (major, minor, patch), width, height, hold_ms, mask, buttons)


@dataclass(frozen=True, slots=True)
class ButtonReport:
    """One BUTTON packet: an edge or hold plus the state of every button after it."""

    seat: int | None
    button: str
    kind: str
    down_mask: int

    @classmethod
    def parse(cls, payload: bytes) -> ButtonReport:
        if len(payload) != 7:
            raise BridgeProtocolError(f"BUTTON of {len(payload)} bytes, need 7")
        seat, button, kind, mask = struct.unpack("<BBBI", payload)
        if kind >= len(KIND_NAMES):
            raise BridgeProtocolError(f"BUTTON kind {kind} is not 0 (up), 1 (down), 2 (held)")
        return cls(_seat(seat), _button_name(button), KIND_NAMES[kind], mask)


def _seat(raw: int) -> int | None:
    return None if raw == SYSTEM_SEAT else raw


def _button_name(raw: int) -> str:
    if raw >= len(BUTTON_NAMES):
        raise BridgeProtocolError(f"button id {raw} is not 0 (ok), 1 (next), 2 (system)")
    return BUTTON_NAMES[raw]


def hello(seq: int) -> bytes:
    return encode(MsgType.HELLO, seq, bytes((PROTOCOL_VERSION,)))


def frame(seq: int, rgb: bytes) -> bytes:
    return encode(MsgType.FRAME, seq, rgb)


def brightness(seq: int, level: int) -> bytes:
    if not 0 <= level <= 255:
        raise BridgeProtocolError(f"brightness {level} is outside 0..255")
    return encode(MsgType.BRIGHTNESS, seq, bytes((level,)))


def ping(seq: int, payload: bytes = b"") -> bytes:
    if len(payload) > MAX_PING_PAYLOAD:
        raise BridgeProtocolError(f"ping payload of {len(payload)} bytes, at most 32")
    return encode(MsgType.PING, seq, payload)
