"""Mini-Maki in the players' words: red's king step, a piece put on the board (red's
start on row 6, a black of the free setup), the blacks' dice, why a game was lost, and
what the table says between the games of a match.

The rules give typed moves and facts (:class:`Step`, :class:`Place`, :class:`Placed`,
:class:`Loss`); this module is the only place that turns them into words, through the
catalog. A field is named as the rule text names it, "row 6, column 1" (the notation
``r6c1`` is for programs).
"""

from __future__ import annotations

from controller.games.presentation import colour_name, notation_words
from controller.i18n import _
from rules.core import Move, State
from rules.minimaki.engine import DUEL_SEATS, WON, Field, MinimakiState, Place, Step
from rules.minimaki.facts import Loss, Placed, loss, placed


def field_words(field: Field) -> str:
    row, column = field
    return _("row {row}, column {column}").format(row=row, column=column)


def move_words(state: State, move: Move) -> str:
    if isinstance(move, Step):
        # red is the one piece that steps: where to is the news (the line stays short
        # enough for the hint to follow it at 80 columns)
        return _("to {field}").format(field=field_words(move.dst))
    if isinstance(move, Place):
        field = field_words((move.row, move.col))
        if placed(move) is Placed.RED_START:
            return _("start on {field}").format(field=field)
        return _("black on {field}").format(field=field)
    return notation_words(move)


def dice_words(values: str) -> str:
    """The dice beside the board are the blacks' roll, not red's."""
    return _("black rolled {dice} — ").format(dice=values)


def game_words(result: str, rounds: int, lost: Loss | None) -> str:
    """How one game of a match went: won or lost, in which round, and why it was lost."""
    if result == WON:
        return _("won in round {round}").format(round=rounds)
    return _("lost in round {round}").format(round=rounds) + reason_words(lost)


def reason_words(lost: Loss | None) -> str:
    """Why a game was lost, as the end of a line (", a black hit red")."""
    if lost is Loss.HIT:
        return _(", a black hit red")
    if lost is Loss.BASELINE:
        return _(", a black reached row 6")
    return ""


def result_words(state: State) -> str:
    """What the status line adds at the end: how the game went and why it was lost; at
    a match's end, how each of the pair of games that decided it went."""
    if not isinstance(state, MinimakiState) or state.result is None:
        return ""
    if state.nplayers == 1 or len(state.match) < 2:
        # "you lost" or "you won!" is said already: when, and why
        return _("in round {round}").format(round=state.round) + reason_words(loss(state))
    first, last = state.match[-2], state.match[-1]  # the pair of games that decided
    return "; ".join(
        _("{player}: {how}").format(
            player=colour_name("minimaki", DUEL_SEATS[game.seat]),
            how=game_words(game.result, game.rounds, loss(state) if game is last else None),
        )
        for game in (first, last)
    )


def game_end_banner(before: State, after: State) -> str | None:
    """Between the games of a two-player match: how the game just played went and whose
    game is next ("orange: lost in round 5 · now blue"); None for any other step."""
    if not isinstance(before, MinimakiState) or not isinstance(after, MinimakiState):
        return None
    if after.is_terminal() or len(after.match) <= len(before.match):
        return None
    last = after.match[-1]
    played = colour_name("minimaki", DUEL_SEATS[last.seat])
    following = colour_name("minimaki", DUEL_SEATS[after.seat])
    return _("{player}: {how} · now {next}").format(
        player=played, how=game_words(last.result, last.rounds, None), next=following
    )
