"""A table watched over time: the real loop, a fake clock, and every frame with its time.

The loop runs as in the appliance (it draws when the table changed or when the views
said the picture changes next); only the clock is ours. :meth:`Timeline.run_for`
advances the clock from one deadline to the next, so frames land exactly where the
loop puts them, and :attr:`Timeline.frames` records each one the panel received with
the moment it was shown. :func:`strip` lays a timeline out as one PNG for the docs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from controller import views
from controller.events import EventQueue
from controller.loop import Loop
from controller.table import Table, TableOptions
from controller.testing.clock import FakeClock
from hardware.build import build_display
from hardware.interfaces import ButtonEvent
from hardware.specs import DisplaySpec


@dataclass(frozen=True)
class Frame:
    at: float
    image: Image.Image


class RecordingDisplay:
    """luma's dummy panel (through the project's display wrapper), noting each frame
    with the fake clock's time as it is shown."""

    def __init__(self, size: int, clock: FakeClock) -> None:
        self.inner = build_display(DisplaySpec(type="dummy", width=size, height=size))
        self.clock = clock
        self.frames: list[Frame] = []

    width = property(lambda self: self.inner.width)
    height = property(lambda self: self.inner.height)
    mode = property(lambda self: self.inner.mode)

    def show(self, image: Image.Image) -> None:
        self.inner.show(image)
        self.frames.append(Frame(self.clock(), image.copy()))

    def set_brightness(self, level: float) -> None:
        self.inner.set_brightness(level)

    def close(self) -> None:
        self.inner.close()


class Timeline:
    def __init__(self, options: TableOptions, size: int = 16) -> None:
        self.clock = FakeClock()
        self.display = RecordingDisplay(size, self.clock)
        self.events = EventQueue()
        self.table = Table(options)
        self.loop = Loop(self.table, self.events, self.display, views.render, clock=self.clock)
        self.loop.draw()

    @property
    def frames(self) -> list[Frame]:
        return self.display.frames

    @property
    def now(self) -> float:
        return self.clock.now

    def step(self) -> None:
        """Let the loop take every queued event and whatever is due now."""
        self.loop.step(timeout_cap=0)
        while len(self.events):
            self.loop.step(timeout_cap=0)

    def press(self, seat: int | None, button: str, kind: str = "down") -> None:
        self.events.put(ButtonEvent(seat, button, kind, self.clock()))  # type: ignore[arg-type]
        self.step()

    def tap(self, seat: int | None, button: str) -> None:
        """A press and its release at the same moment."""
        self.press(seat, button, "down")
        self.press(seat, button, "up")

    def next_deadline(self) -> float | None:
        times = [t for t in (self.table.next_wakeup(), self.loop.next_frame) if t is not None]
        return min(times) if times else None

    def run_for(self, seconds: float) -> None:
        """Advance the clock by ``seconds``, stopping at every deadline on the way."""
        end = self.clock.now + seconds
        while True:
            wake = self.next_deadline()
            if wake is None or wake > end:
                self.clock.now = end
                self.step()
                return
            self.clock.advance_to(wake)
            self.step()

    def run_until(self, done: Any, limit: float = 600.0) -> None:
        end = self.clock.now + limit
        while not done():
            wake = self.next_deadline()
            assert wake is not None and wake <= end, f"stuck in {self.table.state}"
            self.clock.advance_to(wake)
            self.step()

    def since(self, start: float) -> list[Frame]:
        return [f for f in self.frames if f.at >= start - 1e-9]


def strip(frames: list[Frame], start: float, scale: int = 8, per_row: int = 12) -> Image.Image:
    """Frames side by side, each with its time after ``start`` in seconds below it."""
    if not frames:
        raise ValueError("no frames to draw")
    width, height = frames[0].image.size
    cell_w, cell_h = width * scale + 6, height * scale + 16
    rows = (len(frames) + per_row - 1) // per_row
    sheet = Image.new("RGB", (cell_w * min(per_row, len(frames)), cell_h * rows), (24, 24, 24))
    draw = ImageDraw.Draw(sheet)
    for index, frame in enumerate(frames):
        x = (index % per_row) * cell_w + 3
        y = (index // per_row) * cell_h + 3
        big = frame.image.convert("RGB").resize(
            (width * scale, height * scale), Image.Resampling.NEAREST
        )
        sheet.paste(big, (x, y))
        draw.text((x, y + height * scale + 1), f"{frame.at - start:.2f}s", fill=(200, 200, 200))
    return sheet
