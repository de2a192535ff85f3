"""Backgammon: the fast path (the C kernel or numpy) against the pure one, decision by
decision.

Run by hand (needs the C kernel, ``SPIELTISCH_COMPILE=kernel``, or numpy, the ``fast`` or
``test`` extra); tests/test_backgammon_fast_path.py and tests/test_backgammon_kernel.py run
the same comparison on fewer games:

    .venv/bin/python benchmarks/backgammon_fast_path.py [--games 100] [--seed 1] \
        [--lookahead] [--backend auto|kernel|numpy]

Why: both are optional, and the bot must play the same moves with them as without.
``--backend`` picks one (auto: the kernel where it is built, else numpy). Seeded
cubeless games are played by the pure bot (node budget, no clock);
at every checker decision with more than one play the fast bot decides too, with the
same search (``full=False``: the full one-roll search is the fast path's own, the pure
path has none to compare with). Compared:

* the move each path chooses;
* the equity of every play of the roll, as the ranking scores it, pure against fast;
* with ``--lookahead``, both bots' one-roll lookahead (five candidates, pubeval's best
  ten replies per roll), and the lookahead value of the pure bot's move by each path.

Every decision where the moves differ is printed, with both plays' pure equities: they
may differ only where two plays are within rounding of each other.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

import rules
from rules.backgammon import native
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.engine import BackgammonState, Play
from rules.backgammon.evaluation import BatchEvaluator
from rules.backgammon.net import shipped, shipped_race
from rules.budget import Budget
from rules.core import Move, State
from rules.playout import play_game

UNLIMITED = Budget(nodes=10**12)
"""No clock and a node count that is never reached: both paths search to the end."""


@dataclass
class Difference:
    """A decision where the two paths chose different plays."""

    position: str
    pure: str
    fast: str
    pure_values: tuple[float, float]
    """The pure ranking's equity of the pure and of the fast play."""


@dataclass
class Comparison:
    decisions: int = 0
    same: int = 0
    max_equity_difference: float = 0.0
    """The largest difference between the paths' equities of one play."""
    differences: list[Difference] = field(default_factory=list)

    def summary(self) -> str:
        share = 100 * self.same / self.decisions if self.decisions else 100.0
        return (
            f"{self.decisions} decisions, the same move in {self.same} ({share:.2f} %), "
            f"largest equity difference {self.max_equity_difference:.1e}"
        )


class Comparing:
    """A seat that plays the pure bot's move and compares the fast bot's on the way."""

    name = "strong"

    def __init__(
        self, lookahead: bool, comparison: Comparison, evaluator: BatchEvaluator | None = None
    ) -> None:
        self.pure = BackgammonBot(UNLIMITED, lookahead=lookahead, fast=False)
        self.fast = BackgammonBot(UNLIMITED, lookahead=lookahead, fast=True, full=False)
        if evaluator is not None:
            self.fast.batch = evaluator
        if self.fast.batch is None:
            raise SystemExit("neither the C kernel nor numpy is installed: no fast path")
        self.lookahead = lookahead
        self.comparison = comparison

    def choose(self, state: State, rng: random.Random) -> Move:
        move = self.pure.choose(state, rng)
        plays = [m for m in state.legal_moves() if isinstance(m, Play)]
        if len(plays) < 2 or not isinstance(state, BackgammonState):
            return move
        fast_move = self.fast.choose(state, rng)
        c = self.comparison
        c.decisions += 1
        pairs = [(p.mover, p.other) for p in plays]
        pure_values = [self.pure.value(*pair) for pair in pairs]
        fast_values = self.fast._values(pairs)
        gaps = [abs(a - b) for a, b in zip(pure_values, fast_values, strict=True)]
        if self.lookahead and isinstance(move, Play):
            pure_deep = self.pure.lookahead_value(move)
            fast_deep = self.fast.lookahead_value(move)
            gaps.append(abs(pure_deep - fast_deep))
        c.max_equity_difference = max(c.max_equity_difference, *gaps)
        if fast_move == move:
            c.same += 1
        else:
            value = dict(zip(plays, pure_values, strict=True))
            c.differences.append(
                Difference(
                    state.position_id(),
                    move.notation,
                    fast_move.notation,
                    (value.get(move, float("nan")), value.get(fast_move, float("nan"))),  # type: ignore[call-overload]
                )
            )
        return move


def compare(
    games: int, seed: int, lookahead: bool, evaluator: BatchEvaluator | None = None
) -> Comparison:
    """Play ``games`` seeded cubeless games (the pure bot on both sides) and compare;
    ``evaluator`` is the fast path's (default: the bot's own choice)."""
    comparison = Comparison()
    seat = Comparing(lookahead, comparison, evaluator)
    game = rules.get_game("backgammon", "single")
    seats = {"white": seat, "black": seat}
    for i in range(games):
        play_game(game.new_state(), seats, random.Random(seed * 7919 + i))
    return comparison


def backend(name: str) -> BatchEvaluator | None:
    """The fast path's evaluator by name (None: the bot's own choice)."""
    if name == "kernel":
        found = native.evaluator(shipped(), shipped_race())
        if found is None:
            raise SystemExit(
                "the C kernel is not built: SPIELTISCH_COMPILE=kernel pip install -e ."
            )
        return found
    if name == "numpy":
        from rules.backgammon.batch import NumpyEvaluator as Evaluator

        made: BatchEvaluator = Evaluator.of(shipped(), shipped_race())
        return made
    return None


def differences(comparison: Comparison) -> Iterator[str]:
    for d in comparison.differences:
        yield (
            f"  {d.position}: pure {d.pure} ({d.pure_values[0]:+.9f}), "
            f"fast {d.fast} ({d.pure_values[1]:+.9f})"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=counted(1), default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lookahead", action="store_true", help="compare the lookahead too")
    parser.add_argument("--backend", choices=("auto", "kernel", "numpy"), default="auto")
    args = parser.parse_args(argv)
    comparison = compare(args.games, args.seed, args.lookahead, backend(args.backend))
    search = "one-roll lookahead" if args.lookahead else "ranking"
    print(
        f"{args.games} games (seed {args.seed}), {search}, fast path {args.backend}: "
        f"{comparison.summary()}"
    )
    for line in differences(comparison):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
