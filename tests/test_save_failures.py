"""A full, read-only or vanished state directory never stops the game.

The game goes on, a short warning shows on the panel, the save already on disk stays
whole, and saving resumes by itself once the disk works again. The disk failures are
real ones: a directory replaced by a file (everywhere), and, where this process may
mount, a tiny tmpfs that fills up (ENOSPC) and is then remounted read-only (EROFS).
"""

from __future__ import annotations

import errno
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.persistence import SaveStore
from controller.safekeeping import save_warning
from controller.session import Session
from controller.testing.files import fill
from controller.testing.rig import ApplianceRig


def saved_history(state_dir: Path) -> list[object]:
    history: list[object] = json.loads((state_dir / "session.json").read_text("utf-8"))["history"]
    return history


def start_bot_game(appliance_rig: Callable[..., ApplianceRig], state_dir: Path) -> ApplianceRig:
    store = SaveStore(state_dir)
    store.prepare()
    store.save(Session.start("maedn", "classic", ["bot", "bot"], seed=5, bot="random"))
    rig = appliance_rig(state_dir, seats=("bot", "bot"), buttons=False)
    rig.start()
    return rig


def play(rig: ApplianceRig, entries: int) -> None:
    """Let the bots play until ``entries`` more history entries were made."""
    session = rig.table.session
    assert session is not None
    target = len(session.history) + entries
    for _ in range(entries * 1000):  # animation frames in between
        rig.advance()
        if len(session.history) >= target:
            return
    pytest.fail("the bots stopped playing")


def play_until_a_save_fails(rig: ApplianceRig) -> str | None:
    """Play on until the first failed save; the panel's banner at that moment."""
    for _ in range(5000):
        rig.advance()
        if rig.app.keeper.failing_saves:
            return rig.table.banner.text
    pytest.fail("no save failed")


def history(rig: ApplianceRig) -> list[dict[str, object]]:
    """The history of the game at the table."""
    session = rig.table.session
    assert session is not None
    return session.history


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.ENOSPC, "not saved: disk full"),
        (errno.EROFS, "not saved: disk read-only"),
        (errno.EACCES, "not saved: no permission"),
        (errno.EIO, "not saved: disk error"),
    ],
)
def test_the_panel_warning_says_why(code: int, words: str) -> None:
    assert save_warning(OSError(code, "x")) == words


def test_a_vanished_state_directory_warns_and_play_goes_on(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    state_dir = tmp_path / "state"
    rig = start_bot_game(appliance_rig, state_dir)
    play(rig, 6)
    before = saved_history(state_dir)
    # The directory is swapped for a file: every save now fails with ENOTDIR.
    state_dir.rename(tmp_path / "moved")
    state_dir.write_text("not a directory")
    assert play_until_a_save_fails(rig) == "not saved: not a directory"
    play(rig, 6)
    assert rig.app.keeper.failing_saves >= 2
    assert len(history(rig)) > len(before)
    # The disk comes back: the save already made is whole, and saving resumes.
    state_dir.unlink()
    (tmp_path / "moved").rename(state_dir)
    assert saved_history(state_dir) == before
    play(rig, 2)
    assert rig.app.keeper.failing_saves == 0
    assert saved_history(state_dir) == history(rig)


def test_a_full_then_read_only_disk_warns_and_recovers(
    small_disk: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    state_dir = small_disk / "state"
    rig = start_bot_game(appliance_rig, state_dir)
    play(rig, 4)
    before = saved_history(state_dir)
    filler = fill(small_disk)
    assert play_until_a_save_fails(rig) == "not saved: disk full"
    play(rig, 6)
    assert saved_history(state_dir) == before, "the last good save was damaged"
    assert not list(state_dir.glob(".session-*")), "a temp file was left behind"
    kept = SaveStore(state_dir).load()  # a power cut now resumes the last good save
    assert kept is not None and len(kept.history) == len(before)
    filler.unlink()
    play(rig, 2)
    assert rig.app.keeper.failing_saves == 0
    assert saved_history(state_dir) == history(rig)

    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    before = saved_history(state_dir)
    assert play_until_a_save_fails(rig) == "not saved: disk read-only"
    play(rig, 6)
    assert saved_history(state_dir) == before
    subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    play(rig, 2)
    assert saved_history(state_dir) == history(rig)
