"""``spieltisch history --state-dir DIR``: a directory that is not there, or not one,
is one line and exit 2 (it used to say "no games recorded yet" and exit 0, so a typo
looked like an empty table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main


def history(capsys: pytest.CaptureFixture[str], state: Path, *args: str) -> tuple[int, str, str]:
    code = main(["history", "--state-dir", str(state), *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", [["list"], ["stats"], ["show", "1"], ["export", "1", "-"]])
@pytest.mark.parametrize("where", ["/nonexistent", "/proc/nope", "/nonexistent/deeper/still"])
def test_a_missing_state_directory_is_named(
    capsys: pytest.CaptureFixture[str], command: list[str], where: str
) -> None:
    code, out, err = history(capsys, Path(where), *command)
    assert code == 2 and out == ""
    assert err == (
        f"spieltisch: error: state directory {where} does not exist; "
        "name the table's with --state-dir\n"
    )


def test_a_file_is_not_a_state_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plain = tmp_path / "notes.txt"
    plain.write_text("hello\n", encoding="utf-8")
    code, out, err = history(capsys, plain, "list")
    assert code == 2 and out == ""
    assert err == f"spieltisch: error: state directory {plain} is not a directory\n"
    code, out, err = history(capsys, plain / "below", "list")
    assert code == 2 and err.count("\n") == 1 and "Errno" not in err


def test_an_empty_state_directory_has_no_games_yet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = history(capsys, tmp_path, "list")
    assert (code, out, err) == (0, "no games recorded yet\n", "")
