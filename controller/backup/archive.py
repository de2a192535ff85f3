"""A table's backup: one ``.tar.gz`` to take away, restore whole, or start anew from.

A backup holds ``manifest.json`` (kind, format, when, which program, and the SHA-256 of
each other member) and exactly these, each only if the table has it:

* ``config.toml``: the config file as it is;
* ``history.sqlite3``: the games played, a consistent copy made with SQLite's backup
  API while the table may be writing (never the file alone, whose newest games may
  still be in its ``-wal``);
* ``session.json``, ``setups.json`` and ``players.json``: the saved game, each game's
  last setup and the family's named players;
* ``keys/*.pub``: the update keys the table trusts.

Never anything else: pairing sessions live only in memory, and Wi-Fi passwords are
the system's, not in this list.

:func:`restore` unpacks into a new directory beside the state directory and checks
everything there before it changes one file: the archive itself
(:mod:`controller.release.safe_archive`: escaping paths, links, devices, bombs), the
manifest's kind, format and hashes, the history (SQLite's ``integrity_check`` and the
program's own schema check), the config (the table's own :func:`load_config`) and the
saved game (the table's own loader). Then it first backs up what it will replace, and
moves each file into place with a rename. :func:`factory_reset` backs up, then
removes the history, the saved game and the setups, and writes a new config that
keeps only the table's hardware (``[display]`` and ``[input]``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import sqlite3
import tarfile
import tempfile
import time
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from controller.config import ConfigError, load_config
from controller.history import pending as pending_records
from controller.history.store import VERSION as HISTORY_VERSION
from controller.history.store import HistoryError, HistoryStore
from controller.persistence import MAX_SAVE_BYTES, SAVE_NAME, check_history, sync_directory
from controller.release.apply import game_in_progress
from controller.release.dbcopy import copy_database, restore_database
from controller.release.safe_archive import ArchiveError, Limits, check_name, unpack
from controller.session import Session
from hardware.atomic_file import write_atomically

KIND = "spieltisch-backup"
FORMAT = 1
MANIFEST = "manifest.json"
CONFIG = "config.toml"
HISTORY = "history.sqlite3"
STATE_FILES = (SAVE_NAME, "setups.json", "players.json")
KEYS = "keys"
BACKUPS_DIR = "backups"
LIMITS = Limits(members=200, member_bytes=256 << 20, total_bytes=512 << 20)
HARDWARE_SECTIONS = ("display", "input")


class BackupError(ValueError):
    """The backup is refused (or cannot be made); one line, nothing changed."""


@dataclass(frozen=True)
class BackupPlaces:
    state_dir: Path
    config: Path
    keys_dir: Path


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _expected(name: str) -> bool:
    if name in (MANIFEST, CONFIG, HISTORY, *STATE_FILES):
        return True
    parts = name.split("/")
    return len(parts) == 2 and parts[0] == KEYS and parts[1].endswith(".pub")


def _program_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("spieltisch")
    except PackageNotFoundError:
        return "unknown"


def create(places: BackupPlaces, out: Path) -> dict[str, Any]:
    """Write the backup ``out`` (a new file renamed into place); returns its manifest."""
    with tempfile.TemporaryDirectory() as work:
        stage = Path(work)
        if places.config.is_file():
            shutil.copyfile(places.config, stage / CONFIG)
        history = places.state_dir / HISTORY
        if history.is_file():
            try:
                copy_database(history, stage / HISTORY)
            except sqlite3.Error as exc:
                raise BackupError(f"cannot copy the history {history}: {exc}") from None
        for name in STATE_FILES:
            if (places.state_dir / name).is_file():
                shutil.copyfile(places.state_dir / name, stage / name)
        for key in sorted(places.keys_dir.glob("*.pub")) if places.keys_dir.is_dir() else []:
            (stage / KEYS).mkdir(exist_ok=True)
            shutil.copyfile(key, stage / KEYS / key.name)
        members = sorted(p.relative_to(stage).as_posix() for p in stage.rglob("*") if p.is_file())
        manifest: dict[str, Any] = {
            "kind": KIND,
            "format": FORMAT,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "program": _program_version(),
            "history_version": HISTORY_VERSION,
            "files": {name: _sha256(stage / name) for name in members},
        }
        (stage / MANIFEST).write_text(
            json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
        out.parent.mkdir(parents=True, exist_ok=True)

        def pack(fh: BinaryIO) -> None:
            with tarfile.open(fileobj=fh, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
                for name in (MANIFEST, *members):
                    tar.add(stage / name, arcname=name, filter=_plain)

        write_atomically(out, pack, durable=True, mode=0o600, prefix=f".{out.name}.", suffix="")
    return manifest


def _plain(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mode = 0o600
    return info


def check(backup: Path, into: Path) -> dict[str, Any]:
    """Unpack ``backup`` into the empty directory ``into`` and check all of it; returns
    the manifest. Raises :class:`BackupError` (the caller removes ``into``)."""
    try:
        names = unpack(backup, into, _expected, LIMITS, "the backup")
    except ArchiveError as exc:
        raise BackupError(str(exc)) from None
    except OSError as exc:
        raise BackupError(f"cannot read {backup}: {exc.strerror or exc}") from None
    if MANIFEST not in names:
        raise BackupError("the backup has no manifest.json: not a spieltisch backup")
    try:
        manifest = json.loads((into / MANIFEST).read_text(encoding="utf-8"))
    except (ValueError, RecursionError):
        raise BackupError("the backup's manifest is not JSON") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != KIND:
        raise BackupError("the backup's manifest is not a spieltisch backup's")
    if manifest.get("format") != FORMAT:
        raise BackupError(
            f"the backup is format {manifest.get('format')!r}; this program reads format {FORMAT}"
        )
    files = manifest.get("files")
    if not isinstance(files, dict):
        raise BackupError("the backup's manifest lists no files")
    present = set(names) - {MANIFEST}
    if set(files) != present:
        odd = sorted(set(files) ^ present)[0]
        raise BackupError(f"the backup's manifest and its files differ ({odd})")
    for name in sorted(present):
        check_name(name)
        if _sha256(into / name) != files[name]:
            raise BackupError(f"the hash of {name} does not match the backup's manifest")
    if HISTORY in present:
        _check_history(into / HISTORY)
    if CONFIG in present:
        try:
            load_config(into / CONFIG)
        except ConfigError as exc:
            first = str(exc).splitlines()[0] if str(exc) else "unusable"
            raise BackupError(f"the backup's config would be refused: {first}") from None
    if SAVE_NAME in present:
        _check_save(into / SAVE_NAME)
    return manifest


def _check_save(path: Path) -> None:
    """The table's own parsing of a save, without its side effects (a bad save at the
    table is moved aside and logged; here it is only refused)."""
    if path.stat().st_size > MAX_SAVE_BYTES:
        raise BackupError("the backup's saved game is too large")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict):
            pending_records.from_save(data)
            if data.get("game") is None and pending_records.KEY in data:
                return
        check_history(data)
        Session.from_json(data)
    except Exception as exc:  # whatever the parser raises, the file is refused
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise BackupError(f"the backup's saved game is unreadable: {text}") from None


def _check_history(path: Path) -> None:
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            result = [str(r[0]) for r in connection.execute("PRAGMA integrity_check")]
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        finally:
            connection.close()
    except sqlite3.Error as exc:
        raise BackupError(f"the backup's history is not a sound SQLite file ({exc})") from None
    if result != ["ok"]:
        raise BackupError(f"the backup's history is damaged: {result[0]}")
    if version > HISTORY_VERSION:
        raise BackupError(
            f"the backup's history is schema {version}, newer than this program's "
            f"{HISTORY_VERSION}: update first"
        )
    # the program's own check (tables, version), on a copy: opening migrates
    with tempfile.TemporaryDirectory() as work:
        shutil.copyfile(path, Path(work) / HISTORY)
        store = HistoryStore(work)
        try:
            store.open(create=False)
        except (HistoryError, sqlite3.Error) as exc:
            raise BackupError(f"the backup's history is not the table's: {exc}") from None
        finally:
            store.close()


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime())


def safety_copy(places: BackupPlaces, why: str) -> Path:
    """A backup of the table as it is now, in the state directory's ``backups/``."""
    target = places.state_dir / BACKUPS_DIR / f"{why}-{_stamp()}.tar.gz"
    n = 1
    while target.exists():
        n += 1
        target = places.state_dir / BACKUPS_DIR / f"{why}-{_stamp()}-{n}.tar.gz"
    create(places, target)
    return target


