"""A state directory that cannot be used at start-up never stops the table, and the
directory given is the one used.

Real directories: a file where the directory should be, a directory under a file, a
tmpfs remounted read-only, and a directory whose name holds a ``:``. The process tests
start ``spieltisch run`` as systemd does and watch READY and its log.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.machine import Mode
from controller.persistence import SaveStore
from controller.session import Session
from controller.state_dir import resolve_state_dir
from controller.testing.files import read_save, write_bot_game, write_config
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess
from controller.testing.rig import ApplianceRig


def play(rig: ApplianceRig, entries: int) -> None:
    session = rig.table.session
    assert session is not None
    target = len(session.history) + entries
    for _ in range(entries * 1000):
        rig.advance()
        if len(session.history) >= target:
            return
    pytest.fail("the bots stopped playing")


def test_a_colon_in_state_dir_is_part_of_the_name() -> None:
    given = Path("/srv/games:2024")
    assert resolve_state_dir(given, Path("/d"), {"STATE_DIRECTORY": "/x:/y"}) == given
    # systemd joins several StateDirectory= entries with ':'; the first one is ours
    assert resolve_state_dir(None, Path("/d"), {"STATE_DIRECTORY": "/x:/y"}) == Path("/x")
    assert resolve_state_dir(None, Path("/d"), {}) == Path("/d")


@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_an_unusable_state_directory_is_one_line_and_play_goes_on(
    tmp_path: Path,
    appliance_rig: Callable[..., ApplianceRig],
    caplog: pytest.LogCaptureFixture,
    where: str,
) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the state directory should be")
    state_dir = blocker if where == "a file" else blocker / "sub"
    rig = appliance_rig(state_dir, seats=("bot",), buttons=False)
    rig.start(new_game=Session.start("minimaki", "standard", ["bot"], seed=3, bot="random"))
    assert rig.table.banner.text == "not saved: not a directory"
    play(rig, 8)
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert errors == [
        f"state directory {state_dir}: "
        + (
            "it is a file, not a directory"
            if where == "a file"
            else "a part of it is a file, not a directory"
        )
        + "; the table plays on without saving"
    ], errors
    assert rig.app.keeper.save_failures >= 8
    assert blocker.read_text() == "a file where the state directory should be"


def test_a_read_only_state_disk_resumes_the_game_and_plays_on(
    small_disk: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    """The state directory does not exist yet and the disk is read-only: it cannot be
    made; a second start, with the directory there, still resumes its save."""
    state_dir = small_disk / "state"
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    rig = appliance_rig(state_dir, seats=("bot",), buttons=False)
    rig.start(new_game=Session.start("minimaki", "standard", ["bot"], seed=3, bot="random"))
    assert rig.table.banner.text == "not saved: disk read-only"
    play(rig, 6)
    rig.close()
    subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    saved = write_bot_game(state_dir, "minimaki", "standard", 1, seed=9)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    again = appliance_rig(state_dir, seats=("bot",), buttons=False)
    again.start()
    assert again.table.session is not None
    assert again.table.session.started == saved.started  # resumed from the read-only disk
    play(again, 4)
    assert again.table.state is not Mode.MESSAGE
    again.close()
    subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    assert SaveStore(state_dir).load() is not None


def test_run_with_a_file_as_state_dir_starts_and_says_why_in_one_line(tmp_path: Path) -> None:
    config = write_config(tmp_path, seats=("bot", "bot"))
    # The companion page off: on a machine where port 8080 is taken it would log its own
    # (clear, but unrelated) error line, which this test must not mistake for the state
    # directory's.
    with config.open("a", encoding="utf-8") as file:
        file.write("[web]\nenabled = false\n")
    state_dir = tmp_path / "state"
    state_dir.write_text("x")
    notify = NotifySocket()
    app = ApplianceProcess(config, state_dir, notify, log_dir=tmp_path)
    try:
        assert notify.wait_for("READY=1", timeout=60) is not None, app.stderr()
        code, _ = app.terminate()
    finally:
        app.close()
        notify.close()
    log = app.stderr()
    assert code == 0, log
    assert "Errno" not in log and "Traceback" not in log, log
    assert log.count(f"state directory {state_dir}: it is a file, not a directory") == 1, log


def test_run_resumes_a_game_saved_under_a_name_with_a_colon(tmp_path: Path) -> None:
    config = write_config(tmp_path, seats=("bot", "bot"))
    state_dir = tmp_path / "games:2024"
    write_bot_game(state_dir, "maedn", "classic", 2, seed=4)
    (tmp_path / "games").mkdir()  # what the old split at ':' used instead
    before = len(read_save(state_dir)["history"])  # type: ignore[index]
    notify = NotifySocket()
    app = ApplianceProcess(config, state_dir, notify, log_dir=tmp_path)
    try:
        assert notify.wait_for("READY=1", timeout=60) is not None, app.stderr()
        assert "resuming maedn/classic" in app.stderr()
        code, _ = app.terminate()
    finally:
        app.close()
        notify.close()
    assert code == 0
    assert len(read_save(state_dir)["history"]) >= before  # type: ignore[index]
    assert list((tmp_path / "games").iterdir()) == []
