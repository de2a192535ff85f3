"""How the table words a Mini-Maki move: red's king step, or a piece put on the board
(red's start field on row 6, a black in the free setup)."""

from __future__ import annotations

from rules.core import Move, MoveFacts, notation_facts
from rules.minimaki.engine import RED_BASE, Place, Step, field_name


def move_facts(move: Move) -> MoveFacts:
    if isinstance(move, Step):
        return MoveFacts(f"step {field_name(move.src)} → {field_name(move.dst)}")
    if isinstance(move, Place):
        # Red starts on its baseline; a piece put anywhere else is a free-setup black.
        side = "start on" if move.row == RED_BASE else "black on"
        return MoveFacts(f"{side} {move.notation}")
    return notation_facts(move)