def _refuse_during_game(places: BackupPlaces) -> None:
    if game_in_progress(places.state_dir):
        raise BackupError(
            f"a game is in progress (saved in {places.state_dir / SAVE_NAME}): "
            "finish it or go back to the menu first"
        )


def _place(source: Path, target: Path) -> None:
    """``source`` as ``target`` by one rename on ``target``'s file system."""
    target.parent.mkdir(parents=True, exist_ok=True)

    def copy(out: BinaryIO) -> None:
        with source.open("rb") as data:
            shutil.copyfileobj(data, out)

    # the target's permission bits if there is one, else the owner's and the group's
    write_atomically(
        target,
        copy,
        durable=True,
        mode=0o640,
        keep_mode=True,
        prefix=f".{target.name}.",
        suffix="",
    )


def restore(places: BackupPlaces, backup: Path) -> tuple[Path, dict[str, Any]]:
    """Check ``backup`` whole, back up what it replaces, then put it in place; returns
    the safety backup's path and the restored manifest."""
    _refuse_during_game(places)
    places.state_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".restore-", dir=places.state_dir))
    try:
        manifest = check(backup, work)
        kept = safety_copy(places, "before-restore")
        present = set(manifest["files"])
        if CONFIG in present:
            _place(work / CONFIG, places.config)
        if HISTORY in present:
            restore_database(work / HISTORY, places.state_dir / HISTORY)
        else:
            _remove_history(places.state_dir)
        for name in STATE_FILES:
            if name in present:
                _place(work / name, places.state_dir / name)
            else:
                (places.state_dir / name).unlink(missing_ok=True)
        keys = sorted(n for n in present if n.startswith(f"{KEYS}/"))
        for name in keys:
            try:
                _place(work / name, places.keys_dir / Path(name).name)
            except OSError:
                # the page's restore runs as the service user, who may not change
                # root's keys, and a card from before keeps them on its read-only root:
                # the keys stay as they are, the rest is restored
                manifest["keys_kept"] = True
                break
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return kept, manifest


