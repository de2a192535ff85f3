"""Backgammon: complete random games per second, ours against OpenSpiel's C++ engine.

Run by hand (never timed in tests), alone or as part of ``rules_throughput.py``:

    .venv/bin/pip install open-spiel      # the peer; not a test dependency
    .venv/bin/python benchmarks/backgammon_throughput.py [--seconds 5]

Both sides are driven the same way from Python, in alternating slices of one run: at
a chance node a roll is drawn from the node's outcome distribution, at a decision node a
uniformly random legal move (for OpenSpiel a random legal action) is applied, until the
game is over. Our game is the ``single`` preset (no cube), like OpenSpiel's default
backgammon. Two lines for us:

* ``api``: :func:`rules.playout.play_game` with :class:`rules.bots.RandomBot` (what
  ``spieltisch rules play`` does);
* ``loop``: the same game as a bare roll/legal_moves/apply loop, like the peer's driver.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from rules.bots import RandomBot
from rules.playout import play_game, sample_roll

Case = Callable[[random.Random], object]


def ours_api() -> Case:
    start = rules.get_game("backgammon", "single").new_state()
    bots = {c: RandomBot() for c in ("white", "black")}
    return lambda rng: play_game(start, bots, rng)


def ours_loop() -> Case:
    start = rules.get_game("backgammon", "single").new_state()

    def play(rng: random.Random) -> object:
        state: Any = start
        while not state.is_terminal():
            if state.is_chance():
                state = state.roll(sample_roll(state.chance_outcomes(), rng))
            else:
                moves = state.legal_moves()
                state = state.apply(moves[rng.randrange(len(moves))])
        return state.winners()

    return play


def openspiel_case() -> Case | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")

    def play(rng: random.Random) -> object:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                x = rng.random()
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for candidate, p in outcomes:
                    x -= p
                    if x < 0:
                        action = candidate
                        break
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        return state.returns()

    return play


def interleaved(cases: dict[str, Case], seconds: float, rounds: int = 5) -> dict[str, float]:
    """Games per second of each case, measured in ``rounds`` alternating slices.

    The machines this runs on are shared and noisy; alternating short slices puts every
    case through the same load, so the ratios stay meaningful.
    """
    games = dict.fromkeys(cases, 0)
    spent = dict.fromkeys(cases, 0.0)
    rngs = {name: random.Random(1) for name in cases}
    for case in cases.values():
        case(random.Random(0))  # warm up outside the measurement
    for _ in range(rounds):
        for name, case in cases.items():
            start = time.perf_counter()
            while True:
                case(rngs[name])
                games[name] += 1
                elapsed = time.perf_counter() - start
                if elapsed >= seconds / rounds:
                    break
            spent[name] += elapsed
    return {name: games[name] / spent[name] for name in cases}


def backgammon(seconds: float) -> None:
    """Print our lines and OpenSpiel's, with the ratio (target: at least 0.5x)."""
    cases: dict[str, Case] = {"api": ours_api(), "loop": ours_loop()}
    peer = openspiel_case()
    if peer is None:
        print("open-spiel not installed: pip install open-spiel (no backgammon ratio)")
    else:
        cases["peer"] = peer
    rates = interleaved(cases, seconds)
    peer_rate = rates.pop("peer", None)
    if peer_rate is not None:
        print(f"{'openspiel backgammon (peer, C++)':40s} {peer_rate:9.1f} games/s")
    for label, r in rates.items():
        ratio = f"  {r / peer_rate:5.2f}x openspiel" if peer_rate else ""
        print(f"{'backgammon/single ' + label:40s} {r:9.1f} games/s{ratio}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {args.seconds:g} s per case")
    backgammon(args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
