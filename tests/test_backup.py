"""Backups: made while the history is being written, restored whole or refused whole, and
the factory reset; every refusal one line through the real ``spieltisch backup`` with
nothing changed in the table's files."""

from __future__ import annotations

import gzip
import hashlib
import json
import sqlite3
import tarfile
from pathlib import Path

import pytest

from controller.history.store import HistoryStore
from controller.testing.files import write_bot_game
from tests.update_fixtures import Ran, regular, special, spieltisch, tar_with

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def table(tmp_path: Path) -> dict[str, Path]:
    state = tmp_path / "state"
    state.mkdir()
    config = tmp_path / "etc" / "config.toml"
    config.parent.mkdir()
    config.write_text((ROOT / "config.example.toml").read_text(encoding="utf-8"))
    (state / "keys").mkdir()
    (state / "keys" / "project.pub").write_text("a key\n")
    (state / "setups.json").write_text("{}\n")
    store = HistoryStore(state)
    store.open()
    store.close()
    add_games(state / "history.sqlite3", ["first", "second"])
    return {"state": state, "config": config, "tmp": tmp_path}


def add_games(db: Path, uids: list[str]) -> None:
    """Rows through plain SQL: what the test compares is that they come back."""
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA journal_mode=WAL")
    for uid in uids:
        connection.execute(
            "INSERT INTO records (uid, game, preset, ended, outcome, places, result, rolls,"
            " moves, start_state, final_state, history) VALUES (?, 'maedn', 'classic',"
            " '2026-01-01', 'finished', '[]', '{}', 1, 1, '{}', '{}', '[]')",
            (uid,),
        )
    connection.commit()
    connection.close()


def games(db: Path) -> list[str]:
    connection = sqlite3.connect(db)
    try:
        return [r[0] for r in connection.execute("SELECT uid FROM records ORDER BY id")]
    finally:
        connection.close()


def backup(table: dict[str, Path], *args: str) -> Ran:
    return spieltisch(
        "backup",
        "--state-dir",
        str(table["state"]),
        "--config",
        str(table["config"]),
        "--keys",
        str(table["state"] / "keys"),
        *args,
    )


def snapshot(table: dict[str, Path]) -> dict[str, str]:
    found = {}
    for root in (table["state"], table["config"].parent):
        for path in sorted(root.rglob("*")):
            if path.is_file():
                found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def test_round_trip_after_a_factory_reset_gives_every_game_back(table: dict[str, Path]) -> None:
    # a reader holds the WAL open with a game not yet checkpointed into the main file
    writer = sqlite3.connect(table["state"] / "history.sqlite3")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute(
        "INSERT INTO records (uid, game, preset, ended, outcome, places, result, rolls, moves,"
        " start_state, final_state, history) SELECT 'in-the-wal', game, preset, ended, outcome,"
        " places, result, rolls, moves, start_state, final_state, history FROM records LIMIT 1"
    )
    writer.commit()
    assert (table["state"] / "history.sqlite3-wal").stat().st_size > 0
    before = games(table["state"] / "history.sqlite3")
    config_before = table["config"].read_text()
    file = table["tmp"] / "family.tar.gz"
    made = backup(table, "create", str(file))
    writer.close()
    assert made.returncode == 0, made.stderr
    with tarfile.open(file) as tar:
        names = sorted(tar.getnames())
    assert names == [
        "config.toml",
        "history.sqlite3",
        "keys/project.pub",
        "manifest.json",
        "setups.json",
    ]

    reset = backup(table, "reset", "--yes")
    assert reset.returncode == 0, reset.stderr
    assert not (table["state"] / "history.sqlite3").exists()
    assert not (table["state"] / "setups.json").exists()
    assert (table["state"] / "keys" / "project.pub").exists()
    kept = list((table["state"] / "backups").glob("before-factory-reset-*.tar.gz"))
    assert len(kept) == 1 and str(kept[0]) in reset.stdout
    assert "[display]" in table["config"].read_text()
    assert spieltisch("config", "check", str(table["config"])).returncode == 0

    restored = backup(table, "restore", str(file))
    assert restored.returncode == 0, restored.stderr
    assert games(table["state"] / "history.sqlite3") == before
    assert "in-the-wal" in before
    assert table["config"].read_text() == config_before
    assert len(list((table["state"] / "backups").glob("before-restore-*.tar.gz"))) == 1


