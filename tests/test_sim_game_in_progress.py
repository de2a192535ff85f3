"""``sim --game X --state-dir D`` over a game in progress in D: the same game is
resumed, another one is refused in one line (the save untouched), and ``--new``
discards it on purpose. It used to replace the save without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.cli.command import build_parser
from controller.cli.sim_checks import game_to_start
from controller.testing.files import SAVE, write_bot_game


@pytest.fixture
def saved_maedn(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    write_bot_game(state, "maedn", "classic", 4, seed=1)
    return state


@pytest.mark.parametrize("display", ["terminal", "window"])
def test_another_game_over_a_game_in_progress_is_refused_and_the_save_kept(
    saved_maedn: Path, capsys: pytest.CaptureFixture[str], display: str
) -> None:
    before = (saved_maedn / SAVE).read_bytes()
    args = ["sim", "--display", display, "--game", "backgammon", "--state-dir", str(saved_maedn)]
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    assert "maedn (classic) game in progress" in err
    assert "leave out --game to resume it" in err and "--new" in err
    assert (saved_maedn / SAVE).read_bytes() == before


def test_the_same_game_resumes_the_save(saved_maedn: Path) -> None:
    args = build_parser().parse_args(["sim", "--game", "maedn", "--state-dir", str(saved_maedn)])
    note = game_to_start(args)
    assert note is not None and "resuming the maedn (classic) game" in note
    assert args.game is None, "no new game: the appliance resumes the save"


def test_another_preset_of_the_same_game_is_refused(saved_maedn: Path) -> None:
    argv = ["sim", "--game", "maedn", "--preset", "lingo", "--state-dir", str(saved_maedn)]
    args = build_parser().parse_args(argv)
    with pytest.raises(ValueError, match="maedn \\(classic\\) game in progress"):
        game_to_start(args)


def test_new_discards_the_game_in_progress_on_purpose(saved_maedn: Path) -> None:
    argv = ["sim", "--game", "backgammon", "--new", "--state-dir", str(saved_maedn)]
    args = build_parser().parse_args(argv)
    assert game_to_start(args) is None
    assert args.game == "backgammon", "the new game starts (and replaces the save)"


def test_a_finished_or_missing_save_starts_the_game_asked_for(tmp_path: Path) -> None:
    argv = ["sim", "--game", "backgammon", "--state-dir", str(tmp_path / "none")]
    args = build_parser().parse_args(argv)
    assert game_to_start(args) is None and args.game == "backgammon"
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / SAVE).write_text("{not json", encoding="utf-8")
    args = build_parser().parse_args([*argv[:-1], str(tmp_path / "bad")])
    assert game_to_start(args) is None, "a damaged save is the appliance's to move aside"


def test_the_text_board_keeps_the_same_promise(
    saved_maedn: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--display text`` used to resume whatever was saved and ignore ``--game``."""
    before = (saved_maedn / SAVE).read_bytes()
    refused = ["sim", "--display", "text", "--game", "backgammon", "--state-dir", str(saved_maedn)]
    assert main(refused) == 2
    _, err = capsys.readouterr()
    assert "maedn (classic) game in progress" in err and err.count("\n") == 1, err
    assert (saved_maedn / SAVE).read_bytes() == before

    same = ["sim", "--display", "text", "--game", "maedn", "--delay", "0"]
    assert main([*same, "--state-dir", str(saved_maedn)]) == 0
    out, err = capsys.readouterr()
    assert "resuming the maedn (classic) game in progress" in err
    assert "resuming the game saved in" in out

    fresh = tmp_path / "fresh"
    write_bot_game(fresh, "maedn", "classic", 4, seed=1)
    new = ["sim", "--display", "text", "--game", "minimaki", "--new", "--delay", "0"]
    assert main([*new, "--state-dir", str(fresh)]) == 0
    out, _ = capsys.readouterr()
    assert "resuming" not in out and out.splitlines()[0].startswith("minimaki/")
