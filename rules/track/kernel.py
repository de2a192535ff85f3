"""The arithmetic of the MÄDN family on plain ints and lists, shared by two callers.

:class:`rules.track.engine.MaednState` wraps these functions in immutable values for the public
API; :func:`random_playout` runs them on mutable lists to play whole random games fast
(bots' rollouts, statistics, the throughput benchmark). Because both use the same
functions for move generation, obligations, captures and turn order, they cannot drift
apart; a test also replays thousands of seeded games both ways and compares them.

Positions are *progress* values: -1 home, 0 the own start field, up to ``steps - 1`` on
the ring, then ``steps .. end - 1`` the goal fields. ``occ`` maps a ring index to the
seat standing there, or -1.

A seat's pieces are a sorted tuple in both callers (the playout replaces a seat's tuple
when it moves, as the state does), and the parameters name concrete types (tuple, list)
rather than ``Sequence``: a compiled build indexes those directly instead of through
the generic protocol, which is most of the kernel's cost there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from rules.playout import randbelow
from rules.track.presets import TRIES_CANNOT_ADVANCE, TRIES_NO_MOVE_WITH_ONE, MaednRules

HOME: Final = -1
RawMove = tuple[int, int, bool]
"""(from progress, to progress, sends a piece home)."""


Tables = tuple[tuple[int, ...], ...]
"""Per seat: progress -> ring index (for 0 <= progress < steps)."""


def occupancy(
    tables: Tables, pieces: Sequence[tuple[int, ...]], steps: int, ring: int
) -> list[int]:
    occ = [-1] * ring
    for seat, own in enumerate(pieces):
        table = tables[seat]
        for p in own:
            if 0 <= p < steps:
                occ[table[p]] = seat
    return occ


def generate(
    rules: MaednRules,
    steps: int,
    end: int,
    table: tuple[int, ...],
    own: tuple[int, ...],
    occ: list[int],
    seat: int,
    die: int,
) -> list[RawMove]:
    """Every move the die allows one seat, before obligations. ``own`` is sorted, so
    identical pieces (all those at home) give one move."""
    moves: list[RawMove] = []
    last = -2
    self_capture = rules.self_capture
    jumping = rules.goal_jumping
    for p in own:
        if p == last:
            continue
        last = p
        if p == HOME:
            if die != 6:
                continue
            q = 0
        else:
            q = p + die
            if q >= end:
                continue
        if q < steps:
            who = occ[table[q]]
            if who == -1:
                moves.append((p, q, False))
            elif who != seat or self_capture:
                moves.append((p, q, True))
        elif q not in own and (jumping or not any(p < r < q and r >= steps for r in own)):
            moves.append((p, q, False))
    return moves


def restrict(
    rules: MaednRules, steps: int, ring: int, own: tuple[int, ...], moves: list[RawMove]
) -> list[RawMove]:
    """Obligations in classic priority: capture > enter on a 6 > clear the start > any.

    Clearing the start (a piece on progress 0, or a Kleiner Ärger piece back on its
    start field after a lap) applies while pieces wait, or always when the preset says
    so (Kleiner Ärger: "so bald wie möglich").
    """
    if rules.must_capture:
        captures = [m for m in moves if m[2]]
        if captures:
            return captures
    waiting = own[0] == HOME
    if waiting and rules.must_enter:
        enters = [m for m in moves if m[0] == HOME]
        if enters:
            return enters
    if rules.must_clear_start and (waiting or not rules.clear_start_only_while_waiting):
        # Progress ``ring`` is back on the start field only where a lap field exists
        # (ring < steps, Kleiner Ärger); on the MÄDN board it is goal 1.
        lap = ring if ring < steps else 0
        clearing = [m for m in moves if m[0] == 0 or m[0] == lap]
        if clearing:
            return clearing
    return moves


def legal_raw(
    rules: MaednRules,
    steps: int,
    end: int,
    ring: int,
    table: tuple[int, ...],
    own: tuple[int, ...],
    occ: list[int],
    seat: int,
    die: int,
) -> list[RawMove]:
    moves = generate(rules, steps, end, table, own, occ, seat, die)
    if len(moves) > 1:
        moves = restrict(rules, steps, ring, own, moves)
    return moves


def can_advance(rules: MaednRules, steps: int, end: int, own: tuple[int, ...]) -> bool:
    """A piece on the track, or a goal piece that can still move up (MÄDN rules 2, 6)."""
    for p in own:
        if 0 <= p < steps:
            return True
        if p >= steps:
            if rules.goal_jumping:
                if any(q not in own for q in range(p + 1, end)):
                    return True
            elif p + 1 < end and p + 1 not in own:
                return True
    return False


def allowed_tries(
    rules: MaednRules,
    steps: int,
    end: int,
    table: tuple[int, ...],
    own: tuple[int, ...],
    occ: list[int],
    seat: int,
) -> int:
    """How many throws this roll may take: 3 tries or 1 (MÄDN 2/3/6, Kleiner Ärger)."""
    rule = rules.tries_rule
    if rule == TRIES_CANNOT_ADVANCE:
        return 1 if can_advance(rules, steps, end, own) else rules.max_tries
    if rule == TRIES_NO_MOVE_WITH_ONE:
        stuck = not generate(rules, steps, end, table, own, occ, seat, 1)
        return rules.max_tries if stuck else 1
    return 1


def move_piece(
    pieces: list[tuple[int, ...]],
    occ: list[int],
    tables: Tables,
    steps: int,
    seat: int,
    move: RawMove,
) -> None:
    """Carry out a move in place: the piece moves, a captured piece goes home.

    ``pieces`` is a list of every seat's sorted tuple; the mover's (and the captured
    seat's) tuple is replaced by a new one."""
    p, q, capture = move
    table = tables[seat]
    if 0 <= p < steps:
        occ[table[p]] = -1
    if q < steps:
        square = table[q]
        if capture:
            victim = occ[square]
            vt = tables[victim]
            theirs = pieces[victim]
            for r in theirs:
                if 0 <= r < steps and vt[r] == square:
                    pieces[victim] = replaced(theirs, r, HOME)
                    break
        occ[square] = seat
    # After a capture of one's own piece (Lingo) this tuple already has it at home.
    pieces[seat] = replaced(pieces[seat], p, q)


def replaced(own: tuple[int, ...], old: int, new: int) -> tuple[int, ...]:
    """``own`` with one ``old`` replaced by ``new``, sorted again."""
    out = list(own)
    out.remove(old)
    out.append(new)
    out.sort()
    return tuple(out)


def next_seat(seat: int, players: int, finished: tuple[int, ...]) -> int:
    seat = (seat + 1) % players
    while seat in finished:
        seat = (seat + 1) % players
    return seat


def roll_die(
    rules: MaednRules, steps: int, end: int, own: tuple[int, ...], rng: random.Random
) -> int:
    """Draw a die exactly as :func:`rules.playout.sample_roll` does for this node."""
    p6 = rules.six_probability_when_stuck
    if p6 is not None and not can_advance(rules, steps, end, own):
        x = rng.random()
        other = (1.0 - p6) / 5
        for face in range(1, 7):
            x -= p6 if face == 6 else other
            if x < 0:
                return face
        return 6
    return randbelow(rng, 6) + 1


def random_playout(
    rules: MaednRules,
    steps: int,
    end: int,
    ring: int,
    tables: Tables,
    pieces_in: Sequence[tuple[int, ...]],
    turn: int,
    tries: int,
    finished_in: tuple[int, ...],
    rng: random.Random,
) -> tuple[tuple[int, ...], int, int, int]:
    """Play random moves from a roll node to the end, as :class:`rules.bots.RandomBot`
    would with the same RNG. Returns (finishing seats, throws, moves, passes)."""
    pieces = list(pieces_in)
    occ = occupancy(tables, pieces, steps, ring)
    finished = finished_in
    players = len(pieces)
    throws = moves_made = passes = 0
    uniform = rules.six_probability_when_stuck is None
    while True:
        own = pieces[turn]
        table = tables[turn]
        # roll_die's own first step, taken here for the common fair die (a call less
        # per throw).
        die = randbelow(rng, 6) + 1 if uniform else roll_die(rules, steps, end, own, rng)
        throws += 1
        legal = legal_raw(rules, steps, end, ring, table, own, occ, turn, die)
        count = len(legal) + (1 if rules.pass_always else 0)
        if not legal:
            move = None
        elif count == 1:
            move = legal[0]
        else:
            move = legal[randbelow(rng, len(legal))]
        if move is None:
            passes += 1
            if die == 6 and rules.unused_six_rolls_again:
                tries = 0
            elif tries + 1 < allowed_tries(rules, steps, end, table, own, occ, turn):
                tries += 1
            else:
                tries = 0
                turn = next_seat(turn, players, finished)
            continue
        moves_made += 1
        move_piece(pieces, occ, tables, steps, turn, move)
        tries = 0
        if pieces[turn][0] >= steps:
            finished = (*finished, turn)
            left = players - len(finished)
            if not rules.play_on or left <= 1:
                if rules.play_on:
                    finished += tuple(i for i in range(players) if i not in finished)
                return finished, throws, moves_made, passes
            turn = next_seat(turn, players, finished)
        elif die != 6:
            turn = next_seat(turn, players, finished)
