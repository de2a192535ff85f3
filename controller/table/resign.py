"""The table's side of a game's side moves (Backgammon's offers to resign).

Why a sequence of its own: a side move ends or may end the game, so it must never come
up while a player cycles through the moves with NEXT. It lives in the menu the held
system button opens (the one that asks "menu?"), which is already out of the way:

1. hold the system button: the panel asks "menu? OK=yes NEXT=no";
2. tap the system button (press and let go): the first side move is shown ("resign a
   single game? OK=yes NEXT=no"), each further tap the next one, and after the last
   the plain question again (NEXT cannot be the stepping button: its press returns to
   the game the moment it goes down);
3. press OK to make the offer shown; NEXT returns to the game unchanged.

Only the player on turn offers, and only a person (a bot offers through its own
move, which the table accepts when it is one of the side moves). The table plays the
side move like any move and returns to the game: the opponent answers it there.
"""

from __future__ import annotations

import random

import rules
from controller.i18n import _
from controller.session import Session
from rules.core import Move


def offers(session: Session | None) -> tuple[Move, ...]:
    """The side moves the person on turn could make now (none for a bot's turn)."""
    if session is None or session.is_bot(session.player) or session.state.is_terminal():
        return ()
    return rules.side_moves(session.game, session.state)


def shown_offer(session: Session | None, index: int) -> Move | None:
    """The side move the menu shows at ``index`` (the table's ``offer_index``), or None
    (the plain "menu?" question)."""
    choices = offers(session)
    if not index or not choices:
        return None
    return choices[(index - 1) % len(choices)]


def menu_banner(session: Session | None, index: int) -> str:
    """The system menu's question: leave the game, or make the side move shown."""
    move = shown_offer(session, index)
    if move is None or session is None:
        return _("menu? OK=yes NEXT=no")
    from controller.games import move_words

    return _("{offer}? OK=yes NEXT=no").format(offer=move_words(session.state, move))


def next_offer(session: Session | None, index: int) -> int | None:
    """A system tap in the menu: the index of the next side move, after the last the
    plain question (0); None when there is no side move to show."""
    choices = offers(session)
    if not choices:
        return None
    return (index + 1) % (len(choices) + 1)


def bot_side_move(session: Session, move: Move | None) -> Move | None:
    """A bot's move that is one of the side moves of its turn (played after the usual
    preview delay), else None (the caller checks it as a move).

    ``None`` is a bot's move still to be found on this thread (no worker): it is found
    here with a copy of the session's dice generator, so that when it is an ordinary
    move the caller finds the very same one with the generator itself."""
    offers = rules.side_moves(session.game, session.state)
    if not offers:
        return None
    if move is None:
        from rules.bots import BOT_KINDS, make_bot

        rng = random.Random()
        rng.setstate(session.rng.getstate())
        kind = session.bot_for(session.player)
        kind = kind if kind in BOT_KINDS else "random"  # as the table does
        move = make_bot(kind).choose(session.state, rng)
        if move not in offers:
            return None
        session.rng.setstate(rng.getstate())
    elif move not in offers:
        return None
    return move
