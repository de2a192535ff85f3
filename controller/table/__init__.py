"""The table: the machine's model and the rooms it delegates to.

Why a package: the table was one class that did everything; now each of its jobs has
a module of its own, and this face hands on the names the rest of the controller uses.

- :mod:`~controller.table.model`: the :class:`Table` itself, the machine's callbacks,
  on :mod:`~controller.table.core`: where it applies what its helpers hand back
  (:mod:`~controller.table.then`), on :mod:`~controller.table.holdings`: what it holds;
- :mod:`~controller.table.menu`: the menu, setup and the statistics pages;
- :mod:`~controller.table.turns`: a turn's steps (roll, choose, move, the timer);
- :mod:`~controller.table.choice`: the legal moves and the one in preview;
- :mod:`~controller.table.bots`: questions to the bots and the hint;
- :mod:`~controller.table.buttons`: a press's kind, the system button's timing, waking;
- :mod:`~controller.table.resign` and :mod:`~controller.table.analysis`: the side
  moves of the system menu and the analysis at game over;
- :mod:`~controller.table.clock`: time, pace, timers and sleep;
- :mod:`~controller.table.motion` and :mod:`~controller.table.banner`: what animates
  and what is said over the board;
- :mod:`~controller.table.effects`: saves and records, queued for the loop;
- :mod:`~controller.table.scenes`: the picture, pure functions of the table;
- :mod:`~controller.table.options`: the knobs and the menu.
"""

from controller.table.model import Table, bot_kind
from controller.table.options import FAST_PACE, TableOptions, default_menu
from controller.table.scenes import colours_of, places

__all__ = [
    "FAST_PACE",
    "Table",
    "TableOptions",
    "bot_kind",
    "colours_of",
    "default_menu",
    "places",
]
