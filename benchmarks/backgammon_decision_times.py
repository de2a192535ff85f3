"""Where the Backgammon bot's slowest decisions spend the time past their budget.

Run by hand (never in tests; needs the test extra, ``gnubg-nn``):

    .venv/bin/python benchmarks/backgammon_decision_times.py [--games 200] [--seed 1]
        [--jobs 2] [--seconds 0.0833] [--collector paused|on] [--slowest 8]

Why: the bot's search keeps to its budget by reading the clock, yet a 2000-game match
against GNU Backgammon's 0-ply (``bots.py --yardstick gnubg``) reported single decisions
8 ms and more past it. This script plays the same match (cubeless money games, the bot
with a budget of this process's CPU time) and, for every decision past the budget,
tells what happened inside it:

* the garbage collections (Python's ``gc.callbacks``), with their generation and
  length: a full collection walks every object of the process;
* the gaps between the clock readings of the bot's own meter (the budget's clock is
  this script's, which notes each reading): the last step of the search, begun
  before the deadline, is the gap that ends past it;
* page faults and system time (``resource.getrusage``).

``--collector paused`` (the default) lets the bot decide as the appliance's bot worker
and ``bots.py`` do, with the collector paused (``controller.collector``); ``on`` leaves
it running, to see what the pause keeps out. To measure the compiled rules, run this
file from a tree whose ``rules/`` was compiled with mypyc (it puts its tree first on
``sys.path``).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import itertools
import random
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import add_match_options, counted
from bots import GnubgBot, build_label, dice_seed, game_chunks, strong_backgammon_bot

import rules
from controller.collector import collector_paused
from rules.budget import Budget
from rules.core import Move, State
from rules.playout import play_game


@dataclass
class Slow:
    """One decision past the budget, and what happened inside it."""

    took_ms: float
    plays: int
    collections: list[tuple[int, float]]
    """(generation, ms) of each collection inside the decision."""
    gaps_ms: list[float]
    """The longest gaps between the meter's clock readings, longest last."""
    last_gap_ms: float
    """The gap that ended the search: from its last reading but one to its last."""
    faults: int
    system_ms: float


@dataclass
class Part:
    """One process's decisions."""

    times_ms: list[float] = field(default_factory=list)
    slow: list[Slow] = field(default_factory=list)
    full_collections_ms: list[float] = field(default_factory=list)


