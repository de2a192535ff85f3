# ruff: noqa: E402  (the pin map must come first, above the imports)
"""spieltisch serial bridge: WS2812 panel + seat buttons on a Raspberry Pi Pico.

MicroPython runs this file at boot. It only wires the hardware (pins, the
``neopixel`` strip, USB serial) to the pure modules ``link``, ``protocol``,
``panel`` and ``debounce``; all behaviour lives there and is tested on CPython.
Flashing and wiring: README.md in this folder; the wire format: PROTOCOL.md.
"""

# ---- pin map: edit these lines to match your build ---------------------------------
PANEL_PIN = 16  # GP16 -> level shifter (3.3 V -> 5 V) -> 330 Ω -> panel DIN
PANEL_WIDTH = 16  # pixels; at most 32 x 32
PANEL_HEIGHT = 16
SERPENTINE = True  # every other row runs backwards (most flexible panels)
VERTICAL = False  # the strip runs along columns instead of rows
FLIP_X = False  # the first LED is at the right edge
FLIP_Y = False  # the first LED is at the bottom edge
MAX_MILLIAMPS = 2000  # LED current budget; frames above it are dimmed (0 = no limit)
# (GPIO, seat, button): every button switches its GPIO to GND (internal pull-up).
# seat None = the system button.
BUTTON_PINS = (
    (2, 0, "ok"),
    (3, 0, "next"),
    (4, 1, "ok"),
    (5, 1, "next"),
    (6, 2, "ok"),
    (7, 2, "next"),
    (8, 3, "ok"),
    (9, 3, "next"),
    (10, None, "system"),
)
DEBOUNCE_MS = 20
HOLD_MS = 1000  # a press this long also reports HELD
STATUS_LED = "LED"  # on: host connected; blinking: no host for 3 s
# ------------------------------------------------------------------------------------

import select
import sys
import time

import machine
import micropython
import neopixel
import protocol
from link import Link
from panel import Panel

BUTTON_IDS = {"ok": protocol.BTN_OK, "next": protocol.BTN_NEXT, "system": protocol.BTN_SYSTEM}


def button_list() -> list:
    """The pin map's buttons as protocol (seat, button id) pairs, in pin-map order."""
    out = []
    for _gpio, seat, name in BUTTON_PINS:
        out.append((protocol.SYSTEM_SEAT if seat is None else seat, BUTTON_IDS[name]))
    return out


def build(write):
    """Create the strip, panel, button pins and the ``Link``; ``write`` sends bytes."""
    if not (1 <= PANEL_WIDTH <= 32 and 1 <= PANEL_HEIGHT <= 32):
        raise ValueError("panel must be at most 32 x 32")
    strip = neopixel.NeoPixel(machine.Pin(PANEL_PIN, machine.Pin.OUT), PANEL_WIDTH * PANEL_HEIGHT)
    panel = Panel(
        strip, PANEL_WIDTH, PANEL_HEIGHT, SERPENTINE, VERTICAL, FLIP_X, FLIP_Y, MAX_MILLIAMPS
    )
    pins = [
        machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP) for gpio, _seat, _name in BUTTON_PINS
    ]
    link = Link(panel, write, button_list(), DEBOUNCE_MS, HOLD_MS)
    panel.show(link.frame)  # start dark, whatever the LEDs powered up with
    return link, pins


def step(link, pins, stdin, poller, led, now: int) -> None:
    """One loop turn: received bytes if any (waiting at most 1 ms), then the buttons."""
    link.serve(stdin, poller, [not pin.value() for pin in pins], now)
    if led is not None:
        led.value(1 if link.host_alive(now) else (now >> 8) & 1)


def main() -> None:
    stdin = sys.stdin.buffer
    link, pins = build(sys.stdout.buffer.write)
    system = [pins[i] for i in range(len(pins)) if BUTTON_PINS[i][1] is None]
    if system and not system[0].value():
        print("spieltisch bridge: system button held at boot, staying in the REPL")
        return
    micropython.kbd_intr(-1)  # 0x03 is pixel data, not Ctrl-C, from here on
    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    led = machine.Pin(STATUS_LED, machine.Pin.OUT)
    while True:
        step(link, pins, stdin, poller, led, time.ticks_ms())


if __name__ == "__main__":
    main()
