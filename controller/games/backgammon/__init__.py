"""How Backgammon presents itself: white is drawn orange and black blue, a play is
entered and animated checker by checker, a match flashes the score after each of its
games and its history record lists the match's games. The words are in
:mod:`controller.games.backgammon.words`."""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.backgammon import why_not_words
from controller.games.backgammon.analysis_replay import analysis_frames
from controller.games.backgammon.analysis_words import analysis_lines
from controller.games.backgammon.checker_entry import CheckerEntry
from controller.games.backgammon.match_banner import game_end_banner
from controller.games.backgammon.offer_words import REPLAY_WORDS, offer_words
from controller.games.backgammon.record import record_extras, recorded_game_line
from controller.games.backgammon.rule_rows import PresetWords, setup_rows
from controller.games.backgammon.sides import SIDE_INKS, SIDE_WORDS
from controller.games.backgammon.text_board import BACKGAMMON_LEGEND, render_backgammon
from controller.games.backgammon.words import (
    hint_words,
    opening_words,
    result_words,
    situation_words,
    step_words,
)
from controller.games.presentation import BoardView, Presentation, register_presentation
from rules.backgammon.engine import BackgammonState, Play
from rules.backgammon.facts import checker_steps
from rules.core import Move, State


def checker_entry(state: State, moves: Sequence[Move]) -> CheckerEntry | None:
    """A human's play is entered checker by checker whenever the choice is of plays."""
    if isinstance(state, BackgammonState) and all(isinstance(m, Play) for m in moves):
        return CheckerEntry(state)
    return None


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
        side_colours=SIDE_WORDS,
        side_inks=SIDE_INKS,
        preset_names=PresetWords(),
        setup_rows=setup_rows,
        move_words=offer_words,
        hint_words=hint_words,
        situation_words=situation_words,
        result_words=result_words,
        checker_steps=checker_steps,
        checker_entry=checker_entry,
        record_extras=record_extras,
        record_game_line=recorded_game_line,
        analysis_lines=analysis_lines,
        analysis_frames=analysis_frames,
        game_end_banner=game_end_banner,
        opening_words=opening_words,
        # both sides throw the opening at once: a throw it stays open after was a tie
        opening_rethrow=lambda state: True,
        step_words=step_words,
        decision_rolls=lambda move: move.notation == "roll",
        menu_place=3,
        replay_words=REPLAY_WORDS,
        capture_victim=lambda state, move: {"white": "black", "black": "white"}.get(
            state.current_player or ""
        ),
        reaches_goal=lambda move: "/off" in move.notation,
        why_not=why_not_words.why_not,
        reason_words=why_not_words.reason_words,
        reasons=why_not_words.REASONS,
        routine_reasons=why_not_words.ROUTINE,
    ),
)
