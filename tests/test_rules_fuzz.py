"""``spieltisch rules`` answers every line, whatever it holds.

A ``--jsonl`` stream stopped with a traceback at JSON nested 1 000 deep, and a
Backgammon state whose game list held ``"kind": []`` raised ``TypeError``. The fuzz
runs in this process against :func:`controller.cli.rules.answer_line`, the function
the command calls for each line (seeded: a failure names its seed and line); one real
process then takes a stream of the nastiest lines end to end.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from controller.cli import main
from controller.cli import rules as rules_cli
from rules.bots import make_bot
from tests.jsonl_fuzz import NASTIEST, TEN_MB, mutated_lines, positions

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("maedn", "kleiner_aerger", "backgammon", "minimaki")
LINES_PER_GAME = 5000
SEED = 24


def assert_one_answer(answer: object, number: int) -> None:
    """One JSON object on one line: a result, or an error that names the line in words
    (not the safety net for an unexpected exception) and quotes little of the input."""
    assert isinstance(answer, dict), answer
    out = io.StringIO()
    rules_cli.emit(out, answer)
    assert out.getvalue().count("\n") == 1
    if "error" in answer:
        error = answer["error"]
        assert isinstance(error, str) and error.startswith(f"line {number}: "), error
        assert "cannot use this line" not in error, f"a rules bug: {error}"
        assert f"line {number}: line" not in error, error
        assert "\n" not in error and len(error) < 400, error[:400]
    else:
        assert "state" in answer and ("moves" in answer or "move" in answer), answer


@pytest.mark.parametrize("game_name", GAMES)
def test_every_mutated_line_gets_one_answer(game_name: str) -> None:
    game = rules.get_game(game_name)
    lines = mutated_lines(game_name, LINES_PER_GAME, SEED)
    assert len(lines) >= 5000
    assert sum(len(line) >= TEN_MB for line in lines) >= 2
    answered = 0
    for number, line in enumerate(lines, start=1):
        answer = rules_cli.answer_line(game, line, number, rules_cli.answer_moves)
        assert_one_answer(answer, number)
        answered += "error" not in answer
    assert answered > LINES_PER_GAME // 20, "the fuzz hardly reached the rules"


@pytest.mark.parametrize("game_name", GAMES)
def test_the_bots_answer_mutated_lines_too(game_name: str) -> None:
    game = rules.get_game(game_name)
    bot, rng = make_bot("random"), random.Random(SEED)
    lines = mutated_lines(game_name, 1000, SEED + 1, ten_mb_lines=0)
    for number, line in enumerate(lines, start=1):
        answer = rules_cli.answer_line(
            game, line, number, lambda state: rules_cli.answer_hint(bot, state, rng)
        )
        assert_one_answer(answer, number)


@pytest.mark.parametrize("command", ["moves", "hint"])
def test_a_real_stream_of_the_nastiest_lines_is_answered_line_by_line(command: str) -> None:
    good = json.dumps(positions("backgammon", 1, random.Random(SEED))[0]).encode()
    stream = [good, *NASTIEST, good, b"   ", b"{oops", good]
    result = subprocess.run(
        [sys.executable, "-m", "controller", "rules", command, "backgammon", "--jsonl"]
        + (["--bot", "random"] if command == "hint" else []),
        input=b"\n".join(stream) + b"\n",
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    err = result.stderr.decode(errors="replace")
    assert "Traceback" not in err, err[-2000:]
    answers = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(answers) == len(stream) - 1  # the blank line has no answer
    errors = [a for a in answers if "error" in a]
    assert len(errors) == len(NASTIEST) + 1
    assert all("error" not in answers[i] for i in (0, len(NASTIEST) + 1, len(answers) - 1))
    assert result.returncode == 2
    assert (
        err == f"spieltisch: error: {len(errors)} of {len(answers)} input lines were "
        "rejected (see their answers)\n"
    )


KIND_LIST = {"winner": "white", "points": 1, "kind": []}


@pytest.mark.parametrize("command", ["show", "moves"])
def test_a_game_list_with_a_kind_that_is_a_list_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    state = rules.get_game("backgammon", "match5").new_state(None).to_json()
    state["games"] = [KIND_LIST]
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    code = main(["rules", command, "backgammon", "--state", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and 'each of "games" must be' in err


def test_a_state_file_nested_too_deeply_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code = main(["rules", "show", "maedn", "--state", str(path)])
    _out, err = capsys.readouterr()
    assert code == 2 and err == f"spieltisch: error: {path}: JSON nested too deeply\n"


def test_a_bad_line_says_line_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\n{oops\n"))
    assert main(["rules", "moves", "maedn", "--jsonl"]) == 2
    out, _err = capsys.readouterr()
    assert json.loads(out) == {
        "error": "line 3: not valid JSON: Expecting property name enclosed in double quotes "
        "(column 2)"
    }


def start_file(tmp_path: Path, game: str) -> Path:
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(rules.get_game(game).new_state(None).to_json()))
    return path


@pytest.mark.parametrize(
    ("game", "args", "quoted"),
    [
        ("maedn", ["--dice", "6", "--move", "x" * 100_000], "'xxxx"),
        ("backgammon", ["--dice", "3,1", "--move", "13/" * 30_000], "'13/13/"),
        ("minimaki", ["--move", "7" * 100_000], "'7777"),
        ("maedn", ["--dice", "1" + "0" * 4000], "1000000"),
    ],
)
def test_an_error_quotes_a_huge_input_by_its_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, args: list[str], quoted: str
) -> None:
    state = start_file(tmp_path, game)
    if game == "maedn":
        state.write_text(json.dumps(rules.get_game(game).new_state(None, first="red").to_json()))
    code = main(["rules", "apply", game, "--state", str(state), *args])
    _out, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1, err[:300]
    assert quoted in err and len(err) < 300, f"{len(err)} characters: {err[:300]}"


def test_a_state_with_a_4000_digit_number_is_quoted_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = rules.get_game("maedn").new_state(None).to_json()
    state["turn"] = 10**4000
    path = tmp_path / "big.json"
    path.write_text(json.dumps(state))
    assert main(["rules", "show", "maedn", "--state", str(path)]) == 2
    _out, err = capsys.readouterr()
    assert err.count("\n") == 1 and len(err) < 300 and "(4001 characters)" in err
