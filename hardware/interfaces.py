"""The small interfaces the controller drives the table through.

The controller only ever sees these protocols; real drivers (luma devices, gpiozero
buttons, a TonalBuzzer, the serial bridge) and their fakes implement them. That keeps
the appliance testable on a laptop and lets one backend be swapped for another by
config alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from PIL.Image import Image

ButtonName = Literal["ok", "next", "system"]
EventKind = Literal["down", "up", "held"]
Cue = Literal["dice", "move", "capture", "win", "error"]


class HardwareError(OSError):
    """A device is missing, unplugged or misbehaving; the message is one clear line."""


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """One debounced button edge or hold.

    ``seat`` is 0-based in seat order; the system button has ``seat = None``.
    ``at`` is a ``time.monotonic()`` stamp taken where the edge was seen.
    """

    seat: int | None
    button: ButtonName
    kind: EventKind
    at: float = 0.0


EventSink = Callable[[ButtonEvent], None]
"""Where input backends deliver events. It only enqueues (one loop thread owns the game): it must
never touch the state machine, and it may be called from any thread."""


class Display(Protocol):
    """An LED matrix or its stand-in: fixed size and mode, one frame at a time."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def mode(self) -> str:
        """PIL mode of the frames it takes: ``"RGB"`` or ``"1"`` (monochrome)."""
        ...

    def show(self, image: Image) -> None:
        """Display one frame of exactly ``(width, height)`` in ``mode``."""
        ...

    def set_brightness(self, level: float) -> None:
        """0.0 (off) to 1.0 (full), e.g. for night mode."""
        ...

    def close(self) -> None: ...


class FixedSizePanel:
    """The size and mode of a display that never changes them, read-only: the part of
    :class:`Display` that the simulator's displays and recorders share. A subclass sets
    ``_width``, ``_height`` and ``_mode`` in its ``__init__``."""

    _width: int
    _height: int
    _mode: str

    @property
    def width(self) -> int:
        return self._width

    @property
    def height(self) -> int:
        return self._height

    @property
    def mode(self) -> str:
        return self._mode


class InputBackend(Protocol):
    """Seat buttons and the system button from any source (GPIO, keyboard, bridge)."""

    def start(self, sink: EventSink) -> None:
        """Begin delivering events to ``sink``; returns at once."""
        ...

    @property
    def poll_interval(self) -> float | None:
        """How often the controller's loop must call :meth:`poll` on its own thread (a
        pygame window's events can be read only there); None for a backend that
        delivers from threads of its own (GPIO callbacks, a serial reader)."""
        ...

    def poll(self) -> None:
        """Deliver what has come in since the last call (only if ``poll_interval``)."""
        ...

    def close(self) -> None: ...


class ThreadedInput:
    """The part of :class:`InputBackend` of a backend that delivers events from threads
    of its own: the loop never polls it."""

    poll_interval: float | None = None

    def poll(self) -> None:
        """Nothing to deliver here: the backend's own threads do."""


class Sound(Protocol):
    """Short cues; a null backend does nothing."""

    def play(self, cue: Cue) -> None: ...

    def close(self) -> None: ...
