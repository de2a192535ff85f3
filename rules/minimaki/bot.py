"""Mini-Maki solved: red's exact optimal policy by value iteration, and a hint from it.

Mini-Maki (seed 004) is a one-player game against the dice, so "optimal" is exact: the
policy that maximises red's probability of reaching row 1. The solver enumerates every
position at black's roll, ``(black rows, red field)`` with the blacks on rows 1–5
(a black on row 6 has already lost) and red on rows 2–6 (row 1 has already won):
6^5 · 30 ≈ 470 000 positions. For each it lists the 21 distinct rolls with their
probabilities and, for each position after a roll, red's king steps. The transitions are
the engine's own pure functions (:func:`rules.minimaki.engine.black_turn`,
:func:`~rules.minimaki.engine.red_steps`, :func:`~rules.minimaki.engine.reset_by_red`), so
the solver and the game cannot disagree about a rule.

Values are iterated (Gauss–Seidel, positions with more advanced blacks first) until no
value changes by more than ``tolerance``. The result, a :class:`MinimakiSolution`, is
pure data: its values serialise to bytes (:meth:`MinimakiSolution.to_bytes`) so that the
controller can cache them in its state directory; the rules never touch a file.

Solving costs minutes of pure Python (see README); until a solution is given, the bot
plays an expectimax search over the next rolls with a distance heuristic.

The two-player form is played with the same policy: maximising the chance to win is
what the better-result rule rewards most (a loss never beats a win), although the
fewest-rounds tie-break is not optimised.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Sequence

from rules.budget import Budget
from rules.core import PASS, Move, State, uniform_outcomes
from rules.minimaki.engine import (
    BLACK_BASE,
    RED_BASE,
    SIZE,
    MinimakiState,
    Place,
    Step,
    black_turn,
    red_steps,
    reset_by_red,
)

ALIVE_ROWS = RED_BASE - BLACK_BASE  # a black stands on rows 1..5 while the game goes on
RED_ROWS = RED_BASE - BLACK_BASE  # red stands on rows 2..6 while the game goes on
BLACK_CONFIGS = ALIVE_ROWS**SIZE
RED_FIELDS = RED_ROWS * SIZE
POSITIONS = BLACK_CONFIGS * RED_FIELDS
WIN = -1
"""Successor marker: red's step reaches row 1."""


def _distinct_rolls() -> list[tuple[tuple[int, int], float]]:
    merged: dict[tuple[int, int], float] = {}
    for dice, p in uniform_outcomes(2):
        key = (min(dice), max(dice))
        merged[key] = merged.get(key, 0.0) + p
    return sorted(merged.items())


ROLLS = _distinct_rolls()


def black_index(rows: Sequence[int]) -> int:
    index = 0
    for row in reversed(rows):
        index = index * ALIVE_ROWS + (row - BLACK_BASE)
    return index


def black_rows(index: int) -> tuple[int, ...]:
    rows = []
    for _ in range(SIZE):
        index, digit = divmod(index, ALIVE_ROWS)
        rows.append(digit + BLACK_BASE)
    return tuple(rows)


def position_index(rows: Sequence[int], red: tuple[int, int]) -> int:
    """Index of a position at black's roll (every black on rows 1–5, red on 2–6)."""
    r, c = red
    return black_index(rows) * RED_FIELDS + (r - BLACK_BASE - 1) * SIZE + (c - 1)


