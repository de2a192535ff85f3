"""The strong computer player of the MÄDN family (all MÄDN presets, Kleiner Ärger).

Most moves in these race games are forced; the choices that matter are *which* piece
to move, whether to leave a piece where an opponent can hit it, and when to bring a
piece in. The bot therefore combines

* a static evaluation (:func:`evaluate`) in "steps": the progress of every piece, a
  bonus for being on the board and for being safe in the goal, minus the expected loss
  of every exposed piece. The exposure estimate counts each opponent piece 1–6 fields
  behind (probability 1/6 per distinct distance) and 7–12 behind (a six and then the
  rest, 1/36), and waiting pieces that enter on the field by rolling a 6; and
* expectimax over the die, ``depth`` decisions deep within the node budget, by
  iterative deepening (an interrupted pass keeps the previous pass's answer): chance
  nodes average over the faces, the bot's own decisions take the best move, and an
  opponent's decisions average over its distinct moves, which models the random player
  exactly and people only roughly. With ``follow_opponents=False`` (four-player MÄDN)
  only the bot's own re-rolls after a 6 are searched; three opponents would cost 6^3
  nodes per level.

Opponents are scored with the same evaluation; in a two-player game the bot maximises
the difference, with more players it weighs the strongest opponent most, because only
the winner counts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.budget import Budget, Meter, deeper_search_fits
from rules.core import PASS, Move, State
from rules.track.engine import OVER, MaednState

WIN = 10_000.0


class TrackWeights:
    """Tunable constants of :func:`evaluate`, in units of one step of progress."""

    def __init__(
        self,
        on_board: float = 10.0,
        in_goal: float = 4.0,
        goal_depth: float = 5.0,
        exposure: float = 1.0,
        opponents: float = 0.5,
        far_threat: float = 1 / 36,
        entry_threat: float = 0.0,
    ) -> None:
        self.far_threat = far_threat
        self.entry_threat = entry_threat
        self.on_board = on_board
        self.in_goal = in_goal
        self.goal_depth = goal_depth
        self.exposure = exposure
        self.opponents = opponents


DEFAULT_WEIGHTS = TrackWeights()
"""Kleiner Ärger's weights (measured 60.1 % as first player vs random, 2000 games)."""

MAEDN_WEIGHTS = TrackWeights(far_threat=0.08, entry_threat=1 / 6)
"""Four-player MÄDN: an opponent 7–12 fields behind is in range *next* round too, and
a piece just past a start field with waiting pieces is hit after a 6 and a re-roll;
counting both measured about +1.5 points against three random players."""


def piece_value(progress: int, steps: int, w: TrackWeights) -> float:
    """What one piece is worth: home 0, on the track ``on_board`` + steps travelled,
    in the goal lane the full lap plus a safety bonus that grows with depth (a deeper
    goal piece leaves room for the others)."""
    if progress < 0:
        return 0.0
    if progress < steps:
        return w.on_board + progress
    return w.on_board + steps + w.in_goal + w.goal_depth * (progress - steps)


def hit_chances(state: MaednState, w: TrackWeights | None = None) -> list[list[float]]:
    """Per seat and piece: the chance that some opponent can hit it before its owner
    moves again (an estimate: independent threats, each opponent's next roll)."""
    w = w or DEFAULT_WEIGHTS
    far_safe = 1.0 - w.far_threat
    game = state.game
    geo = game.geometry
    steps, ring = geo.track_steps, geo.ring
    tables = game.tables(state.players)
    starts = [table[0] for table in tables]
    seats = len(state.players)
    # Where every piece stands on the ring, and which seats still wait at home.
    spots: list[list[tuple[int, int]]] = []
    for seat in range(seats):
        table = tables[seat]
        spots.append([(table[p], p) for p in state.pieces[seat] if 0 <= p < steps])
    waiting = [state.pieces[seat][0] < 0 for seat in range(seats)]
    stuck = [not _has_track_piece(state.pieces[seat], steps) for seat in range(seats)]
    result: list[list[float]] = []
    for seat in range(seats):
        chances: list[float] = []
        for p in state.pieces[seat]:
            if not 0 <= p < steps:
                chances.append(0.0)
                continue
            square = tables[seat][p]
            safe = 1.0
            for other in range(seats):
                if other == seat or other in state.finished:
                    continue
                if waiting[other]:
                    gap = (square - starts[other]) % ring
                    six = 1 - (5 / 6) ** 3 if stuck[other] else 1 / 6
                    if gap == 0:
                        # Entering on a 6 captures; with 3 tries the chance is higher.
                        safe *= 1 - six
                    elif gap <= 6:
                        # Entered on a 6, the piece rolls again from the start field.
                        safe *= 1 - w.entry_threat * six
                for field, q in spots[other]:
                    d = (square - field) % ring
                    if d == 0 or q + d >= steps:
                        continue
                    if d <= 6:
                        safe *= 5 / 6
                    elif d <= 12:
                        safe *= far_safe
            chances.append(1.0 - safe)
        result.append(chances)
    return result


