"""``sim --display text`` checks its input as every other display does, and keeps its
game in ``--state-dir`` as the table does: it used to play a bot game over a broken
config, a seat list the game cannot seat, and to ignore the state directory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parent.parent


def sim(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["sim", "--display", "text", "--delay", "0", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_config_with_a_syntax_error_stops_the_text_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[display\n", encoding="utf-8")
    code, out, err = sim(capsys, "--config", str(broken))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "TOML syntax error" in err


@pytest.mark.parametrize("display", ["text", "terminal", "window"])
def test_three_humans_for_backgammon_are_refused_in_every_mode(
    capsys: pytest.CaptureFixture[str], display: str
) -> None:
    seats = ["--seats", "human,human,human"]
    code = main(["sim", "--display", display, "--game", "backgammon", *seats])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == (
        "spieltisch: error: --seats: backgammon is for 2 players, 3 chosen in 'human,human,human'\n"
    )


def test_the_seats_decide_who_plays_on_the_text_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = sim(capsys, "--game", "maedn", "--seats", "bot,empty,human", "--seed", "2")
    assert code == 0
    assert out.startswith("maedn/classic, 2 bots, seed 2\n")


def test_without_seats_a_two_player_game_gets_two(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = sim(capsys, "--game", "backgammon", "--seed", "4")
    assert code == 0, err
    assert out.startswith("backgammon/")


def test_players_and_seats_that_disagree_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = sim(capsys, "--game", "maedn", "--seats", "bot,bot", "--players", "3")
    assert code == 2 and out == "" and "--players 3" in err


@pytest.mark.parametrize("delay", ["nan", "inf", "-1", "61"])
def test_a_delay_that_is_no_pause_is_refused(
    capsys: pytest.CaptureFixture[str], delay: str
) -> None:
    code = main(["sim", "--display", "text", "--game", "maedn", "--delay", delay])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "--delay" in err


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


@pytest.mark.process
def test_a_killed_text_game_resumes_from_its_save_and_ends_as_it_would_have(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pulled plug: SIGKILL mid-game, then the same command resumes the save and plays
    the very game an uninterrupted run with that seed plays (dice and bots draw from
    the saved generator)."""
    args = ["--game", "backgammon", "--seed", "1", "--bots", "random"]
    code, whole, _ = sim(capsys, *args)
    assert code == 0
    state = tmp_path / "state"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "controller", "sim", "--display", "text", *args]
    process = subprocess.Popen(
        [*command, "--state-dir", str(state), "--delay", "0.02"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    save = state / "session.json"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if save.exists() and len(json.loads(save.read_text() or "{}").get("history", [])) > 40:
                break
            time.sleep(0.05)
        assert process.poll() is None, process.communicate()[1]
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
        assert process.stderr is not None
        process.stderr.close()
    saved = json.loads(save.read_text())
    assert saved["game"] == "backgammon" and len(saved["history"]) > 40
    code, resumed, err = sim(capsys, "--state-dir", str(state))
    assert code == 0, err
    assert resumed.startswith(f"resuming the game saved in {save} ")
    assert "backgammon/single, 2 bots, resumed\n" in resumed
    assert last_line(resumed).removesuffix(" (resumed)") == last_line(whole).removesuffix(
        " (seed 1)"
    )
    # finished: the next start is a new game, not the old one again
    code, again, _ = sim(capsys, "--state-dir", str(state), "--game", "minimaki", "--seed", "1")
    assert code == 0 and again.startswith("minimaki/")


def test_a_file_as_state_dir_stops_the_text_board_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It used to end on the raw "[Errno 17] File exists: '...'"."""
    a_file = tmp_path / "save"
    a_file.write_text("not a directory", encoding="utf-8")
    code, out, err = sim(capsys, "--game", "maedn", "--state-dir", str(a_file))
    assert code == 2 and out == ""
    assert err == f"spieltisch: error: --state-dir {a_file}: it is a file, not a directory\n"
    assert "Errno" not in err


def test_record_is_refused_on_the_text_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It used to play a whole game and write no GIF, without a word."""
    target = tmp_path / "out.gif"
    code, out, err = sim(capsys, "--game", "maedn", "--record", str(target))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--record records the panel" in err
    assert not target.exists()
