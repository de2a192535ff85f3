"""The card image's proof in a VM: boot to READY, power cuts in the first boot, a stranger's look.

    sudo python3 image/vmtest.py boot  out/spieltisch-V-amd64.img.xz
    sudo python3 image/vmtest.py cuts  out/spieltisch-V-amd64.img.xz [--cuts 20]
    sudo python3 image/vmtest.py stranger out/spieltisch-V-amd64.img.xz
    sudo python3 image/vmtest.py boot  out/spieltisch-V-arm64.img.xz   # -M virt
    sudo SPIELTISCH_SIGNING_KEY=KEY python3 image/vmtest.py update out/spieltisch-V-amd64.img.xz
    sudo SPIELTISCH_SIGNING_KEY=KEY python3 image/vmtest.py care out/spieltisch-V-amd64.img.xz

Each card is a fresh copy of the image, made 4 GiB as a card would be (the data
partition grows into the rest). The amd64 image boots as a disk does: UEFI firmware
(OVMF), its own boot loader, kernel and initrd from its boot partition; nothing is
passed from outside. The arm64 image boots under ``qemu-system-aarch64 -M virt`` with
the kernel and initrd taken from its boot partition (QEMU cannot run the Pi's GPU
firmware, which would read config.txt), and the kernel command line of its cmdline.txt.

READY is the line "spieltisch: ready (<status>)" on the serial console, printed by the
image's spieltisch-ready-console.service, which is ordered after the Type=notify
spieltisch.service and so starts only once the program has sent READY=1. The time from
power-on (qemu started) to that line is the figure.

A power cut is ``kill -9`` of qemu at a random moment between power-on and a little
after the first boot's READY (growing the partition, making the SSH key and the card's
name all happen in that window); the card is then switched on again and must reach
READY. Every card is then read offline (debugfs, nothing mounted): its machine id, host
name and SSH host key must be its own, its data partition's releases must have a
``current`` link, and the root partition must be byte for byte the image's.

``boot`` starts a card twice, then a third time with the data partition's
``releases/current`` link removed: the factory release on the root must start, and the
link be made again.

``update`` boots a card with an SSH key and a dummy panel, builds two signed bundles on
this host (a second release and a broken third whose ``spieltisch run`` exits at once;
the image's dependency wheels and each copy's own pure-Python wheel), applies the
second over SSH (it must run and be confirmed), then the third (systemd's start limit
and ``OnFailure=`` must roll it back to the second by themselves, with the notice in
the status and shown on the panel).

``care`` (image/vmcare.py) does the same updates, and a backup, a factory reset and the
backup restored, through the card's page as a phone sends them.

Each command prints "IMGTEST {json}" lines and a summary; the pytest tier
tests/test_image_vm.py runs them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CARD_BYTES = 4 << 30
READY = re.compile(rb"spieltisch: ready \(")
OVMF_CODE = Path("/usr/share/OVMF/OVMF_CODE_4M.fd")
OVMF_VARS = Path("/usr/share/OVMF/OVMF_VARS_4M.fd")


def emit(kind: str, **fields: Any) -> None:
    print("IMGTEST " + json.dumps({"kind": kind, **fields}), flush=True)


@dataclass
class Partition:
    number: int
    start: int  # bytes
    size: int  # bytes


def partitions(disk: Path) -> list[Partition]:
    out = subprocess.run(
        ["sfdisk", "-J", str(disk)], capture_output=True, text=True, check=True
    ).stdout
    table = json.loads(out)["partitiontable"]
    sector = int(table.get("sectorsize", 512))
    return [
        Partition(i + 1, int(p["start"]) * sector, int(p["size"]) * sector)
        for i, p in enumerate(table["partitions"])
    ]


def unpack(image: Path, work: Path) -> Path:
    """The image as a raw disk, kept beside the work directory; decompressed once (a
    raw .img is used as it is)."""
    if image.suffix != ".xz":
        return image
    raw = work / (image.name.removesuffix(".xz"))
    if not raw.exists() or raw.stat().st_mtime < image.stat().st_mtime:
        tmp = raw.with_suffix(".tmp")
        with lzma.open(image) as src, open(tmp, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        tmp.rename(raw)
    return raw


def new_card(raw: Path, card: Path) -> Path:
    """A fresh card: the image written to a 4 GiB disk."""
    subprocess.run(["cp", "--sparse=always", str(raw), str(card)], check=True)
    os.truncate(card, CARD_BYTES)
    return card


def region_sha256(disk: Path, part: Partition) -> str:
    h = hashlib.sha256()
    with open(disk, "rb") as fh:
        fh.seek(part.start)
        left = part.size
        while left:
            chunk = fh.read(min(left, 1 << 20))
            if not chunk:
                break
            h.update(chunk)
            left -= len(chunk)
    return h.hexdigest()


def debugfs(disk: Path, part: Partition, request: str) -> str:
    """A read-only look into an ext4 partition of a disk image, nothing mounted."""
    return subprocess.run(
        ["debugfs", "-R", request, f"{disk}?offset={part.start}"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout


def mtype(disk: Path, part: Partition, path: str) -> str:
    """A file from the FAT boot partition (mtools, nothing mounted)."""
    env = {**os.environ, "MTOOLS_SKIP_CHECK": "1"}
    return subprocess.run(
        ["mtype", "-i", f"{disk}@@{part.start}", f"::{path}"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Machine:
    """One power-on of a card in qemu; its serial console goes to a file."""

    def __init__(
        self, arch: str, disk: Path, work: Path, name: str, ports: dict[int, int] | None = None
    ):
        self.arch, self.disk, self.work, self.name = arch, disk, work, name
        self.console = work / f"{name}.serial"
        self.ports = ports or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.t0 = 0.0

    def command(self) -> list[str]:
        fwd = "".join(
            f",hostfwd=tcp:127.0.0.1:{host}-:{guest}" for guest, host in self.ports.items()
        )
        common = [
            "-m", "1024", "-smp", "2", "-display", "none", "-monitor", "none", "-no-reboot",
            "-serial", f"file:{self.console}",
            "-drive", f"file={self.disk},format=raw,if=none,id=card,cache=writeback",
            "-device", "virtio-blk-pci,drive=card",
            "-nic", f"user,model=virtio-net-pci{fwd}",
        ]  # fmt: skip
        if self.arch == "amd64":
            vars_copy = self.work / f"{self.disk.name}.vars"
            if not vars_copy.exists():
                shutil.copy(OVMF_VARS, vars_copy)
            return [
                "qemu-system-x86_64", "-machine", "q35", "-cpu", "max",
                "-accel", "tcg,thread=multi",
                "-drive", f"if=pflash,format=raw,unit=0,readonly=on,file={OVMF_CODE}",
                "-drive", f"if=pflash,format=raw,unit=1,file={vars_copy}",
                *common,
            ]  # fmt: skip
        boot = self.work / f"{self.disk.name}.boot"
        if not (boot / "cmdline").exists():
            # every command that powers a card on gets them here, not each on its own
            arm64_boot_files(self.disk, self.work)
        return [
            "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-accel", "tcg,thread=multi",
            "-kernel", str(boot / "vmlinuz"), "-initrd", str(boot / "initrd.img"),
            "-append", (boot / "cmdline").read_text().strip(),
            *common,
        ]  # fmt: skip

    def start(self) -> None:
        self.console.write_bytes(b"")
        self.t0 = time.monotonic()
        # qemu keeps its own copy of the file: this one closes once it has started
        with open(self.work / f"{self.name}.qemu-stderr", "wb") as err:
            self.proc = subprocess.Popen(
                self.command(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float) -> float | None:
        """Seconds from power-on to READY, or None (qemu ended, or the timeout)."""
        assert self.proc is not None
        end = self.t0 + timeout
        while time.monotonic() < end:
            if READY.search(self.console.read_bytes()):
                return round(time.monotonic() - self.t0, 1)
            if self.proc.poll() is not None:
                return None
            time.sleep(0.2)
        return None

    def cut(self) -> None:
        """Pull the plug: SIGKILL, no shutdown, no sync."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def poweroff(self, timeout: float = 180) -> None:
        """A clean shutdown through ACPI (amd64) or, failing that, a cut."""
        if self.proc is None:
            return
        if self.ports.get(22):
            ssh(self.ports[22], self.work, "systemctl poweroff", check=False)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.cut()


