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


def fstab() -> list[list[str]]:
    lines = (FILES / "fstab").read_text().splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


def test_the_root_is_read_only_and_everything_that_changes_is_elsewhere() -> None:
    entries = {fields[1]: fields for fields in fstab()}
    assert "ro" in entries["/"][3].split(",")
    assert entries["/data"][0] == "LABEL=spieltisch-data"
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
    # the initramfs checked the data partition; a second fsck of a mounted one must not run
    assert entries["/data"][5] == "0"


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
