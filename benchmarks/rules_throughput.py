"""Complete random games per second, per game and preset, against peers in the same run.

Run by hand (never timed in tests):

    .venv/bin/pip install ludopy        # the MÄDN peer (Ludo, numpy)
    .venv/bin/python benchmarks/rules_throughput.py [--seconds 5]

Each case plays whole random games for ``--seconds`` and prints games per second. A peer
is measured right after, in the same process, and the ratio is printed. Machines here are
shared and noisy, so ratios from one run mean more than absolute numbers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from rules.bots import RandomBot
from rules.playout import play_game

Case = Callable[[random.Random], object]


def rate(play_one: Case, seconds: float, seed: int = 1) -> float:
    """Games per second of ``play_one`` over about ``seconds`` of wall time."""
    rng = random.Random(seed)
    play_one(rng)  # warm caches outside the measurement
    games = 0
    start = time.perf_counter()
    while True:
        play_one(rng)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed


def track_game_api(name: str, preset: str, players: int = 4) -> Case:
    """Through the public API: a new immutable state per roll and per move."""
    game = rules.get_game(name, preset)
    start = game.new_state(players)
    bots = {c: RandomBot() for c in start.to_json()["players"]}
    return lambda rng: play_game(start, bots, rng)


def track_game_playout(name: str, preset: str, players: int = 4) -> Case:
    """The engine's random playout (same games as the API for the same seed)."""
    game = rules.get_game(name, preset)
    start = game.new_state(players)
    return lambda rng: start.random_playout(rng)  # type: ignore[attr-defined]


def ludopy_case() -> Case | None:
    try:
        import ludopy
        import numpy as np
    except ImportError:
        return None

    def play(rng: random.Random) -> None:
        np.random.seed(rng.randrange(2**32))
        game = ludopy.Game()
        over = False
        while not over:
            (_, move_pieces, _, _, _, over), _ = game.get_observation()
            piece = move_pieces[np.random.randint(0, len(move_pieces))] if len(move_pieces) else -1
            game.answer_observation(piece)

    return play


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    s = args.seconds
    print(f"python {sys.version.split()[0]}, {s:g} s per case")
    ludo = ludopy_case()
    ludo_rate = rate(ludo, s) if ludo is not None else None
    if ludo_rate is None:
        print("ludopy not installed: pip install ludopy (no MÄDN ratio)")
    else:
        print(f"{'ludopy (peer, 4 players)':40s} {ludo_rate:9.1f} games/s")
    for preset in rules.presets("maedn"):
        for label, make in (("playout", track_game_playout), ("api", track_game_api)):
            r = rate(make("maedn", preset), s)
            ratio = f"  {r / ludo_rate:5.1f}x ludopy" if ludo_rate else ""
            print(f"{'maedn/' + preset + ' ' + label:40s} {r:9.1f} games/s{ratio}")
    for extra in EXTRA_CASES:
        extra(s)
    return 0


EXTRA_CASES: list[Callable[[float], None]] = []
"""Other games append a function that measures and prints their own lines (and peers)."""


def small_games(seconds: float) -> None:
    """Kleiner Ärger (2 and 4 players) and Mini-Maki (solitaire): games per second.

    No installable peer implements either game, so the line for Kleiner Ärger's API
    path is printed as a ratio against its own fast playout (same games, same seeds).
    """
    for players in (2, 4):
        fast = rate(track_game_playout("kleiner_aerger", "standard", players), seconds)
        api = rate(track_game_api("kleiner_aerger", "standard", players), seconds)
        label = f"kleiner_aerger/standard {players}p"
        print(f"{label + ' playout':40s} {fast:9.1f} games/s")
        print(f"{label + ' api':40s} {api:9.1f} games/s  {api / fast:5.2f}x playout")
    for preset in ("standard", "two_player"):
        game = rules.get_game("minimaki", preset)
        start = game.new_state()
        bots = {p: RandomBot() for p in start.to_json()["players"]}
        r = rate(lambda rng, start=start, bots=bots: play_game(start, bots, rng), seconds)
        print(f"{'minimaki/' + preset + ' api':40s} {r:9.1f} games/s")


EXTRA_CASES.append(small_games)

from backgammon_throughput import backgammon  # noqa: E402  (benchmarks/ is on sys.path)

EXTRA_CASES.append(backgammon)


if __name__ == "__main__":
    sys.exit(main())
