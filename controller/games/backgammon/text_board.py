"""Backgammon as text (``rules show`` and the text simulator), in white's numbering.

Laid out like GNU Backgammon's ASCII board: points 13–24 along the top, 12–1 along the
bottom, white (``W``) moving from 24 down to 1 and bearing off at the bottom right,
black (``B``) the other way round. A point shows up to five checkers; a taller stack
shows its count in the fifth place. The bar and the borne-off checkers are listed on
the right, then a status line with the dice, the cube and the score.
"""

from __future__ import annotations

from controller.i18n import N_, _
from controller.text.paint import paint
from controller.words import colour_word
from rules.backgammon.engine import PHASE_NAMES, BackgammonState
from rules.core import State

ROWS = 5
TOP = tuple(range(13, 25))
BOTTOM = tuple(range(12, 0, -1))
ANSI_NAME = {"W": "yellow", "B": "blue"}


def _stacks(state: BackgammonState) -> dict[int, tuple[str, int]]:
    """White's point number -> (letter, count) of whoever stands there."""
    white, black = state.boards
    found: dict[int, tuple[str, int]] = {}
    for point in range(1, 25):
        if white[point - 1]:
            found[point] = ("W", white[point - 1])
        elif black[24 - point]:
            found[point] = ("B", black[24 - point])
    return found


def _cell(stack: tuple[str, int] | None, row: int, colour: bool) -> str:
    if stack is None:
        return " . " if row == 0 else "   "
    letter, count = stack
    if count > ROWS and row == ROWS - 1:
        return f"{count:^3d}"
    if count > row:
        return " " + paint(letter, ANSI_NAME[letter], colour) + " "
    return " . " if row == 0 else "   "


def _half(state: BackgammonState, points: tuple[int, ...], top: bool, colour: bool) -> list[str]:
    stacks = _stacks(state)
    lines = []
    rows = range(ROWS) if top else range(ROWS - 1, -1, -1)
    for row in rows:
        cells = [_cell(stacks.get(p), row, colour) for p in points]
        lines.append("|" + "".join(cells[:6]) + "|BAR|" + "".join(cells[6:]) + "|")
    return lines


def _status(state: BackgammonState) -> str:
    data = state.to_json()
    parts = []
    if state.is_terminal():
        last = data["games"][-1]
        parts.append(_("game over: {name} wins").format(name=colour_word(data["winner"])))
        parts.append(
            _("last game {winner} {points} ({kind})").format(
                winner=colour_word(last["winner"]), points=last["points"], kind=last["kind"]
            )
        )
    else:
        who = colour_word(state.current_player or "")
        phase = PHASE_NAMES[state.phase]
        offer = data.get("resign_offer")
        if offer:
            parts.append(
                _("{who}: accept or reject {player}'s resignation ({offer})?").format(
                    who=who, player=colour_word(data["turn"]), offer=offer
                )
            )
        elif phase == "move":
            dice = f"{state.dice[0]}-{state.dice[1]}"
            parts.append(_("{who} rolled {dice}").format(who=who, dice=dice))
        elif phase == "opening":
            parts.append(_("opening roll: one die each"))
        elif phase == "take":
            parts.append(
                _("{who}: take or drop the cube at {value}?").format(who=who, value=state.cube * 2)
            )
        elif phase == "beaver":
            parts.append(
                _("{who}: take or drop the beaver at {value}?").format(
                    who=who, value=state.cube * 2
                )
            )
        elif phase == "double":
            parts.append(_("{who} to roll or double").format(who=who))
        else:
            parts.append(_("{player} to roll").format(player=who))
    owner = colour_word(data["cube_owner"]) if data["cube_owner"] else _("centred")
    if state.game.rules.cube:
        parts.append(_("cube {value} ({owner})").format(value=state.cube, owner=owner))
    if state.match_length:
        score = data["score"]
        crawford = _(", Crawford game") if state.crawford else ""
        line = _("match to {length}: white {white}, black {black}").format(
            length=state.match_length, white=score["white"], black=score["black"]
        )
        parts.append(line + crawford)
    parts.append(_("pips W {white} B {black}").format(white=state.pips(0), black=state.pips(1)))
    return "; ".join(parts)


def render_backgammon(state: State, colour: bool = False) -> str:
    """The board, bar and off counts, and a status line."""
    if not isinstance(state, BackgammonState):
        raise TypeError("render_backgammon needs a backgammon state")
    header = "+" + "".join(f"{p:^3d}" for p in TOP[:6]) + "+---+"
    header += "".join(f"{p:^3d}" for p in TOP[6:]) + "+"
    footer = "+" + "".join(f"{p:^3d}" for p in BOTTOM[:6]) + "+---+"
    footer += "".join(f"{p:^3d}" for p in BOTTOM[6:]) + "+"
    side = [
        _("  bar: W {white}  B {black}").format(
            white=state.boards[0][24], black=state.boards[1][24]
        ),
        _("  off: W {white}  B {black}").format(white=state.off(0), black=state.off(1)),
    ]
    top = _half(state, TOP, True, colour)
    bottom = _half(state, BOTTOM, False, colour)
    lines = [header + _("   black (B) moves 1 -> 24 in white's numbering")]
    lines += top
    lines.append("|" + " " * 18 + "|BAR|" + " " * 18 + "|" + side[0])
    lines += bottom
    lines.append(footer + side[1])
    lines.append(_("white (W) moves 24 -> 1; Position ID {id}").format(id=state.position_id()))
    lines.append(f"Match ID {state.match_id()}  {state.xgid()}")
    lines.append(_status(state))
    return "\n".join(lines)


BACKGAMMON_LEGEND = N_(
    # Translators: 5 is ROWS, the tallest stack drawn (a number tops a taller one).
    "W white's checkers, B black's, . an empty point; a number tops a stack of more than 5"
)
