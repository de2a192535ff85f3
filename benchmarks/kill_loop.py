"""The kill -9 loop: pull the plug on ``spieltisch run`` 200 times; nothing may be lost.

Run by hand (tests/test_appliance_process.py runs a short version on every CI run):

    .venv/bin/python benchmarks/kill_loop.py [--kills 200] [--seed 1]

A real ``spieltisch run`` process on fake hardware (luma dummy panel, gpiozero
MockFactory pins) plays a bot game; it is SIGKILLed at a random moment (15 % of the kills
during start-up, the rest 0-2.5 s after READY, mid-game) and started again, over and
over. The kills are shared out over MÄDN classic (4 bots), Kleiner Ärger, Backgammon
and Mini-Maki; a finished game is replaced by a new one. After every kill the save must
load (never moved aside as corrupt), its history must extend the one before, it must
hold every entry the process had logged as saved (nothing lost but the move in flight)
and it must equal the same game played without interruption (same dice, same moves).
The history database (``history.sqlite3``) must pass SQLite's ``PRAGMA integrity_check``,
never be moved aside, hold every game record the process had logged as committed, and
hold (or the save carry, for the next start) every game whose finished position is in
the save; and no save may hold an unfinished game that is already recorded (a game come
back one move short of its end).
See :func:`controller.testing.kill_loop.kill_loop`. Prints the counts per game and in total.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted, share_type

from controller.testing.kill_loop import KillStats, kill_loop

GAMES = [
    ("maedn", "classic", 4),
    ("kleiner_aerger", "standard", 2),
    ("backgammon", "single", 2),
    ("minimaki", "standard", 1),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=counted(1), default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--after-record",
        type=share_type,
        default=0.1,
        help="share of kills that wait (up to 60 s) for a game to end and come right after"
        " its record",
    )
    args = parser.parse_args()
    share = [args.kills // len(GAMES)] * len(GAMES)
    share[0] += args.kills - sum(share)
    total = KillStats()
    failed = False
    start = time.monotonic()
    for index, ((game, preset, players), kills) in enumerate(zip(GAMES, share, strict=True)):
        with tempfile.TemporaryDirectory(prefix="st-kill-") as tmp:
            stats = kill_loop(
                Path(tmp),
                kills,
                seed=args.seed * 10 + index,
                game=(game, preset, players),
                after_record=args.after_record,
            )
        print(f"{game}/{preset} x{players}: {stats.summary()}")
        for problem in stats.problems:
            print(f"  PROBLEM: {problem}")
            failed = True
        for name in (
            "kills", "early_kills", "restarts", "resumed", "corrupt", "lost",
            "in_flight_completed", "temp_files_left", "temp_files_cleaned", "entries",
            "games_finished", "diverged", "records", "records_lost", "finished_unrecorded",
            "database_damaged", "record_kills", "games_back",
        ):  # fmt: skip
            setattr(total, name, getattr(total, name) + getattr(stats, name))
        total.startup_s += stats.startup_s
        total.problems += stats.problems
    print(f"TOTAL: {total.summary()}")
    print(f"wall time {time.monotonic() - start:.0f} s")
    failed = failed or total.corrupt > 0 or total.lost > 0 or total.diverged > 0
    failed = failed or total.records_lost > 0 or total.finished_unrecorded > 0
    failed = failed or total.database_damaged > 0
    print("RESULT:", "FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
