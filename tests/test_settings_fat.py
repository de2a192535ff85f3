"""Blanking the Wi-Fi password on the FAT boot partition: every state a power cut can
leave is read back as the old text or the new one.

The states are made on a real FAT32 file system (``mkfs.vfat`` on an image file, files
written and damaged with mtools, no root and no loop device) and the card's directory
is then read out of the image as the table would read it; the recovery runs on what FAT
gave back. What this does not show: the kernel's own vfat driver under a real cut (the
test machine has no vfat module); the VM tests of the image run that driver.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.appliance import settings_file
from controller.appliance.settings_file import fat_copy, read, recover, without_password, write_fat

OLD = '[wifi]\nname = "Zuhause"\npassword = "sehr geheim 42"  # the family\'s\ncountry = "DE"\n'
NEW = without_password(OLD)
NAME = "spieltisch.toml"
needs_mtools = pytest.mark.skipif(
    not (shutil.which("mkfs.vfat") and shutil.which("mcopy")), reason="needs dosfstools, mtools"
)
MTOOLS_ENV = {**os.environ, "MTOOLS_SKIP_CHECK": "1"}


def mtools(*args: str) -> None:
    subprocess.run(list(args), check=True, env=MTOOLS_ENV, capture_output=True)


def fat_image(tmp_path: Path, files: dict[str, bytes]) -> Path:
    """A FAT32 file system holding ``files`` in its root directory."""
    image = tmp_path / "boot.img"
    image.unlink(missing_ok=True)
    subprocess.run(
        ["mkfs.vfat", "-F", "32", "-n", "SPIELBOOT", "-C", str(image), str(40 * 1024)],
        check=True,
        capture_output=True,
    )
    staging = tmp_path / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    for name, data in files.items():
        (staging / name).write_bytes(data)
        mtools("mcopy", "-i", str(image), str(staging / name), f"::/{name}")
    return image


def read_out(tmp_path: Path, image: Path) -> Path:
    """The image's root directory as files (what the card's /boot/firmware shows)."""
    card = tmp_path / "card"
    shutil.rmtree(card, ignore_errors=True)
    card.mkdir()
    listing = subprocess.run(
        ["mdir", "-b", "-i", str(image), "::/"],
        check=True,
        env=MTOOLS_ENV,
        capture_output=True,
        text=True,
    ).stdout.split()
    for entry in listing:
        name = entry.rsplit("/", 1)[-1]
        mtools("mcopy", "-n", "-i", str(image), f"::/{name}", str(card / name))
    return card


def damage_entry(image: Path, name: str) -> None:
    """Point ``name``'s directory entry at nothing: its first cluster set to 0 and its
    size kept, as a cut inside FAT's rename can leave it (the entry written, the chain
    not). Found by its short name in the root directory's first cluster."""
    data = bytearray(image.read_bytes())
    sector = int.from_bytes(data[11:13], "little")
    per_cluster = data[13]
    reserved = int.from_bytes(data[14:16], "little")
    fats = data[16]
    fat_size = int.from_bytes(data[36:40], "little")
    root = (reserved + fats * fat_size) * sector
    short = name.upper().replace(".TOML", "").ljust(8)[:6].encode() + b"~1TOM"
    for offset in range(root, root + per_cluster * sector, 32):
        if data[offset : offset + 11] == short:
            data[offset + 20 : offset + 22] = b"\0\0"
            data[offset + 26 : offset + 28] = b"\0\0"
            image.write_bytes(bytes(data))
            return
    raise AssertionError(f"no entry {short!r}")


CUTS = {
    # nothing written yet
    "before the copy": {NAME: OLD.encode()},
    # the copy written in part, the file untouched
    "inside the copy": {NAME: OLD.encode(), f".{NAME}.new": NEW.encode()[:17]},
    # the copy whole, the rename not begun (its temp file written)
    "before the rename": {
        NAME: OLD.encode(),
        f".{NAME}.new": NEW.encode(),
        f".{NAME}.x1.tmp": NEW.encode(),
    },
    # the rename half done: the file's entry gone
    "inside the rename, entry gone": {f".{NAME}.new": NEW.encode()},
    # the rename half done: the file's entry torn (damaged below)
    "inside the rename, entry torn": {NAME: OLD.encode(), f".{NAME}.new": NEW.encode()},
    # the rename done, the copy not yet removed
    "before the copy is removed": {NAME: NEW.encode(), f".{NAME}.new": NEW.encode()},
    "after": {NAME: NEW.encode()},
}


@needs_mtools
@pytest.mark.parametrize("cut", list(CUTS))
def test_every_cut_leaves_the_old_or_the_new_file(tmp_path: Path, cut: str) -> None:
    image = fat_image(tmp_path, CUTS[cut])
    if cut.endswith("entry torn"):
        damage_entry(image, NAME)
    card = read_out(tmp_path, image)
    path = card / NAME
    if cut.endswith("entry torn"):
        assert path.read_bytes() != OLD.encode()  # FAT gives back no whole old file
    recover(path)
    text = path.read_text(encoding="utf-8")
    assert text in (OLD, NEW), cut
    assert read(path).errors == ()
    assert not fat_copy(path).exists()
    if cut.startswith("inside the rename"):
        assert text == NEW  # the copy was whole before the file was touched
    # the next start finishes the job: the password goes, and only one file stays
    if text == OLD:
        settings_file.remove_password(path)
    assert path.read_text(encoding="utf-8") == NEW
    assert sorted(p.name for p in card.iterdir()) == [NAME]


@needs_mtools
def test_the_written_file_goes_back_onto_fat_whole(tmp_path: Path) -> None:
    """The write's result, copied onto a FAT file system and read back, is the new text
    with no copy or temporary file beside it; fsck finds the file system clean."""
    card = tmp_path / "card"
    card.mkdir()
    (card / NAME).write_text(OLD, encoding="utf-8")
    write_fat(card / NAME, NEW)
    assert sorted(p.name for p in card.iterdir()) == [NAME]
    image = fat_image(tmp_path, {NAME: (card / NAME).read_bytes()})
    checked = subprocess.run(["fsck.vfat", "-n", str(image)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout
    back = read_out(tmp_path, image)
    assert (back / NAME).read_text(encoding="utf-8") == NEW


def test_a_damaged_file_with_no_copy_is_left_for_the_reader_to_report(tmp_path: Path) -> None:
    path = tmp_path / NAME
    path.write_bytes(b"\xff\xfe garbage")
    assert recover(path) is False
    assert "not UTF-8" in read(path).errors[0]
