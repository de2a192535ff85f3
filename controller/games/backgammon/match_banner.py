"""What the table says when one game of a Backgammon match ends and the match goes on.

Why: inside a match the rules start the next game at once (a new opening roll), so
without a word the board would simply jump back to the start and nobody at the table
would know who scored what. The LED views have no room for a permanent score, so the
table flashes this line as a banner instead (the scene's ``banner``, the text that
also scrolls over the board for "pass" and "time!"). The text board prints the score on
its status line.
"""

from __future__ import annotations

from controller.games.presentation import colour_name
from controller.i18n import _
from rules.backgammon.engine import PLAYERS, BackgammonState
from rules.core import State


def game_end_banner(before: State, after: State) -> str | None:
    """``"orange +2  2:0"`` (points won, then the score, white's first) when ``after``
    starts a new game of the same match, with ``Crawford`` when that game is the
    Crawford game; None for any other step (and for the match's last game, which the
    winner screen shows). Short, because it scrolls across a 16-pixel panel."""
    if not isinstance(after, BackgammonState) or not isinstance(before, BackgammonState):
        return None
    if not after.match_length or after.is_terminal() or len(after.results) <= len(before.results):
        return None
    winner, points, _kind = after.results[-1]
    white, black = after.score
    crawford = _("  Crawford") if after.crawford else ""
    # The side by the colour it is drawn in (orange, blue), as the rest of the table
    # names it: the rules' "white" is no colour the panel shows.
    side = colour_name(after.game.name, PLAYERS[winner])
    return f"{side} +{points}  {white}:{black}{crawford}"
