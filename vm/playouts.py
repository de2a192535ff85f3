"""Seeded bot games as JSON lines, to compare one CPU or build with another byte for byte.

    python3 vm/playouts.py [--seeds N] > playouts.jsonl; sha256sum playouts.jsonl

Only the standard library and the rules package (on sys.path from this checkout, or
the installed one with ``-I``), so it runs in a bare arm64 root file system under
qemu-user as well as in the installed venv. Every game and preset with random bots
and with the strong bots (the Backgammon network, the Mini-Maki policy: floating point
where a CPU or a C compiler could round differently), each seed a whole game: its
winners, counters, every roll and move, and the final state. Two machines that play the
same rules print the same bytes; ``rules.build_info`` goes to stderr, not into the file.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
from pathlib import Path

if "rules" not in sys.modules and not sys.flags.isolated:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from rules.bots import make_bot
from rules.playout import play_game

# game, preset, players; random bots for all, the strong ones for the two games whose
# strong bot computes with floats
TABLE = [
    ("maedn", "classic", 4, "random"),
    ("maedn", "schmidt", 3, "strong"),
    ("kleiner_aerger", "standard", 2, "random"),
    ("backgammon", "single", 2, "random"),
    ("backgammon", "single", 2, "strong"),
    ("minimaki", "standard", 2, "random"),
    ("minimaki", "standard", 2, "strong"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="games per line of the table")
    args = parser.parse_args()
    try:
        from rules.build_info import describe_build

        build = describe_build()
    except ImportError:
        build = "rules: unknown build"
    print(
        f"playouts: {platform.machine()}, Python {platform.python_version()}, {build}",
        file=sys.stderr,
    )
    for name, preset, players, bot in TABLE:
        game = rules.get_game(name, preset)
        for seed in range(args.seeds):
            start = game.new_state(players)
            colours = list(start.to_json().get("players", []))
            bots = {colour: make_bot(bot) for colour in colours}
            record = play_game(start, bots, random.Random(seed), record_history=True)
            line = {
                "game": name,
                "preset": preset,
                "bot": bot,
                "seed": seed,
                "winners": list(record.winners),
                "throws": record.throws,
                "moves": record.moves,
                "passes": record.passes,
                "history": record.history,
                "final": record.final.to_json(),
            }
            print(json.dumps(line, sort_keys=True, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
