"""How Backgammon presents itself: white is drawn orange and black blue, a play is
entered checker by checker, and a match flashes the score after each of its games."""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.backgammon.checker_entry import CheckerEntry
from controller.games.backgammon.match_banner import game_end_banner
from controller.games.backgammon.text_board import BACKGAMMON_LEGEND, render_backgammon
from controller.games.presentation import (
    BoardView,
    Presentation,
    colour_name,
    register_presentation,
)
from rules.backgammon.engine import PLAYERS, BackgammonState, Play
from rules.backgammon.moves import BAR
from rules.core import Dice, Move, State


def checker_entry(state: State, moves: Sequence[Move]) -> CheckerEntry | None:
    """A human's play is entered checker by checker whenever the choice is of plays."""
    if isinstance(state, BackgammonState) and all(isinstance(m, Play) for m in moves):
        return CheckerEntry(state)
    return None


def point_words(index: int) -> str:
    """A step end in the mover's numbering: 1–24, the bar, or off."""
    if index == BAR:
        return "bar"
    return "off" if index < 0 else str(index + 1)


def step_words(step: tuple[int, int, bool]) -> str:
    a, b, hit = step
    return f"{point_words(a)}/{point_words(b)}{'*' if hit else ''}"


def opening_words(dice: Dice, after: State) -> str:
    """Both sides throw one die; the higher begins with both dice, a tie throws again."""
    white, black = dice
    names = [colour_name("backgammon", p) for p in PLAYERS]
    line = f"{names[0]} {white}, {names[1]} {black}"
    if white == black:
        return f"{line}: a tie, both throw again"
    starter = after.current_player
    return f"{line}: {colour_name('backgammon', starter or '')} begins"


# Backgammon: points (triangles) from both sides.
BACKGAMMON_ICON = (
    "O.#.O.#.",
    "O.#.O.#.",
    ".#...#..",
    "........",
    "........",
    ".#...#..",
    "#.K.#.K.",
    "#.K.#.K.",
)


def board_view(game: str) -> BoardView:
    from controller.games.backgammon import view, view_layout

    return BoardView(view_layout.sizes, view.render, view_layout.cell_box)


register_presentation(
    "backgammon",
    Presentation(
        view=board_view,
        icon=BACKGAMMON_ICON,
        text_board=render_backgammon,
        text_legend=BACKGAMMON_LEGEND,
        side_colours={"white": "orange", "black": "blue"},
        preset_names={
            "single": "one game",
            "money": "with cube",
            "money-jacoby": "with cube, Jacoby rule",
            "money-automatic": "with cube, Jacoby, 2 automatic doubles",
            **{f"match{n}": f"match to {n}" for n in (1, 3, 5, 7, 11)},
        },
        checker_entry=checker_entry,
        game_end_banner=game_end_banner,
        opening_words=opening_words,
        step_words=step_words,
        decision_rolls=lambda move: move.notation == "roll",
        menu_place=3,
    ),
)
