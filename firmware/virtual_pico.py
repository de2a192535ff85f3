"""A virtual Pico on a pseudo-terminal: the real firmware logic, no hardware (CPython only).

This file is *not* copied to the Pico. ``VirtualPico`` runs ``link.Link`` (exactly the
object ``main.py`` runs) in a thread behind one end of an ``os.openpty()`` pair, with a
recording panel and buttons pressed from Python. ``MicroPythonPico`` runs the same
logic in a MicroPython process instead (``unix_pico.py`` under the unix port), so the
host talks to the firmware under the Pico's own interpreter. The host driver opens the
other end like a USB serial port. The tests, ``benchmarks/bridge_roundtrip.py`` and
anyone without a Pico use it::

    python firmware/virtual_pico.py /tmp/pico     # then set bridge.port = "/tmp/pico"
    python firmware/virtual_pico.py /tmp/pico --micropython ../shared/tools/micropython

``port_link`` is a symlink that always points at the current pty, like udev's
``/dev/serial/by-id/...`` link of a real Pico: ``unplug()`` closes the pty (the host
sees an I/O error, as on a real unplug) and removes the link, ``replug()`` makes a new
pty and points the link at it. For ``MicroPythonPico`` an unplug also ends the process
and a replug starts a new one: a bus-powered Pico restarts when it is plugged in.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import select
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import IO

sys.path.insert(0, str(Path(__file__).resolve().parent))

import protocol  # firmware modules are top-level modules, as on the Pico
from debounce import TICKS_PERIOD
from link import Link

FIRMWARE = Path(__file__).resolve().parent
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


class _Link(Link):
    """The firmware's link, which can be told to answer HELLO with other bytes: a Pico
    flashed with another version, or a broken one (``hello_reply``)."""

    hello_reply: bytes | None = None
    hellos = 0

    def hello_payload(self) -> bytes:
        self.hellos += 1
        if self.hello_reply is not None:
            return self.hello_reply
        return bytes(super().hello_payload())


class VirtualPico:
    """The firmware logic served on a pty whose path is ``port_link``.

    ``link.hello_reply`` (bytes) makes it answer every HELLO with that payload, as a
    Pico with other or broken firmware would; ``link.hellos`` counts the HELLOs."""

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
        self.link = _Link(self.panel, self._write, buttons or DEFAULT_BUTTONS, debounce_ms, hold_ms)
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
        self._master, self._slave = open_pty(self.port_link)
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

    def inject(self, data: bytes) -> None:
        """Send raw bytes to the host, as noise on the line between packets."""
        self._write(data)

    def sync(self, timeout: float = 5.0) -> None:
        """Nothing to wait for: the panel records a frame before the firmware ACKs it."""

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


def open_pty(port_link: Path) -> tuple[int, int]:
    """A raw pty pair; ``port_link`` is (atomically re)pointed at its serial end."""
    master, slave = os.openpty()
    tty.setraw(slave)
    tmp = port_link.with_name(port_link.name + ".new")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(os.ttyname(slave))
    tmp.replace(port_link)
    return master, slave


class MicroPythonPico:
    """The firmware logic in a MicroPython process (``unix_pico.py``) on a pty.

    Same interface as ``VirtualPico`` except the in-process ``link``: the panel records
    the frames the process reports, buttons and ``drop_output`` are sent to it over a
    control pipe. ``micropython`` is the path to the unix port's binary; ``heap_size``
    (e.g. ``"96k"``) limits its heap like a board's RAM does.
    """

    def __init__(
        self,
        port_link: str | os.PathLike[str],
        micropython: str,
        width: int = 16,
        height: int = 16,
        buttons: list[tuple[int, int]] | None = None,
        debounce_ms: int = 20,
        hold_ms: int = 1000,
        start_timeout: float = 30.0,
        heap_size: str | None = None,
    ) -> None:
        self.port_link = Path(port_link)
        self.micropython = micropython
        self.heap_size = heap_size
        self.panel = RecordingPanel(width, height)
        self.buttons = list(buttons or DEFAULT_BUTTONS)
        self.timings = (debounce_ms, hold_ms)
        self.start_timeout = start_timeout
        self.output: list[str] = []  # lines from the process that are not reports
        self._process: subprocess.Popen[bytes] | None = None
        self._control: IO[bytes] | None = None
        self._slave = -1
        self._reader: threading.Thread | None = None
        self._said = threading.Condition()
        self._ready = False
        self._ended = False  # the process closed its stderr: it has exited
        self._muted: bool | None = None
        self._synced = -1
        self._syncs = 0
        self._drop_output = False

    # -- plugging ---------------------------------------------------------------------
    def plug(self) -> None:
        """New pty, link pointed at it, a MicroPython process serving its other end."""
        master, self._slave = open_pty(self.port_link)
        control_read, control_write = os.pipe()
        width, height = self.panel.width, self.panel.height
        buttons = ",".join(f"{seat}:{button}" for seat, button in self.buttons)
        args = [str(control_read), str(width), str(height), *map(str, self.timings), buttons]
        heap = ["-X", f"heapsize={self.heap_size}"] if self.heap_size else []
        self._control = os.fdopen(control_write, "wb", buffering=0)
        try:
            self._process = subprocess.Popen(
                [self.micropython, *heap, str(FIRMWARE / "unix_pico.py"), *args],
                stdin=master,
                stdout=master,
                stderr=subprocess.PIPE,
                pass_fds=(control_read,),
                cwd=FIRMWARE,
            )
        except OSError:
            self.unplug()
            raise
        finally:
            os.close(master)  # the process holds it now; the pty lives while it runs
            os.close(control_read)
        self._ready = self._ended = False
        self._reader = threading.Thread(
            target=self._read_reports, args=(self._process,), name="micropython-pico", daemon=True
        )
        self._reader.start()
        with self._said:
            self._said.wait_for(lambda: self._ready or self._ended, self.start_timeout)
        if not self._ready:
            if self._ended:  # stderr closed: the process is exiting or gone
                why = f"exit status {self._process.wait(timeout=10)}"
            else:
                why = f"no answer within {self.start_timeout:g} s"
            said = "".join(f"\n  {line}" for line in self.output[-20:])
            self.unplug()
            raise RuntimeError(f"{self.micropython} did not start unix_pico.py ({why}){said}")
        if self._drop_output:
            self.drop_output = True

    replug = plug

    def unplug(self) -> None:
        """End the process and close the pty: the host's next read or write fails."""
        process, self._process = self._process, None
        if self._control is not None:
            self._control.close()
            self._control = None
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._reader is not None:
            self._reader.join(timeout=10)
            self._reader = None
        if process is not None and process.stderr is not None:
            process.stderr.close()
        self.port_link.unlink(missing_ok=True)
        if self._slave >= 0:
            os.close(self._slave)
            self._slave = -1

    close = unplug

    def __enter__(self) -> MicroPythonPico:
        self.plug()
        return self

    def __exit__(self, *exc: object) -> None:
        self.unplug()

    # -- what the process says ----------------------------------------------------------
    def _read_reports(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stderr is not None
        for raw in process.stderr:
            kind, _, rest = raw.decode("utf-8", "replace").rstrip("\n").partition(" ")
            if kind == "frame":
                self.panel.show(bytes.fromhex(rest))
                continue
            with self._said:
                if kind == "ready":
                    self._ready = True
                elif kind == "brightness":
                    self.panel.set_brightness(int(rest))
                elif kind == "muted":
                    self._muted = rest == "1"
                elif kind == "synced":
                    self._synced = int(rest)
                else:
                    self.output.append(f"{kind} {rest}".strip())
                self._said.notify_all()
        with self._said:
            self._ended = True
            self._said.notify_all()

    # -- buttons and the line ------------------------------------------------------------
    def _send(self, line: str) -> None:
        if self._control is None:
            raise RuntimeError("the MicroPython Pico is unplugged")
        try:
            self._control.write(line.encode() + b"\n")
        except BrokenPipeError:
            with self._said:  # its last words (a traceback) are on their way
                self._said.wait_for(lambda: self._ended, 10)
            said = "".join(f"\n  {line}" for line in self.output[-20:])
            raise RuntimeError(f"the firmware under MicroPython has exited{said}") from None

    def set_button(self, index: int, pressed: bool) -> None:
        """Hold button ``index`` down or let it go; debounced by the firmware as on a Pico."""
        if not 0 <= index < len(self.buttons):
            raise IndexError(f"button {index}: the Pico has {len(self.buttons)}")
        self._send(f"button {index} {int(pressed)}")

    def inject(self, data: bytes) -> None:
        """Have the firmware send raw bytes to the host, as noise between packets."""
        self._send(f"noise {data.hex()}")

    def sync(self, timeout: float = 5.0) -> None:
        """Wait until ``panel`` holds everything the firmware reported so far.

        The firmware reports a frame before it ACKs it, but this process reads the
        reports in another thread; once the reply to a ``sync`` is read, every report
        the firmware wrote before it (e.g. the frame behind an ACK the host has seen)
        has been read too.
        """
        with self._said:
            self._syncs += 1
            token = self._syncs
            self._send(f"sync {token}")
            if not self._said.wait_for(lambda: self._synced == token, timeout):
                raise RuntimeError(f"the MicroPython Pico did not answer sync {token}")

    @property
    def drop_output(self) -> bool:
        """True: the firmware still reads and draws but answers nothing (set and wait)."""
        return self._drop_output

    @drop_output.setter
    def drop_output(self, drop: bool) -> None:
        self._drop_output = drop
        if self._control is None:
            return  # applied at the next plug
        with self._said:
            self._muted = None
            self._send(f"mute {int(drop)}")
            if not self._said.wait_for(lambda: self._muted == drop, self.start_timeout):
                raise RuntimeError(f"the MicroPython Pico did not confirm mute {int(drop)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python firmware/virtual_pico.py",
        description="Serve the bridge firmware's logic on a pty, for a host without a Pico.",
    )
    parser.add_argument("link", help="symlink to create for the host, e.g. /tmp/pico")
    parser.add_argument(
        "--micropython",
        metavar="BINARY",
        help="run the firmware under this MicroPython unix port instead of in-process",
    )
    args = parser.parse_args(argv)
    pico: VirtualPico | MicroPythonPico
    if args.micropython:
        pico = MicroPythonPico(args.link, args.micropython)
    else:
        pico = VirtualPico(args.link)
    try:
        pico.plug()
    except (OSError, RuntimeError) as exc:
        print(f"virtual_pico: {exc}", file=sys.stderr)
        return 1
    try:
        print(f"virtual Pico on {args.link} -> {os.readlink(args.link)}; Ctrl-C to stop")
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        pico.unplug()
    print(f"{len(pico.panel.frames)} frames received")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