class MinimakiSolution:
    """Red's winning probability at every position at black's roll, for one rule set."""

    def __init__(self, diagonal: bool, values: array[float]) -> None:
        if len(values) != POSITIONS:
            raise ValueError(f"a Mini-Maki solution has {POSITIONS} values, got {len(values)}")
        self.diagonal = diagonal
        self.values = values

    # -- queries ------------------------------------------------------------------------

    def value_at_roll(self, rows: Sequence[int], red: tuple[int, int]) -> float:
        """P(red wins) with black to roll, under optimal play."""
        return self.values[position_index(rows, red)]

    def step_value(self, rows: Sequence[int], dst: tuple[int, int]) -> float:
        """P(red wins) after red steps onto ``dst`` (row 1 wins outright)."""
        if dst[0] == BLACK_BASE:
            return 1.0
        return self.value_at_roll(reset_by_red(rows, dst, self.diagonal), dst)

    def value_to_step(self, rows: Sequence[int], red: tuple[int, int]) -> float:
        """P(red wins) with red to step (boxed in: red passes)."""
        targets = red_steps(rows, red)
        if not targets:
            return self.value_at_roll(rows, red)
        return max(self.step_value(rows, dst) for dst in targets)

    def start_value(self, rows: Sequence[int] = (BLACK_BASE,) * SIZE) -> float:
        """P(red wins) of a new game when red picks the best start field on row 6."""
        return max(self.value_at_roll(rows, (RED_BASE, c)) for c in range(1, SIZE + 1))

    # -- serialisation (the caller caches these bytes) -----------------------------------

    def to_bytes(self) -> bytes:
        header = b"MMK1" + (b"D" if self.diagonal else b"S")
        return header + self.values.tobytes()

    @classmethod
    def from_bytes(cls, data: bytes) -> MinimakiSolution:
        if len(data) < 5 or data[:4] != b"MMK1" or data[4:5] not in (b"D", b"S"):
            raise ValueError("not a cached Mini-Maki solution (bad header)")
        values = array("d")
        values.frombytes(data[5:])
        return cls(data[4:5] == b"D", values)


def build_transitions(
    diagonal: bool,
) -> tuple[array[int], array[int], array[float], array[int], array[int]]:
    """The game graph as flat arrays (CSR style).

    For position ``n`` at black's roll, ``roll_start[n]..roll_start[n+1]`` index
    ``roll_next`` (the position *after* the roll, as a position index whose red may
    now be reset) and ``roll_prob``; rolls that lose are left out. For each position
    with red to step, ``step_start``/``step_next`` list the positions after each
    king step (``WIN`` for row 1); a boxed-in red has its own position (a pass).
    """
    roll_start = array("i", [0])
    roll_next = array("i")
    roll_prob = array("d")
    step_start = array("i", [0])
    step_next = array("i")
    for b in range(BLACK_CONFIGS):
        rows = black_rows(b)
        for red_row in range(BLACK_BASE + 1, RED_BASE + 1):
            for red_col in range(1, SIZE + 1):
                red = (red_row, red_col)
                if rows[red_col - 1] == red_row:
                    # Impossible (red never stands on a black): keep the slot empty.
                    roll_start.append(len(roll_next))
                    step_start.append(len(step_next))
                    continue
                for dice, p in ROLLS:
                    turn = black_turn(rows, red, dice, diagonal)
                    if turn.captured or turn.reached_baseline:
                        continue
                    after = (RED_BASE, red_col) if turn.red_reset else red
                    roll_next.append(position_index(turn.black, after))
                    roll_prob.append(p)
                roll_start.append(len(roll_next))
                targets = red_steps(rows, red)
                if not targets:
                    step_next.append(position_index(rows, red))
                for dst in targets:
                    if dst[0] == BLACK_BASE:
                        step_next.append(WIN)
                    else:
                        step_next.append(position_index(reset_by_red(rows, dst, diagonal), dst))
                step_start.append(len(step_next))
    return roll_start, roll_next, roll_prob, step_start, step_next


def solve(
    diagonal: bool = False,
    tolerance: float = 1e-9,
    max_sweeps: int = 10_000,
    on_sweep: Callable[[int, float], None] | None = None,
) -> MinimakiSolution:
    """Value iteration to ``tolerance`` (max change per sweep); pure and deterministic.

    ``on_sweep(sweep, change)`` lets a caller report progress (the rules never print).
    """
    roll_start, roll_next, roll_prob, step_start, step_next = build_transitions(diagonal)
    values = array("d", bytes(8 * POSITIONS))
    stepv = array("d", bytes(8 * POSITIONS))
    for sweep in range(1, max_sweeps + 1):
        # Red to step: the best king step (decision values from the current estimate).
        for n in range(POSITIONS):
            lo, hi = step_start[n], step_start[n + 1]
            best = 0.0
            for k in range(lo, hi):
                s = step_next[k]
                v = 1.0 if s == WIN else values[s]
                if v > best:
                    best = v
            stepv[n] = best
        # Black to roll: average over the rolls that do not lose.
        change = 0.0
        for n in range(POSITIONS):
            lo, hi = roll_start[n], roll_start[n + 1]
            total = 0.0
            for k in range(lo, hi):
                total += roll_prob[k] * stepv[roll_next[k]]
            old = values[n]
            values[n] = total
            if total - old > change:
                change = total - old
            elif old - total > change:
                change = old - total
        if on_sweep is not None:
            on_sweep(sweep, change)
        if change <= tolerance:
            break
    return MinimakiSolution(diagonal, values)


