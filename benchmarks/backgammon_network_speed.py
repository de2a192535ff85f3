"""Backgammon: network evaluations per CPU-second, ours against GNU Backgammon's 0-ply.

Run by hand (never timed in tests):

    .venv/bin/pip install -e '.[test]'    # gnubg-nn, the peer
    .venv/bin/python benchmarks/backgammon_network_speed.py [--seconds 5] [--compiled DIR] \
        [--weights FILE]

Why: the bot's lookahead scores some four hundred positions per decision, so the
network's forward pass decides how much search fits the budget on a Pi. Each "game"
of the table is one evaluation of each of 500 positions from seeded random games, the
same positions for every line:

* ``network``: :meth:`rules.backgammon.net.Network.probabilities`, the forward pass the
  bot uses (packed whole-number rows, one per occupied place);
* ``network reference``: :meth:`~rules.backgammon.net.Network.reference_probabilities`,
  the same arithmetic written straight from the encoding in floats, for scale;
* the peer, ``gnubg_nn.probabilities(board, 0)``: GNU Backgammon's own evaluation in C,
  with its larger networks (its bear-off databases for bear-off positions). It keeps an
  evaluation cache that would answer the same 500 positions from memory (1.3 µs
  against 6.8 µs per position, measured here), so its games walk on through a pool of
  ``PEER_POOL`` positions from the same random games; a second pass over the pool still
  finds about half in the cache, so the peer's figure is if anything too fast.

``--compiled DIR`` measures a compiled build beside this checkout (see ``measure.py``).
``--weights FILE`` measures another network, e.g. a larger one before shipping it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import seconds_type
from measure import Case, report  # benchmarks/ is on sys.path (the script's directory)

from rules.backgammon.engine import START
from rules.backgammon.moves import legal_plays
from rules.backgammon.net import Network, from_bytes, shipped

POSITIONS = 500
PEER_POOL = 200_000
WEIGHTS_VARIABLE = "SPIELTISCH_BENCH_WEIGHTS"
"""How ``--weights`` reaches the compiled build's worker process, which builds its
cases from this script without its command line."""

Board = tuple[tuple[int, ...], tuple[int, ...]]


def positions(count: int = POSITIONS, seed: int = 5) -> list[Board]:
    """(on roll, other) after the plays of seeded random games, until ``count``."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        mine, theirs = list(START), list(START)
        while len(found) < count:
            plays = legal_plays(mine, theirs, rng.randint(1, 6), rng.randint(1, 6))
            if not plays:
                mine, theirs = theirs, mine
                continue
            mover, other, _ = rng.choice(plays)
            if sum(mover) == 0:
                break
            found.append((other, mover))
            mine, theirs = list(other), list(mover)
    return found


def network() -> Network:
    path = os.environ.get(WEIGHTS_VARIABLE)
    return from_bytes(Path(path).read_bytes()) if path else shipped()


def project_cases() -> dict[str, Case]:
    """Our lines (the worker of a compiled build calls this too)."""
    net, boards = network(), positions()
    net.probabilities(*boards[0])  # the packed rows are built once, not timed

    def fast(rng: random.Random) -> object:
        return [net.probabilities(a, b) for a, b in boards]

    def reference(rng: random.Random) -> object:
        return [net.reference_probabilities(a, b) for a, b in boards]

    return {"network": fast, "network reference": reference}


PEER = "gnubg-nn 0-ply (C)"


def peer_cases() -> dict[str, Case]:
    try:
        import gnubg_nn
    except ImportError:
        print("gnubg-nn not installed: pip install -e '.[test]' (no ratio to the peer)")
        return {}
    boards = [[list(other), list(on_roll)] for on_roll, other in positions(PEER_POOL)]
    at = [0]

    def play(rng: random.Random) -> object:
        first = at[0]
        at[0] = (first + POSITIONS) % (PEER_POOL - POSITIONS)
        return [gnubg_nn.probabilities(board, 0) for board in boards[first : first + POSITIONS]]

    return {PEER: play}


RATIOS = {name: (PEER, "gnubg-nn") for name in ("network", "network reference")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=seconds_type, default=5.0, help="CPU seconds per line")
    parser.add_argument("--compiled", type=Path, help="a directory with a compiled build")
    parser.add_argument("--weights", type=Path, help="a weights file instead of the shipped")
    args = parser.parse_args()
    if args.weights:
        try:
            from_bytes(args.weights.read_bytes())
        except (OSError, ValueError) as err:
            raise SystemExit(f"{args.weights}: not a network weights file ({err})") from None
        os.environ[WEIGHTS_VARIABLE] = str(args.weights.resolve())
    print(f"one 'game' = one evaluation of each of {POSITIONS} positions")
    report(
        project_cases(),
        peer_cases(),
        RATIOS,
        args.seconds,
        args.compiled,
        "backgammon_network_speed",
        "project_cases",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