def test_a_backup_never_holds_other_files(table: dict[str, Path]) -> None:
    (table["state"] / "wifi.json").write_text('{"psk": "secret"}')
    (table["state"] / "inbox").mkdir()
    (table["state"] / "inbox" / "update.tar").write_bytes(b"x")
    file = table["tmp"] / "b.tar.gz"
    assert backup(table, "create", str(file)).returncode == 0
    with tarfile.open(file) as tar:
        assert not [n for n in tar.getnames() if "wifi" in n or "inbox" in n]
        assert b"secret" not in b"".join(
            tar.extractfile(m).read()
            for m in tar.getmembers()
            if m.isfile()  # type: ignore[union-attr]
        )
    assert file.stat().st_mode & 0o077 == 0


def test_the_factory_reset_asks_first_and_refuses_during_a_game(table: dict[str, Path]) -> None:
    before = snapshot(table)
    asked = backup(table, "reset")
    assert asked.returncode == 0 and "--yes" in asked.stdout
    assert snapshot(table) == before
    write_bot_game(table["state"], "maedn", "classic", 2, seed=1)  # an unfinished game
    before = snapshot(table)
    refused = backup(table, "reset", "--yes")
    assert refused.returncode == 2 and "a game is in progress" in refused.stderr
    assert snapshot(table) == before


def good_members(table: dict[str, Path]) -> dict[str, bytes]:
    file = table["tmp"] / "good.tar.gz"
    assert backup(table, "create", str(file)).returncode == 0
    with tarfile.open(file) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}  # type: ignore[union-attr]


def with_manifest(members: dict[str, bytes], **changes: object) -> dict[str, bytes]:
    """``members`` with a manifest that lists their hashes (and ``changes``)."""
    manifest = json.loads(members["manifest.json"])
    manifest["files"] = {
        n: hashlib.sha256(d).hexdigest() for n, d in members.items() if n != "manifest.json"
    }
    manifest.update(changes)
    return {**members, "manifest.json": json.dumps(manifest).encode()}


def assert_refused(table: dict[str, Path], file: Path, words: str) -> None:
    before = snapshot(table)
    result = backup(table, "restore", str(file))
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert words in result.stderr, result.stderr
    assert snapshot(table) == before


def write(table: dict[str, Path], members: dict[str, bytes]) -> Path:
    return tar_with(
        table["tmp"] / "hostile.tar.gz", [regular(n, d) for n, d in members.items()], gz=True
    )


def test_a_backup_with_a_damaged_history_is_refused(table: dict[str, Path]) -> None:
    members = good_members(table)
    db = bytearray(members["history.sqlite3"])
    assert len(db) >= 3 * 4096
    db[4096 : 4096 + 12] = b"\xff" * 12  # the second page's header: no b-tree page type
    members = with_manifest({**members, "history.sqlite3": bytes(db)})
    assert_refused(table, write(table, members), "history")


def test_a_backup_whose_history_is_no_sqlite_is_refused(table: dict[str, Path]) -> None:
    members = with_manifest({**good_members(table), "history.sqlite3": b"hello" * 1000})
    assert_refused(table, write(table, members), "not a sound SQLite file")


def test_a_backup_whose_history_is_another_programs_is_refused(table: dict[str, Path]) -> None:
    other = table["tmp"] / "other.sqlite3"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE x (y)")
    connection.execute("PRAGMA user_version = 1")
    connection.commit()
    connection.close()
    members = with_manifest({**good_members(table), "history.sqlite3": other.read_bytes()})
    assert_refused(table, write(table, members), "is not the table's")


def test_a_backup_with_a_config_the_table_refuses_is_refused(table: dict[str, Path]) -> None:
    members = with_manifest({**good_members(table), "config.toml": b"[display]\ntype = 7\n"})
    assert_refused(table, write(table, members), "config would be refused")


