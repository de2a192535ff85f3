"""Factories: from validated settings (``hardware/specs.py``) to working devices.

These are the only entry points the controller needs:

* ``build_display(spec: DisplaySpec) -> LumaDisplay`` (a ``Display``);
* ``build_input(spec: HardwareSpec) -> InputBackend``: GPIO buttons, or keys of the
  pygame window / the terminal when ``input.type = "keyboard"``; a backend that is
  also ``Polled`` must have ``poll()`` called on the loop thread;
* ``build_sound(spec: SoundSpec) -> Sound``: the buzzer, or silence.

``pin_factory`` (gpiozero) and ``interface`` (luma) are the test seams: tests pass
``MockFactory()`` (:func:`mock_pin_factory`) and luma's ``noop()``; production passes
nothing. The serial bridge
(``display.type``/``input.type = "bridge"``) is opened by ``hardware.bridge``, which
serves display and buttons over one port.
"""

from __future__ import annotations

from typing import Any

from hardware.buttons import GpioButtons
from hardware.display import LumaDisplay, open_display
from hardware.interfaces import HardwareError, InputBackend, Sound
from hardware.keyboard import PygameKeys, TerminalKeys
from hardware.sound import BuzzerSound, NullSound
from hardware.specs import DisplaySpec, HardwareSpec, SoundSpec


def build_display(spec: DisplaySpec, *, interface: Any = None) -> LumaDisplay:
    return open_display(spec, interface=interface)


def build_input(spec: HardwareSpec, *, pin_factory: Any = None) -> InputBackend:
    if spec.input_type == "gpio":
        return GpioButtons(spec.buttons, pin_factory=pin_factory)
    if spec.input_type == "keyboard":
        if spec.display.type == "pygame":
            return PygameKeys(hold_s=spec.buttons.hold_s)
        return TerminalKeys()
    if spec.input_type == "bridge":
        raise HardwareError(
            "input.type 'bridge' is opened by hardware.bridge (the Pico serial bridge)"
        )
    raise HardwareError(f"unknown input type {spec.input_type!r}; allowed: gpio, keyboard, bridge")


def build_sound(spec: SoundSpec, *, pin_factory: Any = None) -> Sound:
    if spec.buzzer_pin is None or not spec.enabled:
        return NullSound()
    return BuzzerSound(spec.buzzer_pin, pin_factory=pin_factory)


def mock_pin_factory() -> Any:
    """gpiozero's ``MockFactory``: pins that a test drives by hand (``pin(n).drive_low()``).

    The in-process harness (``controller.testing.rig``) builds its buttons on it; it
    lives here because only the hardware layer imports gpiozero."""
    from gpiozero.pins.mock import MockFactory

    return MockFactory()
