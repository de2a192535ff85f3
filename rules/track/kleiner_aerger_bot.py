"""Kleiner Ärger's strong player: the exact optimal policy against the random bot.

Why: this bot's strength is measured in 2-player games, first against the random bot,
and that game is a finite Markov decision process. ``benchmarks/kleiner_aerger_optimum.py``
solves it exactly (1.66 million states, optimum P(win) 0.61096) and writes, for every
reachable decision with two legal moves, which one is best
(``kleiner_aerger_policy.bin`` beside this module). Playing that table is optimal against the random
bot and, against people, still a sound player (it assumes an opponent who plays
uniformly at random, like the expectimax it replaces).

The table is keyed by the mover's pieces, the opponent's pieces (progress values, each
pair sorted), the die and the tries counter; two bits per slot: 0 "not in the table",
1 or 2 "move the piece further back or further ahead" (the two moves ordered by the
progress they start from; ``legal_moves()`` orders them by board position, which
differs between the colours). The two seats sit opposite on a symmetric ring, so the
table serves either seat. Anything the table does not cover (more players, a
position loaded from a file that the standard start never reaches, three or more legal
moves) goes to the heuristic expectimax player (:class:`rules.track.bot.TrackBot`),
``SEARCH_DEPTH`` decisions deep. Unlike MÄDN's, this search does not go deeper where
:func:`rules.budget.deeper_search_fits`: one decision more measured no better against
three random players (29.4 % against 29.6 % of 2000 games, docs/bots.md) at eight
times the cost; ``deeper=True`` plays it so that the measurement can be repeated.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from functools import cache

from rules.budget import Budget
from rules.core import Move, State
from rules.data import DataFileError, read_checked
from rules.track.engine import MaednState, TrackMove

VALUES = 28
"""Progress values of a Kleiner Ärger piece: -1 (out), 0–24 on the ring, 25–26 in goal."""
PAIRS = VALUES * (VALUES + 1) // 2
DICE = 6
TRIES = 4
POLICY_FILE = "kleiner_aerger_policy.bin"
"""The policy table, zlib-compressed, in this package (with its provenance sidecar)."""

UNKNOWN = 0

SEARCH_DEPTH = 4
"""The expectimax's depth where the table has no answer (3–4 players)."""
DEEPER_DEPTH = 5
"""The depth with ``deeper=True`` (module docstring: not switched on by the budget)."""


def pair_index(pieces: Sequence[int]) -> int:
    """Index of a sorted pair of progress values among all PAIRS."""
    a, b = sorted(pieces)
    a, b = a + 1, b + 1
    return a * VALUES - a * (a - 1) // 2 + (b - a)


def policy_index(own: Sequence[int], opp: Sequence[int], die: int, tries: int) -> int:
    """The table slot of a decision (module docstring)."""
    return ((pair_index(own) * PAIRS + pair_index(opp)) * DICE + die - 1) * TRIES + tries


def slots() -> int:
    return PAIRS * PAIRS * DICE * TRIES


def table_bytes() -> int:
    """Length of the table: two bits per slot."""
    return (2 * slots() + 7) // 8


def bit_position(slot: int) -> tuple[int, int]:
    """(byte, shift) of a slot's two bits in the table."""
    return divmod(2 * slot, 8)


def decision_slot(state: MaednState) -> int | None:
    """The table slot of the decision in ``state``, from the mover's view, or None when
    the position cannot be in the table (not two players with two pieces each)."""
    if len(state.pieces) != 2 or not 0 <= state.tries < TRIES or not 1 <= state.die <= DICE:
        return None
    own, opp = state.pieces[state.turn], state.pieces[1 - state.turn]
    if len(own) != 2 or len(opp) != 2:
        return None
    return policy_index(own, opp, state.die, state.tries)


@cache
def _table() -> bytes:
    """The shipped policy, checked against its provenance; a missing or damaged file is
    an error (:class:`rules.data.DataFileError`), never a silently weaker player."""
    packed = read_checked(__package__ or "rules.track", POLICY_FILE)
    try:
        data = zlib.decompress(packed)
    except zlib.error as exc:
        raise DataFileError(f"{POLICY_FILE} does not decompress: {exc}") from None
    if len(data) < table_bytes():
        raise DataFileError(
            f"{POLICY_FILE} holds {len(data)} bytes, the table needs {table_bytes()}"
        )
    return data


def lookup(state: MaednState) -> int:
    """0 when the table has no answer, else 1 + the position of the best of the two
    legal moves when they are ordered by the progress they start from."""
    slot = decision_slot(state)
    if slot is None:
        return UNKNOWN
    data = _table()
    byte, shift = bit_position(slot)
    return (data[byte] >> shift) & 3


class KleinerAergerBot:
    """The exact policy where it applies, the expectimax player elsewhere."""

    name = "strong"

    def __init__(self, budget: Budget | None = None, deeper: bool = False) -> None:
        from rules.track.bot import DEFAULT_WEIGHTS, TrackBot

        depth = DEEPER_DEPTH if deeper else SEARCH_DEPTH
        self.fallback = TrackBot(budget, depth, DEFAULT_WEIGHTS)

    def choose(self, state: State, rng: random.Random) -> Move:
        if not isinstance(state, MaednState):
            raise TypeError(f"KleinerAergerBot plays Kleiner Ärger, not {state.game.name}")
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if len(moves) == 2 and state.game.name == "kleiner_aerger":
            code = lookup(state)
            pieces = [m for m in moves if isinstance(m, TrackMove)]
            if code != UNKNOWN and len(pieces) == 2:
                return sorted(pieces, key=lambda m: m.from_progress)[code - 1]
        return self.fallback.choose(state, rng)
