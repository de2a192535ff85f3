"""``spieltisch rules``: the JSON command line over the rules and its bad-input handling."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(
    args: list[str],
    stdin: str = "",
    monkeypatch: pytest.MonkeyPatch | None = None,
    capsys: pytest.CaptureFixture[str] | None = None,
) -> tuple[int, str, str]:
    assert monkeypatch is not None and capsys is not None
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    def call(*args: str, stdin: str = "") -> tuple[int, str, str]:
        return run(list(args), stdin, monkeypatch, capsys)

    return call


def test_games_lists_presets(cli: Any) -> None:
    code, out, _ = cli("rules", "games")
    assert code == 0
    games = {g["name"]: g for g in json.loads(out)["games"]}
    assert games["maedn"]["presets"][:3] == ["classic", "lingo", "schmidt"]
    assert games["maedn"]["players"] == [2, 3, 4]


def test_new_then_moves_then_apply_round_trip(cli: Any, tmp_path: Path) -> None:
    code, out, _ = cli("rules", "new", "maedn", "--first", "red", "--players", "2")
    assert code == 0
    state_file = tmp_path / "s.json"
    state_file.write_text(out)
    code, out, _ = cli("rules", "moves", "maedn", "--state", str(state_file), "--dice", "6")
    answer = json.loads(out)
    assert [m["move"] for m in answer["moves"]] == ["home-0"]
    assert answer["moves"][0]["state"]["pieces"]["red"] == ["home", "home", "home", 0]
    code, out, _ = cli(
        "rules", "apply", "maedn", "--state", str(state_file), "--dice", "6", "--move", "home-0"
    )
    assert code == 0
    after = json.loads(out)
    assert after == answer["moves"][0]["state"]
    assert after["turn"] == "red" and after["phase"] == "roll"


def test_moves_jsonl_answers_one_line_per_input_line(cli: Any) -> None:
    lines = [
        {
            "state": {
                "players": ["red", "green"],
                "turn": "red",
                "pieces": {"red": [5, 20, "home", "home"], "green": [8, "home", "home", "home"]},
            },
            "dice": [3],
        },
        {
            "state": {
                "preset": "lingo",
                "players": ["red", "green"],
                "turn": "green",
                "pieces": {"red": ["home"] * 4, "green": ["home"] * 4},
            },
            "dice": [6],
        },
    ]
    stdin = "\n".join(json.dumps(x) for x in lines) + "\n"
    code, out, _ = cli("rules", "moves", "maedn", "--jsonl", stdin=stdin)
    assert code == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 2
    assert [m["move"] for m in answers[0]["moves"]] == ["5-8x"]
    assert {m["move"] for m in answers[1]["moves"]} == {"home-20", "pass"}
    assert all("state" in m for a in answers for m in a["moves"])


def test_moves_jsonl_reports_bad_lines_and_keeps_going(cli: Any) -> None:
    good = json.dumps(
        {
            "state": {
                "players": ["red", "green"],
                "turn": "red",
                "pieces": {"red": ["home"] * 4, "green": ["home"] * 4},
            },
            "dice": [6],
        }
    )
    code, out, err = cli("rules", "moves", "maedn", "--jsonl", stdin=f"{{oops\n{good}\n")
    answers = [json.loads(line) for line in out.splitlines()]
    assert "error" in answers[0] and "line 1" in answers[0]["error"]
    assert answers[1]["moves"][0]["move"] == "home-0"
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_play_summary_shape_and_determinism(cli: Any) -> None:
    code, out, _ = cli("rules", "play", "maedn", "--games", "20", "--seed", "3")
    assert code == 0
    summary = json.loads(out)
    assert set(summary) >= {"games", "wins", "rolls_mean", "moves_mean"}
    assert summary["games"] == 20 and sum(summary["wins"].values()) == 20
    assert summary["rolls_mean"] > summary["moves_mean"] > 0
    assert cli("rules", "play", "maedn", "--games", "20", "--seed", "3")[1] == out


def test_play_generic_driver_and_fast_playout_agree(cli: Any) -> None:
    """A non-random bot mix uses the generic driver; random bots use the fast playout.
    The statistics are identical for the same seed because both play the same games."""
    from rules.bots import BOT_KINDS, RandomBot

    class NamedRandom(RandomBot):
        name = "random2"

    BOT_KINDS["random2"] = NamedRandom
    try:
        fast = cli("rules", "play", "maedn", "--games", "15", "--seed", "9")[1]
        slow = cli("rules", "play", "maedn", "--games", "15", "--seed", "9", "--bots", "random2")[1]
    finally:
        del BOT_KINDS["random2"]
    assert json.loads(fast) == json.loads(slow)


def test_show_prints_a_board(cli: Any) -> None:
    state = json.dumps(
        {
            "game": "maedn",
            "players": ["red", "green"],
            "turn": "red",
            "pieces": {"red": [0, "goal1", "home", "home"], "green": [20, "home", "home", "home"]},
        }
    )
    code, out, _ = cli("rules", "show", "maedn", "--state", "-", stdin=state)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) >= 12
    assert lines[10][2 * 4] == "R", "red's start field is (10, 4)"
    assert "red to roll" in out


def test_hint_returns_a_legal_move(cli: Any) -> None:
    state = json.dumps(
        {
            "players": ["red", "green"],
            "turn": "red",
            "pieces": {"red": [0, 5, "home", "home"], "green": ["home"] * 4},
        }
    )
    code, out, _ = cli("rules", "hint", "maedn", "--state", "-", "--dice", "2", stdin=state)
    assert code == 0 and json.loads(out)["move"] in {"0-2", "5-7"}


BAD_INPUTS = [
    (["rules", "new", "schach"], "", "unknown game"),
    (["rules", "new", "maedn", "--preset", "turbo"], "", "unknown preset"),
    (["rules", "moves", "maedn", "--state", "-", "--dice", "6"], "{not json", "not valid JSON"),
    (
        ["rules", "moves", "maedn", "--state", "-", "--dice", "6"],
        json.dumps(
            {
                "players": ["red", "green"],
                "turn": "red",
                "pieces": {"red": [5, 5, "home", "home"], "green": ["home"] * 4},
            }
        ),
        "two pieces",
    ),
    (
        ["rules", "moves", "maedn", "--state", "-", "--dice", "7"],
        json.dumps(
            {
                "players": ["red", "green"],
                "turn": "red",
                "pieces": {"red": ["home"] * 4, "green": ["home"] * 4},
            }
        ),
        "1 to 6",
    ),
    (
        ["rules", "moves", "maedn", "--state", "-"],
        json.dumps(
            {
                "players": ["red", "green"],
                "turn": "red",
                "pieces": {"red": ["home"] * 4, "green": ["home"] * 4},
            }
        ),
        "roll first",
    ),
    (
        ["rules", "apply", "maedn", "--state", "-", "--dice", "6", "--move", "3-9"],
        json.dumps(
            {
                "players": ["red", "green"],
                "turn": "red",
                "pieces": {"red": ["home"] * 4, "green": ["home"] * 4},
            }
        ),
        "not legal",
    ),
    (["rules", "moves", "maedn", "--state", "/nonexistent.json", "--dice", "6"], "", "cannot read"),
    (
        ["rules", "moves", "maedn", "--state", "-", "--dice", "6"],
        json.dumps(
            {
                "players": ["red", "green"],
                "turn": "red",
                "pieces": {"red": ["home"] * 3, "green": ["home"] * 4},
            }
        ),
        "exactly 4 pieces",
    ),
    (["rules", "play", "maedn", "--bots", "genius"], "", "unknown bot"),
    (["rules", "moves"], "", "required"),
]


@pytest.mark.parametrize(("args", "stdin", "message"), BAD_INPUTS)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str],
    stdin: str,
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        code = main(args)
    except SystemExit as exc:  # argparse usage errors exit from inside parse_args
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert message in err
    assert "Traceback" not in err


def test_real_process_bad_input_has_no_traceback() -> None:
    """The installed entry point (a real process) behaves the same."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "controller",
            "rules",
            "moves",
            "maedn",
            "--state",
            "-",
            "--dice",
            "7",
        ],
        input='{"players": ["red", "green"], "turn": "red", '
        '"pieces": {"red": ["home","home","home","home"], '
        '"green": ["home","home","home","home"]}}',
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_sim_without_screen_or_terminal_shows_a_text_bot_game() -> None:
    """`spieltisch sim` with no window and no keyboard (a pipe, a service) does not fail:
    it plays a bot game on the text board."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    result = subprocess.run(
        [sys.executable, "-m", "controller", "sim", "--seed", "1"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "wins after" in result.stdout and "no screen and no terminal" in result.stderr


def test_sim_starts_a_chosen_game_with_a_state_dir_and_again_over_its_save(
    tmp_path: Path,
) -> None:
    """`spieltisch sim --game G --state-dir DIR` (README): the chosen game starts and is
    saved; run again over that save, the chosen game starts anew instead of the save
    being resumed on top of it (that crashed). SIGTERM saves and exits 0."""
    import os
    import signal
    import time

    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    save = tmp_path / "session.json"
    for round_ in range(2):
        before = save.stat().st_mtime_ns if save.exists() else 0
        command = [sys.executable, "-m", "controller", "sim", "--display", "pygame"]
        command += ["--game", "backgammon", "--seats", "bot,empty,bot", "--seed", str(round_)]
        command += ["--state-dir", str(tmp_path)]
        sim = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and sim.poll() is None:
            if save.exists() and save.stat().st_mtime_ns != before:
                break
            time.sleep(0.1)
        assert sim.poll() is None, sim.communicate()[1]
        sim.send_signal(signal.SIGTERM)
        _, err = sim.communicate(timeout=30)
        assert sim.returncode == 0, err
        assert "Traceback" not in err
        assert json.loads(save.read_text())["game"] == "backgammon"


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--game", "maedn", "--seats", "human,bto"], "'bto'"),
        (["--seats", "human,bot,bot,bot,bot"], "1 to 4 seats"),
        (["--game", "maedx"], "'maedx'"),
        (["--game", "maedn", "--preset", "lingoo"], "'lingoo'"),
        (["--preset", "lingo"], "needs --game"),
    ],
)
@pytest.mark.parametrize("display", ["auto", "text"])
def test_sim_rejects_a_bad_seat_game_or_preset_before_choosing_a_display(
    cli: Any, args: list[str], named: str, display: str
) -> None:
    """Without a terminal on stdin `auto` would fall back to a text bot game that ignores
    the seats; every display choice reports the typo instead, in one line, exit 2."""
    code, out, err = cli("sim", "--display", display, "--seed", "1", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and named in err and err.startswith("spieltisch: error: ")


@pytest.mark.parametrize("display", [[], ["--display", "asciiblock"]])
def test_sim_without_a_terminal_reports_a_mistyped_seat(display: list[str]) -> None:
    """The command as a user types it, stdin not a terminal and no screen; a bad seat
    stops the terminal panel from opening too."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "controller",
            "sim",
            "--game",
            "maedn",
            "--seats",
            "human,bto",
            *display,
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
        timeout=120,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "'bto'" in result.stderr


