"""The table's questions to the bots: a bot's move, and the hint for a human.

Why apart from the table: there is one way a bot thinks (``controller.bot_worker.think``,
on the worker thread or, without one, on the caller's) and one way its answer comes in
(the table's ``bot_arrived``). This object numbers the questions, so that an answer to
a question no longer asked (the game moved on, a menu, a resume) is told apart and
dropped, and keeps the hint that arrived for the choice now on show.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from typing import Any

from controller.events import BotRequest, HintRequest, MoveRequest
from controller.games import presentation
from controller.session import Session
from rules.core import Move, State

log = logging.getLogger(__name__)

AskBot = Callable[[State, str, BotRequest, int], None]
"""Ask a bot for a move: (state, bot kind, request, seed); the answer comes in later."""


class Thinking:
    def __init__(self, ask: AskBot) -> None:
        self.ask = ask
        self.move_request = MoveRequest(0)
        self.hint_request = HintRequest(0)
        self.hint: Move | None = None
        """The strong bot's move for the human choosing now (hint games only)."""
        self.waiting = False
        """A bot's move was asked for this choice and has not come in yet."""
        self.after_seed: tuple[Any, ...] | None = None
        """The session's RNG state once the asked bot's seed is drawn (see ask_move)."""

    def new_choice(self) -> None:
        """A new choice begins: the hint and any bot's move asked before are old."""
        self.hint = None
        self.waiting = False
        self.after_seed = None

    def forget_hint(self) -> None:
        """A game begins (or resumes): no hint is on show."""
        self.hint = None

    def answered(self) -> None:
        """The bot's move came in (a side move, played apart from the choice)."""
        self.waiting = False

    def ask_move(self, session: Session) -> None:
        """The bot of the player on turn (or for a human whose time ran out) moves."""
        self.move_request = request = MoveRequest(self.move_request.number + 1)
        self.waiting = True
        # The seed is read from a copy of the RNG; the session's own RNG moves on only
        # when the answer is taken (:meth:`taken`). A save written while the bot thinks
        # then holds the RNG as it was, and a game resumed from it asks with the same
        # seed: it plays on exactly as a game never interrupted.
        peek = random.Random()
        peek.setstate(session.rng.getstate())
        seed = peek.getrandbits(32)
        self.after_seed = peek.getstate()
        self.ask(session.state, session.bot_for(session.player), request, seed)

    def taken(self, session: Session) -> None:
        """The bot's answer is played: the session's RNG moves past the seed it used."""
        if self.after_seed is not None:
            session.rng.setstate(self.after_seed)
            self.after_seed = None

    def ask_hint(self, session: Session, hints: bool) -> None:
        """Ask the strong bot for the best move of a human player (hint games only)."""
        self.hint = None
        if not hints or not presentation(session.game).hint:
            return
        self.hint_request = request = HintRequest(self.hint_request.number + 1)
        self.ask(session.state, "strong", request, 0)

    def answer(self, request: BotRequest, move: Move, moves: Sequence[Move]) -> Move | None:
        """An answer came in while ``moves`` are on offer: the bot's move to play (an
        illegal one is replaced by the first legal move), or None (a hint, now kept if
        it is current, or a stale answer)."""
        if isinstance(request, HintRequest):
            if request == self.hint_request and move in moves:
                self.hint = move
            return None
        if request != self.move_request or not self.waiting:
            return None  # stale: the game moved on (menu, resume...)
        self.waiting = False
        if move not in moves:
            log.error("bot returned an illegal move %s; playing the first legal one", move)
            return moves[0]
        return move
