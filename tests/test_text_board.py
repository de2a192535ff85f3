"""The text board and the text simulator: a watcher can tell who starts and why, and
what every symbol on the board means."""

from __future__ import annotations

import argparse
import io
import itertools
import re

import pytest

import rules
from controller.text import sim as text_sim
from controller.text.board import legend, render_board


def watch(game: str, seed: int) -> str:
    args = argparse.Namespace(
        game=game, preset=None, players=None, bots="random", seed=seed, delay=0.0
    )
    out = io.StringIO()
    assert text_sim.run(args, out) == 0
    return out.getvalue()


@pytest.mark.parametrize("seed", range(3))
def test_a_game_that_a_roll_ends_is_watched_to_its_end(seed: int) -> None:
    """Mini-Maki ends on black's roll: the simulator shows that roll and the result."""
    lines = watch("minimaki", seed).splitlines()
    assert lines[-1].startswith("black wins after ")
    assert lines[-2].startswith("red lost in round ")
    assert lines[-10].startswith("black rolled ")


def opening_rounds(line: str) -> tuple[list[dict[str, int]], str]:
    """ "opening roll: red 2, blue 6, (again) ... -> blue starts" as rounds of throws."""
    match = re.fullmatch(r"opening roll: (.*) -> (\w+) starts", line)
    assert match is not None, line
    rounds = [
        {name: int(value) for name, value in (throw.split() for throw in part.split(", "))}
        for part in match.group(1).split(", (again) ")
    ]
    return rounds, match.group(2)


def leaders(throws: dict[str, int]) -> list[str]:
    return [name for name, value in throws.items() if value == max(throws.values())]


@pytest.mark.parametrize(
    ("game", "seed"), [("maedn", s) for s in range(4)] + [("kleiner_aerger", 1)]
)
def test_the_text_simulator_shows_every_opening_throw_and_who_starts(game: str, seed: int) -> None:
    text = watch(game, seed)
    line = next(line for line in text.splitlines() if line.endswith(" starts"))
    rounds, starter = opening_rounds(line)
    assert list(rounds[0]) == ["red", "blue", "green", "yellow"]
    assert leaders(rounds[-1]) == [starter]
    first_move = text[text.index(line) :].splitlines()[1]
    assert first_move.startswith(f"move 1: {starter} rolled")


def test_a_tie_is_thrown_again_by_the_tied_players_only() -> None:
    lines = [line for s in range(40) for line in watch("kleiner_aerger", s).splitlines()]
    ties = [opening_rounds(line)[0] for line in lines if "(again)" in line]
    assert ties, "no tie in 40 seeded openings"
    for rounds in ties:
        for before, again in itertools.pairwise(rounds):
            assert list(again) == leaders(before)


def test_the_opening_status_line_lists_the_throws_so_far() -> None:
    state = rules.get_game("maedn").new_state(4).roll([3]).roll([5])
    assert render_board(state).splitlines()[-1] == "opening roll: red 3, blue 5; green throws"


@pytest.mark.parametrize("game", ["maedn", "kleiner_aerger"])
def test_the_text_simulator_explains_every_symbol_of_its_board(game: str) -> None:
    text = watch(game, 1)
    assert f"legend: {legend(game)}\n" in text
    explained = {word.strip("(),;:") for word in legend(game).split()}
    state = rules.get_game(game).new_state(4).roll([6]).roll([1]).roll([1]).roll([1])
    state = state.roll([6]).apply(state.roll([6]).legal_moves()[0])  # a piece out, a die
    lines = render_board(state).splitlines()
    grid = [line for line in lines if line and all(len(t) == 1 for t in line.split())]
    symbols = {c for line in grid for c in line.split()} - {"6"}  # the die in the centre
    assert {"R", "b", "-", "."} <= symbols
    assert symbols <= explained, f"not in the legend: {sorted(symbols - explained)}"
    start = render_board(rules.get_game(game).new_state(4))
    assert "*" in start and "*" in explained


@pytest.mark.parametrize("game", ["backgammon", "minimaki"])
def test_every_text_board_has_a_legend(game: str) -> None:
    assert legend(game) and f"legend: {legend(game)}\n" in watch(game, 1)
