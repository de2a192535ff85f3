"""Why a piece of a track game cannot move, in the rule texts' own words.

The rules give the reason as a typed fact (:mod:`rules.track.why_not`); this module is
the only place that says it, through the catalog, so the German is the rule text's
("Schlagen ist Pflicht", "Das Startfeld muss frei gemacht werden", "augengenau").
"""

from __future__ import annotations

from collections.abc import Hashable

from controller.games.track.words import spot_words
from controller.i18n import _
from rules.track.why_not import TrackBlocked, TrackWhy

REASONS: tuple[Hashable, ...] = tuple(TrackWhy)
ROUTINE: tuple[Hashable, ...] = (TrackWhy.NEEDS_SIX,)
"""Said only when nothing can move: the waiting pieces need a 6 on most throws."""


def reason_words(reason: Hashable) -> str:
    """The reason alone, as a sentence (the voice says it)."""
    words = {
        TrackWhy.CAPTURE_COMPULSORY: _("Capturing is compulsory."),
        TrackWhy.MUST_ENTER: _("A six must bring a piece onto the start field."),
        TrackWhy.START_MUST_BE_CLEARED: _("The start field must be cleared."),
        TrackWhy.NEEDS_SIX: _("Only a six brings a piece out."),
        TrackWhy.EXACT_INTO_GOAL: _("Only with the exact count into the goal."),
        TrackWhy.OWN_PIECE_ON_TARGET: _("Your own piece stands there."),
        TrackWhy.NO_JUMPING_IN_GOAL: _("No jumping over your own pieces in the goal."),
    }
    return words[reason] if isinstance(reason, TrackWhy) else str(reason)


def why_not(fact: object) -> tuple[str, Hashable]:
    """ "piece on 12: Only with the exact count into the goal.", and the reason."""
    if not isinstance(fact, TrackBlocked):
        return str(fact), str(fact)
    piece = spot_words(fact.spot, start=True)
    return f"{piece}: {reason_words(fact.why)}", fact.why
