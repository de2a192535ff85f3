"""Display backends: every ``display.type`` is a luma device behind one small wrapper.

``open_display(spec)`` builds the luma device the spec names and wraps it in
``LumaDisplay``, which implements ``hardware.interfaces.Display``:

* frames are checked (size and mode) before they reach luma, whose own checks are bare
  ``assert`` statements;
* RGB frames go through the power limiter (``hardware/power.py``) at the current
  brightness, then are converted to the device's own mode (RGBA for APA102 and the
  Unicorn HAT HD);
* brightness 0..1 maps to luma's ``contrast`` 0..255 (the rpi_ws281x global
  brightness, the MAX7219 intensity, the emulators' alpha); ``night()`` switches
  between the day and night levels from the config;
* rotation is luma's own ``rotate``; chain order (serpentine, tiles) is luma's
  ``mapping`` list from ``hardware/layout.py``.

Real hardware modules (rpi_ws281x, spidev) and the emulator (pygame) are imported
only when their type is opened; a missing one raises a one-line ``HardwareError``
that says what to install. The pygame emulator calls ``sys.exit()`` when its window
is closed or Esc is pressed; the wrapper turns that into ``DisplayClosed`` so the
controller can save and shut down instead of dying mid-frame.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO

from PIL import Image

from hardware.atomic_file import write_atomically
from hardware.interfaces import HardwareError
from hardware.layout import build_mapping
from hardware.panels import PANEL_TYPES
from hardware.power import PowerModel, limit_frame
from hardware.specs import DisplaySpec

PI_EXTRA = "pip install 'spieltisch[pi]'"
SIM_EXTRA = "pip install 'spieltisch[sim]'"


class FrameError(ValueError):
    """A frame of the wrong size or mode was handed to a display."""


class DisplayClosed(HardwareError):
    """The emulator window was closed (or Esc pressed): time to save and exit."""


class LumaDisplay:
    """A luma device as a ``Display``: checked frames, power limit, brightness."""

    def __init__(self, device: Any, spec: DisplaySpec) -> None:
        self._device = device
        self.spec = spec
        self._mode = "1" if device.mode == "1" else "RGB"
        self._power = PowerModel(spec.ma_per_channel, spec.idle_ma_per_led)
        self._brightness = spec.brightness
        self._closed = False
        self.last_frame: Image.Image | None = None
        """The last frame as sent to the device (after the power limiter)."""
        self.set_brightness(spec.brightness)

    @property
    def device(self) -> Any:
        """The wrapped luma device (tests read ``dummy.image`` from it)."""
        return self._device

    @property
    def width(self) -> int:
        return int(self._device.width)

    @property
    def height(self) -> int:
        return int(self._device.height)

    @property
    def mode(self) -> str:
        return self._mode

    @property
    def brightness(self) -> float:
        return self._brightness

    def show(self, image: Image.Image) -> None:
        if image.size != (self.width, self.height):
            raise FrameError(
                f"frame is {image.width}x{image.height}, display {self.spec.type} is "
                f"{self.width}x{self.height}"
            )
        if image.mode != self._mode:
            raise FrameError(f"frame mode is {image.mode!r}, display wants {self._mode!r}")
        frame = limit_frame(image, self.spec.max_current_ma, self._brightness, self._power)
        self.last_frame = frame
        self._display(frame if frame.mode == self._device.mode else frame.convert("RGBA"))

    def _display(self, frame: Image.Image) -> None:
        self._device.display(frame)

    def set_brightness(self, level: float) -> None:
        if not 0.0 <= level <= 1.0:
            raise ValueError(f"brightness {level} is outside 0.0..1.0")
        self._brightness = level
        self._device.contrast(round(level * 255))

    def night(self, on: bool) -> None:
        """Switch to the configured night (``True``) or day brightness."""
        self.set_brightness(self.spec.night_brightness if on else self.spec.brightness)

    def estimate_ma(self, image: Image.Image) -> float:
        """The estimated current of ``image`` at the current brightness (RGB only)."""
        return self._power.estimate_ma(image, self._brightness)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._device.cleanup()


class PygameDisplay(LumaDisplay):
    """The luma pygame window; closing it raises ``DisplayClosed`` instead of exiting."""

    def _display(self, frame: Image.Image) -> None:
        try:
            self._device.display(frame)
        except SystemExit:
            self._closed = True
            raise DisplayClosed("the emulator window was closed") from None


class CaptureDisplay(LumaDisplay):
    """luma's capture: one PNG per frame. A file that cannot be written (its directory
    removed while running, a full disk) is a ``HardwareError`` the loop logs and rides
    out, as it does an unplugged panel, instead of pygame's own exception."""

    def _display(self, frame: Image.Image) -> None:
        try:
            self._device.display(frame)
        except (RuntimeError, OSError) as exc:  # pygame.error is a RuntimeError
            raise HardwareError(f"capture: cannot write a frame: {exc}") from None


