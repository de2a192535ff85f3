"""Backgammon's words for resigning and beavers on the panel and the status line (every
other move in the words of :mod:`controller.games.backgammon.words`).

Why its own words: the rules name an offer ``resign gammon`` and its answers ``accept``
and ``reject``; a player reads what is at stake (the level offered and, answering, what
accepting gives). Every other move keeps the rules' own words.
"""

from __future__ import annotations

from controller.games.backgammon.words import move_words
from controller.i18n import N_, _
from rules.backgammon.engine import BEAVER, BackgammonState, Resignation
from rules.core import Move, State

OFFERS = {
    1: N_("resign a single game"),
    2: N_("resign a gammon"),
    3: N_("resign a backgammon"),
}
ANSWERS = {
    1: N_("accept: a single game won"),
    2: N_("accept: a gammon won"),
    3: N_("accept: a backgammon won"),
}

REPLAY_WORDS = {
    "roll": N_("rolls instead of doubling"),
    "double": N_("doubles"),
    "take": N_("takes the cube"),
    "drop": N_("drops the cube (gives up the game)"),
    "beaver": N_("beavers: takes and redoubles"),
    "accept": N_("accepts the resignation"),
    "reject": N_("rejects the resignation, plays on"),
    "resign single": N_("resigns a single game"),
    "resign gammon": N_("resigns a gammon"),
    "resign backgammon": N_("resigns a backgammon"),
}
"""The cube's moves and the resignations as a replay lists them, one after another
without the position they were made in ("blue: doubles", "orange: takes the cube")."""


def offer_words(state: State, move: Move) -> str:
    """The words of ``move`` in ``state``: offers, answers and beavers in full."""
    if isinstance(move, Resignation):
        return _(OFFERS[move.level])
    if isinstance(state, BackgammonState):
        if move.notation == "accept" and state.offer:
            return _(ANSWERS[state.offer])
        if move.notation == "reject" and state.offer:
            return _("reject the resignation, play on")
        if move.notation == "beaver":
            return _("beaver: take and redouble, keeping the cube")
        if state.phase == BEAVER and move.notation == "take":
            return _("take the beaver")
        if state.phase == BEAVER and move.notation == "drop":
            return _("drop the beaver (give up the game)")
    return move_words(state, move)
