"""The after-game analysis against GNU Backgammon's own analysis of the same games.

Run by hand (the test suite runs a small version, tests/test_backgammon_analysis.py):

    .venv/bin/python benchmarks/backgammon_analysis.py [--games 60] [--seed 1] [--plies 0]
        [--cubeless on|off]

Seeded cubeless games (the ``single`` preset) between two strong bots that each play a
random legal move with a probability drawn per game and side from :data:`NOISE`, so
that the games span careful and careless play, as a table's games do. Each game is
analysed by :mod:`rules.backgammon.analysis` and exported as a ``.mat`` file that the
real GNU Backgammon (``gnubg -t``, Debian's ``/usr/games/gnubg``) imports and analyses
(``analyse match`` at ``--plies``); its chequer-play error rate per side (mEMG, 1000 ×
error per unforced move) is halved to the PR scale. The figure is Spearman's rank
correlation of the two PRs over every side of every game (target >= 0.8).

The games are cubeless, but GNU Backgammon's importer cannot be told so (a ``.mat``
money session has a cube, and ``set cube use off`` does not reach an imported match):
its analysis judges the plays cubeful by default, with a centred cube, so where one side
is far ahead it counts the plays as a cash and no longer tells a gammon-saving or
gammon-winning play from the other. ``--cubeless on`` (the default) also asks it for the
cubeless judgement (``set analysis chequerplay evaluation cubeful off``), of the games
that were played, and prints both. The process CPU time of our analysis per game is
printed as well.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

import rules
from rules.backgammon.analysis import analyse
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.mat import match_file
from rules.core import Move, State
from rules.playout import PlayStep, steps

GNUBG = "/usr/games/gnubg"
NOISE = (0.0, 0.05, 0.1, 0.2, 0.35)
"""Per game and side: the share of moves played at random."""


class NoisyBot:
    """The strong bot (no clock), playing a random legal move with probability ``noise``."""

    name = "noisy"

    def __init__(self, noise: float) -> None:
        self.noise = noise
        self.inner = BackgammonBot()

    def choose(self, state: State, rng: random.Random) -> Move:
        moves = state.legal_moves()
        if len(moves) > 1 and rng.random() < self.noise:
            return moves[rng.randrange(len(moves))]
        return self.inner.choose(state, rng)


def play(seed: int, number: int) -> list[PlayStep]:
    rng = random.Random(seed * 1_000_003 + number)
    game = rules.get_game("backgammon", "single")
    bots = {"white": NoisyBot(rng.choice(NOISE)), "black": NoisyBot(rng.choice(NOISE))}
    return list(steps(game.new_state(), bots, rng))


CHEQUER = re.compile(r"^Error rate mEMG \(Points\)\s+(-?[\d.]+)\s+\(\s*-?[\d.]+\)\s+(-?[\d.]+)")


def gnubg_rates(
    files: Sequence[Path], plies: int, gnubg: str = GNUBG, cubeful: bool = True
) -> list[tuple[float, float]]:
    """GNU Backgammon's chequer-play error rate (mEMG) of white and black per file;
    ``cubeful=False`` judged cubeless (module docstring)."""
    script = [f"set analysis chequerplay evaluation plies {plies}"]
    if not cubeful:
        script.append("set analysis chequerplay evaluation cubeful off")
    for path in files:
        script += [f"import mat {path}", "analyse match", "show statistics match"]
    with tempfile.NamedTemporaryFile("w", suffix=".gnubg", delete=False) as f:
        f.write("\n".join(script) + "\n")
    done = subprocess.run(
        [gnubg, "-t", "-q", "-c", f.name], capture_output=True, text=True, check=True
    )
    Path(f.name).unlink()
    rates: list[tuple[float, float]] = []
    in_chequer = False
    for line in done.stdout.splitlines():
        if line.startswith("Chequerplay statistics"):
            in_chequer = True
        match = CHEQUER.match(line)
        if in_chequer and match:
            rates.append((abs(float(match.group(1))), abs(float(match.group(2)))))
            in_chequer = False
    if len(rates) != len(files):
        raise RuntimeError(f"gnubg analysed {len(rates)} of {len(files)} games")
    return rates


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's over the ranks)."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5


def compare(
    games: int, seed: int, plies: int, cubeful: Sequence[bool] = (True,)
) -> tuple[list[float], list[float], list[list[float]], list[float]]:
    """Our PR and GNU Backgammon's (mEMG / 2) for every side of every game, GNU
    Backgammon's once per ``cubeful`` setting after the first, and the process CPU
    seconds of our analysis of each game."""
    ours: list[float] = []
    seconds: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for number in range(games):
            played = play(seed, number)
            start = time.process_time()
            analysis = analyse(played)
            seconds.append(time.process_time() - start)
            ours += [side.pr for side in analysis.sides]
            path = Path(tmp) / f"game{number}.mat"
            path.write_text(match_file(played))
            files.append(path)
        rates = [
            [rate / 2 for pair in gnubg_rates(files, plies, cubeful=c) for rate in pair]
            for c in cubeful
        ]
    return ours, rates[0], rates[1:], seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=counted(1), default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--plies", type=int, choices=range(5), default=0, help="GNU Backgammon's analysis depth"
    )
    parser.add_argument(
        "--cubeless",
        choices=("on", "off"),
        default="on",
        help="also GNU Backgammon's cubeless analysis of the same games (module docstring)",
    )
    args = parser.parse_args(argv)
    settings = (True, False) if args.cubeless == "on" else (True,)
    ours, theirs, others, seconds = compare(args.games, args.seed, args.plies, settings)
    rho = spearman(ours, theirs)
    mean_ours, mean_theirs = sum(ours) / len(ours), sum(theirs) / len(theirs)
    print(
        f"{args.games} games (seed {args.seed}), {len(ours)} sides: Spearman {rho:.3f} between "
        f"our PR (mean {mean_ours:.1f}) and GNU Backgammon's {args.plies}-ply analysis "
        f"(mEMG / 2, mean {mean_theirs:.1f}) (target >= 0.8) {'MET' if rho >= 0.8 else 'MISSED'}"
    )
    for cubeless in others:
        print(
            f"  judged cubeless by GNU Backgammon as well (the games had no cube): Spearman "
            f"{spearman(ours, cubeless):.3f} (its mean {sum(cubeless) / len(cubeless):.1f})"
        )
    print(
        f"  our analysis: {sum(seconds) / len(seconds):.2f} s of process CPU per game on "
        f"average, {max(seconds):.2f} s at most"
    )
    return 0 if rho >= 0.8 else 1


if __name__ == "__main__":
    sys.exit(main())
