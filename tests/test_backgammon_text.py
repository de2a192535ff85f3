"""The text board of backgammon (``rules show``): readable, in white's numbering."""

from __future__ import annotations

import pytest

import rules
from controller.cli import main
from controller.text.board import render_board


def test_start_position_drawn_in_whites_numbering() -> None:
    text = render_board(rules.get_game("backgammon").new_state())
    lines = text.splitlines()
    assert lines[0].startswith("+13 14 15 16 17 18 +---+19 20 21 22 23 24 +")
    assert lines[12].startswith("+12 11 10  9  8  7 +---+ 6  5  4  3  2  1 +")
    # Top left is white's 13 point (white's five); bottom left white's 12 point, which
    # is black's 13 point (black's five).
    assert lines[1].split("|")[1].split()[0] == "W"
    assert lines[1].split("|")[3].split()[-1] == "W"  # white's two back checkers on 24
    assert lines[11].split("|")[1].split()[0] == "B"  # black's 5 on white's 12
    assert "Position ID 4HPwATDgc/ABMA" in text
    assert "opening roll" in lines[-1]


def test_tall_stacks_show_their_count_and_cli_show_works(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "show", "backgammon", "--position-id", "AACAAf8BABAAAA"]) == 0
    out = capsys.readouterr().out
    assert " 9 " in out and "bar: W 1  B 0" in out and "off: W 5  B 13" in out
