"""Each Backgammon level's error rate (PR) by the project's own analysis, cross-checked
with GNU Backgammon's ``analyse match`` on the same games.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/level_pr.py --games 30 --seed 51 [--plies 0] [--jobs 2]

For every level (and ``strong`` as the yardstick) ``--games`` seeded cubeless games
(the ``single`` preset) against ``strong`` without a clock, colours alternating, as
``benchmarks/bot_levels.py`` plays them. Each game is analysed by
:mod:`rules.backgammon.analysis` (the level's side: PR, 500 × equity lost per
unforced decision) and exported as a ``.mat`` file that the real GNU Backgammon
(``gnubg -t``) imports and analyses at ``--plies``; its chequer-play error rate of the
level's side (mEMG) is halved to the PR scale, as ``benchmarks/backgammon_analysis.py``
does. Both figures: the mean over games with a 95 % interval (± 1.96 standard errors),
and Spearman's rank correlation of the two PRs over all games.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted
from backgammon_analysis import gnubg_rates, spearman

import rules
from rules.backgammon.analysis import analyse
from rules.backgammon.mat import match_file
from rules.bots import make_bot
from rules.levels import LEVELS
from rules.playout import steps

KINDS = [*(level.kind for level in LEVELS), "strong"]


def play_one(kind: str, seed: int, number: int, folder: str) -> tuple[float, int, str]:
    """One game of ``kind`` against ``strong``: the level side's PR, its seat (0 white,
    1 black) and the path of the exported match file."""
    rng = random.Random(seed * 1_000_003 + number)
    game = rules.get_game("backgammon", "single")
    me = number % 2
    colours = ("white", "black")
    bots = {c: make_bot(kind if i == me else "strong") for i, c in enumerate(colours)}
    played = list(steps(game.new_state(), bots, rng))
    analysis = analyse(played)
    path = Path(folder) / f"{kind}-{number}.mat"
    path.write_text(match_file(played))
    return analysis.sides[me].pr, me, str(path)


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=counted(2), default=30)
    parser.add_argument("--seed", type=int, default=51)
    parser.add_argument("--plies", type=int, choices=range(5), default=0)
    parser.add_argument("--jobs", type=counted(1), default=1)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--json", action="store_true", help="one JSON line per kind")
    args = parser.parse_args(argv)
    all_ours: list[float] = []
    all_theirs: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for kind in args.kinds.split(","):
            with ProcessPoolExecutor(args.jobs) as pool:
                games = list(
                    pool.map(
                        play_one,
                        [kind] * args.games,
                        [args.seed] * args.games,
                        range(args.games),
                        [folder] * args.games,
                    )
                )
            ours = [pr for pr, _, _ in games]
            rates = gnubg_rates([Path(path) for _, _, path in games], args.plies)
            theirs = [pair[me] / 2 for (_, me, _), pair in zip(games, rates, strict=True)]
            all_ours += ours
            all_theirs += theirs
            mine, low, high = interval(ours)
            gnu, gnu_low, gnu_high = interval(theirs)
            if args.json:
                row = {
                    "kind": kind,
                    "games": args.games,
                    "seed": args.seed,
                    "pr": mine,
                    "pr_low": low,
                    "pr_high": high,
                    "gnubg_pr": gnu,
                    "gnubg_low": gnu_low,
                    "gnubg_high": gnu_high,
                    "plies": args.plies,
                }
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"{kind:8} PR {mine:5.1f} [{low:.1f}–{high:.1f}]  GNU Backgammon "
                    f"{args.plies}-ply {gnu:5.1f} [{gnu_low:.1f}–{gnu_high:.1f}]  "
                    f"({args.games} games vs strong, seed {args.seed})",
                    flush=True,
                )
    if len(all_ours) > 2:
        rho = spearman(all_ours, all_theirs)
        print(f"Spearman {rho:.3f} between the two PRs over {len(all_ours)} games", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
