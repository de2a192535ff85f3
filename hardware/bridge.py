"""Host driver for the Pico serial bridge: one USB port as display and as buttons.

Threads (only the controller's loop thread touches the game; see the Threading section of
docs/architecture.md): a *supervisor* opens the port, says HELLO, sends frames,
brightness and keep-alive pings one at a time and waits for each ACK; it reconnects
with exponential backoff whenever the port fails or acks stop. A *reader* per
connection only parses bytes and hands results on: button events go to the
``EventSink`` (which only enqueues), replies wake the supervisor. The controller's
thread never blocks here: ``show()`` just replaces the frame to send next.

Frames are idempotent and "latest wins": while the panel is offline only the newest
frame is kept, and it is sent again as soon as the Pico is back. The link state is
reported through ``on_status(online)`` and the ``online`` property so the controller
can show "panel offline" on whatever display remains.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import serial
import serial.tools.list_ports
from serial.tools.list_ports_common import ListPortInfo

from hardware import bridge_protocol as bp
from hardware.interfaces import (
    ButtonEvent,
    ButtonName,
    EventKind,
    EventSink,
    FixedSizePanel,
    HardwareError,
    ThreadedInput,
)

if TYPE_CHECKING:
    from PIL.Image import Image

log = logging.getLogger(__name__)

PICO_USB_VID = 0x2E8A
"""Raspberry Pi's USB vendor id, which MicroPython on a Pico/RP2040 reports."""

StatusCallback = Callable[[bool], None]
ProblemCallback = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class BridgeTiming:
    """Timeouts in seconds. The defaults suit USB; tests shorten them."""

    ack_timeout: float = 0.5
    """Wait this long for an ACK/PONG before sending again."""
    max_misses: int = 3
    """Consecutive unanswered packets after which the link counts as lost."""
    keepalive: float = 1.0
    """Ping after this much silence, so an unplug is noticed while nothing is drawn."""
    read_timeout: float = 0.05
    write_timeout: float = 1.0
    backoff_initial: float = 0.1
    backoff_max: float = 2.0


@dataclass(slots=True)
class BridgeStats:
    """Counters for diagnostics and the benchmark."""

    connects: int = 0
    frames_acked: int = 0
    resends: int = 0
    errors: int = 0
    lost_events: int = 0
    unknown_buttons: int = 0
    """BUTTON packets for a seat or button the HELLO reply did not list (dropped)."""
    last_error: str = ""
    bytes_sent: int = 0


class LinkLost(HardwareError):
    """The current connection is unusable; the supervisor reconnects."""


def find_pico_port(ports: Iterable[ListPortInfo] | None = None) -> str:
    """The device path of the first port with USB VID 0x2E8A.

    ``ports`` defaults to ``serial.tools.list_ports.comports()``.
    """
    found = serial.tools.list_ports.comports() if ports is None else ports
    candidates = sorted(p.device for p in found if p.vid == PICO_USB_VID)
    if not candidates:
        raise HardwareError(
            "no Raspberry Pi Pico found (USB VID 0x2E8A); plug it in or set bridge.port"
        )
    if len(candidates) > 1:
        log.warning("several Picos found (%s); using %s", ", ".join(candidates), candidates[0])
    return str(candidates[0])