def _remove_history(state_dir: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        (state_dir / f"{HISTORY}{suffix}").unlink(missing_ok=True)


def new_config(old: Path) -> str:
    """A config with every setting at its default but the table's hardware."""
    from controller.web.toml_out import dumps  # the page's TOML writer, only when needed

    document: dict[str, Any] = {}
    with contextlib.suppress(OSError, tomllib.TOMLDecodeError):
        with old.open("rb") as fh:
            current = tomllib.load(fh)
        document = {k: current[k] for k in HARDWARE_SECTIONS if isinstance(current.get(k), dict)}
    document.setdefault("display", {"type": "none"})
    return (
        "# spieltisch config after a factory reset: the defaults, and the table's panel\n"
        "# and buttons as they were. config.example.toml lists every setting.\n\n" + dumps(document)
    )


def factory_reset(places: BackupPlaces, *, during_game: bool = False) -> Path:
    """Back up, then return the config, history, saved game and setups to new; returns
    the backup's path. The trusted keys stay: they are the way to future updates. A
    saved game refuses it, unless ``during_game`` (the system button held through the
    start: someone at the table asked, and the backup keeps the game)."""
    if not during_game:
        _refuse_during_game(places)
    kept = safety_copy(places, "before-factory-reset")
    text = new_config(places.config)
    with tempfile.TemporaryDirectory() as work:
        fresh = Path(work) / CONFIG
        fresh.write_text(text, encoding="utf-8")
        try:
            load_config(fresh)
        except ConfigError:
            fresh.write_text(new_config(Path(work) / "none"), encoding="utf-8")
        _place(fresh, places.config)
    _remove_history(places.state_dir)
    for name in STATE_FILES:
        (places.state_dir / name).unlink(missing_ok=True)
    sync_directory(places.state_dir)
    return kept
