"""Pull the plug on the installed VM during bot games, and count what every boot finds.

    python3 vm/power_cuts.py [--cuts 20] [--play 5:60] [--seed N] [--report FILE]

Each round: power on (vm/vm.sh start), time power-on -> the unit's READY (the agent's
"spieltisch-ready" mark), wait for the guest's check (guest/boot-check.sh: one VMCHECK
line), let the bots play a random number of seconds, then kill -9 qemu: no shutdown,
no sync, the disk as a power cut leaves it. A last boot checks after the last cut.

Counted over all boots, each against what the boot before it had seen:
  resumed     the unfinished game came back (the journal says "resuming"), with at least
              as many moves as the check before the cut had seen;
  replayed    it came back with fewer moves, or a game already recorded came back;
  finished    a record in the history that the boot before had not seen (a game
              that ended between two boots; records on the disk at the first boot
              are reported as records_before_run, not as finishes);
  lost        the game is gone and not recorded, or a record seen before is missing;
  corrupt     the save does not parse, a save was moved aside, or integrity_check fails;
  duplicated  two records of one game (same start time);
  no_ready    a boot that never reached READY;
  no_check    a boot whose check never finished (counted, and the run goes on).
The targets are 0 for everything but resumed and finished. Exit 1 if one is missed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# the counts whose target is 0
MISSES = ("lost", "replayed", "corrupt", "duplicated", "no_ready", "no_check", "not_resumed")
VM = HERE / "vm.sh"


def vm(*args: str, timeout: float = 900) -> str:
    result = subprocess.run(
        [str(VM), *args], capture_output=True, text=True, timeout=timeout + 30, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"vm.sh {' '.join(args)}: {result.stderr.strip() or result.stdout.strip()}"
        )
    return result.stdout.strip()


def latest_check(out_dir: Path, after: float) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The VMCHECK (and VMNEWGAME, if any) of the newest boot log written after ``after``."""
    logs = sorted(p for p in out_dir.glob("boot-*.log") if p.stat().st_mtime >= after)
    if not logs:
        raise RuntimeError("no boot log from this boot")
    check, new = None, None
    for line in logs[-1].read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("VMCHECK "):
            check = json.loads(line[len("VMCHECK ") :])
        elif line.startswith("VMNEWGAME "):
            new = json.loads(line[len("VMNEWGAME ") :])
    if check is None:
        raise RuntimeError(f"{logs[-1]}: no VMCHECK line")
    return check, new


