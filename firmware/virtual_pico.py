"""A virtual Pico on a pseudo-terminal: the real firmware logic, no hardware (CPython only).

This file is *not* copied to the Pico. It runs ``link.Link`` (exactly the object
``main.py`` runs) in a thread behind one end of an ``os.openpty()`` pair, with a
recording panel and buttons pressed from Python. The host driver opens the other end
like a USB serial port. The tests, ``benchmarks/bridge_roundtrip.py`` and anyone
without a Pico use it::

    python firmware/virtual_pico.py /tmp/pico     # then set bridge.port = "/tmp/pico"

``port_link`` is a symlink that always points at the current pty, like udev's
``/dev/serial/by-id/...`` link of a real Pico: ``unplug()`` closes the pty (the host
sees an I/O error, as on a real unplug) and removes the link, ``replug()`` makes a new
pty and points the link at it.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import protocol  # firmware modules are top-level modules, as on the Pico
from debounce import TICKS_PERIOD
from link import Link

DEFAULT_BUTTONS = [
    (0, protocol.BTN_OK),
    (0, protocol.BTN_NEXT),
    (1, protocol.BTN_OK),
    (1, protocol.BTN_NEXT),
    (protocol.SYSTEM_SEAT, protocol.BTN_SYSTEM),
]


class RecordingPanel:
    """Stands in for ``panel.Panel``: keeps every shown frame, lets tests wait for one."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.brightness = 255
        self.frames: list[bytes] = []
        self.changed = threading.Condition()

    def show(self, frame: bytes | bytearray | memoryview) -> None:
        with self.changed:
            self.frames.append(bytes(frame))
            self.changed.notify_all()

    def set_brightness(self, level: int) -> None:
        self.brightness = level

    def wait_for(self, predicate: Callable[[list[bytes]], bool], timeout: float = 5.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self.frames), timeout)


class VirtualPico:
    """The firmware logic served on a pty whose path is ``port_link``."""

    def __init__(
        self,
        port_link: str | os.PathLike[str],
        width: int = 16,
        height: int = 16,
        buttons: list[tuple[int, int]] | None = None,
        debounce_ms: int = 20,
        hold_ms: int = 1000,
    ) -> None:
        self.port_link = Path(port_link)
        self.panel = RecordingPanel(width, height)
        self.link = Link(self.panel, self._write, buttons or DEFAULT_BUTTONS, debounce_ms, hold_ms)
        self.pressed = [False] * len(self.link.buttons)
        self.received = 0
        self._lock = threading.Lock()
        self._master = -1
        self._slave = -1
        self._stop = threading.Event()
        self.ticked = threading.Condition()  # notified after every loop turn
        self._thread: threading.Thread | None = None
        self.drop_output = False  # tests: the "Pico" stops answering

    # -- plugging ---------------------------------------------------------------------
    def plug(self) -> None:
        """Create a fresh pty, point ``port_link`` at it and start serving."""
        master, slave = os.openpty()
        tty.setraw(slave)
        self._master, self._slave = master, slave
        tmp = self.port_link.with_name(self.port_link.name + ".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self.port_link)
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="virtual-pico", daemon=True)
        self._thread.start()

    replug = plug

    def unplug(self) -> None:
        """Stop serving and close both pty ends: the host's next read or write fails."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self.port_link.unlink(missing_ok=True)
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    close = unplug

    def __enter__(self) -> VirtualPico:
        self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.unplug()

    # -- buttons ----------------------------------------------------------------------
    def set_button(self, index: int, pressed: bool) -> None:
        """Hold button ``index`` (pin-map order) down or let it go; debounced as on a Pico."""
        with self._lock:
            self.pressed[index] = pressed

    # -- the firmware's main loop --------------------------------------------------------
    def _write(self, data: bytes) -> None:
        if self.drop_output or self._master < 0:
            return
        # Nobody has the port open: a real Pico drops its output then, too.
        with contextlib.suppress(OSError):
            os.write(self._master, data)

    def _serve(self) -> None:
        master = self._master
        while not self._stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.002)
            now = int(time.monotonic() * 1000) & (TICKS_PERIOD - 1)
            with self._lock:
                if ready:
                    try:
                        data = os.read(master, 65536)
                    except OSError:
                        data = b""  # the host closed its end; wait for it to reopen
                    self.received += len(data)
                    self.link.feed(data, now)
                self.link.poll_buttons(list(self.pressed), now)
            with self.ticked:
                self.ticked.notify_all()

    def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Wait (no sleeping) until ``predicate()`` holds after a firmware loop turn."""
        with self.ticked:
            return self.ticked.wait_for(predicate, timeout)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python firmware/virtual_pico.py LINK_PATH [e.g. /tmp/pico]", file=sys.stderr)
        return 2
    with VirtualPico(argv[0]) as pico:
        print(f"virtual Pico on {argv[0]} -> {os.readlink(argv[0])}; Ctrl-C to stop")
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            pass
        print(f"{len(pico.panel.frames)} frames received")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
