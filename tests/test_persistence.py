"""Save and resume: atomic saves, stale temp files, bad saves moved
aside, and a resumed game that stands exactly where it stood, dice and all."""

from __future__ import annotations

import json
import logging
import os
import pickle
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import rules
from controller.persistence import TEMP_PREFIX, TEMP_SUFFIX, CorruptSaveError, SaveStore
from controller.session import Session
from controller.testing.rig import ApplianceRig
from rules.bots import make_bot

ROOT = Path(__file__).resolve().parent.parent


def played(game: str, preset: str, players: int, steps: int, seed: int = 5) -> Session:
    """A bot game ``steps`` rolls/moves in, played with the session's own RNG."""
    session = Session.start(game, preset, ["bot"] * players, seed=seed, bot="random")
    bot = make_bot("random")
    for _ in range(steps):
        if session.state.is_terminal():
            break
        if session.state.is_chance():
            session.roll(session.draw_dice())
        else:
            session.play(bot.choose(session.state, session.rng))
    return session


def temp_files(directory: Path) -> list[Path]:
    return sorted(directory.glob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}"))


@pytest.mark.parametrize(
    ("game", "preset", "players"),
    [
        ("maedn", "classic", 4),
        ("maedn", "lingo", 3),
        ("kleiner_aerger", "standard", 2),
        ("backgammon", "match5", 2),
        ("minimaki", "standard", 1),
        ("minimaki", "two_player", 2),
    ],
)
def test_round_trip_keeps_game_seats_state_history_and_rng(
    tmp_path: Path, game: str, preset: str, players: int
) -> None:
    """The save holds the game, preset, seats, state, history and RNG state,
    so a resumed game has the same player to move and the very same dice to come."""
    session = played(game, preset, players, steps=25 if game != "minimaki" else 4)
    assert not session.state.is_terminal()
    store = SaveStore(tmp_path)
    store.save(session)
    loaded = store.load()
    assert loaded is not None
    assert (loaded.game, loaded.preset) == (game, preset)
    assert loaded.seats == session.seats and loaded.kinds == session.kinds
    assert loaded.state == session.state
    assert loaded.player == session.player
    assert loaded.history == session.history
    # the same future: the dice both sessions draw next are identical
    assert [loaded.rng.random() for _ in range(20)] == [session.rng.random() for _ in range(20)]


def test_save_is_plain_json_in_the_rules_format(tmp_path: Path) -> None:
    """Saves are plain JSON in the rules' own state format: the state part is exactly what
    ``spieltisch rules`` prints, and reads back through the rules' own parser."""
    session = played("maedn", "classic", 4, steps=12)
    SaveStore(tmp_path).save(session)
    data = json.loads((tmp_path / "session.json").read_text(encoding="utf-8"))
    assert data["version"] == 1
    assert data["state"] == session.state.to_json()
    assert rules.state_from_json(data["state"]) == session.state
    assert data["history"] == session.history


def test_save_leaves_no_temp_file_and_replaces_the_old_save(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    first = played("maedn", "classic", 2, steps=3)
    store.save(first)
    second = played("maedn", "classic", 2, steps=9)
    store.save(second)
    assert temp_files(tmp_path) == []
    assert [p.name for p in tmp_path.iterdir()] == ["session.json"]
    loaded = store.load()
    assert loaded is not None and loaded.history == second.history


def test_stale_temp_files_are_cleaned_on_start(tmp_path: Path) -> None:
    """A power cut during a write leaves a temp file; the next start deletes it and
    nothing else."""
    store = SaveStore(tmp_path)
    store.save(played("maedn", "classic", 2, steps=4))
    for name in ("abc", "x1y2"):
        (tmp_path / f"{TEMP_PREFIX}{name}{TEMP_SUFFIX}").write_text('{"version": 1, "ga')
    (tmp_path / "notes.txt").write_text("keep me")
    assert store.prepare() == 2
    assert temp_files(tmp_path) == []
    assert (tmp_path / "notes.txt").read_text() == "keep me"
    assert store.load() is not None


def test_no_game_removes_the_save(tmp_path: Path) -> None:
    """Leaving a game for the menu drops it for good: save(None) deletes the save."""
    store = SaveStore(tmp_path)
    store.save(played("maedn", "classic", 2, steps=4))
    store.save(None)
    assert not (tmp_path / "session.json").exists()
    assert store.load() is None
    store.save(None)  # and again: nothing to delete is fine


def test_a_finished_game_is_not_resumed(tmp_path: Path) -> None:
    session = played("minimaki", "standard", 1, steps=10_000)
    assert session.state.is_terminal()
    store = SaveStore(tmp_path)
    store.save(session)
    assert store.load() is None


def test_failed_write_keeps_the_old_save_and_leaves_no_temp(tmp_path: Path) -> None:
    """A full disk mid-write: the old save stays intact, the temp file is removed and
    the error is an OSError (the appliance logs it and plays on). The disk is made
    "full" for real with RLIMIT_FSIZE in a child process (writes past it fail with EFBIG)."""
    store = SaveStore(tmp_path)
    old = played("maedn", "classic", 4, steps=2)
    store.save(old)
    before = (tmp_path / "session.json").read_bytes()
    child = f"""
import resource, signal, sys
sys.path.insert(0, {str(ROOT)!r})
from tests.test_persistence import played
from controller.persistence import SaveStore
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
big = played("maedn", "classic", 4, steps=400)
resource.setrlimit(resource.RLIMIT_FSIZE, ({len(before)}, {len(before)}))
try:
    SaveStore({str(tmp_path)!r}).save(big)
except OSError as exc:
    print("OSError", exc.errno)
else:
    print("saved")
"""
    result = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split()[0] == "OSError", result.stdout + result.stderr
    assert (tmp_path / "session.json").read_bytes() == before
    assert temp_files(tmp_path) == []
    loaded = store.load()
    assert loaded is not None and loaded.history == old.history


def test_corrupt_save_is_moved_aside_with_a_timestamp_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "session.json").write_text('{"version": 1, "game": "maedn", "sta')
    store = SaveStore(tmp_path)
    with (
        caplog.at_level(logging.ERROR, logger="controller.persistence"),
        pytest.raises(CorruptSaveError) as info,
    ):
        store.load()
    moved = info.value.moved_to
    assert moved is not None and moved.exists()
    assert re.fullmatch(r"session\.json\.bad-\d{8}T\d{6}(-\d+)?", moved.name)
    assert moved.read_text() == '{"version": 1, "game": "maedn", "sta'
    assert not (tmp_path / "session.json").exists()
    assert "corrupt save" in str(info.value) and moved.name in str(info.value)
    assert any(moved.name in record.getMessage() for record in caplog.records)
    # the next start finds no save at all: a bad file can never cause a crash loop
    assert store.load() is None


