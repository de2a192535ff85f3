"""Wire format of the spieltisch serial bridge, firmware side (see PROTOCOL.md).

This module is pure: it imports no ``machine``, allocates its receive buffer once and
runs unchanged under MicroPython on the Pico and under CPython in the tests. It must
stay MicroPython-compatible, which is why it has no dataclasses, no ``typing`` import
and no variable annotations (MicroPython ignores signature annotations only).

A packet on the wire::

    A5 5A | TYPE | SEQ | LEN (u16 LE) | HCRC | PAYLOAD (LEN bytes) | CRC32 (u32 LE)

HCRC is CRC-8 (poly 0x07) over TYPE, SEQ, LEN; it lets a receiver reject a false start
marker inside pixel data after 7 bytes instead of waiting for a bogus LEN. CRC32 is
the zlib CRC-32 over everything after the start marker and before the CRC itself.
"""

try:
    from binascii import crc32 as _crc32
except ImportError:  # a MicroPython build without binascii.crc32: slow but correct
    _crc32 = None

SYNC0 = 0xA5
SYNC1 = 0x5A
HEADER_LEN = 7
TRAILER_LEN = 4
OVERHEAD = HEADER_LEN + TRAILER_LEN
PROTOCOL_VERSION = 1

# host -> firmware
HELLO = 0x01
FRAME = 0x02
BRIGHTNESS = 0x03
PING = 0x04
# firmware -> host
HELLO_REPLY = 0x81
ACK = 0x82
ERROR = 0x83
BUTTON = 0x84
PONG = 0x85

# ERROR codes
ERR_UNKNOWN_TYPE = 1
ERR_BAD_LENGTH = 2
ERR_BAD_VALUE = 3

# BUTTON ids and kinds
BTN_OK = 0
BTN_NEXT = 1
BTN_SYSTEM = 2
SYSTEM_SEAT = 0xFF
KIND_UP = 0
KIND_DOWN = 1
KIND_HELD = 2

MAX_PING_PAYLOAD = 32


def crc8(data) -> int:
    """CRC-8/SMBUS (poly 0x07, init 0, no reflection) of a few header bytes."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def _crc32_table() -> list:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = None


def crc32(data) -> int:
    """zlib CRC-32 of ``data``; uses the C version where the port has one."""
    global _TABLE
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    if _TABLE is None:
        _TABLE = _crc32_table()
    table = _TABLE
    c = 0xFFFFFFFF
    for byte in data:
        c = table[(c ^ byte) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def encode(ptype: int, seq: int, payload: bytes = b"") -> bytes:
    """One complete packet as bytes, ready to write."""
    length = len(payload)
    head = bytearray(HEADER_LEN)
    head[0] = SYNC0
    head[1] = SYNC1
    head[2] = ptype & 0xFF
    head[3] = seq & 0xFF
    head[4] = length & 0xFF
    head[5] = (length >> 8) & 0xFF
    head[6] = crc8(memoryview(head)[2:6])
    body = bytes(head) + bytes(payload)
    crc = crc32(memoryview(body)[2:])
    return body + bytes((crc & 0xFF, (crc >> 8) & 0xFF, (crc >> 16) & 0xFF, (crc >> 24) & 0xFF))


class Decoder:
    """Finds packets in a byte stream and survives any garbage in between.

    Bytes are appended to one preallocated buffer (``space``/``commit`` to read
    straight into it, or ``feed``). Whenever a start marker has a bad header, a payload
    longer than ``max_payload`` or a bad CRC, only that marker's first byte is dropped
    and the search resumes at the next byte, so a valid packet hidden behind a false
    marker is still found. The buffer holds one maximal packet, so a full buffer always
    yields a decision and the decoder can never wait forever on bytes it already has.
    """

    def __init__(self, max_payload: int) -> None:
        self.max_payload = max_payload
        self.buf = bytearray(HEADER_LEN + max_payload + TRAILER_LEN)
        self.n = 0
        self.packets = 0
        self.dropped = 0
        self.crc_errors = 0

    def wanted(self) -> int:
        """How many more bytes complete the packet being received (at least 1)."""
        buf = self.buf
        if self.n < HEADER_LEN:
            return HEADER_LEN - self.n
        total = HEADER_LEN + (buf[4] | (buf[5] << 8)) + TRAILER_LEN
        return max(1, total - self.n)

    def space(self, count: int):
        """A writable view of up to ``count`` free bytes at the end of the buffer."""
        free = len(self.buf) - self.n
        return memoryview(self.buf)[self.n : self.n + min(count, free)]

    def commit(self, count: int, handler) -> None:
        """Account for ``count`` bytes written into ``space()`` and parse."""
        self.n += count
        self._parse(handler)

    def feed(self, data, handler) -> None:
        """Parse ``data``; ``handler(type, seq, payload_view)`` gets every good packet.

        The payload view points into the buffer and is valid only during the call.
        """
        pos = 0
        size = len(data)
        while pos < size:
            view = self.space(size - pos)
            take = len(view)
            view[:] = data[pos : pos + take]
            pos += take
            self.commit(take, handler)

    def _drop(self, count: int) -> None:
        rest = self.n - count
        if rest > 0:
            self.buf[0:rest] = self.buf[count : self.n]
        self.n = rest

    def _parse(self, handler) -> None:
        buf = self.buf
        while self.n:
            if buf[0] != SYNC0 or (self.n > 1 and buf[1] != SYNC1):
                skip = 1
                while skip < self.n and buf[skip] != SYNC0:
                    skip += 1
                self.dropped += skip
                self._drop(skip)
                continue
            if self.n < HEADER_LEN:
                return
            length = buf[4] | (buf[5] << 8)
            if length > self.max_payload or crc8(memoryview(buf)[2:6]) != buf[6]:
                self.dropped += 1
                self._drop(1)
                continue
            end = HEADER_LEN + length
            total = end + TRAILER_LEN
            if self.n < total:
                return
            got = buf[end] | (buf[end + 1] << 8) | (buf[end + 2] << 16) | (buf[end + 3] << 24)
            if crc32(memoryview(buf)[2:end]) != got:
                self.crc_errors += 1
                self.dropped += 1
                self._drop(1)
                continue
            self.packets += 1
            handler(buf[2], buf[3], memoryview(buf)[HEADER_LEN:end])
            self._drop(total)
