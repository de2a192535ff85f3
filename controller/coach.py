"""The coach: for a human player who switched it on at setup, says why a piece cannot
move, and shows a clearly better move once before a weak one is played.

Why apart from the table: the coach only reads the session and the move about to be
played and answers in words and prompts; the table decides when to ask (a choice
begins, OK on a move) and what to do with the answer (show it, let the player choose
again). Both judgements are the rules': why a piece cannot move is a typed fact of the
game (``Capabilities.why_not``), the better move and how much the chosen one loses are
the strong player's (:mod:`rules.coach`). A player without the coach, and a game
without those facts, get nothing from here, so nothing changes for them.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import rules
from controller.games import move_words, presentation
from controller.i18n import _
from controller.session import Session
from controller.voice.catalog import Prompt
from controller.voice.prompts import colour_of
from rules.coach import Advice, advice
from rules.core import Move, Pass

SHOWN_REASONS = 2
"""How many pieces' reasons the status line names at once (the panel scrolls them)."""


@dataclass(frozen=True)
class Words:
    """What the coach says: the text for the status line and the panel, and the prompt
    for the voice."""

    text: str
    prompt: Prompt


def coached(session: Session) -> bool:
    """The player on turn is a human who switched the coach on at setup."""
    player = session.player
    return player is not None and player in session.coached and not session.is_bot(player)


def why_not(session: Session) -> Words | None:
    """Why the pieces of the coached player on turn that the buttons do not offer cannot
    move (the rules' reasons, in the game's words; a routine reason only when nothing
    can move), or None: nothing to explain, no coach, or a game that gives no reasons."""
    if not coached(session) or session.state.is_chance() or session.state.is_terminal():
        return None
    reasons = rules.capabilities(session.game).why_not
    shown = presentation(session.game)
    if reasons is None or shown.why_not is None:
        return None
    said: list[str] = []
    first: Hashable = None
    seen: set[Hashable] = set()
    stuck = all(isinstance(move, Pass) for move in session.state.legal_moves())
    for fact in reasons(session.state):
        text, reason = shown.why_not(fact)
        if reason in seen or (reason in shown.routine_reasons and not stuck):
            continue  # the same reason for another piece: once is enough
        seen.add(reason)
        first = reason if first is None else first
        said.append(text)
    if not said:
        return None
    text = " · ".join(said[:SHOWN_REASONS])
    return Words(
        text,
        Prompt(
            "coach", colour_of(session.game, session.player or ""), game=session.game, reason=first
        ),
    )


def better_move(session: Session, move: Move) -> Advice | None:
    """The strong player's move if ``move`` is clearly worse (:func:`rules.coach.advice`)
    for the coached player on turn; None otherwise."""
    if not coached(session):
        return None
    return advice(session.state, move)


def better_words(session: Session, found: Advice) -> Words:
    """ "better: piece on 12 → 17" for the status line, "There is a better move" for the
    voice."""
    text = _("coach: better {move}").format(move=move_words(session.state, found.better))
    colour = colour_of(session.game, session.player or "")
    return Words(text, Prompt("better", colour))


class Coaching:
    """What the coach has done in the choice on show: it shows the better move once."""

    def __init__(self) -> None:
        self.advised = False

    def new_choice(self) -> None:
        self.advised = False

    def check(self, session: Session, move: Move) -> Advice | None:
        """OK on ``move``: the better move to show instead, once per choice; None lets
        the move be played."""
        if self.advised:
            return None
        found = better_move(session, move)
        if found is not None:
            self.advised = True
        return found