def test_two_bad_saves_in_the_same_second_are_both_kept(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    moved = []
    for text in ("garbage one", "garbage two"):
        (tmp_path / "session.json").write_text(text)
        with pytest.raises(CorruptSaveError) as info:
            store.load()
        moved.append(info.value.moved_to)
    assert moved[0] != moved[1]
    assert {p.read_text() for p in moved if p is not None} == {"garbage one", "garbage two"}


def test_a_pickle_is_never_unpickled(tmp_path: Path) -> None:
    """Nothing is ever unpickled or evaluated: a pickle that would create a file when
    loaded is rejected as a corrupt save, and the file never appears."""
    marker = tmp_path / "pwned"

    class Exploit:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    (tmp_path / "session.json").write_bytes(pickle.dumps(Exploit()))
    with pytest.raises(CorruptSaveError):
        SaveStore(tmp_path).load()
    evil = {"version": 1, "game": "__import__('os').system('touch pwned')", "state": "1+1"}
    (tmp_path / "session.json").write_text(json.dumps(evil))
    with pytest.raises(CorruptSaveError):
        SaveStore(tmp_path).load()
    assert not marker.exists()
    assert not Path("pwned").exists()


# -- the appliance: resume on start, a save after every roll and move -----------------


def test_appliance_resumes_exactly_where_the_game_stood(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    """ "On start, an unfinished game resumes exactly where it stood, with the same
    player to move and the same dice state": a save taken right after a roll
    comes back with the dice on the table and that player choosing."""
    from controller.machine import Mode

    session = played("maedn", "classic", 4, steps=30)
    while session.state.is_chance():  # stop right after a roll
        session.roll(session.draw_dice())
    state_dir = tmp_path / "state"
    store = SaveStore(state_dir)
    store.prepare()
    store.save(session)
    app = appliance_rig(state_dir, seats=("bot",) * 4).app
    app.start()
    resumed = app.table.session
    assert resumed is not None
    assert resumed.state == session.state
    assert resumed.player == session.player
    assert resumed.state.to_json()["dice"] == session.state.to_json()["dice"]
    assert resumed.history == session.history
    session.rng.getrandbits(32)  # the bot on turn is asked at once, with a seed drawn from it
    assert resumed.rng.getstate() == session.rng.getstate()
    assert app.table.state is Mode.CHOOSE


def test_appliance_saves_after_every_roll_and_move(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    """ "After every completed move the session is saved atomically": while
    bots play, the file on disk always equals the session after the last roll/move."""
    state_dir = tmp_path / "state"
    store = SaveStore(state_dir)
    store.prepare()
    store.save(Session.start("kleiner_aerger", "standard", ["bot", "bot"], seed=3, bot="random"))
    rig = appliance_rig(state_dir, seats=("bot", "bot"))
    rig.start()
    checked = 0
    for _ in range(400):
        rig.advance()
        session = rig.table.session
        if session is None or session.state.is_terminal():
            break
        on_disk = json.loads((state_dir / "session.json").read_text(encoding="utf-8"))
        if on_disk["history"] == session.history:
            assert on_disk["state"] == session.state.to_json()
            checked += 1
        else:  # the save is written before the loop moves on, so it never lags
            pytest.fail(f"save lags: {len(on_disk['history'])} vs {len(session.history)}")
    assert checked > 50
    assert temp_files(state_dir) == []


def test_appliance_shows_a_bad_save_then_starts_the_menu(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    """ "A corrupt, truncated or wrong-version save is moved aside with a timestamp,
    logged, and shown briefly on the display, and the menu starts"."""
    from controller.machine import Mode
    from controller.scene import MessageScene

    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (state_dir / "session.json").write_text('{"version": 99}')
    rig = appliance_rig(state_dir)
    app = rig.app
    app.start()
    assert app.table.state is Mode.MESSAGE
    scene = app.table.scene()
    assert isinstance(scene, MessageScene) and "version" in scene.text
    assert "corrupt" not in scene.text  # a whole file from another version is not damage
    app.loop.draw()
    assert app.loop.frames == 1
    for _ in range(5):
        rig.advance()
        if app.table.state is Mode.MENU:
            break
    assert app.table.state is Mode.MENU
    assert [
        p.name.startswith("session.json.bad-") for p in state_dir.iterdir() if p.name != ".reserve"
    ] == [True]
