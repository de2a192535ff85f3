"""The boot test: a Debian bookworm VM, the real installer, systemd as PID 1, power cuts.

vm/run.sh builds the VM from nothing (debootstrap, qemu full-system), installs the
project in it as docs/install.md says, measures power-on -> READY and pulls the plug
(kill -9 qemu) during bot games, checking every boot (vm/power_cuts.py). It needs root,
qemu and hours under emulation (KVM where /dev/kvm runs a stock kernel, vm/vm.sh probes
it), so it is a tier of its own:

    SPIELTISCH_VM=1 sudo -E .venv/bin/python -m pytest -m vm tests/test_vm_boot.py

and skipped otherwise (CI never runs it). SPIELTISCH_VM_CUTS sets the number of cuts
(default 20); KEEP_ROOTFS=1 reuses a root file system built before.

The tally that decides the verdict (vm/power_cuts.py's Tally) is tested here without a
VM, on the checks a boot reports, so a counting mistake cannot hide a lost game.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def power_cuts() -> ModuleType:
    spec = importlib.util.spec_from_file_location("power_cuts", ROOT / "vm" / "power_cuts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check(
    started: str | None = None,
    moves: int = 0,
    finished: bool = False,
    records: tuple[tuple[str, str], ...] = (),
    resumed: bool = True,
    integrity: str = "ok",
) -> dict[str, Any]:
    """One boot's VMCHECK as vm/guest/boot_check.py prints it."""
    save: dict[str, Any] = {"bad_files": [], "exists": started is not None}
    if started is not None:
        save.update(sound=True, started=started, game="maedn", moves=moves, finished=finished)
    rows = [[uid, when, "finished", 100] for uid, when in records]
    return {
        "unit": {"resumed": resumed, "tracebacks": 0},
        "save": save,
        "history": {"exists": True, "integrity": integrity, "records": rows},
    }


def test_tally_counts_resumed_finished_and_the_misses() -> None:
    tally = power_cuts().Tally()
    tally.boot(1, 50.0, check(), {"started": "A", "moves": 0})
    tally.boot(2, 51.0, check("A", 40), None)  # came back with more moves: resumed
    tally.boot(3, 52.0, check("A", 90, finished=True, records=(("u1", "A"),)), None)
    tally.boot(4, 53.0, check(records=(("u1", "A"),)), {"started": "B", "moves": 0})
    tally.boot(5, 54.0, check("B", 30, records=(("u1", "A"),)), None)
    tally.boot(6, 55.0, check("B", 10, records=(("u1", "A"),)), None)  # fewer: replayed
    summary = tally.summary()
    assert summary["resumed"] == 2 and summary["finished"] == 1, summary
    assert summary["replayed"] == 1, summary
    assert summary.get("lost", 0) == 0 and summary.get("duplicated", 0) == 0, summary
    assert summary["ready_s"] == {"min": 50.0, "median": 52.5, "max": 55.0}


def test_tally_counts_every_new_record_and_not_those_from_before_the_run() -> None:
    tally = power_cuts().Tally()
    old = (("u0", "Z"),)
    tally.boot(1, 50.0, check("A", 10, records=old), None)
    # two games ended in the window before the cut: A, then B, and C is on the table
    both = (*old, ("u1", "A"), ("u2", "B"))
    tally.boot(2, 50.0, check("C", 5, records=both), None)
    tally.boot(3, 50.0, check("C", 20, records=both), None)
    summary = tally.summary()
    assert summary["finished"] == 2 and summary["records"] == 3, summary
    assert summary["records_before_run"] == 1 and summary["resumed"] == 1, summary
    assert summary.get("lost", 0) == 0, summary


def test_tally_sees_a_lost_game_a_lost_record_and_corruption() -> None:
    tally = power_cuts().Tally()
    tally.boot(1, None, check("A", 5, records=(("u1", "Z"),)), None)
    # the game is gone and not recorded, the old record is gone, the database is bad
    tally.boot(2, 60.0, check(integrity="database disk image is malformed"), None)
    summary = tally.summary()
    assert summary["no_ready"] == 1 and summary["lost"] == 2 and summary["corrupt"] == 1, summary


def test_tally_counts_a_duplicate_once_however_many_boots_see_it() -> None:
    tally = power_cuts().Tally()
    twice = (("u1", "A"), ("u2", "A"))
    for number in range(1, 4):
        tally.boot(number, 50.0, check(records=twice), None)
    assert tally.summary()["duplicated"] == 1


def test_tally_sees_a_recorded_game_back_on_the_table() -> None:
    tally = power_cuts().Tally()
    tally.boot(1, 50.0, check("A", 80, records=(("u1", "A"),)), None)
    assert tally.summary()["replayed"] == 1


@pytest.mark.vm
@pytest.mark.skipif(
    os.environ.get("SPIELTISCH_VM") != "1", reason="the VM tier: set SPIELTISCH_VM=1"
)
def test_power_cuts_in_a_booted_vm_lose_nothing() -> None:
    for tool in ("qemu-system-x86_64", "debootstrap", "mkfs.ext4"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    if os.geteuid() != 0:
        pytest.skip("vm/run.sh needs root (debootstrap, chroot)")
    cuts = int(os.environ.get("SPIELTISCH_VM_CUTS", "20"))
    vm_dir = Path(os.environ.get("VM_DIR", "/var/tmp/spieltisch-vm"))
    result = subprocess.run(
        ["bash", str(ROOT / "vm" / "run.sh"), str(cuts)], check=False, timeout=8 * 3600
    )
    report = json.loads((vm_dir / "logs" / "power-cuts.json").read_text(encoding="utf-8"))
    assert report["cuts"] >= cuts, report
    for key in power_cuts().MISSES:
        assert report.get(key, 0) == 0, report
    assert report.get("resumed", 0) + report.get("finished", 0) >= cuts, report
    assert report.get("finished", 0) >= 1, "no game finished: the games were too long"
    assert result.returncode == 0, report