class SerialBridge:
    """One Pico on one serial port; hand out ``display()`` and ``input()`` handles.

    Use ``open_bridge()`` rather than this class, so display and input share a port.
    """

    def __init__(
        self,
        port: str = "auto",
        *,
        size: tuple[int, int] | None = None,
        timing: BridgeTiming | None = None,
        on_status: StatusCallback | None = None,
        on_problem: ProblemCallback | None = None,
    ) -> None:
        self.port_spec = port
        self._on_problem = on_problem
        self.timing = timing or BridgeTiming()
        self.stats = BridgeStats()
        self.info: bp.HelloInfo | None = None
        self._size = size
        self._on_status = on_status
        self._cond = threading.Condition()
        self._closed = False
        self._online = False
        self._sink: EventSink | None = None
        self._frame: bytes | None = None
        self._frame_version = 0
        self._frame_done = 0
        self._brightness = 255
        self._brightness_version = 0
        self._brightness_done = 0
        self._replies: dict[int, bp.Packet] = {}  # by seq
        self._seq = 0
        self._mask = 0
        self._event_seq: int | None = None
        self._unknown_said: set[tuple[int | None, str]] = set()
        self._handles = 0
        self._read_error = ""
        self._supervisor = threading.Thread(
            target=self._supervise, name=f"bridge-{port}", daemon=True
        )

    # -- public ---------------------------------------------------------------------
    def start(self) -> None:
        self._supervisor.start()

    @property
    def online(self) -> bool:
        """True while the Pico answers; the controller shows "panel offline" otherwise."""
        return self._online

    @property
    def supervising(self) -> bool:
        """True while the supervisor thread runs (until :meth:`close`)."""
        return self._supervisor.is_alive()

    @property
    def size(self) -> tuple[int, int] | None:
        return self._size

    def wait_online(self, timeout: float) -> bool:
        with self._cond:
            self._cond.wait_for(lambda: self._online or self._closed, timeout)
            return self._online

    def display(self) -> BridgeDisplay:
        """A ``Display`` for the panel; closing it releases this bridge."""
        if self._size is None:
            raise HardwareError("the bridge panel size is unknown until the Pico answers")
        self._acquire()
        return BridgeDisplay(self)

    def input(self) -> BridgeInput:
        """An ``InputBackend`` for the Pico's buttons; closing it releases this bridge."""
        self._acquire()
        return BridgeInput(self)

    def send_frame(self, rgb: bytes) -> None:
        """Queue one row-major RGB frame; only the newest unsent one is kept."""
        if self._size is not None and len(rgb) != self._size[0] * self._size[1] * 3:
            raise ValueError(
                f"frame of {len(rgb)} bytes does not fit the {self._size[0]}x{self._size[1]} panel"
            )
        with self._cond:
            self._frame = bytes(rgb)
            self._frame_version += 1
            self._cond.notify_all()

    def set_brightness(self, level: int) -> None:
        if not 0 <= level <= 255:
            raise ValueError(f"brightness {level} is outside 0..255")
        with self._cond:
            self._brightness = level
            self._brightness_version += 1
            self._cond.notify_all()

    def flush(self, timeout: float) -> bool:
        """Wait until the Pico acknowledged the newest frame and brightness."""
        with self._cond:
            return (
                self._cond.wait_for(
                    lambda: (
                        self._closed
                        or (
                            self._frame_done == self._frame_version
                            and self._brightness_done == self._brightness_version
                        )
                    ),
                    timeout,
                )
                and not self._closed
            )

    def set_sink(self, sink: EventSink | None) -> None:
        with self._cond:
            self._sink = sink

    def close(self) -> None:
        """Stop the threads and close the port (idempotent)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        _forget(self)
        if self._supervisor.is_alive() and threading.current_thread() is not self._supervisor:
            self._supervisor.join(timeout=5)

    # -- handles ----------------------------------------------------------------------
    def _acquire(self) -> None:
        with self._cond:
            if self._closed:
                raise HardwareError(f"bridge on {self.port_spec} is closed")
            self._handles += 1

    def _release(self) -> None:
        with self._cond:
            self._handles -= 1
            last = self._handles <= 0
        if last:
            self.close()

    # -- supervisor thread ------------------------------------------------------------
    def _supervise(self) -> None:
        backoff = self.timing.backoff_initial
        while not self._closed:
            try:
                self._connection()
                backoff = self.timing.backoff_initial
            except (serial.SerialException, OSError, bp.BridgeProtocolError) as exc:
                self._note_problem(str(exc) or type(exc).__name__)
            except Exception as exc:  # a bug must not end the supervisor: keep retrying
                log.exception("bridge %s: unexpected error", self.port_spec)
                self._note_problem(f"unexpected error: {type(exc).__name__}: {exc}")
            self._set_online(False)
            with self._cond:
                self._cond.wait_for(lambda: self._closed, backoff)
            backoff = min(backoff * 2, self.timing.backoff_max)

    def _note_problem(self, message: str) -> None:
        """Log why the link is down, once per distinct reason: a Pico that keeps giving
        the same wrong answer is retried with backoff, not logged every two seconds."""
        changed = message != self.stats.last_error
        self.stats.last_error = message
        if changed:
            log.warning("bridge %s: %s", self.port_spec, message)
            if self._on_problem is not None:
                self._on_problem(message)

    @property
    def problem(self) -> str:
        """Why the link is down, in words ("" before the first attempt failed)."""
        return self.stats.last_error

    def _open(self) -> serial.Serial:
        port = find_pico_port() if self.port_spec == "auto" else self.port_spec
        ser = serial.serial_for_url(
            port,
            baudrate=115200,
            timeout=self.timing.read_timeout,
            write_timeout=self.timing.write_timeout,
        )
        ser.reset_input_buffer()  # e.g. a MicroPython banner from before main.py
        return ser

    def _connection(self) -> None:
        ser = self._open()
        self._read_error = ""
        lost = threading.Event()
        reader = threading.Thread(
            target=self._read, args=(ser, lost), name="bridge-reader", daemon=True
        )
        reader.start()
        try:
            self._handshake(ser, lost)
            self._serve(ser, lost)
        finally:
            lost.set()
            reader.join(timeout=5)
            ser.close()

    def _handshake(self, ser: serial.Serial, lost: threading.Event) -> None:
        reply = None
        for _ in range(self.timing.max_misses):
            reply = self._transact(ser, lost, bp.MsgType.HELLO, bytes((bp.PROTOCOL_VERSION,)))
            if reply is not None:
                break
        if reply is None:
            raise LinkLost(f"no HELLO reply from {self.port_spec}; is the bridge firmware on it?")
        if reply.type != bp.MsgType.HELLO_REPLY:
            raise LinkLost(
                f"the Pico answered HELLO with packet type 0x{reply.type:02x}, not a HELLO "
                "reply; flash firmware/ from this version"
            )
        info = parse_hello(reply.payload)
        size = (info.width, info.height)
        if self._size is not None and size != self._size:
            raise LinkLost(
                f"panel reports {size[0]}x{size[1]}, expected {self._size[0]}x{self._size[1]}"
            )
        with self._cond:
            self.info = info
            self._size = size
            self._event_seq = None  # the Pico may have restarted its event counter
            # Buttons released or pressed while unplugged become events now.
            pending = self._reconcile(info.down_mask, at=time.monotonic())
            # Whatever the Pico showed before is unknown: send the newest state again.
            self._frame_done = -1 if self._frame is not None else self._frame_version
            self._brightness_done = -1
        self._deliver(pending)
        self.stats.connects += 1
        self.stats.last_error = ""  # the next failure is news again, and is logged
        self._set_online(True)

    def _serve(self, ser: serial.Serial, lost: threading.Event) -> None:
        misses = 0
        while True:
            with self._cond:
                self._cond.wait_for(
                    lambda: (
                        self._closed
                        or lost.is_set()
                        or self._brightness_done != self._brightness_version
                        or self._frame_done != self._frame_version
                    ),
                    self.timing.keepalive,
                )
                if self._closed or lost.is_set():
                    return
                if self._brightness_done != self._brightness_version:
                    ptype, payload, version = (
                        bp.MsgType.BRIGHTNESS,
                        bytes((self._brightness,)),
                        self._brightness_version,
                    )
                elif self._frame_done != self._frame_version and self._frame is not None:
                    ptype, payload, version = bp.MsgType.FRAME, self._frame, self._frame_version
                elif self._frame_done != self._frame_version:
                    self._frame_done = self._frame_version
                    continue
                else:
                    ptype, payload, version = bp.MsgType.PING, b"", 0
            reply = self._transact(ser, lost, ptype, payload)
            pending: list[ButtonEvent] = []
            if reply is None:
                misses += 1
                self.stats.resends += 1
                if misses >= self.timing.max_misses:
                    raise LinkLost(f"no answer to {misses} packets in a row; reconnecting")
                continue
            misses = 0
            if reply.type == bp.MsgType.ERROR:
                self.stats.errors += 1
                log.error("bridge rejected %s: %s", ptype.name, _error_text(reply.payload))
            with self._cond:
                if ptype == bp.MsgType.FRAME:
                    self._frame_done = version
                    self.stats.frames_acked += reply.type == bp.MsgType.ACK
                elif ptype == bp.MsgType.BRIGHTNESS:
                    self._brightness_done = version
                elif reply.type == bp.MsgType.PONG and len(reply.payload) >= 4:
                    # A lost BUTTON packet would leave a button stuck down; the PONG's
                    # state mask repairs that within one keep-alive period.
                    mask = int.from_bytes(reply.payload[:4], "little")
                    pending = self._reconcile(mask, at=time.monotonic())
                self._cond.notify_all()
            self._deliver(pending)

    def _transact(
        self, ser: serial.Serial, lost: threading.Event, ptype: bp.MsgType, payload: bytes
    ) -> bp.Packet | None:
        """Send one packet and wait for its answer (same seq), or None on timeout."""
        with self._cond:
            self._seq = (self._seq + 1) & 0xFF
            seq = self._seq
            self._replies.clear()
        data = bp.encode(ptype, seq, payload)
        ser.write(data)
        self.stats.bytes_sent += len(data)
        with self._cond:
            self._cond.wait_for(
                lambda: seq in self._replies or lost.is_set() or self._closed,
                self.timing.ack_timeout,
            )
            packet = self._replies.get(seq)
            if packet is not None:
                return packet
        if lost.is_set():
            raise LinkLost(f"port {self.port_spec} failed: {self._read_error or 'closed'}")
        return None

    def _set_online(self, online: bool) -> None:
        with self._cond:
            changed = online != self._online
            self._online = online
            self._cond.notify_all()
        if changed:
            log.info("bridge %s %s", self.port_spec, "online" if online else "offline")
            if self._on_status is not None:
                self._on_status(online)

    # -- reader thread -----------------------------------------------------------------
    def _read(self, ser: serial.Serial, lost: threading.Event) -> None:
        decoder = bp.Decoder()
        try:
            while not lost.is_set() and not self._closed:
                data = ser.read(ser.in_waiting or 1)
                for packet in decoder.iter_feed(data):
                    self._dispatch(packet)
        except (serial.SerialException, OSError) as exc:
            self._read_error = str(exc) or type(exc).__name__
        except Exception as exc:  # never a traceback from a thread: reconnect instead
            self._read_error = f"unexpected error reading: {type(exc).__name__}: {exc}"
        finally:
            lost.set()
            with self._cond:
                self._cond.notify_all()

    def _dispatch(self, packet: bp.Packet) -> None:
        if packet.type == bp.MsgType.BUTTON:
            try:
                report = bp.ButtonReport.parse(packet.payload)
            except bp.BridgeProtocolError as exc:
                log.warning("bridge: %s", exc)
                return
            self._on_button(packet.seq, report)
            return
        with self._cond:
            self._replies[packet.seq] = packet
            self._cond.notify_all()

    def _on_button(self, seq: int, report: bp.ButtonReport) -> None:
        at = time.monotonic()
        with self._cond:
            if self._event_seq is not None and seq != (self._event_seq + 1) & 0xFF:
                gap = (seq - self._event_seq - 1) & 0xFF
                self.stats.lost_events += gap
                log.warning("bridge: %d button event(s) lost; resyncing from the state", gap)
            self._event_seq = seq
            index = self._button_index(report.seat, report.button)
            if index is None:
                # Only the buttons the HELLO reply listed exist: a seat 7 or 200 would
                # reach the table as a press at a seat it does not have. The state mask
                # still speaks for the listed ones.
                self.stats.unknown_buttons += 1
                unknown = (report.seat, report.button)
                first = unknown not in self._unknown_said
                self._unknown_said.add(unknown)
                pending = self._reconcile(report.down_mask, at)
            else:
                bit = 1 << index
                before = report.down_mask
                before = before & ~bit if report.kind == "down" else before | bit
                pending = self._reconcile(before, at)
                self._mask = report.down_mask
                pending.append(
                    ButtonEvent(report.seat, _name(report.button), _kind(report.kind), at)
                )
        if index is None and first:
            log.warning(
                "bridge: dropped %s of %s at seat %s: the Pico's HELLO did not list it",
                report.kind,
                report.button,
                "system" if report.seat is None else report.seat,
            )
        self._deliver(pending)

    def _deliver(self, events: list[ButtonEvent]) -> None:
        sink = self._sink
        if sink is not None:
            for event in events:
                sink(event)

    def _button_index(self, seat: int | None, button: str) -> int | None:
        if self.info is None:
            return None
        for i, spec in enumerate(self.info.buttons):
            if spec.seat == seat and spec.button == button:
                return i
        return None

    def _reconcile(self, mask: int, at: float) -> list[ButtonEvent]:
        """The edges that make our view of the buttons match ``mask`` (lock held)."""
        diff = mask ^ self._mask
        self._mask = mask
        events: list[ButtonEvent] = []
        if not diff or self.info is None:
            return events
        for i, spec in enumerate(self.info.buttons):
            if diff & (1 << i):
                kind: EventKind = "down" if mask & (1 << i) else "up"
                events.append(ButtonEvent(spec.seat, _name(spec.button), kind, at))
        return events


def parse_hello(payload: bytes) -> bp.HelloInfo:
    """The Pico's HELLO reply, or :class:`LinkLost` saying in words what is wrong.

    The protocol version is looked at first: a firmware speaking another version may
    lay out the rest differently, so its mismatch is reported rather than a parse error,
    naming the firmware's version and both protocol versions.
    """
    if payload and payload[0] != bp.PROTOCOL_VERSION:
        firmware = ".".join(str(b) for b in payload[1:4]) if len(payload) >= 4 else "unknown"
        raise LinkLost(
            f"the Pico's firmware {firmware} speaks bridge protocol {payload[0]}, this host "
            f"speaks protocol {bp.PROTOCOL_VERSION}: flash firmware/ from this version"
        )
    try:
        return bp.HelloInfo.parse(payload)
    except bp.BridgeProtocolError as exc:
        firmware = ".".join(str(b) for b in payload[1:4]) if len(payload) >= 4 else "unknown"
        raise LinkLost(
            f"the Pico's HELLO reply (firmware {firmware}) does not follow the protocol: "
            f"{exc}; flash firmware/ from this version"
        ) from None


def _name(button: str) -> ButtonName:
    if button == "ok":
        return "ok"
    if button == "next":
        return "next"
    return "system"


def _kind(kind: str) -> EventKind:
    if kind == "down":
        return "down"
    if kind == "up":
        return "up"
    return "held"


def _error_text(payload: bytes) -> str:
    if len(payload) < 2:
        return f"malformed ERROR {payload.hex()}"
    try:
        code = bp.ErrorCode(payload[0]).name
    except ValueError:
        code = f"code {payload[0]}"
    return f"{code} for packet type 0x{payload[1]:02x}"


class BridgeDisplay(FixedSizePanel):
    """``Display`` over the bridge: RGB frames of the Pico's panel size."""

    def __init__(self, bridge: SerialBridge) -> None:
        self.bridge = bridge
        size = bridge.size
        assert size is not None  # display() checked it
        self._width, self._height = size
        self._mode = "RGB"
        self._closed = False

    @property
    def online(self) -> bool:
        return self.bridge.online

    def show(self, image: Image) -> None:
        if image.size != (self._width, self._height):
            raise ValueError(
                f"image is {image.size[0]}x{image.size[1]}, the panel is "
                f"{self._width}x{self._height}"
            )
        self.bridge.send_frame(image.convert("RGB").tobytes())

    def set_brightness(self, level: float) -> None:
        if not 0.0 <= level <= 1.0:
            raise ValueError(f"brightness {level} is outside 0.0..1.0")
        self.bridge.set_brightness(round(level * 255))

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.bridge._release()