# -- the player -------------------------------------------------------------------------

_SOLUTIONS: dict[bool, MinimakiSolution] = {}
"""Installed solutions by the diagonal-contact switch (the only rule that changes the
graph; the free setup and the two-player form only change how a game starts)."""


def install_solution(solution: MinimakiSolution) -> None:
    """Make a solved table available to every Mini-Maki bot of its rule set (the
    controller loads it from its cache; benchmarks install what they solved)."""
    _SOLUTIONS[solution.diagonal] = solution


def installed_solution(diagonal: bool) -> MinimakiSolution | None:
    return _SOLUTIONS.get(diagonal)


def _survival_value(rows: Sequence[int], red: tuple[int, int], diagonal: bool) -> float:
    """Fallback evaluation without a solution: the chance to survive black's next roll
    times how far red has come, counting a reset to row 6 as no progress."""
    total = 0.0
    for dice, p in ROLLS:
        turn = black_turn(rows, red, dice, diagonal)
        if turn.captured or turn.reached_baseline:
            continue
        row = RED_BASE if turn.red_reset else red[0]
        total += p * (RED_BASE + 1 - row) / RED_BASE
    return total


class MinimakiBot:
    """Plays red: the exact optimal step when a solution is installed, otherwise a
    one-roll lookahead (module docstring). Also places red's start field and, in the
    free setup, the blacks (always to red's best advantage)."""

    name = "strong"

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()

    def choose(self, state: State, rng: random.Random) -> Move:
        if not isinstance(state, MinimakiState):
            raise TypeError(f"MinimakiBot plays Mini-Maki, not {state.game.name}")
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        scores = [self.move_value(state, m) for m in moves]
        best = max(scores)
        ties = [i for i, s in enumerate(scores) if s >= best - 1e-12]
        return moves[ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]]

    def move_value(self, state: MinimakiState, move: Move) -> float:
        """Red's winning chance after ``move`` (exact with a solution, else estimated)."""
        diagonal = state.game.rules.diagonal_contact
        solution = installed_solution(diagonal)
        if isinstance(move, Step):
            rows = state.rows
            if move.dst[0] == BLACK_BASE:
                return 1.0
            after = reset_by_red(rows, move.dst, diagonal)
            if solution is not None:
                return solution.value_at_roll(after, move.dst)
            return _survival_value(after, move.dst, diagonal)
        if isinstance(move, Place):
            if state.in_setup():
                return self._setup_value(state, move, solution)
            rows = state.rows
            red = (move.row, move.col)
            if solution is not None:
                return solution.value_at_roll(rows, red)
            return _survival_value(rows, red, diagonal)
        if move is PASS:
            return 0.0
        raise TypeError(f"not a Mini-Maki move: {move!r}")

    def _setup_value(
        self, state: MinimakiState, move: Place, solution: MinimakiSolution | None
    ) -> float:
        """Free setup: the best game red can get from this placement, maximised over
        the remaining columns (exact with a solution; otherwise farther is better)."""
        placed = [r for r in state.black if r is not None]
        placed.append(move.row)
        if solution is None:
            return float(-sum(placed))
        best = 0.0
        rest = SIZE - len(placed)
        for tail in range(ALIVE_ROWS**rest):
            rows = list(placed)
            for _ in range(rest):
                tail, digit = divmod(tail, ALIVE_ROWS)
                rows.append(digit + BLACK_BASE)
            best = max(best, solution.start_value(rows))
        return best


def win_probability(state: MinimakiState) -> float | None:
    """Red's exact winning chance under optimal play, or None without a solution.

    Defined at black's roll and at red's step; for a game not yet started it is the
    value of the best start field.
    """
    solution = installed_solution(state.game.rules.diagonal_contact)
    if solution is None or state.in_setup():
        return None
    if state.result is not None:
        return 1.0 if state.result == "won" else 0.0
    rows = state.rows
    if state.red is None:
        return solution.start_value(rows)
    if state.is_chance():
        return solution.value_at_roll(rows, state.red)
    return solution.value_to_step(rows, state.red)
