"""Error lines quote little of what they were given: a 100 KB argument or a 4 000-digit
number came back whole, in a line of 100 000 characters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules
from controller.cli import main

HUGE = "x" * 100_000


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "new", HUGE],
        ["rules", "new", "maedn", "--preset", HUGE],
        ["rules", "new", "maedn", "--first", HUGE],
        ["rules", "new", "backgammon", "--position-id", HUGE],
        ["rules", "play", "maedn", "--bots", HUGE],
        ["rules", "moves", "maedn", "--state", HUGE],
        ["sim", "--display", "text", "--game", HUGE],
        ["sim", "--display", "text", "--seats", HUGE],
        ["sim", "--display", "text", "--game", "maedn", "--bots", HUGE],
        ["history", "--state-dir", HUGE, "list"],
        ["config", "check", HUGE],
        ["config", "check", f"/nonexistent/{HUGE[:200]}.toml"],
    ],
    ids=lambda args: " ".join(a if len(a) < 30 else "HUGE" for a in args),
)
def test_a_huge_argument_gives_a_short_line(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("spieltisch: error: ")
    assert len(err) < 400, f"{len(err)} characters: {err[:200]}…"


def test_a_4000_digit_number_in_a_config_is_quoted_by_its_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[display]\ntype = "dummy"\nscale = 9' + "9" * 4000 + "\n", encoding="utf-8")
    assert main(["config", "check", str(path)]) == 2
    _out, err = capsys.readouterr()
    assert err.count("\n") == 1 and len(err) < 300, err[:300]
    assert "display.scale: 999999" in err and "(4001 characters)" in err


def test_a_huge_move_in_a_stream_is_quoted_by_its_start(tmp_path: Path) -> None:
    from controller.cli import rules as rules_cli

    game = rules.get_game("maedn")
    state = game.new_state(None, first="red").to_json()
    line = json.dumps({"state": state, "dice": [6], "move": HUGE}).encode()
    answer = rules_cli.answer_line(game, line, 1, rules_cli.answer_moves)
    assert "error" not in answer  # an unknown key is ignored, as before
    line = json.dumps({"state": {**state, "turn": HUGE}, "dice": [6]}).encode()
    error = rules_cli.answer_line(game, line, 2, rules_cli.answer_moves)["error"]
    assert error.startswith("line 2: ") and len(error) < 250, error[:300]
