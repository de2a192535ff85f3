"""A factory reset by holding the system button while the table starts.

For a family whose table no longer starts the way they like (a config changed into a
corner, a page they cannot reach), the one thing always at hand is the system button.
Held down as the table starts, right after the panel and the buttons are opened and
before the history or the saved game are, the panel says "keep holding the system
button for a factory reset: 10 s" and counts down; let go before the end, nothing
happens ("no factory reset"). Held to the end, the table does what ``spieltisch
backup reset`` does (controller.backup.archive.factory_reset): a backup file of what
it removes, then the config (but its panel and buttons), the history, the saved game
and the setups back to new. The panel says it in words, and once more after the start,
as the page's reset does (``backup-notice.json``).

Only buttons that can say whether they are down right now take part (GPIO buttons);
a Pico bridge or a keyboard reports presses, not a level at start, and starts as usual.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, cast

from controller.config import Config, ConfigError, load_table_config
from controller.i18n import _
from controller.scene import MessageScene
from hardware.interfaces import Display

log = logging.getLogger(__name__)

HOLD_S = 10.0
"""Long enough that no one does it by chance (a button leaned on while plugging in),
short enough to hold with one thumb."""
FRAME_S = 0.1
SYSTEM = (None, "system")


class Levels(Protocol):
    def pressed(self, key: tuple[int | None, str]) -> bool: ...


Render = Callable[[MessageScene, int, int, str], object]


def reset_if_held(
    config: Config,
    display: Display,
    inputs: Sequence[object],
    state_dir: Path,
    config_path: Path,
    *,
    render: Render | None = None,
    hold_s: float = HOLD_S,
    clock: Callable[[], float] = time.monotonic,
    wait: Callable[[float], None] = time.sleep,
) -> Config:
    """The start's hook (see the module's docstring): returns the config to start with,
    the new one after a reset."""
    levels = [cast(Levels, i) for i in inputs if callable(getattr(i, "pressed", None))]
    if not any(_down(i) for i in levels):
        return config
    if render is None:
        from controller.views import render as draw

        render = draw
    panel = _Panel(display, render, clock)
    log.warning("the system button is held at start: a factory reset after %.0f s", hold_s)
    start = clock()
    while clock() - start < hold_s:
        left = math.ceil(hold_s - (clock() - start))
        panel.say(
            _("keep holding the system button for a factory reset: {seconds} s").format(
                seconds=left
            )
        )
        wait(FRAME_S)
        if not any(_down(i) for i in levels):
            log.info("the system button was let go: no factory reset")
            panel.say(_("no factory reset"))
            return config
    return _reset(config, state_dir, config_path, panel)


def _down(backend: Levels) -> bool:
    try:
        return backend.pressed(SYSTEM)
    except (KeyError, OSError):
        return False


def _reset(config: Config, state_dir: Path, config_path: Path, panel: _Panel) -> Config:
    from controller.backup.archive import BackupError, BackupPlaces, factory_reset
    from controller.backup.staged import write_notice
    from controller.release.layout import KEYS_DIR

    places = BackupPlaces(state_dir, config_path, KEYS_DIR)
    panel.say(_("factory reset…"))
    try:
        kept = factory_reset(places, during_game=True)
    except (BackupError, OSError) as exc:
        log.error("factory reset by the system button refused: %s", exc)
        write_notice(places, "reset-refused", str(exc), False)
        panel.say(_("not done: {reason}").format(reason=exc))
        return config
    log.warning("factory reset by the system button; what it removed is in %s", kept)
    write_notice(places, "reset", str(kept), True)
    panel.say(_("factory reset done: a backup of what it removed is kept"))
    try:
        return load_table_config(config_path)
    except ConfigError as exc:  # the reset writes a config the table checked
        log.error("the config after the factory reset: %s", exc)
        return config


class _Panel:
    """Words on the panel, one frame each time: at start nothing else draws."""

    def __init__(self, display: Display, render: Render, clock: Callable[[], float]) -> None:
        self.display = display
        self.render = render
        self.clock = clock
        self.start = clock()
        self.said: list[str] = []

    def say(self, text: str) -> None:
        if not self.said or self.said[-1] != text:
            self.said.append(text)
        scene = MessageScene(text, self.clock() - self.start, "info")
        image = self.render(scene, self.display.width, self.display.height, self.display.mode)
        try:
            self.display.show(image)  # type: ignore[arg-type]
        except OSError as exc:
            log.error("cannot show on the panel: %s", exc)
