"""One writer replaces files whole (hardware/atomic_file.py): the save, the config the
page saves, the boot partition's settings, setups, recordings, exports, notices.

Each of them used to carry its own temp-file-and-rename; they differed in what they
synced and which permission bits the new file got. These tests pin the writer's
choices on real files, and a scan keeps a new hand-made writer from creeping back.
"""

from __future__ import annotations

import ast
import stat
from pathlib import Path
from typing import BinaryIO

import pytest

from hardware.atomic_file import write_atomically, write_text_atomically

ROOT = Path(__file__).resolve().parent.parent


def bits(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_file_is_replaced_whole_with_the_bits_asked_for(tmp_path: Path) -> None:
    target = tmp_path / "session.json"
    write_text_atomically(target, "{}", durable=True, mode=0o600, prefix=".session-")
    assert (target.read_text(encoding="utf-8"), bits(target)) == ("{}", 0o600)
    write_text_atomically(target, '{"game": null}', durable=True, mode=0o600)
    assert target.read_text(encoding="utf-8") == '{"game": null}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["session.json"]


def test_without_bits_a_file_is_made_as_any_new_file(tmp_path: Path) -> None:
    """As ``open()`` makes one (0666 less the umask), not ``mkstemp``'s 0600."""
    ordinary = tmp_path / "ordinary.png"
    ordinary.touch()
    picture = write_atomically(tmp_path / "frame.png", lambda out: out.write(b"png"))
    assert bits(picture) == bits(ordinary)


def test_keep_mode_keeps_the_replaced_files_bits(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    write_text_atomically(config, "a = 1\n", mode=0o644, keep_mode=True)
    assert bits(config) == 0o644  # a new file: the bits asked for
    config.chmod(0o640)
    write_text_atomically(config, "a = 2\n", durable=True, mode=0o644, keep_mode=True)
    assert (config.read_text(encoding="utf-8"), bits(config)) == ("a = 2\n", 0o640)


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "setups.json"
    target.write_text("old", encoding="utf-8")

    def half(out: BinaryIO) -> None:
        out.write(b"ne")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        write_atomically(target, half, durable=True, prefix=".setups-", suffix=".tmp")
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["setups.json"]


def test_the_temporary_name_is_the_callers(tmp_path: Path) -> None:
    """A save's temporary file is named so the next start can find one a power cut
    left behind (``.session-*.tmp``); the writer names it as asked while it writes."""
    seen: list[str] = []
    target = tmp_path / "session.json"
    write_atomically(
        target,
        lambda out: seen.extend(p.name for p in tmp_path.iterdir()),
        prefix=".session-",
        suffix=".tmp",
    )
    assert len(seen) == 1 and seen[0].startswith(".session-") and seen[0].endswith(".tmp")


NOT_A_WRITER = {
    "controller/history/files.py": "moves files that exist aside (a broken history)",
    "controller/persistence.py": "moves a bad save aside",
    "controller/appliance/settings_file.py": "on FAT keeps a copy until the new file reads",
    "controller/players/book.py": "moves a names file it did not write aside",
    "controller/web/maintenance_routes.py": "renames a received upload into the inbox",
    "controller/backup/staged.py": "renames a checked upload into the inbox",
    "controller/voice/render.py": "espeak-ng writes the file it renames",
    "controller/release/dbcopy.py": "SQLite's backup writes the copy it renames",
    "controller/release/layout.py": "swaps a symlink",
    "controller/appliance/first_boot.py": "swaps the time zone's symlink",
    "controller/disk_reserve.py": "fills the reserve in place, nothing is renamed",
}
"""Modules that rename or fsync a file for another reason than writing it whole."""


def renames_or_syncs(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in (
            "os.replace",
            "os.rename",
            "os.fsync",
            "tempfile.mkstemp",
        ):
            return True
    return False


def test_files_are_written_whole_in_one_place() -> None:
    found = {
        str(path.relative_to(ROOT))
        for package in ("controller", "hardware")
        for path in sorted((ROOT / package).rglob("*.py"))
        if renames_or_syncs(path)
    }
    assert found - set(NOT_A_WRITER) == {"hardware/atomic_file.py"}
    assert set(NOT_A_WRITER) <= found  # each reason still names a module that renames
