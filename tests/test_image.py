"""The card image's recipe, checked without building it (image/; the build and the VM
boots are tests/test_image_vm.py's tier).

What can go wrong quietly in a recipe: a script that does not parse, a first-boot step
that a power cut leaves half done, a file of the card that ends up on the read-only root
when it must change, a partition table the VM test reads wrongly.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
IMAGE = ROOT / "image"
FILES = IMAGE / "files"


def vmtest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vmtest", IMAGE / "vmtest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up by name
    sys.modules.setdefault("vmtest", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "script",
    ["build.sh", "common.sh", "configure.sh", "assemble.sh", "boot-amd64.sh", "boot-arm64.sh"],
)
def test_the_build_scripts_parse(script: str) -> None:
    subprocess.run(["bash", "-n", str(IMAGE / script)], check=True)


@pytest.mark.parametrize(
    "script", ["initramfs-data", "initramfs-hook", "spieltisch-grow-data", "spieltisch-ssh-keys"]
)
def test_the_card_scripts_parse_as_posix_sh(script: str) -> None:
    # the initramfs runs them with klibc's or busybox's sh, the card with dash
    subprocess.run(["sh", "-n", str(FILES / script)], check=True)


def test_the_build_without_an_architecture_says_how_and_changes_nothing() -> None:
    result = subprocess.run(
        ["bash", str(IMAGE / "build.sh")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert "image/build.sh arm64" in result.stdout


needs_ssh_keygen = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")


def make_keys(directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(FILES / "spieltisch-ssh-keys")],
        env={**os.environ, "SPIELTISCH_SSH_DIR": str(directory)},
        capture_output=True,
        text=True,
        check=True,
    )


def fingerprint(key: Path) -> str:
    return subprocess.run(
        ["ssh-keygen", "-l", "-f", str(key)], capture_output=True, text=True, check=True
    ).stdout


@needs_ssh_keygen
def test_the_host_key_is_made_once_and_kept(tmp_path: Path) -> None:
    make_keys(tmp_path)
    key = tmp_path / "ssh_host_ed25519_key"
    first = fingerprint(key)
    assert (tmp_path / "ssh_host_ed25519_key.pub").read_text().startswith("ssh-ed25519 ")
    assert key.stat().st_mode & 0o077 == 0
    make_keys(tmp_path)
    assert fingerprint(key) == first
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "ssh_host_ed25519_key",
        "ssh_host_ed25519_key.pub",
    ]


@needs_ssh_keygen
def test_a_key_cut_in_half_by_a_power_cut_is_made_again(tmp_path: Path) -> None:
    # what a cut can leave: a half-written temporary key, and a private key whose public
    # half never got its name (the script renames the public half first, so this is the
    # worst order a file system could show after a cut)
    (tmp_path / ".new_key").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn")
    (tmp_path / "ssh_host_ed25519_key").write_text("")
    make_keys(tmp_path)
    key = tmp_path / "ssh_host_ed25519_key"
    assert "ED25519" in fingerprint(key)
    assert not (tmp_path / ".new_key").exists()
    public = (tmp_path / "ssh_host_ed25519_key.pub").read_text().split()[1]
    derived = subprocess.run(
        ["ssh-keygen", "-y", "-f", str(key)], capture_output=True, text=True, check=True
    )
    assert derived.stdout.split()[1] == public


@needs_ssh_keygen
def test_two_cards_never_share_a_host_key(tmp_path: Path) -> None:
    for card in ("a", "b"):
        (tmp_path / card).mkdir()
        make_keys(tmp_path / card)
    assert fingerprint(tmp_path / "a" / "ssh_host_ed25519_key") != fingerprint(
        tmp_path / "b" / "ssh_host_ed25519_key"
    )


STUB_MOUNT = """#!/bin/sh
# mount -t TYPE -o OPTIONS SOURCE TARGET: noted; an ext4 mount fails as $EXT4 says
echo "$*" >>"$LOG"
[ "$2" != ext4 ] || exit "${EXT4:-0}"
"""


def run_initramfs_data(tmp_path: Path, partition: str, e2fsck: int, ext4: int) -> Path:
    """The initramfs's data script, run for real with sh on a root in ``tmp_path``, with
    what would touch a card replaced: ``blkid`` finds ``partition`` (or nothing), ``e2fsck``
    exits ``e2fsck``, an ext4 ``mount`` exits ``ext4`` and a tmpfs one leaves the
    directory as it is. The skeleton is the image's (configure.sh copies the data
    partition's content to it). Returns the root's /data."""
    root = tmp_path / "root"
    skeleton = root / "usr/lib/spieltisch/data-skeleton"
    (skeleton / "etc-spieltisch").mkdir(parents=True)
    (skeleton / "etc-spieltisch/config.toml").write_text('[display]\ntype = "none"\n')
    (skeleton / "releases/releases").mkdir(parents=True)
    (skeleton / "releases/releases/0.1.0-abc").symlink_to("/usr/lib/spieltisch/factory")
    (skeleton / "releases/current").symlink_to("releases/0.1.0-abc")
    (root / "data").mkdir()
    stubs = tmp_path / "bin"
    stubs.mkdir()
    scripts = {
        "blkid": f"#!/bin/sh\n[ -n '{partition}' ] && echo '{partition}'\n",
        "e2fsck": f"#!/bin/sh\nexit {e2fsck}\n",
        "mount": STUB_MOUNT,
        "sleep": "#!/bin/sh\n",
    }
    for name, text in scripts.items():
        (stubs / name).write_text(text)
        (stubs / name).chmod(0o755)
    # /scripts/functions is the initramfs's; its two messages are all the script uses
    functions = 'log_failure_msg() { echo "$*" >&2; }; log_warning_msg() { echo "$*" >&2; }'
    script = (FILES / "initramfs-data").read_text().replace(". /scripts/functions", functions)
    env = {
        "PATH": f"{stubs}:{os.environ['PATH']}",
        "rootmnt": str(root),
        "LOG": str(tmp_path / "mounts"),
        "EXT4": str(ext4),
    }
    subprocess.run(["sh", "-c", script], env=env, check=True, capture_output=True, timeout=60)
    return root / "data"


@pytest.mark.parametrize(
    ("partition", "e2fsck", "ext4", "reason"),
    [("", 0, 0, "missing"), ("/dev/vda3", 8, 32, "unreadable")],
)
def test_a_data_partition_that_cannot_be_mounted_becomes_a_fresh_one_in_ram(
    tmp_path: Path, partition: str, e2fsck: int, ext4: int, reason: str
) -> None:
    data = run_initramfs_data(tmp_path, partition, e2fsck, ext4)
    mounts = (tmp_path / "mounts").read_text().splitlines()
    assert mounts[-1].startswith("-t tmpfs -o ") and mounts[-1].endswith(f" {data}")
    assert "size=" in mounts[-1]
    # why, for the table (controller.appliance.ram_data reads the first line)
    assert (data / ".in-ram").read_text().splitlines()[0] == reason
    # a fresh card's data: the config, the links to the factory release
    assert (data / "etc-spieltisch/config.toml").read_text().startswith("[display]")
    assert os.readlink(data / "releases/current") == "releases/0.1.0-abc"
    # and the card's identity made on it, as on a first start
    assert len((data / "system/machine-id").read_text().strip()) == 32
    assert (data / "system/hostname").read_text().startswith("spieltisch-")


def test_a_data_partition_that_mounts_is_used_and_not_marked(tmp_path: Path) -> None:
    data = run_initramfs_data(tmp_path, "/dev/vda3", 0, 0)
    assert (tmp_path / "mounts").read_text().split() == [
        "-t", "ext4", "-o", "noatime,nodev,nosuid", "/dev/vda3", str(data)
    ]  # fmt: skip
    assert not (data / ".in-ram").exists()
    assert len((data / "system/machine-id").read_text().strip()) == 32


def test_the_ram_data_is_filled_from_a_copy_of_the_fresh_data_partition() -> None:
    recipe = (IMAGE / "configure.sh").read_text(encoding="utf-8")
    assert 'cp -a "$R/data/." "$SKEL/"' in recipe
    assert "SKEL=$R/usr/lib/spieltisch/data-skeleton" in recipe
    # klibc has no cp; the hook puts coreutils' in the initramfs
    assert "copy_exec /usr/bin/cp" in (FILES / "initramfs-hook").read_text()
    # the partition is not grown when it is not there
    unit = FILES / "spieltisch-grow-data.service"
    assert "!/data/.in-ram" in unit_lines(unit, "ConditionPathExists")


def fstab() -> list[list[str]]:
    lines = (FILES / "fstab").read_text().splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


def test_the_root_is_read_only_and_everything_that_changes_is_elsewhere() -> None:
    entries = {fields[1]: fields for fields in fstab()}
    assert "ro" in entries["/"][3].split(",")
    # /data is the initramfs's (the partition, or RAM when it cannot be mounted): an fstab
    # line would bind its unit to the partition's device, and a card without one would
    # stop in emergency mode
    assert "/data" not in entries
    # the saves, the config and the system's few changing files: bind mounts from the
    # data partition
    for target in (
        "/var/lib/spieltisch",
        "/etc/spieltisch",
        "/etc/ssh/spieltisch",
        "/etc/NetworkManager/system-connections",
        "/var/lib/spieltisch-boot",
    ):
        assert entries[target][0].startswith("/data/"), target
        assert "bind" in entries[target][3].split(",")
    for target in ("/tmp", "/var/tmp", "/var/log"):
        assert entries[target][2] == "tmpfs", target


def test_sshd_takes_its_key_from_the_data_partition_and_no_password() -> None:
    config = dict(
        line.split(None, 1)
        for line in (FILES / "sshd-spieltisch.conf").read_text().splitlines()
        if line[:1].isalpha()
    )
    assert config["HostKey"].startswith("/etc/ssh/spieltisch/")
    assert config["PasswordAuthentication"] == "no"
    assert config["KbdInteractiveAuthentication"] == "no"
    assert config["PermitRootLogin"] == "prohibit-password"
    dropin = (FILES / "ssh-dropin.conf").read_text()
    # the key the settings file gave, where the first-boot step keeps it
    keys = config["AuthorizedKeysFile"]
    assert keys == "/var/lib/spieltisch-boot/ssh/authorized_keys"
    assert f"ConditionPathExists={keys}" in dropin


@pytest.mark.skipif(shutil.which("sfdisk") is None, reason="needs sfdisk")
def test_the_vm_test_reads_the_partition_table_as_sfdisk_wrote_it(tmp_path: Path) -> None:
    disk = tmp_path / "disk.img"
    with open(disk, "wb") as fh:
        fh.truncate(64 << 20)
    layout = (
        "label: dos\n"
        "start=8MiB, size=16MiB, type=c, bootable\n"
        "size=24MiB, type=83\n"
        "size=8MiB, type=83\n"
    )
    subprocess.run(["sfdisk", "-q", str(disk)], input=layout, text=True, check=True)
    parts = vmtest().partitions(disk)
    assert [(p.number, p.start >> 20, p.size >> 20) for p in parts] == [
        (1, 8, 16),
        (2, 24, 24),
        (3, 48, 8),
    ]


def unit_lines(path: Path, key: str) -> list[str]:
    prefix = f"{key}="
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line[len(prefix) :] for line in lines if line.startswith(prefix)]


def test_the_releases_unit_runs_the_factory_release_before_the_program() -> None:
    from controller.cli import build_parser

    unit = FILES / "spieltisch-releases.service"
    (command,) = unit_lines(unit, "ExecStart")
    words = command.split()
    # the factory release's own Python: on the read-only root, there whatever data holds
    assert words[0] == "/usr/lib/spieltisch/factory/venv/bin/python"
    assert words[1:] == ["-I", "-m", "controller.release.layout", "/usr/lib/spieltisch/factory"]
    # the same step as the command line's, for a look by hand
    args = build_parser().parse_args(["update", "factory", words[-1]])
    assert (args.update_command, str(args.factory)) == ("factory", words[-1])
    # run only when the program cannot start: the links through current lead nowhere
    assert unit_lines(unit, "ConditionPathExists") == ["!/opt/spieltisch/venv/bin/python"]
    before = " ".join(unit_lines(unit, "Before")).split()
    for other in (
        "spieltisch.service",
        "spieltisch-firstboot.service",
        "spieltisch-update.service",
    ):
        assert other in before
    recipe = (IMAGE / "configure.sh").read_text(encoding="utf-8")
    assert 'ln -sfn /data/releases "$R/opt/spieltisch"' in recipe
    assert "spieltisch-releases.service" in recipe
    assert "-m controller.release.layout" in recipe


def test_what_the_first_start_writes_on_the_card_is_writable_to_it() -> None:
    from controller.appliance.first_boot import PANEL_DROPIN

    unit = ROOT / "systemd" / "image" / "spieltisch-firstboot.service"
    writable = " ".join(unit_lines(unit, "ReadWritePaths")).split()
    recipe = (IMAGE / "configure.sh").read_text(encoding="utf-8")
    # the time zone: /etc/localtime leads to the data partition's link, which it may write
    assert 'ln -sfn /data/system/zone/localtime "$R/etc/localtime"' in recipe
    assert "-/data/system/zone" in writable
    # the ws2812 drop-in: in /run, never on the read-only root
    assert str(PANEL_DROPIN).startswith("/run/systemd/system/")
    assert "-/run/systemd/system" in writable


@pytest.mark.skipif(
    not (shutil.which("sfdisk") and shutil.which("debugfs") and shutil.which("mkfs.ext4")),
    reason="needs sfdisk, debugfs, mkfs.ext4",
)
def test_the_vm_test_reads_where_the_data_partitions_current_points(tmp_path: Path) -> None:
    content = tmp_path / "data"
    (content / "releases" / "releases").mkdir(parents=True)
    (content / "releases" / "current").symlink_to("releases/0.1.0-abc")
    data = tmp_path / "data.img"
    subprocess.run(["mkfs.ext4", "-q", "-F", "-d", str(content), str(data), "8M"], check=True)
    disk = tmp_path / "disk.img"
    with open(disk, "wb") as fh:
        fh.truncate(32 << 20)
    layout = "label: dos\nstart=1MiB, size=4MiB, type=c\nsize=4MiB, type=83\nsize=8MiB, type=83\n"
    subprocess.run(["sfdisk", "-q", str(disk)], input=layout, text=True, check=True)
    with open(disk, "r+b") as fh:
        fh.seek(9 << 20)
        fh.write(data.read_bytes())
    assert vmtest().current_release(disk) == "releases/0.1.0-abc"
    subprocess.run(
        ["debugfs", "-w", "-R", "rm /releases/current", f"{disk}?offset={9 << 20}"],
        capture_output=True,
        check=True,
    )
    assert vmtest().current_release(disk) == ""


def test_the_update_tiers_broken_release_exits_at_start_and_passes_its_checks(
    tmp_path: Path,
) -> None:
    """The VM update tier's third release must fail only where the checks do not look:
    its ``spieltisch run`` exits at once, its ``sim`` (the update's self-test) still
    plays. Made from a copy of this checkout, so an edit of run.py that removes the line
    it breaks before shows here, not an hour into the VM tier."""
    copy = vmtest().release_copy(tmp_path / "copy", "0.0.1.post9", broken=True)
    assert 'version = "0.0.1.post9"' in (copy / "pyproject.toml").read_text()
    assert not (copy / ".git").exists()
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "controller", "run", "--config", str(tmp_path / "none.toml")],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 1
    assert "deliberately broken release" in run.stderr
    sim = subprocess.run(
        [sys.executable, "-m", "controller", "sim", "--display", "text", "--seats", "bot,bot",
         "--seed", "1", "--delay", "0"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert sim.returncode == 0, sim.stderr[-2000:]


def vmtest_ramdata() -> ModuleType:
    vmtest()  # it imports vmtest by name, from image/
    spec = importlib.util.spec_from_file_location("vmtest_ramdata", IMAGE / "vmtest_ramdata.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(
    not (shutil.which("sfdisk") and shutil.which("blkid") and shutil.which("e2fsck")),
    reason="needs sfdisk, blkid, e2fsck",
)
@pytest.mark.parametrize("how", ["wiped", "unmountable"])
def test_the_vm_tests_spoiled_data_partition_is_what_the_initramfs_cannot_use(
    tmp_path: Path, how: str
) -> None:
    """``wiped``: the label is gone (the initramfs finds no partition); ``unmountable``:
    the label is found, and e2fsck refuses it even with -y (so does the kernel)."""
    data = tmp_path / "data.img"
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "spieltisch-data", str(data), "8M"], check=True)
    disk = tmp_path / "disk.img"
    with open(disk, "wb") as fh:
        fh.truncate(32 << 20)
    layout = "label: dos\nstart=1MiB, size=4MiB, type=c\nsize=4MiB, type=83\nsize=8MiB, type=83\n"
    subprocess.run(["sfdisk", "-q", str(disk)], input=layout, text=True, check=True)
    with open(disk, "r+b") as fh:
        fh.seek(9 << 20)
        fh.write(data.read_bytes())
    vmtest_ramdata().spoil(disk, how)
    with open(disk, "rb") as src, open(data, "wb") as dst:
        src.seek(9 << 20)
        dst.write(src.read(8 << 20))
    probe = subprocess.run(["blkid", "-p", str(data)], capture_output=True, text=True)
    fsck = subprocess.run(["e2fsck", "-y", str(data)], capture_output=True, text=True)
    if how == "wiped":
        assert "spieltisch-data" not in probe.stdout
    else:
        assert 'LABEL="spieltisch-data"' in probe.stdout
        assert fsck.returncode >= 8 and "unsupported feature" in fsck.stderr + fsck.stdout
