"""Plain settings the hardware factories are built from (no I/O, no library imports).

The controller's config loader (``controller/config.py``) validates a TOML file into
these frozen dataclasses; the factories in ``hardware/build.py`` turn them into
devices. Keeping them here, and free of any library, lets the layering test hold:
hardware never imports controller, yet both sides agree on one shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RGB_REAL = ("ws2812", "neopixel", "unicornhathd", "apa102")
MONO_REAL = ("max7219",)
EMULATORS = ("pygame", "asciiblock", "capture", "gifanim")
PANELS = ("ws2812", "max7219", "bridge", "unicornhathd", "apa102")
"""The real panels a table can have (``install.sh --panel`` offers these and ``none``)."""
DISPLAY_TYPES = (*RGB_REAL, *MONO_REAL, "bridge", *EMULATORS, "dummy", "none")
"""Every ``display.type`` value; the first four need a Pi, the emulators need pygame.
``none`` means no panel chosen yet: ``run`` then waits and says what to set."""

MAPPINGS = ("row", "serpentine", "tiled")
"""How pixels are chained on the panel (see ``hardware/layout.py``)."""

ROTATIONS = (0, 90, 180, 270)

RGB_SIZES = ((16, 16), (32, 32))
MONO_SIZES = ((32, 8), (8, 8))
"""The sizes the game views have layouts for, as (width, height) after rotation. A display
of any other size could be driven, but nothing could be drawn."""

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
        return self.type in MONO_REAL

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
