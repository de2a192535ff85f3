"""Backgammon: complete random games per CPU-second, ours against OpenSpiel's C++ engine.

Run by hand (never timed in tests), alone or as part of ``rules_throughput.py``:

    .venv/bin/pip install open-spiel      # the peer; not a test dependency
    .venv/bin/python benchmarks/backgammon_throughput.py [--seconds 5] [--compiled DIR]

``--compiled DIR`` measures a compiled build of the project (a directory holding a
mypyc-compiled ``rules`` package) beside this checkout's pure Python, in a subprocess,
and prints both with their ratio (see ``measure.py``).

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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import seconds_type
from measure import Case, report  # benchmarks/ is on sys.path (the script's directory)

import rules
from rules.bots import RandomBot
from rules.playout import play_game, sample_roll


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


def project_cases() -> dict[str, Case]:
    """Our lines (the worker of a compiled build calls this too)."""
    return {"backgammon/single api": ours_api(), "backgammon/single loop": ours_loop()}


def peer_cases() -> dict[str, Case]:
    peer = openspiel_case()
    if peer is None:
        print("open-spiel not installed: pip install open-spiel (no backgammon ratio)")
        return {}
    return {PEER: peer}


PEER = "openspiel backgammon (C++)"
RATIOS = {name: (PEER, "openspiel") for name in ("backgammon/single api", "backgammon/single loop")}
"""Target: the API line at least 1x OpenSpiel's games per CPU-second."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=seconds_type, default=5.0, help="CPU seconds per line")
    parser.add_argument("--compiled", type=Path, help="a directory with a compiled build")
    args = parser.parse_args()
    report(
        project_cases(),
        peer_cases(),
        RATIOS,
        args.seconds,
        args.compiled,
        "backgammon_throughput",
        "project_cases",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
