"""The presses the table gives games beyond their moves: resigning from the system menu
(:mod:`controller.table.resign`) and the analysis at game over
(:mod:`controller.table.analysis`).

Why a mixin: the machine calls its callbacks by name on the table, and these belong to
no one state's flow; kept here, the table itself only inherits them.
"""

from __future__ import annotations

from typing import cast

from controller.table import analysis as table_analysis
from controller.table import resign as table_resign
from hardware.interfaces import ButtonEvent
from rules.core import Move


class SideButtons:
    """Callbacks of the machine's side presses (module docstring), and their state."""

    analysis: table_analysis.AnalysisRun | None = None
    """The analysis game over offers, once asked for; it belongs to one session."""
    offer_index: int = 0
    """The side move the system menu shows (0: none, the plain "menu?" question)."""

    def _resigning(self) -> table_resign.ResigningTable:
        return cast(table_resign.ResigningTable, self)  # the table inherits this mixin

    def game_over_next(self, event: ButtonEvent | None = None) -> None:
        table_analysis.next_press(cast(table_analysis.AnalysedTable, self))

    def menu_tap(self, event: ButtonEvent | None = None) -> None:
        table_resign.next_offer(self._resigning())

    def menu_ok(self, event: ButtonEvent | None = None) -> None:
        table_resign.menu_ok(self._resigning())

    def menu_left(self, event: ButtonEvent | None = None) -> None:
        """NEXT left the system menu: the next visit starts at the plain question."""
        self.offer_index = 0

    def side_move(self, move: Move | None) -> bool:
        """Whether a bot's ``move`` (None: still to be found) is one of the side moves
        of its turn (a resignation); if so it is played after the usual preview delay."""
        return table_resign.bot_side_move(self._resigning(), move)
