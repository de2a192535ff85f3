"""Calibrate the computer players' levels: every level's figures with a 95 % interval.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/bot_levels.py --only maedn --games 2000 --seed 1
    .venv/bin/python benchmarks/bot_levels.py --only maedn --against strong --games 300
    .venv/bin/python benchmarks/bot_levels.py --only backgammon --games 300 --seed 1

For each kind (``random``, the four levels weakest first, ``strong``) one seat is played
by that kind and every other seat by the opponent (``--against``):

* the track games (MÄDN classic, Kleiner Ärger): win share of the measured seat, four
  players (``--players``), the measured seat moving first in even games and last in
  odd ones; baseline 25 %;
* Backgammon (``single`` preset: no cube, gammons and backgammons count): win share and
  points per game against ``strong`` (``--against random``: against the random player,
  to check that the weakest level loses to it no more than the dice allow), colours
  alternating.

The opponent ``strong`` has no clock here: the track bots then search their usual depth
(MÄDN over its own re-rolls, Kleiner Ärger four decisions deep) and Backgammon's plays by
its network's ranking without the one-roll lookahead (the lookahead needs a clock and
the compiled rules), so every game is reproducible from its seed and the runs fit a
loaded machine. Game ``i`` uses ``random.Random(seed * 1_000_003 + i)``, the same for
every kind: the kinds meet the same dice streams.

``--noise a,b,c,d`` replaces the game's level noise (weakest first) for a sweep, so a
new spacing can be measured before it is written into the rules.

Intervals: Wilson's for win shares, mean ± 1.96 standard errors for points per game.
``--check`` exits non-zero unless the kinds are strictly ordered at every figure with
non-overlapping intervals between neighbouring levels.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from rules.bots import BOT_KINDS, make_bot
from rules.core import Bot
from rules.levels import LEVEL_KINDS, LEVELS, Level, LevelBot
from rules.playout import play_game

KINDS = ["random", *(level.kind for level in LEVELS), "strong"]
GAMES = {
    "maedn": ("maedn", "classic"),
    "kleiner_aerger": ("kleiner_aerger", "standard"),
    "backgammon": ("backgammon", "single"),
}


class SweepBot(LevelBot):
    """A level with a noise given on the command line instead of the game's."""

    def __init__(self, level: Level, noise: float) -> None:
        super().__init__(level)
        self.noise = noise

    def sigma(self, game_name: str) -> float | None:
        return self.noise


def bot(kind: str, noise: tuple[float, ...]) -> Bot:
    level = LEVEL_KINDS.get(kind)
    if level is None or not noise:
        return make_bot(kind)
    return SweepBot(level, noise[level.rank])


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    points: list[float] = field(default_factory=list)


def play_chunk(
    game: str,
    kind: str,
    against: str,
    players: int,
    seed: int,
    lo: int,
    hi: int,
    noise: tuple[float, ...] = (),
) -> Tally:
    name, preset = GAMES[game]
    engine = rules.get_game(name, preset)
    tally = Tally()
    for i in range(lo, hi):
        rng = random.Random(seed * 1_000_003 + i)
        state = engine.new_state(players)
        seats = list(state.to_json().get("players", []))
        me = seats[0] if i % 2 == 0 else seats[-1]
        bots: dict[str, Bot] = {
            p: bot(kind, noise) if p == me else make_bot(against) for p in seats
        }
        final = play_game(state, bots, rng).final
        tally.games += 1
        # winners() ranks the players (Backgammon names both): the first one won
        won = final.winners()[:1] == (me,)
        tally.wins += won
        if name == "backgammon":
            winner, points, _ = final.results[-1]  # type: ignore[attr-defined]
            tally.points.append(points if seats[winner] == me else -points)
    return tally


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return centre - half, centre + half


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--only", choices=sorted(GAMES), required=True)
    ap.add_argument(
        "--against",
        choices=["random", "strong"],
        default=None,
        help="every other seat's kind (default: random in the track games, strong in Backgammon)",
    )
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated bot kinds")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4, help="track games (Backgammon: 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON line per kind")
    ap.add_argument("--noise", default="", help="the four levels' noise, weakest first")
    ap.add_argument("--check", action="store_true", help="fail unless strictly ordered")
    args = ap.parse_args()
    kinds = args.kinds.split(",")
    for kind in kinds:
        if kind not in BOT_KINDS:
            ap.error(f"unknown kind {kind}")
    noise = tuple(float(x) for x in args.noise.split(",")) if args.noise else ()
    if noise and len(noise) != len(LEVELS):
        ap.error(f"--noise needs {len(LEVELS)} values")
    players = 2 if args.only == "backgammon" else args.players
    against = args.against or ("strong" if args.only == "backgammon" else "random")
    rows = []
    for kind in kinds:
        step = -(-args.games // args.jobs)
        chunks = [(lo, min(lo + step, args.games)) for lo in range(0, args.games, step)]
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(
                pool.map(
                    play_chunk,
                    *zip(
                        *[
                            (args.only, kind, against, players, args.seed, lo, hi, noise)
                            for lo, hi in chunks
                        ],
                        strict=True,
                    ),
                )
            )
        wins = sum(p.wins for p in parts)
        n = sum(p.games for p in parts)
        low, high = wilson(wins, n)
        row: dict[str, object] = {
            "game": args.only,
            "kind": kind,
            "against": against,
            "players": players,
            "games": n,
            "seed": args.seed,
            "noise": list(noise),
            "win": wins / n,
            "win_low": low,
            "win_high": high,
        }
        points = [x for p in parts for x in p.points]
        if points:
            mean = statistics.fmean(points)
            half = 1.96 * statistics.stdev(points) / len(points) ** 0.5
            row.update(ppg=mean, ppg_low=mean - half, ppg_high=mean + half)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            share = f"{100 * wins / n:5.1f} % [{100 * low:.1f}–{100 * high:.1f}]"
            text = f"{args.only} {kind:8} vs {against}: {share}"
            if points:
                low_p, high_p = row["ppg_low"], row["ppg_high"]
                text += f"  {row['ppg']:+.3f} ppg [{low_p:+.3f}, {high_p:+.3f}]"
            print(f"{text}  ({n} games, seed {args.seed})", flush=True)
    if args.check:
        levels = [r for r in rows if r["kind"] in {lv.kind for lv in LEVELS}]
        for a, b in itertools.pairwise(levels):
            for key in ("win", "ppg"):
                if key in a and not float(str(a[f"{key}_high"])) < float(str(b[f"{key}_low"])):
                    print(f"not separated: {a['kind']} and {b['kind']} at {key}")
                    return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
