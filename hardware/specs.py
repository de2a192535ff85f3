"""Plain settings the hardware factories are built from (no I/O, no library imports).

The controller's config loader (``controller/config.py``) validates a TOML file into
these frozen dataclasses; the factories in ``hardware/build.py`` turn them into
devices. Keeping them here, and free of any library, lets the layering test hold:
hardware never imports controller, yet both sides agree on one shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hardware.panels import MONO_SIZES, NO_PANEL, PANEL_TYPES, RGB_SIZES, offered

RGB_REAL = tuple(
    t.name for t in PANEL_TYPES.values() if t.kind == "panel" and t.bus != "usb" and not t.mono
)
MONO_REAL = tuple(t.name for t in PANEL_TYPES.values() if t.kind == "panel" and t.mono)
EMULATORS = tuple(t.name for t in PANEL_TYPES.values() if t.kind == "emulator")
PANELS = offered()
"""The real panels a table can have (``install.sh --panel`` offers these and ``none``)."""
DISPLAY_TYPES = tuple(PANEL_TYPES)
"""Every ``display.type`` value (:mod:`hardware.panels` says what each is); the real
panels need a Pi, the emulators need pygame. ``none`` means no panel chosen yet: ``run``
then waits and says what to set."""

MAPPINGS = ("row", "serpentine", "tiled")
"""How pixels are chained on the panel (see ``hardware/layout.py``)."""

ROTATIONS = (0, 90, 180, 270)

__all__ = [
    "DISPLAY_TYPES",
    "EMULATORS",
    "INPUT_TYPES",
    "MAPPINGS",
    "MONO_REAL",
    "MONO_SIZES",
    "NO_PANEL",
    "PANELS",
    "RGB_REAL",
    "RGB_SIZES",
    "ROTATIONS",
    "ButtonWiring",
    "DisplaySpec",
    "HardwareSpec",
    "SeatPins",
    "SoundSpec",
]

INPUT_TYPES = ("gpio", "keyboard", "bridge")
BUTTONS = ("ok", "next")
"""The two buttons of every seat; the system button is separate."""


@dataclass(frozen=True, slots=True)
class DisplaySpec:
    """One LED matrix (or stand-in) and how its pixels are laid out and limited.

    ``width``/``height`` are the panel as mounted before rotation; ``rotation`` turns
    the picture clockwise, so a 90° rotation swaps the size the views draw for.
    ``max_current_ma = 0`` switches the power limiter off.
    """

    type: str = "pygame"
    width: int = 16
    height: int = 16
    rotation: int = 0
    mapping: str = "row"
    tile_width: int = 16
    tile_height: int = 16
    brightness: float = 0.5
    night_brightness: float = 0.1
    max_current_ma: int = 0
    ma_per_channel: float = 20.0
    idle_ma_per_led: float = 1.0
    spi_port: int = 0
    spi_device: int = 0
    block_orientation: int = 0
    reverse_order: bool = False
    scale: int = 16
    file: str = "spieltisch_{0:06}.png"
    port: str = "auto"

    @property
    def mono(self) -> bool:
        panel = PANEL_TYPES.get(self.type)
        return panel is not None and panel.mono

    @property
    def logical_size(self) -> tuple[int, int]:
        """The (width, height) the views draw: the panel size turned by ``rotation``."""
        if self.rotation in (90, 270):
            return (self.height, self.width)
        return (self.width, self.height)


@dataclass(frozen=True, slots=True)
class SeatPins:
    """The BCM pins of one seat's OK/ROLL and NEXT buttons."""

    ok: int
    next: int


@dataclass(frozen=True, slots=True)
class ButtonWiring:
    """Seat buttons and the system button, wired from a GPIO pin to ground (pull-up).

    ``debounce_s`` is the software lock-out after an accepted edge; ``hold_s`` is how
    long a press must last to count as a long press ("held").
    """

    seats: tuple[SeatPins, ...] = ()
    system: int | None = None
    pull_up: bool = True
    debounce_s: float = 0.02
    hold_s: float = 1.0


@dataclass(frozen=True, slots=True)
class SoundSpec:
    """A passive piezo buzzer on a PWM-capable pin, or no sound (``buzzer_pin=None``)."""

    buzzer_pin: int | None = None
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class HardwareSpec:
    """Everything the factories need, in one value."""

    display: DisplaySpec = field(default_factory=DisplaySpec)
    input_type: str = "keyboard"
    buttons: ButtonWiring = field(default_factory=ButtonWiring)
    sound: SoundSpec = field(default_factory=SoundSpec)
