"""Why a piece has no legal move, as typed facts: the coach's answer to a child who
wanted to move a piece the buttons do not offer.

The legal moves come from the kernel (:mod:`rules.track.kernel`): first every move the
die allows (``generate``), then the obligations (``restrict``: capture > enter on a 6 >
clear the start). A piece of the player on turn that is in neither list has a reason
for each of the two steps, and this module names it by replaying exactly those two
steps for that piece, so the reason cannot disagree with the moves on offer.

No words here: the table says them in the rule texts' own words
(``controller/games/track/why_not_words.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.core import State
from rules.track import kernel
from rules.track.engine import MOVE, MaednState
from rules.track.facts import Spot, spot
from rules.track.presets import MaednRules


class TrackWhy(Enum):
    """Why one piece cannot move with the die thrown."""

    CAPTURE_COMPULSORY = "capture_compulsory"
    """Another piece can capture, and capturing comes first (MÄDN rule 10)."""
    MUST_ENTER = "must_enter"
    """A 6 must bring a waiting piece onto the start field (MÄDN rule 4)."""
    START_MUST_BE_CLEARED = "start_must_be_cleared"
    """The piece on the start field must move on first (MÄDN rule 5; Kleiner Ärger:
    "so bald wie möglich")."""
    NEEDS_SIX = "needs_six"
    """A waiting piece enters only with a 6 (MÄDN rule 4)."""
    EXACT_INTO_GOAL = "exact_into_goal"
    """The die would carry the piece past the last goal field ("augengenau", rule 14)."""
    OWN_PIECE_ON_TARGET = "own_piece_on_target"
    """An own piece stands on the field the die reaches (rule 9: one piece a field)."""
    NO_JUMPING_IN_GOAL = "no_jumping_in_goal"
    """An own piece in the goal is in the way (rule 14: no jumping in the goal)."""


@dataclass(frozen=True, slots=True)
class TrackBlocked:
    """A piece (where it stands) and why it cannot move."""

    spot: Spot
    why: TrackWhy


def why_not(state: State) -> tuple[TrackBlocked, ...]:
    """Every piece of the player on turn without a legal move, once per position (the
    waiting pieces are one), with its reason; nothing outside a move decision. Pieces
    that have finished (no free goal field ahead) are left out: nobody expects them to
    move."""
    if not isinstance(state, MaednState) or state.phase != MOVE:
        return ()
    game = state.game
    rules = game.rules
    steps, end, ring = game.geometry.track_steps, game._end, game.geometry.ring
    seat = state.turn
    colour = state.players[seat]
    table = game._field[colour]
    own = state.pieces[seat]
    occ = state.occupancy()
    die = state.die
    possible = kernel.generate(rules, steps, end, table, own, occ, seat, die)
    allowed = kernel.legal_raw(rules, steps, end, ring, table, own, occ, seat, die)
    movable = {m[0] for m in allowed}
    tokens = game._token[colour]
    found: list[TrackBlocked] = []
    for p in sorted(set(own)):
        if p in movable or _finished(p, own, steps, end):
            continue
        why = _restricted(rules, steps, ring, own, possible, p)
        if why is None:
            why = _impossible(rules, steps, end, table, own, occ, seat, die, p)
        if why is not None:
            found.append(TrackBlocked(spot(tokens[p]), why))
    return tuple(found)


def _finished(p: int, own: tuple[int, ...], steps: int, end: int) -> bool:
    return p >= steps and all(q in own for q in range(p + 1, end))


def _restricted(
    rules: MaednRules,
    steps: int,
    ring: int,
    own: tuple[int, ...],
    possible: list[kernel.RawMove],
    p: int,
) -> TrackWhy | None:
    """The obligation that took away the moves the die allows piece ``p`` (the same
    order as ``kernel.restrict``), or None if the die allows it none."""
    if not any(m[0] == p for m in possible):
        return None
    if rules.must_capture and any(m[2] for m in possible):
        return TrackWhy.CAPTURE_COMPULSORY
    if own[0] == kernel.HOME and rules.must_enter and any(m[0] == kernel.HOME for m in possible):
        return TrackWhy.MUST_ENTER
    return TrackWhy.START_MUST_BE_CLEARED


def _impossible(
    rules: MaednRules,
    steps: int,
    end: int,
    table: tuple[int, ...],
    own: tuple[int, ...],
    occ: list[int],
    seat: int,
    die: int,
    p: int,
) -> TrackWhy | None:
    """Why the die allows piece ``p`` no move at all (the cases of ``kernel.generate``)."""
    if p == kernel.HOME:
        return TrackWhy.NEEDS_SIX if die != 6 else TrackWhy.OWN_PIECE_ON_TARGET
    q = p + die
    if q >= end:
        return TrackWhy.EXACT_INTO_GOAL
    if q < steps:
        return TrackWhy.OWN_PIECE_ON_TARGET if occ[table[q]] == seat else None
    if q in own:
        return TrackWhy.OWN_PIECE_ON_TARGET
    return TrackWhy.NO_JUMPING_IN_GOAL
