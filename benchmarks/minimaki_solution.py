"""Solve Mini-Maki exactly and write the policy tables the strong bot ships with.

    .venv/bin/python benchmarks/minimaki_solution.py            # solve and report
    .venv/bin/python benchmarks/minimaki_solution.py --write    # ... and write the files
    .venv/bin/python benchmarks/minimaki_solution.py --check    # ... and compare them

Mini-Maki is a game against the dice, so its optimum is exact: the policy that maximises
red's probability of reaching row 1. Every position at black's roll (blacks on rows 1-5,
red on rows 2-6: 468 750 slots) is listed with its 21 distinct rolls and, after each
roll, red's king steps. The transitions come from the engine's own pure functions
(``black_turn``, ``red_steps``, ``reset_by_red`` in ``rules/minimaki/engine.py``), so the
tables and the game cannot disagree about a rule. Values are iterated (numpy, Jacobi)
until no value changes at all in float64.

Written (``--write``):

* ``rules/minimaki/policy_{standard,diagonal}.bin``: the decisions (format in
  ``rules/minimaki/policy.py``); only diagonal contact changes a step's rules, so
  ``standard``, ``free_setup`` and ``two_player`` share the plain table;
* ``rules/minimaki/policy.json``: provenance (this command, presets, exact P(win),
  sha256 of each table);
* ``tests/data/minimaki_values_{standard,diagonal}.bin`` and ``minimaki_values.json``:
  the values quantised to 16 bits, for the test that re-derives them through the
  engine's API on random positions (not shipped: the bot needs only the decisions).

Building the transitions is pure Python (about a minute per rule set); the two rule
sets are solved in parallel.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

from rules.core import uniform_outcomes
from rules.minimaki import policy as layout
from rules.minimaki.engine import (
    BLACK_BASE,
    RED_BASE,
    SIZE,
    black_turn,
    red_steps,
    reset_by_red,
)

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "python benchmarks/minimaki_solution.py --write"
TIE_TOLERANCE = 1e-12
"""Choices whose values differ by less than this are equal; the first in the engine's
legal-move order is stored."""
QUANT = 65535
"""Values in the test file are round(value * QUANT) as little-endian uint16."""
DATA_DIR = ROOT / "rules" / "minimaki"
VALUES_DIR = ROOT / "tests" / "data"
VALUES_NAME = "minimaki_values.json"
PRESETS = {False: ["standard", "free_setup", "two_player"], True: ["diagonal"]}

P = layout.POSITIONS
WIN = P
"""Sentinel index of a value-array: red's step reached row 1 (value 1)."""
NONE = P + 1
"""Sentinel index: no such step / a roll that loses (value 0 or below any real one)."""
MAX_STEPS = len(layout.DIRECTIONS)


def distinct_rolls() -> list[tuple[tuple[int, int], float]]:
    merged: dict[tuple[int, int], float] = {}
    for dice, p in uniform_outcomes(2):
        key = (min(dice), max(dice))
        merged[key] = merged.get(key, 0.0) + p
    return sorted(merged.items())


ROLLS = distinct_rolls()


@dataclass
class Graph:
    """The game as padded arrays over position slots (``layout.position_index``)."""

    roll_next: npt.NDArray[np.int32]
    """(P, 21): the slot with red to step after each roll; NONE where the roll loses."""
    roll_prob: npt.NDArray[np.float64]
    step_next: npt.NDArray[np.int32]
    """(P, 8): black's-roll slot after each king step (WIN, or NONE past the last)."""
    step_code: npt.NDArray[np.uint8]
    """(P, 8): the direction code of each king step; PASS_CODE for a boxed-in red."""
    possible: npt.NDArray[np.bool_]
    """Red does not stand on a black."""
    after_step: npt.NDArray[np.bool_]
    """The slot can be a position at black's roll: after a red step or a start on row 6."""


