"""``sim --record`` names a file the simulator writes when the game ends: a path it can
never write is refused before the game starts, and a recording that still cannot be
written at the end (its folder gone meanwhile) is said in one line with exit 2. Both used
to end a whole game on exit 0 with no GIF and no word."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("display", ["window", "terminal"])
def test_a_directory_as_record_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], display: str
) -> None:
    code = main(["sim", "--display", display, "--game", "maedn", "--record", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--record" in err and "it is a directory" in err


def test_a_directory_as_screenshot_is_refused_before_the_window_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It used to play on and, at exit, write nothing and say nothing."""
    code = main(["sim", "--display", "window", "--screenshot", str(tmp_path)])
    _out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and "--screenshot" in err and "it is a directory" in err


def test_a_record_in_a_missing_folder_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no-such-folder" / "out.gif"
    code = main(["sim", "--display", "window", "--game", "maedn", "--record", str(target)])
    _out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and "does not exist" in err


def test_a_recording_that_cannot_be_written_at_the_end_is_said(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    folder.mkdir()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "controller", "sim", "--display", "window", "--fast"]
    command += ["--game", "maedn", "--seats", "bot,bot", "--record", str(folder / "out.gif")]
    sim = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        assert sim.stderr is not None
        first = sim.stderr.readline()  # "window 16x16; keys: ..." once the table plays
        assert "window" in first, first
        while time.monotonic() < deadline and sim.poll() is None:
            time.sleep(1.0)  # let a few frames be recorded
            break
        shutil.rmtree(folder)
        sim.send_signal(signal.SIGTERM)
        _out, err = sim.communicate(timeout=60)
    finally:
        if sim.poll() is None:
            sim.kill()
    assert sim.returncode == 2, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("spieltisch: error:") and "cannot write the recording" in last
    assert "Traceback" not in err