def _has_track_piece(own: Sequence[int], steps: int) -> bool:
    return any(0 <= p < steps for p in own)


def seat_scores(state: MaednState, w: TrackWeights) -> list[float]:
    """Every seat's evaluation in steps (before comparing seats with each other)."""
    steps = state.game.geometry.track_steps
    chances = hit_chances(state, w)
    scores = []
    for seat, own in enumerate(state.pieces):
        total = 0.0
        for p, chance in zip(own, chances[seat], strict=True):
            value = piece_value(p, steps, w)
            total += value - w.exposure * chance * value
        scores.append(total)
    return scores


def evaluate(state: MaednState, seat: int, w: TrackWeights = DEFAULT_WEIGHTS) -> float:
    """The position from ``seat``'s point of view; terminal positions are ±WIN."""
    if state.phase == OVER:
        return WIN if state.finished and state.finished[0] == seat else -WIN
    scores = seat_scores(state, w)
    mine = scores[seat]
    others = [s for i, s in enumerate(scores) if i != seat and i not in state.finished]
    if not others:
        return mine
    if len(others) == 1:
        return mine - others[0]
    return mine - w.opponents * max(others) - (1 - w.opponents) * sum(others) / len(others)


class TrackBot:
    """Heuristic evaluation plus expectimax over the die (module docstring)."""

    name = "strong"

    def __init__(
        self,
        budget: Budget | None = None,
        depth: int = 2,
        weights: TrackWeights = DEFAULT_WEIGHTS,
        follow_opponents: bool = True,
    ) -> None:
        self.budget = budget or Budget()
        self.depth = depth
        self.weights = weights
        self.follow_opponents = follow_opponents

    def choose(self, state: State, rng: random.Random) -> Move:
        if not isinstance(state, MaednState):
            raise TypeError(f"TrackBot plays the MÄDN family, not {state.game.name}")
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        meter = self.budget.start()
        seat = state.turn
        scored = [(self._after(state.apply(m), seat, 1, meter), i) for i, m in enumerate(moves)]
        # Iterative deepening: a deeper pass replaces the shallow answer only if it
        # finished inside the budget, so the bot always has a best move so far.
        for depth in range(2, self.depth + 1):
            deeper: list[tuple[float, int]] = []
            for i, m in enumerate(moves):
                deeper.append((self._after(state.apply(m), seat, depth, meter), i))
                if meter.spent():
                    break
            if meter.spent():
                break  # an interrupted pass is not trusted; keep the previous answer
            scored = deeper
        best = max(score for score, _ in scored)
        ties = [i for score, i in scored if score >= best - 1e-9]
        return moves[ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]]

    def _after(self, state: MaednState, seat: int, depth: int, meter: Meter) -> float:
        """Expectimax value of a position reached by a move, ``depth`` decisions deep:
        chance nodes average over the die, the bot's own decisions take the best move,
        an opponent's decisions average over its distinct moves (the random player's
        model; against people it is an approximation), and the frontier is scored by
        :func:`evaluate`."""
        meter.charge()
        if (
            state.phase == OVER
            or depth <= 1
            or meter.spent()
            or (state.turn != seat and not self.follow_opponents)
        ):
            return evaluate(state, seat, self.weights)
        total = 0.0
        for dice, p in state.chance_outcomes():
            rolled = state.roll(dice)
            moves: Sequence[Move] = rolled.legal_moves()
            if rolled.turn != seat and len(moves) > 1:
                moves = [m for m in moves if m is not PASS] or moves
            values = [self._after(rolled.apply(m), seat, depth - 1, meter) for m in moves]
            total += p * (max(values) if rolled.turn == seat else sum(values) / len(values))
        return total


MAEDN_DEPTH = 2
"""MÄDN's usual search: its own re-roll after a 6, nothing of the opponents' turns."""
MAEDN_DEEPER_DEPTH = 4
"""MÄDN's deeper search: through the next three turns (every opponent of a four-player
game), averaging over each opponent's moves."""


def maedn_bot(budget: Budget | None = None, deeper: bool | None = None) -> TrackBot:
    """MÄDN's strong player (all presets).

    Usually ``MAEDN_DEPTH`` decisions deep over its own re-rolls only: following three
    opponents costs 6^3 nodes per level. Where :func:`rules.budget.deeper_search_fits`
    (a real clock and the compiled rules) or ``deeper`` says so, it searches
    ``MAEDN_DEEPER_DEPTH`` decisions deep through the opponents' turns: measured 53.3 %
    and 52.6 % wins against three random players where the usual search won 49.8 % and
    50.1 % (docs/bots.md), at a median 5.7 ms per move compiled on the development
    machine (24 ms in plain Python, too slow for the slower Pis). Iterative deepening
    keeps the shallower answer whenever the deeper pass does not finish in time.
    """
    budget = budget or Budget()
    if deeper_search_fits(budget) if deeper is None else deeper:
        return TrackBot(budget, MAEDN_DEEPER_DEPTH, MAEDN_WEIGHTS, follow_opponents=True)
    return TrackBot(budget, MAEDN_DEPTH, MAEDN_WEIGHTS, follow_opponents=False)