class GifDisplay(LumaDisplay):
    """luma's gifanim, written when closed rather than only at interpreter exit."""

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._device.write_animation()
        atexit.unregister(self._device.write_animation)


def open_display(spec: DisplaySpec, *, interface: Any = None) -> LumaDisplay:
    """The display ``spec.type`` names, ready to ``show`` frames.

    ``interface`` replaces the hardware channel luma would open: the ``dma_interface``
    of ws2812 or the ``serial_interface`` of the SPI devices. Tests pass luma's
    ``noop()`` or a ``unittest.mock.Mock`` there (luma's own documented test seam).
    """
    kind = spec.type
    panel = PANEL_TYPES.get(kind)
    if panel is None:
        raise HardwareError(f"unknown display type {kind!r}; allowed: {', '.join(PANEL_TYPES)}")
    return _OPENERS[panel.driver](spec, interface)


def _rotate(spec: DisplaySpec) -> int:
    return spec.rotation // 90


def _ws2812(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    from luma.led_matrix.device import ws2812

    mapping = build_mapping(
        spec.mapping, spec.width, spec.height, spec.tile_width, spec.tile_height
    )
    # Checked before luma tries: its ws2812 would fail half-built and complain again
    # from __del__ at exit.
    if interface is None and importlib.util.find_spec("_rpi_ws281x") is None:
        raise HardwareError(
            f"display.type {spec.type!r} needs the rpi_ws281x module (Raspberry Pi 1-4 only, "
            f"run as root): {PI_EXTRA}"
        )
    try:
        device = ws2812(
            dma_interface=interface,
            width=spec.width,
            height=spec.height,
            rotate=_rotate(spec),
            mapping=mapping,
        )
    except ImportError:
        raise HardwareError(
            f"display.type {spec.type!r} needs the rpi_ws281x module (Raspberry Pi 1-4 only, "
            f"run as root): {PI_EXTRA}"
        ) from None
    except RuntimeError as exc:
        raise HardwareError(
            f"display.type {spec.type!r}: {exc} (ws2812 needs root for DMA; on a Pi 5 use "
            "the bridge or an SPI panel)"
        ) from None
    return LumaDisplay(device, spec)


def _spi(spec: DisplaySpec, interface: Any) -> Any:
    if interface is not None:
        return interface
    from luma.core.error import Error as LumaError
    from luma.core.interface.serial import noop, spi

    try:
        return spi(port=spec.spi_port, device=spec.spi_device, gpio=noop())
    except ImportError:
        raise HardwareError(f"display.type {spec.type!r} needs spidev: {PI_EXTRA}") from None
    except (LumaError, OSError) as exc:
        raise HardwareError(
            f"display.type {spec.type!r}: SPI{spec.spi_port}.{spec.spi_device} not usable "
            f"({exc}); enable SPI (raspi-config, dtparam=spi=on) and join the spi group"
        ) from None


def _max7219(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    from luma.led_matrix.device import max7219

    device = max7219(
        _spi(spec, interface),
        width=spec.width,
        height=spec.height,
        rotate=_rotate(spec),
        block_orientation=spec.block_orientation,
        blocks_arranged_in_reverse_order=spec.reverse_order,
    )
    return LumaDisplay(device, spec)


def _unicornhathd(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    from luma.led_matrix.device import unicornhathd

    return LumaDisplay(unicornhathd(_spi(spec, interface), rotate=_rotate(spec)), spec)


def _apa102(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    from luma.led_matrix.device import apa102

    mapping = build_mapping(
        spec.mapping, spec.width, spec.height, spec.tile_width, spec.tile_height
    )
    device = apa102(
        _spi(spec, interface),
        width=spec.width,
        height=spec.height,
        rotate=_rotate(spec),
        mapping=mapping,
    )
    return LumaDisplay(device, spec)


def _emulator(spec: DisplaySpec, **kwargs: Any) -> Any:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        from luma.emulator import device as emulators
    except ImportError:
        raise HardwareError(
            f"display.type {spec.type!r} needs luma.emulator: {SIM_EXTRA}"
        ) from None
    if not hasattr(emulators, spec.type):
        raise HardwareError(f"display.type {spec.type!r} is not available on this system")
    scale = max(1, spec.scale)
    make = _WHOLE_FILES.get(spec.type, lambda: getattr(emulators, spec.type))()
    try:
        return make(
            width=spec.width,
            height=spec.height,
            rotate=_rotate(spec),
            mode="1" if spec.mono else "RGB",
            transform="none" if scale == 1 else "identity",
            scale=scale,
            **kwargs,
        )
    except RuntimeError as exc:  # "Emulator requires pygame to be installed"
        raise HardwareError(f"display.type {spec.type!r}: {exc}: {SIM_EXTRA}") from None


def _atomic_capture() -> Any:
    """luma's ``capture``, each frame written whole (:mod:`hardware.atomic_file`): a
    script or test collecting the frames never opens half a PNG. The frame is made as
    luma makes it (``preprocess``, ``to_surface`` at the current contrast); only the
    writing differs. luma's brightness change draws the last frame again through this
    same method."""
    from luma.emulator.device import capture

    class AtomicCapture(capture):  # type: ignore[misc]
        def display(self, image: Image.Image) -> None:
            if image.size != self.size:
                raise FrameError(f"frame is {image.size}, capture is {self.size}")
            self._last_image = image
            self._count += 1
            target = Path(self._file_template.format(self._count))
            surface = self.to_surface(self.preprocess(image), alpha=self._contrast)
            save = self._pygame.image.save
            write_atomically(target, lambda out: save(surface, out, target.name))

    return AtomicCapture


def _atomic_gifanim() -> Any:
    """luma's ``gifanim``, its recording written whole when it is closed."""
    from luma.emulator.device import gifanim

    class AtomicGifanim(gifanim):  # type: ignore[misc]
        def write_animation(self) -> None:
            if not self._images:
                return
            first, rest = self._images[0], self._images[1:]

            def write(out: BinaryIO) -> None:
                first.save(
                    out,
                    save_all=True,
                    loop=self._loop,
                    duration=self._duration,
                    append_images=rest,
                    optimize=True,
                    format="GIF",
                )

            write_atomically(Path(self._filename), write)

    return AtomicGifanim


_WHOLE_FILES: dict[str, Callable[[], Any]] = {
    "capture": _atomic_capture,
    "gifanim": _atomic_gifanim,
}
"""The emulators that write files, as subclasses that write each file whole."""


def _pygame(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    # frame_rate=0: no frame cap, so show() never sleeps on the controller's loop.
    device = _emulator(spec, frame_rate=0)
    import pygame

    pygame.display.set_caption("spieltisch")
    return PygameDisplay(device, spec)


def _asciiblock(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    device = _emulator(replace(spec, scale=1))
    return LumaDisplay(device, spec)


def _capture(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    return CaptureDisplay(_emulator(spec, file_template=spec.file), spec)


def _gifanim(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    return GifDisplay(_emulator(spec, filename=spec.file, duration=0.1), spec)


def _dummy(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    from luma.core.device import dummy

    mode = "1" if spec.mono else "RGB"
    return LumaDisplay(
        dummy(width=spec.width, height=spec.height, rotate=_rotate(spec), mode=mode), spec
    )


def _bridge(spec: DisplaySpec, interface: Any) -> LumaDisplay:
    raise HardwareError(
        "display.type 'bridge' is opened by hardware.bridge (the Pico serial bridge), "
        "not by open_display"
    )


_OPENERS: dict[str, Callable[[DisplaySpec, Any], LumaDisplay]] = {
    "ws2812": _ws2812,
    "max7219": _max7219,
    "unicornhathd": _unicornhathd,
    "apa102": _apa102,
    "pygame": _pygame,
    "asciiblock": _asciiblock,
    "capture": _capture,
    "gifanim": _gifanim,
    # also "none", no panel chosen yet: frames go nowhere (run waits, see config_wait)
    "dummy": _dummy,
    "bridge": _bridge,
}
"""The opener of each driver a panel type names (:data:`hardware.panels.PANEL_TYPES`)."""