def arm64_boot_files(card: Path, work: Path) -> None:
    """The kernel, initrd and command line from the card's boot partition (-M virt)."""
    boot = work / f"{card.name}.boot"
    boot.mkdir(exist_ok=True)
    part = partitions(card)[0]
    env = {**os.environ, "MTOOLS_SKIP_CHECK": "1"}
    config = mtype(card, part, "/config.txt")
    kernel = re.search(r"^kernel=(\S+)", config, re.M)
    initrd = re.search(r"^initramfs (\S+)", config, re.M)
    assert kernel and initrd, config
    for src, dst in ((kernel.group(1), "vmlinuz"), (initrd.group(1), "initrd.img")):
        subprocess.run(
            ["mcopy", "-o", "-i", f"{card}@@{part.start}", f"::/{src}", str(boot / dst)],
            check=True,
            env=env,
        )
    cmdline = mtype(card, part, "/cmdline.txt").split()
    # the Pi's consoles do not exist on -M virt; its PL011 is ttyAMA0
    cmdline = [a for a in cmdline if not a.startswith("console=")] + ["console=ttyAMA0"]
    (boot / "cmdline").write_text(" ".join(cmdline))


def card_identity(card: Path) -> dict[str, Any]:
    """What a stranger reads off a card: its identity, keys, users' passwords, sizes."""
    parts = partitions(card)
    root, data = parts[1], parts[2]
    # a card switched off by a cut: replay its data journal first, as the next boot's
    # initramfs would, so debugfs sees what was committed (the root is never touched)
    subprocess.run(
        ["e2fsck", "-p", f"{card}?offset={data.start}"], capture_output=True, check=False
    )
    stats = debugfs(card, data, "stats")
    blocks = re.search(r"Block count:\s+(\d+)", stats)
    bsize = re.search(r"Block size:\s+(\d+)", stats)
    shadow = debugfs(card, root, "cat /etc/shadow")
    usable = [
        line.split(":")[0]
        for line in shadow.splitlines()
        if line.count(":") >= 2
        and not line.split(":")[1].startswith(("!", "*"))
        and line.split(":")[1] != ""
    ]
    empty = [
        line.split(":")[0]
        for line in shadow.splitlines()
        if line.count(":") >= 2 and line.split(":")[1] == ""
    ]
    return {
        "machine_id": debugfs(card, data, "cat /system/machine-id").strip(),
        "hostname": debugfs(card, data, "cat /system/hostname").strip(),
        "host_key": debugfs(card, data, "cat /system/ssh/ssh_host_ed25519_key.pub").strip(),
        "root_host_keys": [
            n for n in debugfs(card, root, "ls -l /etc/ssh").split() if n.startswith("ssh_host_")
        ],
        "passwords": usable,
        "empty_passwords": empty,
        "grown": debugfs(card, data, "stat /system/grown").startswith("Inode"),
        "current": current_release(card),
        "data_mib": (int(blocks.group(1)) * int(bsize.group(1)) >> 20)
        if blocks and bsize
        else None,
        "partition_mib": data.size >> 20,
    }


