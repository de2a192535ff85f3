"""How much each of GNU Backgammon's shallow depths loses per checker decision, judged
by its 2-ply: which evaluation a network should learn, and how a lookahead should end.

    .venv/bin/python benchmarks/backgammon_teacher_depth.py [--decisions 1500] [--seed 2]

Why: the Backgammon network learns GNU Backgammon's 0-ply evaluation, and the bot's
lookahead is a one-roll (1-ply) search on top of it. A one-ply search ends on positions
where the side that searches is on roll, 0-ply on positions where the other side is,
and the two err in opposite directions (the odd-even effect). GNU Backgammon's "0+1"
depth averages its 0-ply and 1-ply evaluations. This script plays seeded games of
GNU Backgammon's 0-ply play (10 % random plays, for variety), and at each checker
decision with more than one play lets each depth pick its play; where the picks
differ, each is judged by the 2-ply evaluation against the best of them and of the
0-ply's five best plays. Needs the test extra (``gnubg-nn``).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gnubg_nn
from arguments import counted
from train_backgammon_net import Board, teacher_decisions

from rules.backgammon.net import equity

DEPTHS = {"0-ply": 0, "1-ply": 1, "0+1-ply": gnubg_nn.p_0plus1}


def value(after: Board, ply: int) -> float:
    """The mover's cubeless equity after a play (the other side now on roll)."""
    on_roll, other = after
    return -equity(tuple(gnubg_nn.probabilities([list(other), list(on_roll)], ply)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=counted(1), default=1500)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args(argv)
    lost = dict.fromkeys(DEPTHS, 0.0)
    count = 0
    # the teacher's games (10 % random plays), as many as the decisions need
    for options, _, _ in teacher_decisions(10**9, random.Random(args.seed), explore=0.1):
        if count == args.decisions:
            break
        if len(options) < 2:
            continue
        picks = {name: max(options, key=lambda o: value(o, ply)) for name, ply in DEPTHS.items()}
        if len(set(picks.values())) > 1:
            top = sorted(options, key=lambda o: -value(o, 0))[:5]
            judged = {o: value(o, 2) for o in {*top, *picks.values()}}
            best = max(judged.values())
            for name, pick in picks.items():
                lost[name] += best - judged[pick]
        count += 1
    print(f"{count} checker decisions (seed {args.seed}), judged by GNU Backgammon's 2-ply:")
    for name, total in lost.items():
        print(f"  {name}: {total / count * 1000:.2f} milli-equity lost per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