def build_graph(diagonal: bool) -> Graph:
    """Every transition, from the engine's functions (module docstring)."""
    roll_next = np.full((P, len(ROLLS)), NONE, np.int32)
    roll_prob = np.tile(np.array([p for _, p in ROLLS]), (P, 1))
    step_next = np.full((P, MAX_STEPS), NONE, np.int32)
    step_code = np.full((P, MAX_STEPS), layout.NO_POSITION, np.uint8)
    possible = np.zeros(P, np.bool_)
    after_step = np.zeros(P, np.bool_)
    for b in range(layout.BLACK_CONFIGS):
        rows = layout.black_rows(b)
        for red_row in range(BLACK_BASE + 1, RED_BASE + 1):
            for red_col in range(1, SIZE + 1):
                red = (red_row, red_col)
                n = layout.position_index(rows, red)
                if rows[red_col - 1] == red_row:
                    continue
                possible[n] = True
                after_step[n] = red_row == RED_BASE or reset_by_red(rows, red, diagonal) == rows
                for k, (dice, _) in enumerate(ROLLS):
                    turn = black_turn(rows, red, dice, diagonal)
                    if not (turn.captured or turn.reached_baseline):
                        after = (RED_BASE, red_col) if turn.red_reset else red
                        roll_next[n, k] = layout.position_index(turn.black, after)
                targets = red_steps(rows, red)
                if not targets:
                    step_next[n, 0] = n
                    step_code[n, 0] = layout.PASS_CODE
                for j, dst in enumerate(targets):
                    step_code[n, j] = layout.DIRECTIONS.index((dst[0] - red_row, dst[1] - red_col))
                    if dst[0] == BLACK_BASE:
                        step_next[n, j] = WIN
                    else:
                        after_rows = reset_by_red(rows, dst, diagonal)
                        step_next[n, j] = layout.position_index(after_rows, dst)
    return Graph(roll_next, roll_prob, step_next, step_code, possible, after_step)


def extended(values: npt.NDArray[np.float64], none: float) -> npt.NDArray[np.float64]:
    """``values`` with the WIN and NONE sentinels appended."""
    return np.concatenate([values, [1.0, none]])


def solve(graph: Graph, max_sweeps: int = 100_000) -> tuple[npt.NDArray[np.float64], int]:
    """Value iteration to a float64 fixed point: P(red wins) at black's roll."""
    values = np.zeros(P)
    for sweep in range(1, max_sweeps + 1):
        to_step = np.maximum(extended(values, 0.0)[graph.step_next].max(axis=1), 0.0)
        # A losing roll points at NONE, past the WIN slot: both read 0 here.
        new = (graph.roll_prob * np.append(to_step, [0.0, 0.0])[graph.roll_next]).sum(axis=1)
        if np.array_equal(new, values):
            return values, sweep
        values = new
    raise RuntimeError(f"no fixed point after {max_sweeps} sweeps")


def first_best(candidates: npt.NDArray[np.float64]) -> npt.NDArray[np.intp]:
    """Per row, the first column within TIE_TOLERANCE of the row's best value."""
    best = candidates.max(axis=1, keepdims=True)
    result: npt.NDArray[np.intp] = np.argmax(candidates >= best - TIE_TOLERANCE, axis=1)
    return result


@dataclass
class Solution:
    diagonal: bool
    values: npt.NDArray[np.float64]
    sweeps: int
    steps: bytes
    starts: bytes
    setup: bytes
    start_values: list[float]
    best_setup_value: float
    quantised: bytes
    seconds: float


def decide(graph: Graph, values: npt.NDArray[np.float64]) -> tuple[bytes, bytes, bytes]:
    """The stored decisions: step codes, start columns, setup rows (``layout`` docs)."""
    candidates = extended(values, -1.0)[graph.step_next]
    chosen = first_best(candidates)
    codes = graph.step_code[np.arange(P), chosen]
    codes[~graph.possible] = layout.NO_POSITION
    configs = np.arange(layout.BLACK_CONFIGS) * layout.RED_FIELDS
    start_slot = (RED_BASE - BLACK_BASE - 1) * SIZE
    start_values = values[configs[:, None] + start_slot + np.arange(SIZE)]
    starts = (first_best(start_values) + 1).astype(np.uint8)
    # Free setup: the value of a partial setup (columns 1..k) is the best over its
    # completions; column 1 is the least significant digit of a black index.
    best_start = start_values.max(axis=1)
    setup = np.zeros(layout.SETUP_PREFIXES, np.uint8)
    rows = layout.ALIVE_ROWS
    for k in range(SIZE):
        after = best_start.reshape(rows ** (SIZE - k - 1), rows ** (k + 1)).max(axis=0)
        # after[p + d * rows**k] is the value once column k+1 holds row d+1.
        options = after.reshape(rows, rows**k).T
        offset = layout.SETUP_OFFSETS[k]
        setup[offset : offset + rows**k] = first_best(options) + 1
    return codes.astype(np.uint8).tobytes(), starts.tobytes(), setup.tobytes()