def ssh(
    port: int,
    work: Path,
    command: str,
    check: bool = True,
    stdin: str | bytes = "",
    timeout: float = 300,
) -> str:
    key = work / "id_ed25519"
    result = subprocess.run(
        ["ssh", "-i", str(key), "-p", str(port), "-o", "StrictHostKeyChecking=no",
         "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
         "-o", "LogLevel=ERROR", "root@127.0.0.1", command],
        capture_output=True, check=False, timeout=timeout,
        input=stdin.encode() if isinstance(stdin, str) else stdin,
    )  # fmt: skip
    if check and result.returncode != 0:
        err = result.stderr.decode(errors="replace").strip()
        raise RuntimeError(f"ssh {command!r}: {result.returncode} {err}")
    return result.stdout.decode(errors="replace")


@contextmanager
def workdir(keep: bool) -> Iterator[Path]:
    base = Path(os.environ.get("IMG_TEST_DIR", "/var/tmp/spieltisch-image/test"))
    base.mkdir(parents=True, exist_ok=True)
    path = Path(tempfile.mkdtemp(prefix="run-", dir=base))
    try:
        yield path
    finally:
        if not keep:
            for card in path.glob("card*.img"):
                card.unlink()


def boot_once(arch: str, raw: Path, work: Path, name: str, timeout: float) -> dict[str, Any]:
    card = new_card(raw, work / f"{name}.img")
    if arch == "arm64":
        arm64_boot_files(card, work)
    m = Machine(arch, card, work, name)
    m.start()
    first = m.wait_ready(timeout)
    m.cut()
    result: dict[str, Any] = {"first_boot_ready_s": first}
    if first is not None:
        m2 = Machine(arch, card, work, name + "-again")
        m2.start()
        result["second_boot_ready_s"] = m2.wait_ready(timeout)
        m2.cut()
    result["console_tail"] = (
        m.console.read_bytes()[-1500:].decode(errors="replace") if first is None else ""
    )
    return result


def current_release(card: Path) -> str:
    """Where the data partition's ``releases/current`` link points ("" if it is missing)."""
    found = re.search(
        r"Fast link dest: \"?([^\"\n]*)",
        debugfs(card, partitions(card)[2], "stat /releases/current"),
    )
    return found.group(1) if found else ""


def cmd_boot(args: argparse.Namespace) -> int:
    with workdir(args.keep) as work:
        raw = unpack(args.image, work.parent)
        result = boot_once(args.arch, raw, work, "card-boot", args.timeout)
        emit("boot", arch=args.arch, image=args.image.name, **result)
        if not result.get("second_boot_ready_s"):
            return 1
        # a data partition that lost its releases' "current" link: the factory release
        # must start, and the link be made again
        card = work / "card-boot.img"
        data = partitions(card)[2]
        subprocess.run(
            ["e2fsck", "-fy", f"{card}?offset={data.start}"], capture_output=True, check=False
        )
        subprocess.run(
            ["debugfs", "-w", "-R", "rm /releases/current", f"{card}?offset={data.start}"],
            capture_output=True,
            check=True,
        )
        removed = current_release(card) == ""
        m = Machine(args.arch, card, work, "card-boot-no-current")
        m.start()
        ready = m.wait_ready(args.timeout)
        time.sleep(10 if ready else 0)
        m.cut()
        subprocess.run(
            ["e2fsck", "-p", f"{card}?offset={data.start}"], capture_output=True, check=False
        )
        emit(
            "boot-without-current",
            link_removed=removed,
            ready_s=ready,
            current_after=current_release(card),
        )
        return 0 if ready is not None and current_release(card) else 1