def test_a_backup_with_a_broken_saved_game_is_refused(table: dict[str, Path]) -> None:
    members = with_manifest({**good_members(table), "session.json": b"{not json"})
    assert_refused(table, write(table, members), "saved game is unreadable")


def test_a_backup_of_an_unknown_format_is_refused(table: dict[str, Path]) -> None:
    members = with_manifest(good_members(table), format=99)
    assert_refused(table, write(table, members), "format 99")


def test_a_backup_with_a_changed_file_fails_its_hash(table: dict[str, Path]) -> None:
    members = {**good_members(table), "setups.json": b'{"changed": 1}'}
    assert_refused(table, write(table, members), "hash of setups.json")


HOSTILE = {
    "absolute": ([regular("/etc/spieltisch/config.toml")], "absolute path"),
    "escaping": ([regular("keys/../../../../etc/cron.d/x")], "escapes"),
    "symlink": ([special("config.toml", tarfile.SYMTYPE, "/etc/shadow")], "is a link"),
    "hard link": ([special("history.sqlite3", tarfile.LNKTYPE, "/etc/shadow")], "is a link"),
    "device": ([special("session.json", tarfile.BLKTYPE)], "device or FIFO"),
    "stray": ([regular("keys/evil.sh")], "does not belong in the backup"),
    "no manifest": ([regular("config.toml", b"")], "no manifest.json"),
    "many": ([regular(f"keys/k{i}.pub") for i in range(201)], "more than 200 members"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_backups_are_refused_in_one_line(table: dict[str, Path], case: str) -> None:
    members, words = HOSTILE[case]
    assert_refused(table, tar_with(table["tmp"] / "h.tar.gz", list(members), gz=True), words)


def test_a_backup_bomb_is_stopped(table: dict[str, Path]) -> None:
    bomb = table["tmp"] / "bomb.tar.gz"
    info = tarfile.TarInfo("history.sqlite3")
    info.size = 4 << 30
    with gzip.open(bomb, "wb") as fh:
        fh.write(info.tobuf(format=tarfile.GNU_FORMAT))
    assert_refused(table, bomb, "larger than 256 MB")
    zeros = table["tmp"] / "zeros.tar.gz"
    with gzip.open(zeros, "wb", compresslevel=9) as fh:
        for _ in range(600):
            fh.write(bytes(1 << 20))
    assert_refused(table, zeros, "refused")


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 a zip", b"\x1f\x8b\x08 bad gzip"])
def test_a_file_that_is_no_backup_is_refused(table: dict[str, Path], content: bytes) -> None:
    file = table["tmp"] / "x.tar.gz"
    file.write_bytes(content)
    assert_refused(table, file, "refused")


def test_a_restore_refuses_during_a_game(table: dict[str, Path]) -> None:
    file = table["tmp"] / "b.tar.gz"
    assert backup(table, "create", str(file)).returncode == 0
    write_bot_game(table["state"], "maedn", "classic", 2, seed=1)  # an unfinished game
    assert_refused(table, file, "a game is in progress")


def test_a_restore_where_the_keys_cannot_be_written_restores_the_rest(
    table: dict[str, Path],
) -> None:
    """A card whose keys directory is on its read-only root: the page's restore failed
    whole at the keys ("Read-only file system") and left the history as it was. Here
    the keys' place is a path that cannot be made (a file where its directory should
    be): the keys stay, the games come back."""
    file = table["tmp"] / "b.tar.gz"
    assert backup(table, "create", str(file)).returncode == 0
    add_games(table["state"] / "history.sqlite3", ["third"])
    blocked = table["tmp"] / "blocked"
    blocked.write_text("a file where the keys' directory should be\n")
    restored = spieltisch(
        "backup",
        "--state-dir",
        str(table["state"]),
        "--config",
        str(table["config"]),
        "--keys",
        str(blocked / "keys"),
        "restore",
        str(file),
    )
    assert restored.returncode == 0, restored.stderr
    assert games(table["state"] / "history.sqlite3") == ["first", "second"]
    assert blocked.read_text() == "a file where the keys' directory should be\n"
