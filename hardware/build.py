"""Factories: from validated settings (``hardware/specs.py``) to working devices.

These are the only entry points the controller needs:

* ``open_hardware(spec: HardwareSpec, link) -> (Display, InputBackend)``: the panel and
  the buttons of a table, the serial bridge included (``display.type``/``input.type =
  "bridge"``: one port serves both, opened once); ``open_panel(spec: DisplaySpec, link)``
  is the panel alone. ``link`` (a :class:`LinkWatcher`) hears the bridge's link state;
* ``build_display(spec: DisplaySpec) -> LumaDisplay`` (a ``Display``, no bridge);
* ``build_input(spec: HardwareSpec) -> InputBackend``: GPIO buttons, or keys of the
  pygame window / the terminal when ``input.type = "keyboard"``; a backend with a
  ``poll_interval`` must have ``poll()`` called on the loop thread that often;
* ``build_sound(spec: SoundSpec) -> Sound``: the buzzer, or silence.

``pin_factory`` (gpiozero) and ``interface`` (luma) are the test seams: tests pass
``MockFactory()`` (:func:`mock_pin_factory`) and luma's ``noop()``; production passes
nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from hardware.buttons import GpioButtons
from hardware.display import LumaDisplay, open_display
from hardware.interfaces import Display, HardwareError, InputBackend, Sound
from hardware.keyboard import PygameKeys, TerminalKeys
from hardware.sound import BuzzerSound, NullSound
from hardware.specs import DisplaySpec, HardwareSpec, SoundSpec

if TYPE_CHECKING:
    from hardware.bridge import SerialBridge


class LinkWatcher(Protocol):
    """Hears the serial bridge's link: called with ``online`` at every change,
    ``problem(words)`` at every new reason it is down, and ``watch(bridge)`` once it is
    open, so it can start from the link's state then (the controller's
    ``BridgeStatus`` tells the loop and systemd)."""

    def __call__(self, online: bool) -> None: ...

    def problem(self, words: str) -> None: ...

    def watch(self, bridge: SerialBridge) -> None: ...


def connect_bridge(spec: DisplaySpec, link: LinkWatcher | None = None) -> SerialBridge:
    """The serial bridge on ``spec.port`` (shared: a second call gets the same one).
    Imported here, not at the top, so that a table without a Pico needs no pyserial."""
    from hardware.bridge import open_bridge

    bridge = open_bridge(
        spec.port,
        size=spec.logical_size,
        on_status=link,
        on_problem=None if link is None else link.problem,
    )
    if link is not None:
        link.watch(bridge)
    return bridge


def open_panel(
    spec: DisplaySpec, link: LinkWatcher | None = None
) -> tuple[Display, SerialBridge | None]:
    """The panel alone: a luma device, or the serial bridge's display (its link is
    returned too, so that the bridge's buttons can share it)."""
    if spec.type != "bridge":
        return build_display(spec), None
    bridge = connect_bridge(spec, link)
    return bridge.display(), bridge


def open_hardware(
    spec: HardwareSpec, link: LinkWatcher | None = None
) -> tuple[Display, InputBackend]:
    """The table's panel and buttons, each from its own setting: the bridge is opened
    at most once, however many of the two it serves."""
    display, bridge = open_panel(spec.display, link)
    if spec.input_type == "bridge":
        bridge = bridge or connect_bridge(spec.display, link)
        return display, bridge.input()
    return display, build_input(spec)


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
            "input.type 'bridge' is opened by open_hardware (the Pico serial bridge)"
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
