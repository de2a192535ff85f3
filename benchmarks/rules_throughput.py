"""Complete random games per CPU-second, per game and preset, against peers in one run.

Run by hand (never timed in tests):

    .venv/bin/pip install ludopy open-spiel   # the peers (Ludo in numpy; C++ backgammon)
    .venv/bin/python benchmarks/rules_throughput.py [--seconds 5] [--compiled DIR]

Each line plays whole random games in alternating slices (``measure.py``) and reports
games per second of process CPU time; MÄDN is compared with ludopy, Backgammon with
OpenSpiel (``backgammon_throughput.py``), Kleiner Ärger's API line with its own fast
playout (no installable peer implements it; same games, same seeds). ``--compiled DIR``
adds a compiled build of the project (a directory with a mypyc-compiled ``rules``
package), measured in a subprocess beside this checkout's pure Python.

Two lines per MÄDN preset:

* ``api``: :func:`rules.playout.play_game` with :class:`rules.bots.RandomBot`, a new
  immutable state per roll and per move (targets: classic at least 8x ludopy);
* ``playout``: the engine's random playout, the same games without state objects
  (target: at least 20x ludopy).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import backgammon_throughput  # benchmarks/ is on sys.path (the script's directory)
from arguments import seconds_type
from measure import Case, report

import rules
from rules.bots import RandomBot
from rules.playout import play_game


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


def minimaki_api(preset: str) -> Case:
    start = rules.get_game("minimaki", preset).new_state()
    bots = {p: RandomBot() for p in start.to_json()["players"]}
    return lambda rng: play_game(start, bots, rng)


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


LUDOPY = "ludopy (4 players)"


def project_cases() -> dict[str, Case]:
    """Every line of ours (the worker of a compiled build calls this too).

    Mini-Maki is a solitaire/duel without a peer; it is listed for its own figure."""
    cases: dict[str, Case] = {}
    for preset in rules.presets("maedn"):
        cases[f"maedn/{preset} playout"] = track_game_playout("maedn", preset)
        cases[f"maedn/{preset} api"] = track_game_api("maedn", preset)
    for players in (2, 4):
        label = f"kleiner_aerger/standard {players}p"
        cases[label + " playout"] = track_game_playout("kleiner_aerger", "standard", players)
        cases[label + " api"] = track_game_api("kleiner_aerger", "standard", players)
    for preset in ("standard", "two_player"):
        cases[f"minimaki/{preset} api"] = minimaki_api(preset)
    cases.update(backgammon_throughput.project_cases())
    return cases


def ratios(cases: dict[str, Case]) -> dict[str, tuple[str, str]]:
    """What each line is compared with (see the module docstring)."""
    out: dict[str, tuple[str, str]] = {}
    for name in cases:
        if name.startswith("maedn/"):
            out[name] = (LUDOPY, "ludopy")
        elif name.startswith("kleiner_aerger/") and name.endswith(" api"):
            out[name] = (name.removesuffix(" api") + " playout", "its playout")
    out.update(backgammon_throughput.RATIOS)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=seconds_type, default=5.0, help="CPU seconds per line")
    parser.add_argument("--compiled", type=Path, help="a directory with a compiled build")
    args = parser.parse_args()
    peers: dict[str, Case] = {}
    ludo = ludopy_case()
    if ludo is None:
        print("ludopy not installed: pip install ludopy (no MÄDN ratio)")
    else:
        peers[LUDOPY] = ludo
    peers.update(backgammon_throughput.peer_cases())
    cases = project_cases()
    report(
        cases,
        peers,
        ratios(cases),
        args.seconds,
        args.compiled,
        "rules_throughput",
        "project_cases",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
