"""Mini-Maki as text (``rules show`` and the text simulator): a view, it only reads.

Row 1 (black's baseline, red's goal) is drawn at the top and row 6 (red's baseline,
where the player sits) at the bottom; columns 1–6 are the die faces. Black pieces are
``B``, the red Maki ``R``, empty fields ``.``; a captured red shows as ``X``. The
letters alone tell the pieces apart; ``colour=True`` only adds ANSI red to the Maki.
"""

from __future__ import annotations

from controller.text.paint import paint
from rules.core import State
from rules.minimaki.engine import SIZE, MinimakiState, field_name


def render_minimaki(state: State, colour: bool = False) -> str:
    if not isinstance(state, MinimakiState):
        raise TypeError("render_minimaki needs a Mini-Maki state")
    lines = ["    " + " ".join(str(c) for c in range(1, SIZE + 1))]
    for row in range(1, SIZE + 1):
        cells = []
        for col in range(1, SIZE + 1):
            black = state.black[col - 1] == row
            if state.red == (row, col):
                cells.append(paint("X" if black else "R", "red", colour))
            else:
                cells.append("B" if black else ".")
        lines.append(f"r{row}  " + " ".join(cells))
    lines.append(status(state))
    return "\n".join(lines)


def status(state: MinimakiState) -> str:
    """What happens next (or how the game ended), in one line."""
    data = state.to_json()
    prefix = ""
    if state.nplayers == 2:
        done = ", ".join(f"{g['player']} {g['result']} in {g['rounds']}" for g in data["match"])
        prefix = f"[{data['turn']}'s game{'; ' + done if done else ''}] "
    roll = state.last_roll
    rolled = f" (black rolled {roll[0]},{roll[1]})" if roll else ""
    if state.is_terminal():
        end = f"red {state.result} in round {state.round}{rolled}"
        if state.nplayers == 2:
            end += f"; {state.winners()[0]} wins the match"
        return prefix + end
    if state.in_setup():
        col = state.black.index(None) + 1
        return prefix + f"set up the black of column {col} (rows 1–5)"
    if state.red is None:
        return prefix + "red chooses its start field on row 6"
    if state.is_chance():
        return prefix + f"round {state.round}: black to roll two dice"
    return prefix + f"round {state.round}: red on {field_name(state.red)} to step{rolled}"


MINIMAKI_LEGEND = (
    "B black pieces, R the red Maki, X red captured on a black, . empty field; "
    "rows r1-r6, columns 1-6 (the die faces)"
)
