"""Mini-Maki in the players' words: red's king step, a piece put on the board (red's
start on row 6, a black of the free setup), the blacks' dice.

The rules give typed moves and facts (:class:`Step`, :class:`Place`, :class:`Placed`);
this module is the only place that turns them into words, through the catalog.
"""

from __future__ import annotations

from controller.games.presentation import notation_words
from controller.i18n import _
from rules.core import Move, State
from rules.minimaki.engine import Place, Step, field_name
from rules.minimaki.facts import Placed, placed


def move_words(state: State, move: Move) -> str:
    if isinstance(move, Step):
        return _("step {src} → {dst}").format(src=field_name(move.src), dst=field_name(move.dst))
    if isinstance(move, Place):
        if placed(move) is Placed.RED_START:
            return _("start on {field}").format(field=move.notation)
        return _("black on {field}").format(field=move.notation)
    return notation_words(move)


def dice_words(values: str) -> str:
    """The dice beside the board are the blacks' roll, not red's."""
    return _("black rolled {dice} — ").format(dice=values)
