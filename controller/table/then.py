"""What a step of the table's helpers changes of the table, handed back to be applied.

Why a value: the helpers (the turns, the presses, the entry into a state, the side
presses) decide; the table applies what they decided in one place
(:meth:`controller.table.model.Table.apply`), in one order. None of them holds the
table or writes into it, so what a step can change is this record and no more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from controller.voice.catalog import Prompt
from hardware.interfaces import Cue


@dataclass(frozen=True)
class Later:
    """Run ``action`` ``delay`` seconds from now; a ``paced`` delay (a bot's) shrinks
    while a held OK hurries the bots. What the action returns is applied in turn."""

    delay: float
    action: Callable[[], object]
    paced: bool = True


@dataclass(frozen=True)
class Then:
    """What changes, applied in this order: the blink clock restarts (``since``), the
    frame is drawn again, the cue plays, the banner shows, the prompt is queued, the
    game is saved, the action is scheduled, and last the machine's trigger fires."""

    since: bool = False
    redraw: bool = False
    cue: Cue | None = None
    flash: tuple[str, float] | None = None
    speak: Prompt | None = None
    persist: bool = False
    later: Later | None = None
    trigger: str | None = None


NOTHING = Then()
