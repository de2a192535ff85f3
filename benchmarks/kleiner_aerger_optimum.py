"""Kleiner Ärger, first player against the random bot: the exact optimum and its policy.

The strong bot's target is to win 58 % as first player, against an estimated optimum of
about 61 %; this script computes the optimum exactly and writes the optimal policy that
the strong bot plays (``rules/track/kleiner_aerger_policy.bin``).

Against a fixed random opponent the 2-player game is a finite Markov decision process.
The script enumerates every reachable state by breadth-first search over the rules
engine's public API (chance nodes roll each face, decision nodes apply each legal move)
and runs value iteration (numpy, Jacobi sweeps): red's decisions take the best child,
green's average over the random bot's choices (uniform over the distinct non-pass
moves, as :class:`rules.bots.RandomBot`), chance nodes weigh the faces. Captures make
the graph cyclic, hence iteration to a tolerance rather than one backward pass.

The policy: for every red decision with two moves, which one is best, keyed as
:mod:`rules.track.kleiner_aerger_bot` reads it (own pieces, opponent's pieces, die, tries). The
two seats sit opposite on a symmetric ring, so the same table serves green.

Run by hand (about 1.3 GB of RAM and a few minutes; never in tests):

    .venv/bin/python benchmarks/kleiner_aerger_optimum.py [--tolerance 1e-10] [--write]
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from arguments import positive_type

import rules
from rules.core import Pass, State
from rules.data import provenance_name, provenance_record
from rules.track.engine import MaednState, TrackMove
from rules.track.kleiner_aerger_bot import UNKNOWN, bit_position, decision_slot, table_bytes

TERMINAL, CHANCE, RED, GREEN = range(4)
POLICY_FILE = Path(__file__).resolve().parents[1] / "rules" / "track" / "kleiner_aerger_policy.bin"


def build() -> tuple[list[MaednState], np.ndarray, list[list[int]], list[list[float]], np.ndarray]:
    """States, kinds, children, child weights and terminal values; index 0 is the
    start with red to roll first."""
    start = rules.get_game("kleiner_aerger").new_state(2, first="red")
    assert isinstance(start, MaednState)
    index: dict[State, int] = {start: 0}
    states: list[MaednState] = [start]
    kinds: list[int] = []
    children: list[list[int]] = []
    weights: list[list[float]] = []
    values: list[float] = []
    queue = deque([0])
    while queue:
        state = states[queue.popleft()]
        if state.is_terminal():
            kinds.append(TERMINAL)
            children.append([])
            weights.append([])
            values.append(1.0 if state.to_json()["winner"] == "red" else 0.0)
            continue
        if state.is_chance():
            kind = CHANCE
            pairs = [(state.roll(dice), p) for dice, p in state.chance_outcomes()]
        else:
            moves = list(state.legal_moves())
            kind = RED if state.turn == 0 else GREEN
            if kind == GREEN and len(moves) > 1:
                moves = [m for m in moves if not isinstance(m, Pass)] or moves
            pairs = [(state.apply(m), 1 / len(moves)) for m in moves]
        ids = []
        for child, _ in pairs:
            j = index.get(child)
            if j is None:
                j = index[child] = len(states)
                assert isinstance(child, MaednState)
                states.append(child)
                queue.append(j)
            ids.append(j)
        kinds.append(kind)
        children.append(ids)
        weights.append([p for _, p in pairs])
        values.append(0.5)
    return states, np.array(kinds), children, weights, np.array(values)


def solve(
    kinds: np.ndarray,
    children: list[list[int]],
    weights: list[list[float]],
    values: np.ndarray,
    tol: float,
) -> tuple[np.ndarray, int]:
    """Jacobi value iteration; returns the values and the number of sweeps."""
    live = np.flatnonzero(kinds != TERMINAL)
    red = kinds[live] == RED
    counts = np.array([len(children[i]) for i in live])
    offsets = np.concatenate(([0], np.cumsum(counts)[:-1]))
    flat = np.array([j for i in live for j in children[i]])
    w = np.array([p for i in live for p in weights[i]])
    sweep = 0
    while True:
        sweep += 1
        child_values = values[flat]
        mean = np.add.reduceat(child_values * w, offsets)
        best = np.maximum.reduceat(child_values, offsets)
        new = np.where(red, best, mean)
        delta = float(np.abs(new - values[live]).max())
        values[live] = new
        if sweep % 100 == 0:
            print(f"sweep {sweep}: change {delta:.2e}, P(red) {values[0]:.6f}", flush=True)
        if delta < tol:
            return values, sweep


def policy(states: list[MaednState], children: list[list[int]], values: np.ndarray) -> bytes:
    """Two bits per slot: 0 unknown, 1 + which of the two legal moves is best, counted
    in the order of the pieces' progress (the moves' own order differs by colour)."""
    table = bytearray(table_bytes())
    conflicts = 0
    for i, state in enumerate(states):
        if state.is_terminal() or state.is_chance() or state.turn != 0:
            continue
        if len(children[i]) != 2:
            continue
        a, b = (values[j] for j in children[i])
        first, second = (m.from_progress for m in state.legal_moves() if isinstance(m, TrackMove))
        best_from = first if a >= b else second
        choice = 0 if best_from == min(first, second) else 1
        slot = decision_slot(state)
        assert slot is not None, state
        byte, shift = bit_position(slot)
        old = (table[byte] >> shift) & 3
        if old != UNKNOWN and old != choice + 1 and abs(a - b) > 1e-9:
            conflicts += 1
        table[byte] |= (choice + 1) << shift
    if conflicts:
        raise SystemExit(f"{conflicts} slots hold different best moves: the key is too small")
    return bytes(table)


def write_policy(table: bytes, p_win: float, states: int, sweeps: int, tolerance: float) -> None:
    """The table, zlib-compressed, as a binary package file with its provenance."""
    packed = zlib.compress(table, 9)
    POLICY_FILE.write_bytes(packed)
    POLICY_FILE.with_name(provenance_name(POLICY_FILE.name)).write_text(
        provenance_record(
            packed,
            "python benchmarks/kleiner_aerger_optimum.py --write",
            what="the optimal Kleiner Ärger policy against the random bot for two players, "
            "zlib-compressed, two bits per decision slot (rules/track/kleiner_aerger_bot.py)",
            inputs={
                "game": "kleiner_aerger",
                "preset": "standard",
                "players": 2,
                "opponent": "random bot",
                "tolerance": tolerance,
            },
            figures={
                "states": states,
                "sweeps": sweeps,
                "p_win_first_vs_random": round(p_win, 5),
            },
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tolerance", type=positive_type, default=1e-10)
    parser.add_argument("--write", action="store_true", help="write the policy file")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    states, kinds, children, weights, values = build()
    print(f"{len(states)} states in {time.perf_counter() - began:.0f} s", flush=True)
    values, sweeps = solve(kinds, children, weights, values, args.tolerance)
    summary = (
        f"Kleiner Ärger, red first vs the random bot: optimum P(win) = {values[0]:.5f}\n"
        f"({len(states)} states, {sweeps} sweeps to {args.tolerance:g})"
    )
    print(f"{summary}; {time.perf_counter() - began:.0f} s".replace("\n", " "), flush=True)
    if args.write:
        table = policy(states, children, values)
        decided = sum(bin(b).count("1") for b in table)  # a rough count of set slots
        write_policy(table, values[0], len(states), sweeps, args.tolerance)
        print(f"wrote {POLICY_FILE} ({len(table)} bytes raw, ~{decided} bits set)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
