"""Power cuts during an update: SIGKILL ``spieltisch update apply`` 100 times at random
moments; every "boot" must come up on one whole release, old or new, with nothing lost.

Run by hand (tests/test_update_power_cuts.py runs 20 on every CI run):

    .venv/bin/python benchmarks/update_power_cuts.py [--cuts 100] [--seed 1]

Each cut copies one installed table (release 0.1.0 from a bundle, a history database
with games, a save, the setups, a config) into a temporary root, starts a real
``spieltisch update apply`` of release 0.2.0 (a small signed bundle with 2 MB of
ballast, so unpacking and installing take a while), kills its whole process group with
SIGKILL at a seeded random moment inside one of the update's phases (in turn), runs
the check that follows every boot, and checks the release ``current`` names (its
installed files against their hashes, it imports) and the data (byte for byte, the
history's integrity check and games). See :mod:`controller.testing.update_cuts`.
Prints one line per cut and the counts; exit status 1 if any data was lost or any
release was half made.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

from controller.testing.update_cuts import update_cuts

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=counted(1), default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ballast-mb", type=counted(0, 200), default=2)
    args = parser.parse_args()
    config = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="st-update-cuts-") as tmp:
        stats = update_cuts(
            Path(tmp),
            args.cuts,
            args.seed,
            config,
            ballast_mb=args.ballast_mb,
            report=lambda line: print(line, flush=True),
        )
    print(stats.line())
    for problem in stats.problems:
        print(f"  PROBLEM: {problem}")
    return 1 if stats.problems else 0


if __name__ == "__main__":
    sys.exit(main())