class BridgeInput(ThreadedInput):
    """``InputBackend`` over the bridge: debounced seat buttons from the Pico."""

    def __init__(self, bridge: SerialBridge) -> None:
        self.bridge = bridge
        self._closed = False

    def start(self, sink: EventSink) -> None:
        self.bridge.set_sink(sink)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.bridge.set_sink(None)
            self.bridge._release()


_open: dict[str, SerialBridge] = {}
_open_lock = threading.Lock()


def _forget(bridge: SerialBridge) -> None:
    with _open_lock:
        if _open.get(bridge.port_spec) is bridge:
            del _open[bridge.port_spec]


def open_bridge(
    port: str = "auto",
    *,
    size: tuple[int, int] | None = None,
    connect_timeout: float = 3.0,
    timing: BridgeTiming | None = None,
    on_status: StatusCallback | None = None,
    on_problem: ProblemCallback | None = None,
) -> SerialBridge:
    """The bridge on ``port`` ("auto": the first USB VID 0x2E8A device), shared.

    A second call for the same port returns the same bridge, so ``display.type =
    "bridge"`` and bridge input share one port. It waits up to ``connect_timeout`` for
    the Pico's HELLO reply. ``on_status(online)`` hears every change of the link, and
    ``on_problem(words)`` every new reason it is down (a mismatched firmware, a port
    that fails), each once. If none comes and ``size`` (the expected panel size) is
    given, it returns an offline bridge that keeps reconnecting in the background;
    without ``size`` it raises ``HardwareError``, because a display needs a size.
    """
    with _open_lock:
        existing = _open.get(port)
        if existing is not None:
            return existing
        bridge = SerialBridge(
            port, size=size, timing=timing, on_status=on_status, on_problem=on_problem
        )
        _open[port] = bridge
    bridge.start()
    if not bridge.wait_online(connect_timeout) and size is None:
        reason = bridge.stats.last_error or "no answer"
        bridge.close()
        raise HardwareError(f"serial bridge on {port} did not answer: {reason}")
    return bridge