class Watched:
    """The strong bot, its clock readings and the collections during each decision."""

    name = "strong"

    def __init__(
        self, seconds: float, paused: bool, lookahead: bool | None = None, fast: bool | None = None
    ) -> None:
        self.readings: list[float] = []
        self.collections: list[tuple[float, float, int]] = []
        self.paused = paused
        self.seconds = seconds
        self.bot = strong_backgammon_bot(
            Budget(seconds=seconds, clock=self.clock),
            None,
            lookahead,
            None,
            {"fast": fast, "full": fast},
        )
        self.part = Part()
        self._began = 0.0
        gc.callbacks.append(self.noted)

    def clock(self) -> float:
        now = time.process_time()
        self.readings.append(now)
        return now

    def noted(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.process_time()
            return
        took = time.process_time() - self._began
        self.collections.append((self._began, took, info["generation"]))
        if info["generation"] == 2:
            self.part.full_collections_ms.append(took * 1000)

    def choose(self, state: State, rng: random.Random) -> Move:
        options = len(state.legal_moves())
        if options == 1:
            return self.bot.choose(state, rng)
        self.readings.clear()
        self.collections.clear()
        pause = collector_paused() if self.paused else contextlib.nullcontext()
        with pause:
            before = resource.getrusage(resource.RUSAGE_SELF)
            began = time.process_time()
            move = self.bot.choose(state, rng)
            took = time.process_time() - began
            after = resource.getrusage(resource.RUSAGE_SELF)
        self.part.times_ms.append(took * 1000)
        if took > self.seconds:
            gaps = [(b - a) * 1000 for a, b in itertools.pairwise(self.readings)]
            self.part.slow.append(
                Slow(
                    took_ms=took * 1000,
                    plays=options,
                    collections=[
                        (generation, length * 1000)
                        for start, length, generation in self.collections
                        if began <= start <= began + took
                    ],
                    gaps_ms=sorted(gaps)[-3:],
                    last_gap_ms=gaps[-1] if gaps else 0.0,
                    faults=(after.ru_minflt - before.ru_minflt)
                    + (after.ru_majflt - before.ru_majflt),
                    system_ms=(after.ru_stime - before.ru_stime) * 1000,
                )
            )
        return move


def play(
    seed: int,
    lo: int,
    hi: int,
    seconds: float,
    paused: bool,
    lookahead: bool | None = None,
    fast: bool | None = None,
) -> Part:
    """Games ``lo``..``hi`` - 1, the bot white in even games and black in odd ones."""
    game = rules.get_game("backgammon", "single")
    watched = Watched(seconds, paused, lookahead, fast)
    yardstick = GnubgBot()
    for i in range(lo, hi):
        seats = (
            {"white": watched, "black": yardstick}
            if i % 2 == 0
            else {"white": yardstick, "black": watched}
        )
        play_game(game.new_state(), seats, random.Random(dice_seed(seed, i, False)))  # type: ignore[arg-type]
    return watched.part


CHOICES: dict[str, bool | None] = {"on": True, "off": False, "auto": None}


def fast_state() -> str:
    """Which fast path the bot would take: the C kernel, numpy, or none."""
    from rules.backgammon import native
    from rules.backgammon.evaluation import batch_evaluator

    found = batch_evaluator()
    if found is None:
        return "neither the C kernel nor numpy"
    return "the C kernel" if isinstance(found, native.KernelEvaluator) else "numpy"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_match_options(parser)
    parser.add_argument("--collector", choices=("paused", "on"), default="paused")
    parser.add_argument(
        "--slowest", type=counted(0), default=8, help="how many decisions past the budget to show"
    )
    parser.add_argument(
        "--lookahead",
        choices=CHOICES,
        default="auto",
        help="the one-roll lookahead (auto: where it fits, the compiled rules)",
    )
    parser.add_argument(
        "--fast",
        choices=CHOICES,
        default="auto",
        help="the fast path (the C kernel, else numpy), and with it the full one-roll search "
        "(auto: the fast path where it is there, and the bot's default lookahead)",
    )
    args = parser.parse_args(argv)
    paused = args.collector == "paused"
    lookahead, fast = CHOICES[args.lookahead], CHOICES[args.fast]
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(play, args.seed, lo, hi, args.seconds, paused, lookahead, fast)
            for lo, hi in game_chunks(args.games, args.jobs)
        ]
        parts = [f.result() for f in futures]
    times = [t for p in parts for t in p.times_ms]
    slow = sorted((s for p in parts for s in p.slow), key=lambda s: -s.took_ms)
    full = [t for p in parts for t in p.full_collections_ms]
    budget_ms = args.seconds * 1000
    print(
        f"{args.games} cubeless money games (seed {args.seed}) against GNU Backgammon's "
        f"0-ply, {build_label()}, lookahead {args.lookahead}, fast path {args.fast} "
        f"({fast_state()}), {args.seconds:g} s CPU budget, collector "
        f"{args.collector} "
        f"while the bot decides: {len(times)} decisions, median "
        f"{statistics.median(times) if times else 0.0:.1f} ms, max {max(times, default=0.0):.1f} ms"
    )
    print(
        f"past the budget: {len(slow)}, of them more than 2 ms past: "
        f"{sum(1 for s in slow if s.took_ms > budget_ms + 2)}, with a full collection "
        f"inside: {sum(1 for s in slow if any(g == 2 for g, _ in s.collections))}"
    )
    if full:
        print(
            f"full collections: {len(full)}, {min(full):.1f}-{max(full):.1f} ms "
            f"(median {statistics.median(full):.1f})"
        )
    for s in slow[: args.slowest]:
        inside = ", ".join(f"gen {g} {ms:.1f} ms" for g, ms in s.collections if ms >= 0.5)
        print(
            f"  {s.took_ms:.1f} ms, {s.plays} plays: last step {s.last_gap_ms:.1f} ms, longest "
            f"steps {', '.join(f'{g:.1f}' for g in s.gaps_ms)} ms; collections "
            f"{inside or 'none over 0.5 ms'}; {s.faults} page faults, "
            f"{s.system_ms:.1f} ms system"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
