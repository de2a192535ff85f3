"""The track games (Mensch ärgere dich nicht, Kleiner Ärger) in the players' words: a
piece's move from where to where, and whose piece a capture sends home.

The rules give typed facts (:func:`rules.track.facts.spot` reads a position into an
:class:`Area` and a field); this module is the only place that turns them into words,
through the catalog.
"""

from __future__ import annotations

from controller.games.presentation import colour_name, notation_words
from controller.i18n import _, pgettext
from rules.core import Move, State
from rules.track.engine import MaednState, TrackMove
from rules.track.facts import Area, Spot, spot


def spot_words(where: Spot, *, start: bool) -> str:
    """A position in words: the piece on it when it starts a move, else the place."""
    if where.area is Area.HOME:
        return _("piece from home")
    if where.area is Area.LAP:
        # The round is done: the piece stands on its start field again, goal next.
        return _("piece on lap") if start else pgettext("track move", "lap")
    if where.area is Area.GOAL:
        if start:
            return _("piece in goal {field}").format(field=where.field)
        return _("goal {field}").format(field=where.field)
    return _("piece on {field}").format(field=where.field) if start else str(where.field)


def victim(state: State, move: Move) -> str | None:
    """The player whose piece ``move`` sends home, if it captures: the mover itself
    where a house rule lets a piece capture its own (Ärgern house rule 7)."""
    if not isinstance(state, MaednState) or not isinstance(move, TrackMove) or not move.capture:
        return None
    after = state.apply(move)
    if not isinstance(after, MaednState):
        return None
    mover = state.current_player
    for player in state.players:
        waiting = state.progress(player).count(-1)
        if player == mover and spot(move.src).area is Area.HOME:
            waiting -= 1  # the mover's entering piece leaves home
        if after.progress(player).count(-1) > waiting:
            return player
    return None


def reaches_goal(move: Move) -> bool:
    """The move takes a piece into its goal lane (not one step on inside it)."""
    if not isinstance(move, TrackMove) or spot(move.dst).area is not Area.GOAL:
        return False
    return spot(move.src).area is not Area.GOAL


def move_words(state: State, move: Move) -> str:
    """ "piece on 12 → 17", and whose piece a capture hits: ", captures green"."""
    if not isinstance(move, TrackMove):
        return notation_words(move)
    if spot(move.src).area is Area.HOME:
        words = _("piece enters its start field")
    else:
        words = _("{src} → {dst}").format(
            src=spot_words(spot(move.src), start=True), dst=spot_words(spot(move.dst), start=False)
        )
    if not move.capture:
        return words
    hit = victim(state, move)
    if hit is None:
        return words + _(", captures")
    if hit == state.current_player:
        return words + _(", captures its own piece")
    return words + _(", captures {colour}").format(colour=colour_name(state.game.name, hit))


def opening_rethrow(state: State) -> bool:
    """Read before an opening throw: it is the first of a new round among the players
    who tied (fewer contend than play, and nobody of them has thrown yet)."""
    if not isinstance(state, MaednState) or state.opening is None:
        return False
    contenders, rolls = state.opening
    return len(contenders) < len(state.players) and not rolls


def roll_try(state: State) -> int:
    """The try the player on turn is at (0: the first of up to three)."""
    return state.tries if isinstance(state, MaednState) else 0


def opening_tie(state: State) -> tuple[str, ...]:
    """Read in the state just after an opening throw: the players whose throws tied
    for the highest and who throw again (a new round of the opening has no throws
    yet); empty otherwise."""
    if not isinstance(state, MaednState) or state.opening is None:
        return ()
    contenders, rolls = state.opening
    if rolls:
        return ()
    return tuple(state.players[i] for i in contenders)
