"""The bridge firmware under MicroPython's unix port: a Pico without the board.

This file is *not* copied to the Pico. ``virtual_pico.py`` (with ``--micropython``)
starts it with one end of a pseudo-terminal as stdin and stdout, just as the Pico's
USB serial port is its stdin and stdout, so the host driver talks to the real
firmware code (``link``, ``protocol``, ``debounce`` and ``Link.serve``, the loop turn
``main.py`` runs) under the Pico's interpreter. Only the LEDs and the pins are
stand-ins: frames are reported instead of clocked out, buttons are set over a pipe::

    micropython firmware/unix_pico.py CONTROL_FD WIDTH HEIGHT DEBOUNCE_MS HOLD_MS BUTTONS

``BUTTONS`` lists ``seat:button`` protocol ids, e.g. ``0:0,0:1,255:2``. Lines read from
the file descriptor ``CONTROL_FD``: ``button INDEX 0|1`` (a button's raw level),
``mute 0|1`` (stop/resume answering the host), ``noise HEX`` (write raw bytes to the
host), ``sync TOKEN`` (answered ``synced TOKEN`` after every earlier report); closing
it ends the program. One line per report on stderr: ``ready``, ``frame HEX`` (each
frame shown), ``brightness LEVEL``, ``muted 0|1``, ``synced TOKEN``.
"""

import select
import sys
import time
from binascii import hexlify, unhexlify

from debounce import TICKS_PERIOD
from link import Link

USAGE = (
    "usage: micropython unix_pico.py CONTROL_FD WIDTH HEIGHT DEBOUNCE_MS HOLD_MS "
    "SEAT:BUTTON[,SEAT:BUTTON...]"
)


def report(line) -> None:
    sys.stderr.write(line + "\n")


class ReportingPanel:
    """Stands in for ``panel.Panel``: reports every frame shown, in logical RGB order."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height

    def show(self, frame) -> None:
        # In small pieces: a Pico-sized heap must hold the firmware, not this report.
        out = sys.stderr.buffer
        out.write(b"frame ")
        view = memoryview(frame)
        for start in range(0, len(view), 64):
            out.write(hexlify(view[start : start + 64]))
        out.write(b"\n")

    def set_brightness(self, level: int) -> None:
        report("brightness " + str(level))


class UnixPico:
    """The firmware's state that the pins and the USB port would hold on a board."""

    def __init__(self, width, height, buttons, debounce_ms, hold_ms, write) -> None:
        self.write_serial = write
        self.muted = False
        self.link = Link(ReportingPanel(width, height), self.write, buttons, debounce_ms, hold_ms)
        self.pressed = [False] * len(buttons)

    def write(self, data) -> None:
        if not self.muted:
            self.write_serial(data)

    def command(self, line) -> None:
        """Apply one control line; a malformed one is reported, never fatal."""
        words = line.split()
        try:
            if words[0] == "button":
                self.pressed[int(words[1])] = words[2] == "1"
            elif words[0] == "mute":
                self.muted = words[1] == "1"
                report("muted " + ("1" if self.muted else "0"))
            elif words[0] == "noise":
                self.write_serial(unhexlify(words[1]))
            elif words[0] == "sync":
                report("synced " + words[1])
            else:
                raise ValueError(words[0])
        except (IndexError, ValueError):
            report("bad control line: " + line)


def parse_buttons(text) -> list:
    buttons = []
    for item in text.split(","):
        seat, button = item.split(":")
        buttons.append((int(seat), int(button)))
    return buttons


def main(argv) -> int:
    try:
        control_fd, width, height, debounce_ms, hold_ms = [int(a) for a in argv[:5]]
        buttons = parse_buttons(argv[5])
        if len(argv) != 6:
            raise ValueError
    except (IndexError, ValueError):
        sys.stderr.write(USAGE + "\n")
        return 2
    try:
        with open(control_fd, "rb") as control:
            pico = UnixPico(width, height, buttons, debounce_ms, hold_ms, sys.stdout.buffer.write)
            serve(control, pico)
    except Exception as exc:
        # The unix port prints an uncaught exception to stdout, the serial line here;
        # the harness reads stderr.
        sys.print_exception(exc, sys.stderr)
        return 1
    return 0


def serve(control, pico) -> None:
    """The main loop, until the control pipe is closed."""
    serial_in = sys.stdin.buffer
    serial_poll = select.poll()
    serial_poll.register(serial_in, select.POLLIN)
    control_poll = select.poll()
    control_poll.register(control, select.POLLIN)
    report("ready")
    while True:
        now = time.ticks_ms() & (TICKS_PERIOD - 1)  # the Pico's ticks wrap at 2**30
        pico.link.serve(serial_in, serial_poll, pico.pressed, now)
        if control_poll.poll(0):
            line = control.readline()
            if not line:
                return
            pico.command(line.decode())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
