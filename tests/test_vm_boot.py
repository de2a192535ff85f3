"""The boot test: a Debian bookworm VM, the real installer, systemd as PID 1, power cuts.

vm/run.sh builds the VM from nothing (debootstrap, qemu full-system), installs the
project in it as docs/install.md says, measures power-on -> READY and pulls the plug
(kill -9 qemu) during bot games, checking every boot (vm/power_cuts.py). It needs root,
qemu and an hour or more under emulation, so it is a tier of its own:

    SPIELTISCH_VM=1 sudo -E .venv/bin/python -m pytest -m vm tests/test_vm_boot.py

and skipped otherwise (CI never runs it). SPIELTISCH_VM_CUTS sets the number of cuts
(default 20); KEEP_ROOTFS=1 reuses a root file system built before.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.vm,
    pytest.mark.skipif(
        os.environ.get("SPIELTISCH_VM") != "1", reason="the VM tier: set SPIELTISCH_VM=1"
    ),
]


def test_power_cuts_in_a_booted_vm_lose_nothing() -> None:
    for tool in ("qemu-system-x86_64", "debootstrap", "mkfs.ext4"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    if os.geteuid() != 0:
        pytest.skip("vm/run.sh needs root (debootstrap, chroot)")
    cuts = int(os.environ.get("SPIELTISCH_VM_CUTS", "20"))
    vm_dir = Path(os.environ.get("VM_DIR", "/var/tmp/spieltisch-vm"))
    result = subprocess.run(
        ["bash", str(ROOT / "vm" / "run.sh"), str(cuts)], check=False, timeout=6 * 3600
    )
    report = json.loads((vm_dir / "logs" / "power-cuts.json").read_text(encoding="utf-8"))
    assert report["cuts"] >= cuts, report
    for key in ("lost", "replayed", "corrupt", "duplicated", "no_ready", "not_resumed"):
        assert report.get(key, 0) == 0, report
    assert report.get("resumed", 0) + report.get("finished", 0) >= cuts, report
    assert report.get("finished", 0) >= 1, "no game finished: the games were too long"
    assert result.returncode == 0, report
