"""Show every frame on several displays at once (a window plus a GIF recording).

The first display is the primary: its size and mode are the table's; the others must
match. A failing mirror is dropped with its error kept, so a full disk while recording
never stops the game on the primary display.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hardware.interfaces import Display, HardwareError

if TYPE_CHECKING:
    from PIL.Image import Image


class TeeDisplay:
    def __init__(self, primary: Display, *mirrors: Display) -> None:
        for mirror in mirrors:
            if (mirror.width, mirror.height, mirror.mode) != (
                primary.width,
                primary.height,
                primary.mode,
            ):
                raise HardwareError("mirrored displays must have the primary's size and mode")
        self.primary = primary
        self.mirrors = list(mirrors)
        self.errors: list[str] = []

    @property
    def width(self) -> int:
        return self.primary.width

    @property
    def height(self) -> int:
        return self.primary.height

    @property
    def mode(self) -> str:
        return self.primary.mode

    def show(self, image: Image) -> None:
        self.primary.show(image)
        for mirror in list(self.mirrors):
            try:
                mirror.show(image)
            except OSError as exc:
                self.errors.append(str(exc))
                self.mirrors.remove(mirror)

    def set_brightness(self, level: float) -> None:
        self.primary.set_brightness(level)
        for mirror in self.mirrors:
            mirror.set_brightness(level)

    def close(self) -> None:
        """The primary first: the window (or the terminal) is given back before a mirror
        takes its time to finish (a long GIF recording is written on close)."""
        for display in (self.primary, *self.mirrors):
            display.close()