def startup_figures(out_dir: Path, after: float) -> dict[str, Any]:
    """The boots' VMSTARTUP lines (printed during play, after each check): the unit's
    exec -> READY at boot (cold) and after the check's restart (warm), the bare import
    of gpiozero and luma.core (its second run), medians, and READY over bare import."""
    starts: dict[str, list[float]] = {"cold": [], "warm": []}
    bare: list[float] = []
    for log in sorted(p for p in out_dir.glob("boot-*.log") if p.stat().st_mtime >= after):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            if not line.startswith("VMSTARTUP "):
                continue
            figures = json.loads(line[len("VMSTARTUP ") :])
            if figures.get("exec_to_ready_s") is not None:
                starts.setdefault(figures.get("start", "cold"), []).append(
                    figures["exec_to_ready_s"]
                )
            bare.append(figures["bare_import_s"][-1])
    out: dict[str, Any] = {"boots": len(bare)}
    if bare:
        out["bare_import_s"] = round(statistics.median(bare), 2)
    for kind, values in starts.items():
        if values:
            out[f"{kind}_exec_to_ready_s"] = round(statistics.median(values), 2)
            if bare:
                out[f"{kind}_ratio"] = round(statistics.median(values) / out["bare_import_s"], 2)
    return out


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.game: dict[str, Any] | None = None  # what the last check left on the table
        self.records: dict[str, str] = {}  # uid -> started, every record seen so far
        self.before_run: int | None = None  # records on the disk at the first check
        self.duplicates: dict[str, int] = {}  # started -> records of it, where more than one
        self.ready: list[float] = []
        self.notes: list[str] = []

    def boot(
        self, number: int, ready: float | None, check: dict[str, Any], new: dict[str, Any] | None
    ) -> None:
        c = self.counts
        c["boots"] += 1
        if ready is None:
            c["no_ready"] += 1
        else:
            self.ready.append(ready)
        save, hist, unit = check["save"], check["history"], check["unit"]
        if hist["integrity"] != "ok":
            c["corrupt"] += 1
            self.notes.append(f"boot {number}: integrity_check: {hist['integrity']}")
        if save.get("exists") and not save.get("sound"):
            c["corrupt"] += 1
            self.notes.append(f"boot {number}: save: {save.get('error')}")
        if save.get("bad_files"):
            c["corrupt"] += 1
            self.notes.append(f"boot {number}: saves moved aside: {save['bad_files']}")
        c["tracebacks"] += int(unit.get("tracebacks", 0))
        records = {uid: started for uid, started, _outcome, _moves in hist["records"]}
        starts = Counter(started for _uid, started, _o, _m in hist["records"])
        # every boot sees all records: a duplicate is counted once, at the boot that
        # first sees it, not again at every later boot
        for started, n in starts.items():
            if n > 1 and self.duplicates.get(started, 1) < n:
                c["duplicated"] += n - self.duplicates.get(started, 1)
                self.duplicates[started] = n
                self.notes.append(f"boot {number}: {n} records of the game started {started}")
        missing = set(self.records) - set(records)
        if missing:
            c["lost"] += len(missing)
            self.notes.append(f"boot {number}: records gone: {sorted(missing)}")
        recorded_starts = set(records.values())
        if self.game is not None:
            before = self.game
            here = save.get("started") if save.get("sound") else None
            if here == before["started"] and not save.get("finished"):
                if save["moves"] < before["moves"]:
                    c["replayed"] += 1
                    self.notes.append(
                        f"boot {number}: {save['moves']} moves, had {before['moves']}"
                    )
                elif unit.get("resumed"):
                    c["resumed"] += 1
                else:
                    c["not_resumed"] += 1
                    self.notes.append(f"boot {number}: the game is saved but did not resume")
            elif before["started"] not in recorded_starts:
                c["lost"] += 1
                self.notes.append(
                    f"boot {number}: game {before['started']} neither on the table nor recorded"
                )
        # a finish is a record this boot sees that the boot before did not: two games
        # that end in one window between cuts count twice, and the records already on
        # the disk when the run began count as before, not as finishes of this run
        if self.before_run is None:
            self.before_run = len(records)
        else:
            c["finished"] += len(set(records) - set(self.records))
        if (
            save.get("sound")
            and not save.get("finished")
            and save.get("started") in recorded_starts
        ):
            c["replayed"] += 1
            self.notes.append(
                f"boot {number}: the recorded game {save['started']} is on the table again"
            )
        self.records = records
        if new is not None:
            self.game = new
        elif save.get("sound") and not save.get("finished"):
            self.game = {"started": save["started"], "moves": save["moves"]}
        else:
            self.game = None

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.counts)
        out["records"] = len(self.records)
        out["records_before_run"] = self.before_run
        if self.ready:
            out["ready_s"] = {
                "min": round(min(self.ready), 1),
                "median": round(statistics.median(self.ready), 1),
                "max": round(max(self.ready), 1),
            }
        out["notes"] = self.notes
        return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cuts", type=int, default=20)
    parser.add_argument("--play", default="5:60", help="seconds of play before a cut, MIN:MAX")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument(
        "--share", type=Path, required=True, help="the VM's 9p share ($VM_DIR/share-ARCH)"
    )
    parser.add_argument("--report", type=Path, help="write the tally as JSON here")
    parser.add_argument("--deadline", type=float, help="stop cutting at this Unix time")
    args = parser.parse_args()
    lo, hi = (float(x) for x in args.play.split(":"))
    rng = random.Random(args.seed)
    out_dir = args.share / "out"
    out_dir.mkdir(parents=True, exist_ok=True)
    (args.share / "boot.sh").write_bytes((HERE / "guest" / "boot-check.sh").read_bytes())
    (args.share / "boot.sh").chmod(0o755)
    (args.share / "boot_check.py").write_bytes((HERE / "guest" / "boot_check.py").read_bytes())
    tally = Tally()
    vm("kill")
    began = time.time()
    rounds = args.cuts + 1
    for number in range(1, rounds + 1):
        name = f"cut-{number:02d}"
        powered = time.time()
        vm("start", name)
        try:
            ready = float(vm("wait", name, "spieltisch-ready", "900", timeout=900).split()[0])
        except RuntimeError as exc:
            ready = None
            tally.notes.append(f"boot {number}: {exc}")
        try:
            vm("wait", name, "check-done", "600", timeout=600)
            check, new = latest_check(out_dir, powered)
        except RuntimeError as exc:
            # a boot that never got as far as its check is a finding, not the end of
            # the run: counted, noted, and the next power-on goes on from there
            tally.counts["boots"] += 1
            tally.counts["no_check"] += 1
            tally.notes.append(f"boot {number}: no check: {exc}")
            if ready is None:
                tally.counts["no_ready"] += 1
        else:
            tally.boot(number, ready, check, new)
        last = number == rounds or (args.deadline is not None and time.time() > args.deadline)
        game = tally.game
        play = 0.0 if last else rng.uniform(lo, hi)
        time.sleep(play)
        vm("kill")
        cut = "" if last else f", cut after {play:.0f} s of play"
        moves = f"{game['moves']} moves at the check" if game else "no game"
        print(f"boot {number}: READY {ready} s after power-on, {moves}{cut}", flush=True)
        tally.counts["cuts"] = number - 1 if last else number
        if args.report:  # after every boot: a run stopped early still leaves its tally
            args.report.write_text(json.dumps(tally.summary(), indent=2) + "\n", encoding="utf-8")
        if last:
            break
    summary = tally.summary()
    summary["startup"] = startup_figures(out_dir, began)
    print(json.dumps(summary, indent=2))
    if args.report:
        args.report.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    bad = sum(summary.get(k, 0) for k in MISSES)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
