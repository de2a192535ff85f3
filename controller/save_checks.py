"""A loaded save must be a game this program can play, not only well-formed JSON.

Why: a save that parses but is not a consistent game was resumed without a word, and
then hurt later: a seat index of 99 or 10³⁰ (no buttons act for that player), a bot
kind no bot has, an empty start time (the start time is the game's id in the
history, so two games could share one), every player "empty" (nobody may move: the
game is frozen), or a move history made up beside the position (its record could then
never be shown or exported). So a loaded save is checked here, and the save store
moves one that fails aside with the reason, like any other bad save.

The history check replays every roll and move from the game's start position through
the rules and requires it to end in the saved position, with each event made by the
player whose turn it was: the same walk the history's export makes of the record.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import rules
from controller.replay import replay_event
from controller.session import Session
from rules.bots import BOT_KINDS
from rules.errors import InvalidStateError, RulesError

MAX_SEATS = 4
"""A table has 1 to 4 seats (the config allows no more); seats are numbered from 0."""
PLAYING = ("human", "bot")


def check_playable(data: Mapping[str, Any], session: Session) -> None:
    """Raise :class:`InvalidStateError` (one line, English: the log's words) unless
    ``session``, read from the save ``data``, is a game this program can play on."""
    for player, seat in dict(data.get("seats", {})).items():
        if type(seat) is not int or not 0 <= seat < MAX_SEATS:
            raise InvalidStateError(
                f"seat {str(seat)[:20]} of {str(player)[:20]} is not a seat of a table"
                f" (0 to {MAX_SEATS - 1})"
            )
    if not any(kind in PLAYING for kind in session.kinds.values()):
        raise InvalidStateError("no player is a person or a bot: nobody could move")
    idle = sorted(p for p, kind in session.kinds.items() if kind not in PLAYING)
    if idle:
        raise InvalidStateError(f"{', '.join(idle)[:40]} would have nobody to move for it")
    for kind in (session.bot, *session.bots.values()):
        if kind not in BOT_KINDS:
            raise InvalidStateError(
                f"bot kind {kind[:20]!r} is none of {', '.join(sorted(BOT_KINDS))}"
            )
    if session.started is not None:
        try:
            datetime.fromisoformat(session.started)
        except ValueError:
            raise InvalidStateError(
                f"start time {session.started[:40]!r} is not a time stamp"
            ) from None
    check_replays(session)


def check_replays(session: Session) -> None:
    """The history, replayed from the start position, must end in the saved state."""
    players = session.state.players
    state = rules.get_game(session.game, session.preset).new_state(len(players))
    for number, entry in enumerate(session.history, start=1):
        if entry.get("player") != state.current_player:
            raise InvalidStateError(
                f"history entry {number} is {str(entry.get('player'))[:20]}'s,"
                f" but it was {state.current_player}'s turn"
            )
        try:
            state = replay_event(state, entry).after
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            text = str(exc).splitlines()[0][:80] if str(exc) else type(exc).__name__
            raise InvalidStateError(f"history entry {number} does not replay: {text}") from None
    if state.to_json() != session.state.to_json():
        raise InvalidStateError("the history does not lead to the saved position")
