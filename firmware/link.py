"""The bridge firmware's behaviour: packets in, panel and buttons, packets out.

Pure (no ``machine``): ``main.py`` hands it a ``Panel``, a ``write(bytes)`` callable
for the USB serial port, raw button levels and ``ticks_ms`` times. The tests run this
same object in a thread against the host driver over a pty, so what is tested is what
runs on the Pico. MicroPython-compatible: no dataclasses, no typing.
"""

import protocol as p
from debounce import Debouncer, ticks_diff

FIRMWARE_VERSION = (1, 0, 0)


class Link:
    """One end of the serial bridge, as the Pico sees it (PROTOCOL.md §4, §5)."""

    def __init__(
        self,
        panel,
        write,
        buttons,
        debounce_ms: int = 20,
        hold_ms: int = 1000,
        host_timeout_ms: int = 3000,
    ) -> None:
        self.panel = panel
        self.write = write
        self.width = panel.width
        self.height = panel.height
        self.buttons = list(buttons)  # [(seat, button id), ...]; seat 0xFF = system
        self.frame = bytearray(self.width * self.height * 3)
        self.decoder = p.Decoder(max(len(self.frame), p.MAX_PING_PAYLOAD))
        self.debouncer = Debouncer(len(self.buttons), debounce_ms, hold_ms)
        self.hold_ms = hold_ms
        self.host_timeout_ms = host_timeout_ms
        self.event_seq = 0
        self.last_rx = None
        self.now = 0
        self.frames = 0

    # -- receiving ----------------------------------------------------------------
    def wanted(self) -> int:
        """Bytes still needed to finish the packet in progress (read that many)."""
        return self.decoder.wanted()

    def rx_space(self, count: int):
        """Where to ``readinto`` up to ``count`` received bytes without allocating."""
        return self.decoder.space(count)

    def rx_commit(self, count: int, now_ms: int) -> None:
        self.now = now_ms
        self.decoder.commit(count, self._on_packet)

    def feed(self, data, now_ms: int) -> None:
        self.now = now_ms
        self.decoder.feed(data, self._on_packet)

    def serve(self, stream, poller, pressed, now_ms: int, wait_ms: int = 1) -> None:
        """One main-loop turn: take the packet bytes waiting on ``stream``, scan buttons.

        ``poller`` is a ``select.poll()`` with ``stream`` registered for reading; it
        waits at most ``wait_ms``. A read asks for exactly the bytes the packet in
        progress still needs, so a whole frame arrives in one ``readinto`` straight into
        the decoder's buffer (no allocation); between packets it reads the 7 header
        bytes. MicroPython's ``readinto`` blocks until it has them all, which is why it
        never asks for more. ``pressed[i]`` is the raw level of ``buttons[i]``.
        """
        if poller.poll(wait_ms):
            got = stream.readinto(self.rx_space(self.wanted()))
            self.rx_commit(got or 0, now_ms)
        self.poll_buttons(pressed, now_ms)

    def host_alive(self, now_ms: int) -> bool:
        """True while the host sent a valid packet within ``host_timeout_ms``."""
        if self.last_rx is None:
            return False
        return ticks_diff(now_ms, self.last_rx) < self.host_timeout_ms

    def _reply(self, ptype: int, seq: int, payload: bytes) -> None:
        self.write(p.encode(ptype, seq, payload))

    def _error(self, seq: int, code: int, ptype: int) -> None:
        self._reply(p.ERROR, seq, bytes((code, ptype)))

    def _on_packet(self, ptype: int, seq: int, payload) -> None:
        self.last_rx = self.now
        size = len(payload)
        if ptype == p.FRAME:
            if size != len(self.frame):
                self._error(seq, p.ERR_BAD_LENGTH, ptype)
                return
            self.frame[:] = payload
            self.panel.show(self.frame)
            self.frames += 1
            self._reply(p.ACK, seq, bytes((ptype,)))
        elif ptype == p.PING:
            if size > p.MAX_PING_PAYLOAD:
                self._error(seq, p.ERR_BAD_LENGTH, ptype)
                return
            self._reply(p.PONG, seq, _u32(self.debouncer.mask()) + bytes(payload))
        elif ptype == p.BRIGHTNESS:
            if size != 1:
                self._error(seq, p.ERR_BAD_LENGTH, ptype)
                return
            self.panel.set_brightness(payload[0])
            self.panel.show(self.frame)
            self._reply(p.ACK, seq, bytes((ptype,)))
        elif ptype == p.HELLO:
            if size < 1:
                self._error(seq, p.ERR_BAD_LENGTH, ptype)
                return
            self._reply(p.HELLO_REPLY, seq, self.hello_payload())
        else:
            self._error(seq, p.ERR_UNKNOWN_TYPE, ptype)

    def hello_payload(self) -> bytes:
        """PROTOCOL.md §4.1: versions, panel size, hold time, button state and list."""
        major, minor, patch = FIRMWARE_VERSION
        head = bytes(
            (
                p.PROTOCOL_VERSION,
                major,
                minor,
                patch,
                self.width,
                self.height,
                self.hold_ms & 0xFF,
                (self.hold_ms >> 8) & 0xFF,
            )
        )
        listing = bytearray((len(self.buttons),))
        for seat, button in self.buttons:
            listing.append(seat)
            listing.append(button)
        return head + _u32(self.debouncer.mask()) + bytes(listing)

    # -- buttons --------------------------------------------------------------------
    def poll_buttons(self, pressed, now_ms: int) -> None:
        """Sample every button once (``pressed[i]`` for ``buttons[i]``) and report edges."""
        for index, kind in self.debouncer.update(pressed, now_ms):
            seat, button = self.buttons[index]
            self.event_seq = (self.event_seq + 1) & 0xFF
            payload = bytes((seat, button, kind)) + _u32(self.debouncer.mask())
            self._reply(p.BUTTON, self.event_seq, payload)


def _u32(value: int) -> bytes:
    return bytes((value & 0xFF, (value >> 8) & 0xFF, (value >> 16) & 0xFF, (value >> 24) & 0xFF))