def cmd_cuts(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    with workdir(args.keep) as work:
        raw = unpack(args.image, work.parent)
        root_sha = region_sha256(raw, partitions(raw)[1])
        # the window: power-on to a little after the first boot's READY (measured by a
        # probe boot, or given, e.g. by another run's probe on the same machine)
        if args.window:
            window = args.window
            emit("window", seconds=window, given=True)
        else:
            probe = boot_once(args.arch, raw, work, "card-probe", args.timeout)
            window = float(probe["first_boot_ready_s"] or args.timeout) + 15
            emit(
                "window", seconds=window, **{k: v for k, v in probe.items() if k != "console_tail"}
            )
        ok = 0
        identities: list[dict[str, Any]] = []
        for i in range(args.cuts):
            name = f"card{i:02d}"
            card = new_card(raw, work / f"{name}.img")
            if args.arch == "arm64":
                arm64_boot_files(card, work)
            at = round(rng.uniform(1.0, window), 1)
            m = Machine(args.arch, card, work, name)
            m.start()
            reached = m.wait_ready(at)
            if reached is None:
                time.sleep(max(0.0, at - (time.monotonic() - m.t0)))
            m.cut()
            after = Machine(args.arch, card, work, name + "-after")
            after.start()
            ready = after.wait_ready(args.timeout)
            # a second, clean look: let the first-boot units finish, then cut again
            time.sleep(10 if ready else 0)
            after.cut()
            ident = card_identity(card)
            same_root = region_sha256(card, partitions(card)[1]) == root_sha
            good = (
                ready is not None
                and same_root
                and bool(ident["machine_id"])
                and bool(ident["host_key"])
                and bool(ident["current"])
            )
            ok += good
            identities.append(ident)
            emit(
                "cut",
                card=name,
                cut_at_s=at,
                cut_after_ready=reached is not None,
                ready_after_s=ready,
                root_unchanged=same_root,
                grown=ident["grown"],
                hostname=ident["hostname"],
                current=ident["current"],
                ok=good,
            )
            if not good:
                tail = after.console.read_bytes()[-2000:].decode(errors="replace")
                print(tail, file=sys.stderr)
        distinct = {
            field: len({i[field] for i in identities if i[field]})
            for field in ("machine_id", "hostname", "host_key")
        }
        emit("cuts", arch=args.arch, cuts=args.cuts, ready=ok, distinct=distinct)
        return 0 if ok == args.cuts else 1


def cmd_stranger(args: argparse.Namespace) -> int:
    """A card read and probed as a stranger would: keys, passwords, listeners, root writes."""
    with workdir(args.keep) as work:
        raw = unpack(args.image, work.parent)
        root_part = partitions(raw)[1]
        root_sha = region_sha256(raw, root_part)
        findings: dict[str, Any] = {}
        cards = []
        for name in ("card-a", "card-b"):
            card = new_card(raw, work / f"{name}.img")
            port = free_port()
            m = Machine(args.arch, card, work, name, ports={8080: port, 22: free_port()})
            m.start()
            findings[f"{name}_ready_s"] = m.wait_ready(args.timeout)
            time.sleep(15)  # the first-boot units after READY
            # SSH is off: nothing answers on 22
            try:
                with socket.create_connection(("127.0.0.1", m.ports[22]), timeout=5) as s:
                    s.settimeout(5)
                    banner = s.recv(64)
            except OSError:
                banner = b""
            findings[f"{name}_ssh_banner_without_key"] = banner.decode(errors="replace")
            m.cut()
            cards.append(card)
            ident = card_identity(card)
            findings[name] = ident
        a, b = findings["card-a"], findings["card-b"]
        findings["shared"] = [
            k for k in ("machine_id", "hostname", "host_key") if a[k] and a[k] == b[k]
        ]
        # Now give card a a key, as the settings file would, and look inside while it runs
        key = work / "id_ed25519"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
        card = cards[0]
        data = partitions(card)[2]
        # the card was switched off by a cut: its journal is replayed first (as the
        # initramfs would), since debugfs writes past an unreplayed journal
        subprocess.run(
            ["e2fsck", "-fy", f"{card}?offset={data.start}"], capture_output=True, check=False
        )
        subprocess.run(
            [
                "debugfs",
                "-w",
                "-R",
                "mkdir /system/spieltisch-boot/ssh",
                f"{card}?offset={data.start}",
            ],
            capture_output=True,
            check=False,
        )
        write = f"write {key}.pub /system/spieltisch-boot/ssh/authorized_keys"
        subprocess.run(
            ["debugfs", "-w", "-R", write, f"{card}?offset={data.start}"],
            check=True,
            capture_output=True,
        )
        m = Machine(args.arch, card, work, "card-a-ssh", ports={8080: free_port(), 22: free_port()})
        m.start()
        findings["ssh_boot_ready_s"] = m.wait_ready(args.timeout)
        for _ in range(60):
            if ssh(m.ports[22], work, "true", check=False) == "":
                try:
                    ssh(m.ports[22], work, "true")
                    break
                except RuntimeError:
                    time.sleep(2)
        script = (
            "ss -Htlnp; echo ---; ss -Hulnp; echo ---; findmnt -no OPTIONS /; echo ---;"
            " systemctl show -p StatusText --value spieltisch; echo ---;"
            " systemctl --failed --no-legend; echo ---; touch /usr/x 2>&1; echo ---;"
            " hostname; echo ---;"
            " /opt/spieltisch/venv/bin/spieltisch selftest 2>&1 | tail -n 3"
        )
        out = ssh(m.ports[22], work, script).split("---\n")
        findings["listening_tcp"] = out[0].strip().splitlines()
        findings["listening_udp"] = out[1].strip().splitlines()
        findings["root_mount"] = out[2].strip()
        findings["status"] = out[3].strip()
        findings["failed_units"] = out[4].strip().splitlines()
        findings["write_to_root"] = out[5].strip()
        findings["hostname_running"] = out[6].strip()
        findings["selftest"] = out[7].strip().splitlines()
        try:
            page = subprocess.run(
                ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", f"http://127.0.0.1:{m.ports[8080]}/"],
                capture_output=True, text=True, timeout=30, check=False,
            ).stdout  # fmt: skip
        except (OSError, subprocess.TimeoutExpired):
            page = ""
        findings["page_http"] = page
        m.poweroff()
        m.cut()
        findings["root_unchanged_after_all_boots"] = [
            region_sha256(c, partitions(c)[1]) == root_sha for c in cards
        ]
        emit("stranger", arch=args.arch, **findings)
        tcp_ports = sorted(
            {line.split()[3].rsplit(":", 1)[1] for line in findings["listening_tcp"]}
        )
        good = (
            not findings["shared"]
            and not a["passwords"] and not a["empty_passwords"]
            and not a["root_host_keys"]
            and findings["card-a_ssh_banner_without_key"] == ""
            and set(tcp_ports) <= {"22", "8080"}
            and "ro" in findings["root_mount"].split(",")
            and all(findings["root_unchanged_after_all_boots"])
        )  # fmt: skip
        emit("stranger-verdict", ok=good, tcp_ports=tcp_ports)
        return 0 if good else 1


PLAY = r"""
set -e
/opt/spieltisch/venv/bin/python - /etc/spieltisch/config.toml <<'PY'
import sys
from controller.testing.files import config_text
text = config_text(seats=("bot",) * 4)
text = text.replace('bot = "random"', 'bot = "random"\nbot_delay_s = 0.2')
open(sys.argv[1], "w").write(text)
PY
mkdir -p /run/systemd/system/spieltisch.service.d
printf '[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=mock\n' \
    >/run/systemd/system/spieltisch.service.d/mock-pins.conf
systemctl daemon-reload
# a fresh bot game on the table, as vm/guest/boot_check.py puts one there (the table
# itself waits in its menu)
systemctl stop spieltisch
cd / && runuser -u spieltisch -- /opt/spieltisch/venv/bin/python -I /tmp/boot_check.py \
    newgame /var/lib/spieltisch
systemctl start spieltisch
"""
BOOT_CHECK = Path(__file__).resolve().parent.parent / "vm" / "guest" / "boot_check.py"


MOVES = (
    'python3 -c \'import json; d = json.load(open("/var/lib/spieltisch/session.json"));'
    ' print(len(d["history"]))\' 2>/dev/null || echo 0'
)


def give_key(card: Path, work: Path) -> None:
    """An SSH key on the card's data partition, where the settings file's step puts it."""
    key = work / "id_ed25519"
    if not key.exists():
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    data = partitions(card)[2]
    target = f"{card}?offset={data.start}"
    subprocess.run(["e2fsck", "-fy", target], capture_output=True, check=False)
    for request in (
        "mkdir /system/spieltisch-boot/ssh",
        f"write {key}.pub /system/spieltisch-boot/ssh/authorized_keys",
    ):
        subprocess.run(["debugfs", "-w", "-R", request, target], capture_output=True, check=False)


def cmd_play(args: argparse.Namespace) -> int:
    """Bots play on a card for a while; the root partition must not change."""
    with workdir(args.keep) as work:
        raw = unpack(args.image, work.parent)
        root_sha = region_sha256(raw, partitions(raw)[1])
        card = new_card(raw, work / "card-play.img")
        give_key(card, work)
        m = Machine(args.arch, card, work, "card-play", ports={22: free_port()})
        m.start()
        ready = m.wait_ready(args.timeout)
        for _ in range(90):
            if ssh(m.ports[22], work, "echo up", check=False).strip() == "up":
                break
            time.sleep(2)
        ssh(m.ports[22], work, "cat >/tmp/boot_check.py", stdin=BOOT_CHECK.read_text())
        ssh(m.ports[22], work, PLAY)
        moves = []
        for _ in range(args.play_checks):
            time.sleep(20)
            out = ssh(m.ports[22], work, MOVES, check=False)
            moves.append(int(out.strip() or 0))
        status = ssh(
            m.ports[22], work, "systemctl show -p StatusText --value spieltisch", check=False
        )
        m.poweroff()
        m.cut()
        same = region_sha256(card, partitions(card)[1]) == root_sha
        emit(
            "play",
            arch=args.arch,
            ready_s=ready,
            moves=moves,
            status=status.strip(),
            root_unchanged=same,
        )
        return 0 if same and moves and max(moves) > 0 else 1


# -- updates ------------------------------------------------------------------------

REPO = Path(__file__).resolve().parent.parent
PROGRAM = "/opt/spieltisch/venv/bin/spieltisch"
BREAK_AT = "    from controller.app import DEFAULT_STATE_DIR, Appliance, install_signal_handlers\n"
BROKEN = '    raise SystemExit("a deliberately broken release: it exits at start")\n'


def release_copy(dest: Path, version: str, broken: bool) -> Path:
    """The checkout's tracked files, as git has them in the working tree, with another
    version in pyproject.toml; ``broken``: its ``spieltisch run`` exits at once (the
    update's checks, which never run the appliance, still pass). No ``.git`` goes with
    it, so the bundle's release is named by the version alone."""
    files = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, check=True
    ).stdout
    dest.mkdir(parents=True)
    for name in filter(None, files.decode().split("\0")):
        src = REPO / name
        if name.startswith("out/") or not src.is_file() or src.is_symlink():
            continue
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest / name)
    pyproject = dest / "pyproject.toml"
    text, n = re.subn(
        r'(?m)^version = "[^"]*"', f'version = "{version}"', pyproject.read_text(), count=1
    )
    assert n == 1, "no version line in pyproject.toml"
    pyproject.write_text(text)
    if broken:
        run = dest / "controller" / "cli" / "run.py"
        source = run.read_text()
        assert BREAK_AT in source, f"{run}: the line to break before is gone"
        run.write_text(source.replace(BREAK_AT, BROKEN + BREAK_AT, 1))
    return dest


