"""What the table holds: the game, the rooms it delegates to, and the clocks of what
is on show.

Why a class of its own: the table's picture (:mod:`controller.table.scenes`) reads all
of this and nothing else, and must not import the table that draws with it (the table
imports the picture). The table derives from this class, so the fields are declared
once, here, and read under their own names on both sides.
"""

from __future__ import annotations

from controller.machine import Triggers
from controller.session import Session
from controller.table.analysis import AnalysisRun
from controller.table.banner import Banner
from controller.table.bots import AskBot, Thinking
from controller.table.choice import Choice
from controller.table.clock import TableTime
from controller.table.effects import Outbox
from controller.table.menu import MenuRoom
from controller.table.motion import DiceEntry, Motion
from controller.table.options import TableOptions


class Holdings(Triggers):
    """The table's fields; ``state`` (a :class:`~controller.machine.Mode`) is
    maintained by transitions."""

    def __init__(self, options: TableOptions, ask_bot: AskBot) -> None:
        self.options = options
        self.time = TableTime(self.options)
        self.session: Session | None = None
        self.panel = (16, 16)
        """The panel's size, for how long a text needs to pass (``begin``)."""
        self.dirty = True
        self.menu = MenuRoom(self.options)
        self.choice = Choice()
        self.bots = Thinking(ask_bot)
        self.motion = Motion()
        self.dice_entry = DiceEntry()
        self.banner = Banner()
        self.outbox = Outbox()
        self.message = ""
        self.stop_requested = False
        self.ignored_presses = 0
        self.since = 0.0
        """When the thing under the cursor was chosen (a menu entry, a setup entry, a
        preview): its blink starts lit and its text at its first letter from here."""
        self.over_since = 0.0
        self.analysis: AnalysisRun | None = None
        """The analysis game over offers, once asked for; it belongs to one session."""
        self.offer_index = 0
        """The side move the system menu shows (0: none, the plain "menu?" question)."""

    @property
    def now(self) -> float:
        """The time the table was last handed (read-only: ``at``, ``tick``)."""
        return self.time.now