def solve_rule_set(diagonal: bool) -> Solution:
    began = time.perf_counter()
    graph = build_graph(diagonal)
    values, sweeps = solve(graph)
    steps, starts, setup = decide(graph, values)
    start = [float(values[layout.position_index((1,) * SIZE, (RED_BASE, c))]) for c in range(1, 7)]
    configs = np.arange(layout.BLACK_CONFIGS) * layout.RED_FIELDS
    start_slot = (RED_BASE - BLACK_BASE - 1) * SIZE
    best_setup = float(values[configs[:, None] + start_slot + np.arange(SIZE)].max())
    quantised = np.where(graph.after_step, np.rint(values * QUANT), 0).astype("<u2").tobytes()
    return Solution(
        diagonal,
        values,
        sweeps,
        steps,
        starts,
        setup,
        start,
        best_setup,
        quantised,
        time.perf_counter() - began,
    )


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def table_name(diagonal: bool) -> str:
    return f"policy_{layout.TABLE_NAMES[diagonal]}.bin"


def values_name(diagonal: bool) -> str:
    return f"minimaki_values_{layout.TABLE_NAMES[diagonal]}.bin"


def outputs(solutions: list[Solution]) -> dict[Path, bytes]:
    """Every file ``--write`` writes, with its contents."""
    files: dict[Path, bytes] = {}
    tables: dict[str, Any] = {}
    checks: dict[str, Any] = {}
    for s in solutions:
        key = layout.TABLE_NAMES[s.diagonal]
        table = layout.encode_policy(s.diagonal, s.steps, s.starts, s.setup)
        files[DATA_DIR / table_name(s.diagonal)] = table
        tables[key] = {
            "file": table_name(s.diagonal),
            "presets": PRESETS[s.diagonal],
            "diagonal_contact": s.diagonal,
            "p_win": max(s.start_values),
            "p_win_by_start_column": s.start_values,
            "p_win_best_free_setup": s.best_setup_value,
            "sweeps": s.sweeps,
            "bytes": len(table),
            "sha256": sha256(table),
        }
        values = lzma.compress(s.quantised, format=lzma.FORMAT_XZ, filters=layout.XZ_FILTERS)
        files[VALUES_DIR / values_name(s.diagonal)] = values
        checks[key] = {"file": values_name(s.diagonal), "sha256": sha256(values)}
    provenance = {
        "about": "Mini-Maki's exact optimal policy for red (rules/minimaki/policy.py)",
        "generator": COMMAND,
        "solved_by": "value iteration over every position until no float64 value changes",
        "p_win_means": "red's probability of winning from the standard start (all blacks "
        "on row 1) when it plays this policy; exact to float64 rounding",
        "tie_rule": f"among choices within {TIE_TOLERANCE} of the best, the first in the "
        "engine's legal-move order",
        "tables": tables,
    }
    files[DATA_DIR / layout.PROVENANCE_NAME] = json_bytes(provenance)
    values_provenance = {
        "about": "Mini-Maki's exact values, for tests only: P(red wins) at black's roll",
        "generator": COMMAND,
        "format": f"xz of little-endian uint16 round(P * {QUANT}) per position slot "
        "(rules/minimaki/policy.py position_index); 0 where the slot cannot be a position "
        "at black's roll (red on a black, or a black left or right of red that red's "
        "step would have reset)",
        "scale": QUANT,
        "tables": checks,
    }
    files[VALUES_DIR / VALUES_NAME] = json_bytes(values_provenance)
    return files


def json_bytes(data: object) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the tables (see above)")
    action.add_argument("--check", action="store_true", help="compare with the files on disk")
    parser.add_argument("--jobs", type=counted(1), default=2)
    args = parser.parse_args(argv)
    with ProcessPoolExecutor(args.jobs) as pool:
        solutions = list(pool.map(solve_rule_set, [False, True]))
    for s in solutions:
        print(
            f"{layout.TABLE_NAMES[s.diagonal]}: P(win) = {max(s.start_values):.10f} "
            f"(start columns {', '.join(f'{v:.6f}' for v in s.start_values)}); best free "
            f"setup {s.best_setup_value:.6f}; {s.sweeps} sweeps, {s.seconds:.0f} s"
        )
    files = outputs(solutions)
    if args.write:
        VALUES_DIR.mkdir(parents=True, exist_ok=True)
        for path, data in files.items():
            path.write_bytes(data)
            print(f"wrote {path.relative_to(ROOT)} ({len(data)} bytes)")
    if args.check:
        stale = [p for p, data in files.items() if not p.exists() or p.read_bytes() != data]
        for path in stale:
            print(f"differs: {path.relative_to(ROOT)}")
        if stale:
            return 1
        print("all files are as generated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
