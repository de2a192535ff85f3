"""The full-disk loop: games that end on a full disk, then the power goes; nothing may be
lost or replayed.

Run by hand, as root (it mounts a small tmpfs for each trial):

    .venv/bin/python benchmarks/full_disk_loop.py [--trials 20] [--seed 1]

Each trial plays a Mini-Maki bot game at an in-process table (the real Appliance on
luma's dummy panel and a fake clock) with its state directory on a 1 MiB tmpfs, fills
the disk to the last byte at a random move, plays the game to its end, and cuts the
power at a random moment up to a few seconds after it (the appliance is dropped
without closing, so nothing is flushed; the files are what a cut leaves on this
tmpfs). In half the trials the disk is freed before the cut. Then a new appliance
starts on the same directory. Counted: finished games not in the history (lost),
finished games that came back to be played again (replayed), saves moved aside as
corrupt, and exceptions.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

from controller.history.store import HistoryStore
from controller.machine import Mode
from controller.session import Session
from controller.testing.files import fill, tmpfs
from controller.testing.rig import ApplianceRig


def trial(work: Path, rng: random.Random, seed: int) -> dict[str, int]:
    counts = {"lost": 0, "replayed": 0, "corrupt": 0, "ended": 0}
    with tmpfs(work / "disk") as disk:
        state = disk / "state"
        first = ApplianceRig(state, seats=("bot",), buttons=False)
        first.table.options.frame_interval_s = 0.5
        game = Session.start("minimaki", "standard", ["bot"], seed=seed, bot="random")
        first.app.start(new_game=game)
        fill_at = rng.randint(0, 12)
        filler: Path | None = None
        after = rng.uniform(0.0, 5.0)
        ended_at: float | None = None
        for _ in range(200_000):
            if filler is None and len(game.history) >= fill_at:
                filler = fill(disk)
            first.advance()
            if ended_at is None and first.table.state is Mode.GAME_OVER:
                ended_at = first.clock.now
            if ended_at is not None and first.clock.now - ended_at >= after:
                break
            if ended_at is not None and first.table.next_wakeup() is None:
                first.clock.advance(0.5)
                first.app.loop.step(timeout_cap=0)
        if filler is not None and rng.random() < 0.5:
            filler.unlink()
        ended = game.state.is_terminal()
        counts["ended"] = int(ended)
        # the power goes: `first` is dropped as it stands
        second = ApplianceRig(state, seats=("bot",), buttons=False)
        second.start()
        session = second.table.session
        if ended and session is not None and session.started == game.started:
            counts["replayed"] += 1
        second.close()
        counts["corrupt"] = len(list(state.glob("session.json.bad-*")))
        store = HistoryStore(state)
        uids: list[str] = []
        if store.path.exists():
            store.open(create=False)
            uids = [s.uid for s in store.summaries()]
            store.close()
        if ended and game.started not in uids:
            counts["lost"] += 1
        first.display.close()
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=counted(1), default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    total = {"lost": 0, "replayed": 0, "corrupt": 0, "ended": 0, "errors": 0}
    for number in range(args.trials):
        with tempfile.TemporaryDirectory(prefix="st-full-") as tmp:
            try:
                counts = trial(Path(tmp), rng, args.seed * 1000 + number)
            except Exception as exc:  # counted, and the loop goes on
                total["errors"] += 1
                print(f"trial {number}: {type(exc).__name__}: {exc}")
                continue
        for key, value in counts.items():
            total[key] += value
    print(
        f"trials {args.trials}: games ended on a full disk {total['ended']}, lost "
        f"{total['lost']}, replayed {total['replayed']}, corrupt saves {total['corrupt']}, "
        f"errors {total['errors']}"
    )
    ok = not (total["lost"] or total["replayed"] or total["corrupt"] or total["errors"])
    print("RESULT:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
