"""Backgammon: complete random games per second, ours against OpenSpiel's C++ engine.

Run by hand (never timed in tests), alone or as part of ``rules_throughput.py``:

    .venv/bin/pip install open-spiel      # the peer; not a test dependency
    .venv/bin/python benchmarks/backgammon_throughput.py [--seconds 5]

Both sides are driven the same way from Python: at a chance node a roll is drawn from
the node's outcome distribution, at a decision node a uniformly random legal move (for
OpenSpiel a random legal action) is applied, until the game is over. Our game is the
``single`` preset (no cube), like OpenSpiel's default backgammon. Three lines for us:

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


def rate(play_one: Case, seconds: float, seed: int = 1) -> float:
    """Games per second of ``play_one`` over about ``seconds`` of wall time."""
    rng = random.Random(seed)
    play_one(rng)
    games = 0
    start = time.perf_counter()
    while True:
        play_one(rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed


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


def backgammon(seconds: float) -> None:
    """Print our lines and OpenSpiel's, with the ratio (target: at least 0.5x)."""
    peer = openspiel_case()
    peer_rate = rate(peer, seconds) if peer is not None else None
    if peer_rate is None:
        print("open-spiel not installed: pip install open-spiel (no backgammon ratio)")
    else:
        print(f"{'openspiel backgammon (peer, C++)':40s} {peer_rate:9.1f} games/s")
    for label, case in (
        ("api", ours_api()),
        ("loop", ours_loop()),
    ):
        r = rate(case, seconds)
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
