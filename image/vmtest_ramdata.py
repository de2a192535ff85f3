"""A card whose data partition cannot be read, booted in a VM: the table must start.

    sudo python3 image/vmtest_ramdata.py out/spieltisch-V-amd64.img.xz [--how wiped unmountable]

Each case is a fresh card (image/vmtest.py's: the image on a 4 GiB disk) whose data
partition is spoiled before its first power-on:

``wiped``        its first 64 KiB zeroed, superblock and label with them: no partition
                 labelled ``spieltisch-data`` is found at all;
``unmountable``  an incompatible feature bit no kernel knows set in its superblock (with
                 ``debugfs``, which keeps the checksum right): the label is found, and
                 neither ``e2fsck`` nor ``mount`` will touch it.

The card must reach READY (image/vmtest.py's console line) with the notice that games
are not saved in the status it prints, in English or German; its data partition must
not have been grown (the grow step skips a RAM /data) and, in the ``unmountable``
case, must be byte for byte what it was (nothing tried to repair it).

Prints "IMGTEST {json}" lines like image/vmtest.py, one per card, and exits 0 when all
passed.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vmtest  # image/ is no package: its own directory is on the path

NOTICE = re.compile(
    rb"spieltisch: ready \(([^\n]*?(?:games are not saved|Spiele werden nicht gespeichert)"
    rb"[^\n]*)\)"
)
UNKNOWN_INCOMPAT = 0x80000000
"""A bit of ``feature_incompat`` that no ext4 uses: the kernel refuses to mount it."""


def spoil(card: Path, how: str) -> None:
    data = vmtest.partitions(card)[2]
    if how == "wiped":
        with open(card, "r+b") as fh:
            fh.seek(data.start)
            fh.write(bytes(64 << 10))
        return
    incompat = incompat_of(card, data)
    subprocess.run(
        [
            "debugfs", "-w", "-R",
            f"ssv feature_incompat {incompat | UNKNOWN_INCOMPAT:#x}",
            f"{card}?offset={data.start}",
        ],
        capture_output=True, check=True,
    )  # fmt: skip


def incompat_of(card: Path, data: vmtest.Partition) -> int:
    """The superblock's ``s_feature_incompat`` (offset 96 of the superblock at 1024)."""
    with open(card, "rb") as fh:
        fh.seek(data.start + 1024 + 96)
        return int.from_bytes(fh.read(4), "little")


def run_case(arch: str, raw: Path, work: Path, how: str, timeout: float) -> dict[str, Any]:
    name = f"card-{how}"
    card = vmtest.new_card(raw, work / f"{name}.img")
    spoil(card, how)
    before = vmtest.partitions(card)[2]
    spoiled_sha = vmtest.region_sha256(card, before)
    if arch == "arm64":
        vmtest.arm64_boot_files(card, work)
    m = vmtest.Machine(arch, card, work, name)
    m.start()
    ready = m.wait_ready(timeout)
    console = m.console.read_bytes()
    m.cut()
    notice = NOTICE.search(console)
    after = vmtest.partitions(card)[2]
    result: dict[str, Any] = {
        "how": how,
        "ready_s": ready,
        "status": notice.group(1).decode(errors="replace") if notice else "",
        "partition_grown": after.size != before.size,
        "data_unchanged": vmtest.region_sha256(card, after) == spoiled_sha,
        "emergency": b"emergency mode" in console.lower(),
    }
    result["ok"] = (
        ready is not None
        and notice is not None
        and not result["partition_grown"]
        and not result["emergency"]
        and (how != "unmountable" or result["data_unchanged"])
    )
    if not result["ok"]:
        result["console_tail"] = console[-2500:].decode(errors="replace")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("image", type=Path)
    parser.add_argument(
        "--how", nargs="+", choices=["wiped", "unmountable"], default=["wiped", "unmountable"]
    )
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--keep", action="store_true", help="keep the cards afterwards")
    args = parser.parse_args(argv)
    arch = "arm64" if "-arm64." in args.image.name else "amd64"
    ok = True
    with vmtest.workdir(args.keep) as work:
        raw = vmtest.unpack(args.image, work.parent)
        for how in args.how:
            result = run_case(arch, raw, work, how, args.timeout)
            vmtest.emit("ram-data", arch=arch, image=args.image.name, **result)
            ok = ok and bool(result["ok"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
