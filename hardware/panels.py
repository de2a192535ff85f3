"""What each ``display.type`` is, one record per type: the one place that says it.

A panel type's record says which sizes the game views can draw on it (colour or
monochrome, or the one size it is built in), whether it takes a chain order
(``display.mapping``), which bus it hangs on and so which GPIO pins it takes, which
extra its library comes from, whether it needs root, and what the installer offers and
writes for it. Everything that needs one of these facts reads it here: the display
opener (:mod:`hardware.display` picks its opener by ``driver``), the config check
(:mod:`controller.config`: sizes, mapping, pins) and the installer
(``systemd/install.sh``), which asks this module rather than keeping its own list::

    python3 -I hardware/panels.py --shell

prints the shell variables it needs. The installer runs before the program is
installed, with the system's Python and nothing else, so this module uses only the
standard library and imports nothing of the project: run as a file, it works from the
checkout alone. (luma.core's command line does the same for its devices: the display
types are the names each device module exports, read in one place.)
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass

RGB_SIZES = ((16, 16), (32, 32))
MONO_SIZES = ((32, 8), (8, 8))
"""The sizes the game views have layouts for, as (width, height) after rotation. A display
of any other size could be driven, but nothing could be drawn."""

SPI_PINS = {8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK", 7: "SPI0 CE1"}
"""The SPI0 bus's pins (BCM) and their roles; a panel takes one of the two chip selects."""
PWM_DATA = {18: "data, PWM0"}
"""The WS2812 data line: rpi_ws281x drives it with the PWM peripheral on GPIO 18."""


@dataclass(frozen=True, slots=True)
class PanelType:
    """One ``display.type``."""

    name: str
    driver: str
    """Which opener of :mod:`hardware.display` builds it: luma's device of that name (an
    alias such as ``neopixel`` shares ``ws2812``'s), an emulator, or the bridge."""
    kind: str
    """"panel" (real LEDs on a Pi), "emulator" (luma.emulator, on a laptop) or
    "stand-in" (luma's dummy; ``none``: no panel chosen yet)."""
    mono: bool = False
    """One colour: the monochrome layouts (:data:`MONO_SIZES`), else the colour ones."""
    built_size: tuple[int, int] | None = None
    """The one (width, height) the panel comes in, as mounted; None: any of its sizes."""
    mapping: bool = False
    """Its pixels are chained in an order the config sets (``display.mapping``)."""
    bus: str = ""
    """How it is wired: "pwm" (GPIO 18), "spi" (SPI0), "usb" (the Pico bridge), or ""."""
    extra: str = ""
    """The pip extra its library comes from ("pi", "sim"); "": the program's own."""
    needs_root: bool = False
    """Its driver maps /dev/mem: the unit runs as root for it (systemd/ws2812.conf)."""
    install_place: int | None = None
    """Where ``install.sh --panel`` lists it (None: not offered; the installer offers
    the panels a table is built with)."""
    install_size: tuple[int, int] | None = None
    """The (width, height) the installer writes with the type (four 8×8 max7219
    modules in a row); None: the config's size stays."""
    usb_vendor: str = ""
    """The USB vendor id (hex) by which the installer sees it plugged in (the Pico
    bridge's Raspberry Pi 2E8A); "": it cannot be seen from the Pi."""

    @property
    def sizes(self) -> tuple[tuple[int, int], ...]:
        """The (width, height) layouts the views can draw on it, after rotation."""
        return MONO_SIZES if self.mono else RGB_SIZES

    def bus_pins(self, spi_device: int = 0) -> dict[int, str]:
        """The GPIO pins (BCM) its bus takes, with their roles; ``spi_device`` picks the
        chip select (CE0 on GPIO 8, CE1 on GPIO 7)."""
        if self.bus == "pwm":
            return dict(PWM_DATA)
        if self.bus == "spi":
            chip_select = 7 if spi_device == 1 else 8
            return {
                pin: role
                for pin, role in SPI_PINS.items()
                if pin not in (7, 8) or pin == chip_select
            }
        return {}


PANEL_TYPES: dict[str, PanelType] = {
    t.name: t
    for t in (
        PanelType(
            "ws2812",
            "ws2812",
            "panel",
            mapping=True,
            bus="pwm",
            extra="pi",
            needs_root=True,
            install_place=1,
        ),
        PanelType(
            "neopixel", "ws2812", "panel", mapping=True, bus="pwm", extra="pi", needs_root=True
        ),
        PanelType(
            "unicornhathd",
            "unicornhathd",
            "panel",
            built_size=(16, 16),
            bus="spi",
            extra="pi",
            install_place=4,
        ),
        PanelType(
            "apa102", "apa102", "panel", mapping=True, bus="spi", extra="pi", install_place=5
        ),
        PanelType(
            "max7219",
            "max7219",
            "panel",
            mono=True,
            bus="spi",
            extra="pi",
            install_place=2,
            install_size=(32, 8),
        ),
        PanelType(
            "bridge", "bridge", "panel", mapping=True, bus="usb", install_place=3, usb_vendor="2e8a"
        ),
        PanelType("pygame", "pygame", "emulator", extra="sim"),
        PanelType("asciiblock", "asciiblock", "emulator", extra="sim"),
        PanelType("capture", "capture", "emulator", extra="sim"),
        PanelType("gifanim", "gifanim", "emulator", extra="sim"),
        PanelType("dummy", "dummy", "stand-in"),
        PanelType("none", "dummy", "stand-in"),
    )
}
"""Every ``display.type``, in the order the config's messages list them."""

NO_PANEL = "none"
"""The type of a table whose panel is not chosen yet: ``run`` waits and says what to set."""


def offered() -> tuple[str, ...]:
    """The panels the installer offers, in its order (``none`` is offered besides)."""
    placed = [t for t in PANEL_TYPES.values() if t.install_place is not None]
    return tuple(t.name for t in sorted(placed, key=lambda t: t.install_place or 0))


def shell() -> str:
    """What ``systemd/install.sh`` needs, as bash assignments for its ``eval``."""

    def array(name: str, words: tuple[str, ...]) -> str:
        return f"{name}=({' '.join(shlex.quote(w) for w in words)})"

    types = PANEL_TYPES.values()
    sizes = " ".join(
        f"[{t.name}]={t.install_size[0]}x{t.install_size[1]}"
        for t in types
        if t.install_size is not None
    )
    vendors = " ".join(f"[{t.usb_vendor}]={t.name}" for t in types if t.usb_vendor)
    return "\n".join(
        [
            array("PANELS", (*offered(), NO_PANEL)),
            array("SPI_PANELS", tuple(t.name for t in types if t.bus == "spi")),
            array("ROOT_PANELS", tuple(t.name for t in types if t.needs_root)),
            f"declare -A PANEL_SIZES=({sizes})",
            f"declare -A PANEL_USB_VENDORS=({vendors})",
        ]
    )


def main(argv: list[str]) -> int:
    if argv != ["--shell"]:
        print("usage: panels.py --shell", file=sys.stderr)
        return 2
    print(shell())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