def default_deps() -> Path | None:
    """The dependency wheels the amd64 image was built with (Debian's Python 3.11), in
    the image build's cache."""
    base = Path(os.environ.get("IMG_WORK", "/var/tmp/spieltisch-image")) / "amd64"
    found = sorted(base.glob("wheels-deps-*"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def make_bundle(
    args: argparse.Namespace, work: Path, version: str, broken: bool
) -> tuple[Path, float]:
    """A signed bundle of ``version`` built on this host with ``spieltisch update
    bundle --wheels``: the image's dependency wheels and the copy's own wheel (pure
    Python, so no compiler and no manylinux question); returns it and its seconds."""
    t = time.monotonic()
    copy = release_copy(work / f"checkout-{version}", version, broken)
    wheels = work / f"wheels-{version}"
    wheels.mkdir()
    for wheel in sorted(args.deps.glob("*.whl")):
        if not wheel.name.startswith("spieltisch-"):
            shutil.copyfile(wheel, wheels / wheel.name)
    python = str(args.host_python)
    subprocess.run(
        [python, "-m", "pip", "wheel", "-q", "--no-deps",
         "--wheel-dir", str(wheels), str(copy)],
        check=True, capture_output=True, cwd=work,
    )  # fmt: skip
    out = work / f"spieltisch-{version}-amd64.tar"
    done = subprocess.run(
        [python, "-m", "controller", "update", "bundle", "--key", str(args.key),
         "--checkout", str(copy), "--wheels", str(wheels), str(out)],
        check=True, capture_output=True, text=True, cwd=REPO,
    )  # fmt: skip
    emit("bundle", version=version, broken=broken, line=done.stdout.strip(),
         bytes=out.stat().st_size, seconds=round(time.monotonic() - t, 1))  # fmt: skip
    return out, round(time.monotonic() - t, 1)


def card_status(port: int, work: Path) -> dict[str, Any]:
    out = ssh(port, work, f"{PROGRAM} update status --json", check=False)
    try:
        found = json.loads(out)
    except json.JSONDecodeError:
        return {}
    return found if isinstance(found, dict) else {}


def unit_show(port: int, work: Path) -> dict[str, str]:
    out = ssh(
        port,
        work,
        "systemctl show -p ActiveState -p MainPID -p NRestarts -p StatusText spieltisch",
        check=False,
    )
    return dict(line.partition("=")[::2] for line in out.splitlines())


def wait_for(test: Any, timeout: float, poll: float = 3.0) -> float | None:
    """Seconds until ``test()`` is true, or None after ``timeout``."""
    t = time.monotonic()
    while time.monotonic() - t < timeout:
        if test():
            return round(time.monotonic() - t, 1)
        time.sleep(poll)
    return None


def phase(status: dict[str, Any]) -> str:
    return str((status.get("state") or {}).get("phase", ""))


def send_and_apply(
    port: int, work: Path, bundle: Path, timeout: float
) -> tuple[float, float, str, str]:
    """The bundle copied to the card over SSH and applied there as root; returns the
    copy's and the apply's seconds, the apply's output and the table's MainPID before."""
    t = time.monotonic()
    # on the data partition: the card's /tmp is a 64 MiB tmpfs that pip needs too
    target = f"/data/{bundle.name}"
    ssh(port, work, f"cat >{target}", stdin=bundle.read_bytes(), timeout=600)
    copied = round(time.monotonic() - t, 1)
    pid = unit_show(port, work).get("MainPID", "")
    t = time.monotonic()
    out = ssh(port, work, f"{PROGRAM} update apply {target} 2>&1; rm -f {target}", timeout=timeout)
    return copied, round(time.monotonic() - t, 1), out.strip(), pid


PANEL = r"""
set -e
/opt/spieltisch/venv/bin/python - /etc/spieltisch/config.toml <<'PY'
import sys
from controller.testing.files import config_text
open(sys.argv[1], "w").write(config_text(seats=("human", "human")))
PY
mkdir -p /run/systemd/system/spieltisch.service.d
printf '[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=mock\n' \
    >/run/systemd/system/spieltisch.service.d/mock-pins.conf
systemctl daemon-reload
systemctl restart spieltisch
"""


def cmd_update(args: argparse.Namespace) -> int:
    """A card updated to a second release, then to a broken third that must roll back
    by itself to the second."""
    if args.key is None or not args.key.is_file():
        print("vmtest update: give the signing key the image trusts (--key)", file=sys.stderr)
        return 2
    args.deps = args.deps or default_deps()
    if args.deps is None:
        print(
            "vmtest update: no dependency wheels (--deps; build the image first)", file=sys.stderr
        )
        return 2
    with workdir(args.keep) as work:
        raw = unpack(args.image, work.parent)
        card = new_card(raw, work / "card-update.img")
        give_key(card, work)
        m = Machine(args.arch, card, work, "card-update", ports={22: free_port()})
        port = m.ports[22]
        m.start()
        # the bundles are built on the host while the card boots
        base = re.search(r'(?m)^version = "([^"]*)"', (REPO / "pyproject.toml").read_text())
        assert base
        second, third = f"{base.group(1)}.post1", f"{base.group(1)}.post2"
        good, _ = make_bundle(args, work, second, broken=False)
        bad, _ = make_bundle(args, work, third, broken=True)
        ready = m.wait_ready(args.timeout)
        emit("boot", arch=args.arch, ready_s=ready)
        if ready is None:
            print(m.console.read_bytes()[-1500:].decode(errors="replace"), file=sys.stderr)
            m.cut()
            return 1
        wait_for(lambda: ssh(port, work, "echo up", check=False).strip() == "up", 180, 2)
        # a panel (luma's dummy) and two human seats: the table runs its menu, so the
        # notice of an update is shown (and marked shown) as on a real panel
        ssh(port, work, PANEL)
        panel_up = wait_for(lambda: unit_show(port, work).get("ActiveState") == "active", 300)
        emit("panel", active_after_s=panel_up, status=unit_show(port, work).get("StatusText"))
        before = card_status(port, work)
        factory = before.get("current")
        emit("factory", current=factory, version=before.get("version"))
        result: dict[str, Any] = {"factory": factory, "second": second, "third": third}

        # the second release: applied, restarted, READY, then confirmed by the check unit
        copied, applied, out, pid = send_and_apply(port, work, good, args.timeout)
        emit("apply", to=second, copy_s=copied, apply_s=applied, output=out.splitlines())
        if "switched to" not in out:
            m.cut()
            emit("update-verdict", ok=False, refused=out, **result)
            return 1
        up = wait_for(
            lambda: (
                (u := unit_show(port, work)).get("ActiveState") == "active"
                and u.get("MainPID") not in ("", "0", pid)
            ),
            args.timeout,
        )
        confirmed = wait_for(lambda: phase(card_status(port, work)) == "confirmed", args.timeout)
        after = card_status(port, work)
        link = ssh(port, work, "readlink /opt/spieltisch/current", check=False).strip()
        result.update(
            second_ready_after_apply_s=up,
            second_confirmed_after_s=confirmed,
            second_current=after.get("current"),
            second_version=after.get("version"),
            second_link=link,
        )
        emit("updated", to=second, ready_after_apply_s=up, confirmed_after_s=confirmed,
             current=after.get("current"), version=after.get("version"), link=link,
             notice=after.get("notice"))  # fmt: skip
        second_ok = after.get("current") == second and link.endswith(second)

        # the broken third: its checks pass, its start fails, systemd rolls it back
        copied, applied, out, pid = send_and_apply(port, work, bad, args.timeout)
        emit("apply", to=third, copy_s=copied, apply_s=applied, output=out.splitlines())
        if "switched to" not in out:
            m.cut()
            emit("update-verdict", ok=False, refused=out, second_ok=second_ok, **result)
            return 1
        rolled = wait_for(
            lambda: phase(card_status(port, work)) in ("rolled-back", "confirmed"),
            args.timeout,
        )
        back_up = wait_for(
            lambda: (
                unit_show(port, work).get("ActiveState") == "active"
                and card_status(port, work).get("current") == second
            ),
            args.timeout,
        )
        final = card_status(port, work)
        stamp = repr((final.get("notice") or {}).get("time"))
        shown = wait_for(
            lambda: (
                ssh(port, work, "cat /var/lib/spieltisch/update-notice.seen", check=False).strip()
                == stamp
            ),
            120,
        )
        unit = unit_show(port, work)
        link = ssh(port, work, "readlink /opt/spieltisch/current", check=False).strip()
        journal = ssh(
            port,
            work,
            "journalctl -b --no-pager -o short-monotonic -u spieltisch-rollback"
            " -u spieltisch-update-check | tail -n 12; echo ---;"
            " journalctl -b --no-pager -o short-monotonic -u spieltisch"
            " | grep -E 'deliberately|back on|update to' | tail -n 8; echo ---;"
            # the table marks a notice shown on the panel with the notice's time
            " cat /var/lib/spieltisch/update-notice.seen 2>/dev/null",
            check=False,
        ).split("---\n")
        notice = final.get("notice") or {}
        words = str(notice.get("text", notice)) if isinstance(notice, dict) else str(notice)
        result.update(
            broken_rolled_back_after_apply_s=rolled,
            back_ready_after_apply_s=back_up,
            final_phase=phase(final),
            final_current=final.get("current"),
            final_link=link,
            notice=words,
            notice_shown_on_panel=shown is not None,
        )
        emit("rolled-back", to=third, phase=phase(final), rolled_back_after_s=rolled,
             ready_again_after_s=back_up, current=final.get("current"), link=link,
             restarts=unit.get("NRestarts"), status_text=unit.get("StatusText"),
             notice=notice, units_journal=journal[0].strip().splitlines(),
             table_journal=journal[1].strip().splitlines() if len(journal) > 1 else [],
             panel_shown_mark=journal[2].strip() if len(journal) > 2 else "",
             notice_shown_on_panel_after_s=shown)  # fmt: skip
        m.poweroff()
        m.cut()
        back_ok = (
            phase(final) == "rolled-back"
            and final.get("current") == second
            and link.endswith(second)
            and f"update to {third} failed" in words
            and f"back on {second}" in words
            and unit.get("ActiveState") == "active"
            and shown is not None
        )
        emit("update-verdict", ok=second_ok and back_ok, second_ok=second_ok, back_ok=back_ok,
             **result)  # fmt: skip
        return 0 if second_ok and back_ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("command", choices=["boot", "cuts", "stranger", "play", "update", "care"])
    parser.add_argument("image", type=Path)
    parser.add_argument("--cuts", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument(
        "--window", type=float, default=None, help="cut within this many seconds (no probe)"
    )
    parser.add_argument(
        "--timeout", type=float, default=900.0, help="seconds a boot may take to READY"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the cards (disk images) afterwards"
    )
    parser.add_argument("--play-checks", type=int, default=6, help="20 s looks at the game")
    parser.add_argument(
        "--key",
        type=Path,
        default=os.environ.get("SPIELTISCH_SIGNING_KEY"),
        help="update: the private key the image trusts (default: $SPIELTISCH_SIGNING_KEY)",
    )
    parser.add_argument(
        "--deps", type=Path, help="update: the image's dependency wheels (default: its cache)"
    )
    parser.add_argument(
        "--card", type=Path, help="care: start this kept card again for the backup's round"
    )
    parser.add_argument(
        "--host-python",
        type=Path,
        default=REPO / ".venv" / "bin" / "python"
        if (REPO / ".venv" / "bin" / "python").exists()
        else Path(sys.executable),
        help="update: the Python that builds the bundles (with this checkout installed)",
    )
    args = parser.parse_args(argv)
    args.arch = "arm64" if "-arm64." in args.image.name else "amd64"
    handlers = {
        "boot": cmd_boot,
        "cuts": cmd_cuts,
        "stranger": cmd_stranger,
        "play": cmd_play,
        "update": cmd_update,
    }
    if args.command == "care":
        from vmcare import cmd_care  # its own module: the page's flows (image/vmcare.py)

        return cmd_care(args)
    return handlers[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
