"""The appliance in this process, on fake hardware, stepped by hand.

The same :class:`controller.app.Appliance` that ``spieltisch run`` builds: luma's dummy
panel, gpiozero MockFactory pins for the buttons, bots answered on the loop's own thread
and a :class:`controller.testing.clock.FakeClock`. The caller is the loop thread: it
presses pins (gpiozero runs the button callbacks, which only enqueue), moves the clock
and steps the loop, so whole games run in milliseconds and the same way every time.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from controller import views
from controller.app import Appliance, table_options
from controller.config import parse_config
from controller.loop import Renderer
from controller.session import Session
from controller.testing.clock import FakeClock
from controller.testing.files import SEAT_PINS, config_text
from hardware.build import build_display, mock_pin_factory
from hardware.buttons import GpioButtons
from hardware.display import LumaDisplay

PRESS_S = 0.03
"""How long :meth:`ApplianceRig.press` holds a button, and waits after letting go: longer
than the config's 20 ms debounce window, so each edge counts."""

SHORT_ANIMATIONS: Mapping[str, float] = {
    "bot_delay_s": 0.05,
    "forced_delay_s": 0.05,
    "frame_interval_s": 0.25,
}
"""Table options for whole games pressed on pins: fewer animation frames and shorter bot
pauses than on a real panel, so a game takes fewer loop steps; every frame still goes
through the views to the panel."""


class ApplianceRig:
    """An appliance on mock pins and a dummy panel, not started yet.

    ``seats`` are the config's seats ("bot" or "human"; pins from
    :data:`controller.testing.files.SEAT_PINS`, the system button wired too). Without
    ``buttons`` the pins are left out: closing a gpiozero button joins its hold thread
    (about 0.1 s each), too slow for hundreds of starts. ``options`` override the
    table's options (:func:`controller.app.table_options`), e.g. shorter animations.
    ``state_dir`` None runs without saves and history. ``render`` draws the frames
    (the views; a test may wrap them to read what they draw)."""

    def __init__(
        self,
        state_dir: Path | None,
        *,
        seats: Sequence[str] = ("bot", "bot"),
        size: int = 16,
        buttons: bool = True,
        clock: FakeClock | None = None,
        options: Mapping[str, Any] | None = None,
        poweroff: Callable[[], None] | None = None,
        render: Renderer = views.render,
    ) -> None:
        self.config = parse_config(tomllib.loads(config_text(seats, size)))
        self.clock = clock if clock is not None else FakeClock()
        self.pins: Any = mock_pin_factory()
        """gpiozero's MockFactory: ``pins.pin(17).drive_low()`` presses seat 1's OK."""
        self.display: LumaDisplay = build_display(self.config.display)
        inputs = (
            [GpioButtons(self.config.buttons, pin_factory=self.pins, clock=self.clock)]
            if buttons
            else []
        )
        self.app = Appliance(
            self.config,
            display=self.display,
            inputs=inputs,
            sound=None,
            state_dir=state_dir,
            render=render,
            clock=self.clock,
            bot_thread=False,
            poweroff=poweroff,
            options=table_options(self.config, **(options or {})),
            farewell_s=0.0,
        )
        self.table = self.app.table
        self._closed = False

    def start(self, new_game: Session | None = None) -> None:
        """Start the appliance (resume the save, or ``new_game``) and draw the first
        frame, as ``spieltisch run`` does before it reports READY."""
        self.app.start(new_game)
        self.app.loop.first_frame()

    def advance(self) -> None:
        """Move the clock to the table's next deadline and run one loop step."""
        self.clock.advance_to(self.table.next_wakeup())
        self.app.loop.step(timeout_cap=0)

    def settle(self) -> None:
        """Let the loop take every queued event, without moving the clock."""
        while len(self.app.events):
            self.app.loop.step(timeout_cap=0)
        self.app.loop.step(timeout_cap=0)

    def press(self, seat: int, button: str) -> None:
        """Press and release seat ``seat``'s (0-based) "ok" or "next" button, then
        settle."""
        ok, nxt = SEAT_PINS[seat]
        pin = self.pins.pin(ok if button == "ok" else nxt)
        pin.drive_low()
        self.clock.advance(PRESS_S)
        pin.drive_high()
        self.clock.advance(PRESS_S)
        self.settle()

    def frame(self) -> Image.Image:
        """The picture on the panel now, in RGB."""
        image: Image.Image = self.display.device.image.convert("RGB")
        return image

    def close(self) -> None:
        """Close the appliance and its hardware; a second call does nothing."""
        if not self._closed:
            self._closed = True
            self.app.close()
