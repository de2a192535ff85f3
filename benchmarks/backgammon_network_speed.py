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
* ``C kernel``: the optional C kernel (:mod:`rules.backgammon.native`), the same
  arithmetic as ``network`` with the same result to the last bit, a roll's plays or a
  play's replies in one call (where it is built: ``SPIELTISCH_COMPILE=kernel``);
* ``numpy``: the numpy path (:mod:`rules.backgammon.batch`), in the same batches;
* the peer, ``gnubg_nn.probabilities(board, 0)``: GNU Backgammon's own evaluation in C,
  with its larger networks (its bear-off databases for bear-off positions). It keeps an
  evaluation cache that would answer the same 500 positions from memory (1.3 µs
  against 6.8 µs per position, measured here), so its games walk on through a pool of
  ``PEER_POOL`` positions from the same random games; a second pass over the pool still
  finds about half in the cache, so the peer's figure is if anything too fast.

Every line uses the main network for every position (races and bear-offs too), as the
peer's figure is one network's. numpy's matrix library is held to one thread
(``OPENBLAS_NUM_THREADS``, as the table's bot worker does): its threads spin while they
wait, and on two shared cores a product took seven times the CPU with them.

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

from rules.backgammon import native
from rules.backgammon.engine import START
from rules.backgammon.moves import legal_plays
from rules.backgammon.net import Network, from_bytes, shipped

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # before numpy is first imported (project_cases)

POSITIONS = 2000
PEER_POOL = 200_000
WEIGHTS_VARIABLE = "SPIELTISCH_BENCH_WEIGHTS"
"""How ``--weights`` reaches the compiled build's worker process, which builds its
cases from this script without its command line."""

Board = tuple[tuple[int, ...], tuple[int, ...]]
ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


def games(count: int, seed: int) -> list[Board]:
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


def replies(count: int = POSITIONS, seed: int = 5) -> list[list[list[Board]]]:
    """Groups of positions as a search scores them, ``count`` different ones in all: per
    position of seeded random games, per roll, the position after each of its plays
    (the opponent on roll); the last group cut short to make up ``count``."""
    groups: list[list[list[Board]]] = []
    seen: set[Board] = set()
    total = 0
    for on_roll, other in games(count, seed):
        group = []
        for d1, d2 in ROLLS:
            after = []
            for m, o, _ in legal_plays(list(on_roll), list(other), d1, d2):
                # each position once (two rolls may reach the same one), none finished
                if sum(m) and (o, m) not in seen:
                    seen.add((o, m))
                    after.append((o, m))
            after = after[: count - total]
            total += len(after)
            if after:
                group.append(after)
        groups.append(group)
        if total == count:
            return groups
    raise AssertionError("fewer positions than asked for")


def positions(count: int = POSITIONS, seed: int = 5) -> list[Board]:
    """The positions of :func:`replies`, one after the other."""
    return [board for group in replies(count, seed) for roll in group for board in roll]


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

    cases = {"network": fast, "network reference": reference}
    groups = replies()
    rolls = [roll for group in groups for roll in group]
    plays = [[board for roll in group for board in roll] for group in groups]
    module = native.kernel()
    if module is None:
        print("the C kernel is not built: SPIELTISCH_COMPILE=kernel pip install -e . (or the")
        print("compiled build) to measure it")
    else:
        handle = native.load(module, net)

        def kernel_lines(batches: list[list[Board]]) -> Case:
            def play(rng: random.Random) -> object:
                # the main network for every position, as on every line (the race
                # network's handle is the main one's, no bear-off database)
                return [module.evaluate(handle, handle, batch, False, False) for batch in batches]

            return play

        cases[KERNEL_ROLL_PLAYS] = kernel_lines(rolls)
        cases[KERNEL_PLAY_REPLIES] = kernel_lines(plays)
    try:
        from rules.backgammon.batch import BatchNetwork
    except ImportError:
        print("numpy not installed: pip install -e '.[fast]' (no numpy path to measure)")
        return cases
    batched = BatchNetwork(net)

    def roll_plays(rng: random.Random) -> object:
        return [batched.probabilities(roll) for roll in rolls]

    def play_replies(rng: random.Random) -> object:
        return [batched.probabilities(group) for group in plays]

    cases[ROLL_PLAYS] = roll_plays
    cases[PLAY_REPLIES] = play_replies
    return cases


ROLL_PLAYS = "numpy, a roll's plays"
PLAY_REPLIES = "numpy, a play's replies"
KERNEL_ROLL_PLAYS = "C kernel, a roll's plays"
KERNEL_PLAY_REPLIES = "C kernel, a play's replies"
BATCHED = (KERNEL_ROLL_PLAYS, KERNEL_PLAY_REPLIES, ROLL_PLAYS, PLAY_REPLIES)


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


RATIOS = {name: (PEER, "gnubg-nn") for name in ("network", "network reference", *BATCHED)}


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
    print(f"one 'game' = one evaluation of each of {POSITIONS} positions (a search's)")
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
