"""Every computer-player target of issue 9 with its measured value, in one run.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/bots.py [--games 2000] [--seed 1] [--jobs 2]

Each game ``i`` is played with ``random.Random(seed * 1_000_003 + i)``, so the result
does not depend on ``--jobs``, and other seeds re-measure the same targets. The strong
bot thinks within its default budget plus a real clock (0.5 s per move), exactly as the
appliance runs it; per-move times are measured here, outside the rules.

Targets (issue 9):

* MÄDN classic, 4 players, strong vs 3 random: >= 48 % wins (baseline 25 %);
* Kleiner Ärger, 2 players, strong as first player vs random: >= 58 % (optimum ~61 %);
* median time per strong move <= 0.5 s.

Mini-Maki (exact policy) and Backgammon (vs pubeval) have no dedicated player yet; the
script says so instead of printing a number.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from rules.bot_budget import Budget
from rules.bots import STRONG_PLAYERS, Bot, RandomBot, make_bot
from rules.core import Move, State
from rules.playout import play_game


class TimedBot:
    """Wraps a bot and records the wall time of every choice with several options."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []

    def choose(self, state: State, rng: random.Random) -> Move:
        if len(state.legal_moves()) == 1:
            return self.inner.choose(state, rng)
        start = time.perf_counter()
        move = self.inner.choose(state, rng)
        self.times.append(time.perf_counter() - start)
        return move


@dataclass(frozen=True)
class Case:
    label: str
    game: str
    players: int
    first: str | None
    target: float
    baseline: str


CASES = [
    Case("MÄDN classic, 4 players, strong vs 3 random", "maedn", 4, None, 0.48, "25 %"),
    Case(
        "Kleiner Ärger, 2 players, strong first vs random",
        "kleiner_aerger",
        2,
        "red",
        0.58,
        "51.5 % (random vs random, measured)",
    ),
]


def play_range(case: Case, seed: int, lo: int, hi: int) -> tuple[int, list[float]]:
    """Games ``lo``..``hi - 1`` of a case: wins of the strong seat and its move times."""
    game = rules.get_game(case.game)
    kwargs = {"first": case.first} if case.first else {}
    start = game.new_state(case.players, **kwargs)
    players = list(start.to_json()["players"])
    strong = TimedBot(make_bot("strong", Budget(clock=time.perf_counter)))
    bots: dict[str, Bot] = {p: RandomBot() for p in players}
    bots[players[0]] = strong
    wins = 0
    for i in range(lo, hi):
        record = play_game(start, bots, random.Random(seed * 1_000_003 + i))
        wins += record.winners[0] == players[0]
    return wins, strong.times


def measure(case: Case, games: int, seed: int, jobs: int) -> tuple[float, list[float]]:
    chunks = [(games * k // jobs, games * (k + 1) // jobs) for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(play_range, case, seed, lo, hi) for lo, hi in chunks]
        parts = [f.result() for f in futures]
    wins = sum(w for w, _ in parts)
    times = [t for _, ts in parts for t in ts]
    return wins / games, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    report: Callable[[str], None] = print
    all_met = True
    for case in CASES:
        began = time.perf_counter()
        rate, times = measure(case, args.games, args.seed, args.jobs)
        took = time.perf_counter() - began
        se = (rate * (1 - rate) / args.games) ** 0.5
        met = rate >= case.target
        all_met &= met
        median = statistics.median(times) if times else 0.0
        worst = max(times) if times else 0.0
        report(
            f"{case.label}: {rate:.1%} ± {se:.1%} of {args.games} games "
            f"(target >= {case.target:.0%}, baseline {case.baseline}) "
            f"{'MET' if met else 'MISSED'}; strong move median {median * 1000:.1f} ms, "
            f"max {worst * 1000:.0f} ms over {len(times)} choices; {took:.0f} s"
        )
        all_met &= median <= 0.5
    for name in ("minimaki", "backgammon"):
        known = name in rules.game_names()
        status = "dedicated player" if name in STRONG_PLAYERS else "no dedicated player yet"
        report(
            f"{name}: {'engine registered' if known else 'engine not registered'}, {status}"
            + (
                ""
                if name in STRONG_PLAYERS
                else " (strong = generic Monte Carlo; target not measured)"
            )
        )
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
