"""Why a Backgammon checker cannot move, in the rule text's words.

The rules give the reason as a typed fact (:mod:`rules.backgammon.why_not`); this
module is the only place that says it, through the catalog.
"""

from __future__ import annotations

from collections.abc import Hashable

from controller.i18n import _
from rules.backgammon.moves import BAR
from rules.backgammon.why_not import BackgammonBlocked, BackgammonWhy

REASONS: tuple[Hashable, ...] = tuple(BackgammonWhy)
ROUTINE: tuple[Hashable, ...] = (BackgammonWhy.NOT_ALL_HOME,)
"""Said only when nothing can move: the checkers already home cannot bear off on most
rolls of the game."""


def reason_words(reason: Hashable) -> str:
    """The reason alone, as a sentence (the voice says it)."""
    words = {
        BackgammonWhy.BAR_FIRST: _("First the checker on the bar must come back in."),
        BackgammonWhy.POINT_CLOSED: _("Two or more opposing checkers block the point."),
        BackgammonWhy.NOT_ALL_HOME: _("Bearing off only when all checkers are in the home board."),
        BackgammonWhy.HIGHER_CHECKER_FIRST: _("The highest checker is borne off first."),
        BackgammonWhy.USE_BOTH_DICE: _("Both dice must be played."),
    }
    return words[reason] if isinstance(reason, BackgammonWhy) else str(reason)


def why_not(fact: object) -> tuple[str, Hashable]:
    """ "checker on 13: Both dice must be played.", and the reason."""
    if not isinstance(fact, BackgammonBlocked):
        return str(fact), str(fact)
    if fact.point == BAR:
        piece = _("checker on the bar")
    else:
        piece = _("checker on {point}").format(point=fact.point + 1)
    return f"{piece}: {reason_words(fact.why)}", fact.why
