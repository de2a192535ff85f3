"""Mini-Maki as text (``rules show`` and the text simulator): a view, it only reads.

Row 1 (black's baseline, red's goal) is drawn at the top and row 6 (red's baseline,
where the player sits) at the bottom; columns 1–6 are the die faces. Black pieces are
``B``, the red Maki ``R``, empty fields ``.``; a captured red shows as ``X``. The
letters alone tell the pieces apart; ``colour=True`` only adds ANSI red to the Maki.
"""

from __future__ import annotations

from controller.i18n import N_, _, pgettext
from controller.text.paint import paint
from controller.words import colour_word
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
        done = ", ".join(
            _("{player} {result} in {rounds}").format(
                player=colour_word(g["player"]), result=result_word(g["result"]), rounds=g["rounds"]
            )
            for g in data["match"]
        )
        game = _("{player}'s game").format(player=colour_word(data["turn"]))
        prefix = f"[{game}{'; ' + done if done else ''}] "
    roll = state.last_roll
    rolled = _(" (black rolled {dice})").format(dice=f"{roll[0]},{roll[1]}") if roll else ""
    if state.is_terminal():
        end = _("red {result} in round {round}").format(
            result=result_word(state.result or ""), round=state.round
        )
        end += rolled
        if state.nplayers == 2:
            end += _("; {player} wins the match").format(player=colour_word(state.winners()[0]))
        return prefix + end
    if state.in_setup():
        col = state.black.index(None) + 1
        return prefix + _("set up the black of column {column} (rows 1–5)").format(column=col)
    if state.red is None:
        return prefix + _("red chooses its start field on row 6")
    if state.is_chance():
        return prefix + _("round {round}: black to roll two dice").format(round=state.round)
    step = _("round {round}: red on {field} to step").format(
        round=state.round, field=field_name(state.red)
    )
    return prefix + step + rolled


def result_word(result: str) -> str:
    """How a solitaire ended, "won" or "lost", as a word."""
    words = {"won": pgettext("result", "won"), "lost": pgettext("result", "lost")}
    return words.get(result, result)


MINIMAKI_LEGEND = N_(
    "B black pieces, R the red Maki, X red captured on a black, . empty field; "
    "rows r1-r6, columns 1-6 (the die faces)"
)
