"""Build the Backgammon bear-off database and write it as package data with provenance.

Computes every one-sided bear-off position of up to fifteen checkers
(:func:`rules.backgammon.bearoff.build`, pure Python, about 45 s on the development
machine) and writes ``rules/backgammon/bearoff.bin`` plus its ``.provenance.json``
sidecar. Optionally checks the two-sided chances against GNU Backgammon's own bear-off
evaluation (``gnubg-nn``, the test extra) on seeded random positions.

    python benchmarks/make_bearoff.py [--out FILE] [--check 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

from rules.backgammon import bearoff
from rules.data import provenance_name, provenance_record

OUT = Path(__file__).resolve().parent.parent / "rules" / "backgammon" / bearoff.DATA_FILE


def random_home(rng: random.Random) -> list[int]:
    """A side with 1-15 checkers spread at random over its home board (all 15 a third
    of the time, so that gammons are checked too), as a 25-place board."""
    n = 15 if rng.random() < 1 / 3 else rng.randint(1, 15)
    home = [0] * 25
    for _ in range(n):
        home[rng.randrange(bearoff.HOME)] += 1
    return home


def check(table: bearoff.BearOffDatabase, positions: int, seed: int) -> dict[str, float]:
    """Largest and mean differences from GNU Backgammon's 0-ply chances (its bear-off
    databases) over seeded random two-sided positions."""
    import gnubg_nn

    rng = random.Random(seed)
    win, gammon = [], []
    for _ in range(positions):
        mine, theirs = random_home(rng), random_home(rng)
        ours = bearoff.probabilities(mine, theirs, table)
        assert ours is not None
        peer = gnubg_nn.probabilities([theirs, mine], 0)
        win.append(abs(ours[0] - peer[0]))
        gammon.append(max(abs(ours[1] - peer[1]), abs(ours[3] - peer[3])))
    return {
        "positions": positions,
        "seed": seed,
        "win_mean_abs": round(statistics.mean(win), 6),
        "win_max_abs": round(max(win), 5),
        "gammon_max_abs": round(max(gammon), 5),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--check", type=counted(0), default=2000, help="positions vs gnubg (0: none)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.process_time()
    done, first = bearoff.build()
    seconds = time.process_time() - started
    blob = bearoff.to_bytes(done, first)
    table = bearoff.BearOffDatabase(blob)
    details: dict[str, object] = {
        "what": "one-sided Backgammon bear-off database (rules/backgammon/bearoff.py): for "
        f"{len(done)} positions of up to 15 checkers on the six home points, the chances of "
        f"bearing all off in n rolls; for the {len(first)} with all 15, of bearing off the "
        "first checker in n rolls; every roll played for the fewest rolls on average; "
        "16-bit fractions, zlib",
    }
    figures: dict[str, object] = {"build_cpu_seconds": round(seconds, 1)}
    if args.check:
        figures["vs_gnubg_0ply"] = check(table, args.check, args.seed)
        print(f"against gnubg: {figures['vs_gnubg_0ply']}")
    details["figures"] = figures
    args.out.write_bytes(blob)
    command = "python benchmarks/make_bearoff.py"
    args.out.with_name(provenance_name(args.out.name)).write_text(
        provenance_record(blob, command, **details), encoding="utf-8"
    )
    print(f"{args.out}: {len(blob)} bytes, built in {seconds:.1f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
