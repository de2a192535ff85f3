"""Where the Backgammon network's 0-ply play loses equity against its teacher, by phase.

Run by hand (about 30 s for 200 games; it needs the test extra, ``gnubg-nn``):

    .venv/bin/python benchmarks/backgammon_phases.py [--games 200] [--seed 7] [--weights FILE]

Why: before spending effort on strength (a bear-off database, a race evaluation, a
larger network, a deeper search) it pays to know which phase the lost equity comes
from. Seeded games in which GNU Backgammon's 0-ply choice is played (as in
``benchmarks/train_backgammon_net.py``); at each decision the shipped network picks its
own play, and the teacher's equity of that play is compared with the teacher's best.
Each decision is put in a phase by the position after the teacher's play: *contact*,
*race* (no contact, checkers outside the home board) or *bearoff* (all at home).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arguments import counted
from bots import load_network
from train_backgammon_net import Board, teacher_decisions

from rules.backgammon.net import equity


def rearmost(side: tuple[int, ...]) -> int:
    """The point of a side's rearmost checker in its own view (25 is the bar)."""
    return max((i + 1 for i, c in enumerate(side) if c), default=0)


def phase(position: Board) -> str:
    """The phase of a position after a play, seen by the side now on roll."""
    theirs, mine = position
    if rearmost(mine) + rearmost(theirs) > 25:
        return "contact"
    return "bearoff" if rearmost(mine) <= 6 else "race"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=counted(1), default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--weights",
        type=Path,
        help="judge the network in this file (train_backgammon_net.py --out)",
    )
    args = parser.parse_args(argv)
    net = load_network(args.weights)
    stats: dict[str, list[float]] = {}
    for options, labels, best in teacher_decisions(args.games, random.Random(args.seed), 0.0):
        if len(options) < 2:
            continue
        values = [equity(net.probabilities(*o)) for o in options]
        pick = min(range(len(options)), key=values.__getitem__)
        row = stats.setdefault(phase(options[best]), [0, 0, 0.0])
        row[0] += 1
        row[1] += pick == best
        row[2] += equity(labels[pick]) - equity(labels[best])
    lost = sum(row[2] for row in stats.values())
    for name, (total, same, loss) in sorted(stats.items()):
        print(
            f"{name:8} {int(total):5} decisions  same play {same / total:6.1%}  "
            f"mean loss {loss / total:.4f}  share of all loss {loss / lost:6.1%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