@pytest.mark.parametrize("dice", [["3,1"], ["3", "1"], ["3,", "1"]])
@pytest.mark.parametrize("command", ["hint", "moves", "apply"])
def test_two_dice_are_written_with_a_comma_or_a_space(
    cli: Any, dice: list[str], command: str
) -> None:
    start = ["rules", "new", "backgammon", "--position-id", "4HPwATDgc/ABMA"]
    code, state, _ = cli(*start)
    assert code == 0
    code, out, err = cli(
        "rules", command, "backgammon", "--state", "-", "--dice", *dice, stdin=state
    )
    assert code == 0, err
    reference = cli("rules", command, "backgammon", "--state", "-", "--dice", "3,1", stdin=state)
    assert json.loads(out) == json.loads(reference[1])
    if command == "moves":
        assert "8/5 6/5" in {m["move"] for m in json.loads(out)["moves"]}


@pytest.mark.parametrize("dice", [["x"], [","], ["3,x"]])
def test_dice_that_are_no_numbers_are_one_line_saying_how_to_write_them(
    cli: Any, dice: list[str]
) -> None:
    state = cli("rules", "new", "maedn", "--first", "red")[1]
    code, out, err = cli("rules", "moves", "maedn", "--state", "-", "--dice", *dice, stdin=state)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "like 6, 3,1 or 3 1" in err


def test_every_option_of_every_command_has_a_one_line_help() -> None:
    """`--help` explains every option (hidden ones included) and every subcommand."""
    import argparse

    from controller.cli import build_parser

    missing: list[str] = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if isinstance(action, argparse._SubParsersAction):
                helps = {choice.dest: choice.help for choice in action._choices_actions}
                for name, sub in action.choices.items():
                    if not helps.get(name) or "\n" in str(helps[name]):
                        missing.append(f"{path} {name}")
                    walk(sub, f"{path} {name}")
                continue
            text = action.help
            if not text or text == argparse.SUPPRESS or "\n" in text:
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(), "spieltisch")
    assert not missing
