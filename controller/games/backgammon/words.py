"""Backgammon in the players' words: a play, a cube decision, one checker step, the
opening roll and a hint's figures.

The rules give typed facts (a play's steps, a :class:`CubeDecision`, a hint's
:class:`Evaluation`); this module is the only place that turns them into words, each
through the catalog so that the table can speak German.
"""

from __future__ import annotations

from controller.games.presentation import colour_name, notation_words
from controller.i18n import _
from rules.backgammon.engine import PLAYERS, Play
from rules.backgammon.facts import CubeDecision, cube_decision
from rules.backgammon.hint import hint_evaluation
from rules.backgammon.moves import BAR
from rules.core import Dice, Move, State


def cube_words(decision: CubeDecision) -> str:
    if decision is CubeDecision.ROLL:
        return _("roll the dice")
    if decision is CubeDecision.DOUBLE:
        return _("offer a double")
    if decision is CubeDecision.TAKE:
        return _("take the double")
    return _("drop (give up the game)")


def move_words(state: State, move: Move) -> str:
    """ "checkers 24/20 13/10" for a play, the cube decision in words, else the notation."""
    if isinstance(move, Play):
        return _("checkers {play}").format(play=move.notation)
    decision = cube_decision(move)
    if decision is not None:
        return cube_words(decision)
    return notation_words(move)


def point_words(index: int) -> str:
    """A step end in the mover's numbering: 1–24, the bar, or off."""
    if index == BAR:
        return _("bar")
    return _("off") if index < 0 else str(index + 1)


def step_words(step: tuple[int, int, bool]) -> str:
    a, b, hit = step
    return f"{point_words(a)}/{point_words(b)}{'*' if hit else ''}"


def opening_words(dice: Dice, after: State) -> str:
    """Both sides throw one die; the higher begins with both dice, a tie throws again."""
    white, black = dice
    names = [colour_name("backgammon", p) for p in PLAYERS]
    line = f"{names[0]} {white}, {names[1]} {black}"
    if white == black:
        return _("{line}: a tie, both throw again").format(line=line)
    starter = colour_name("backgammon", after.current_player or "")
    return _("{line}: {side} begins").format(line=line, side=starter)


def hint_words(state: State, move: Move) -> str:
    """The status line's figures for the hinted ``move``: ``equity +0.123, wins 55 %
    (gammon 14 %, loses a gammon 3 %)``; empty if none apply."""
    evaluation = hint_evaluation(state, move)
    if evaluation is None:
        return ""
    win, win_g, _bg, lose_g, _lose_bg = evaluation.probabilities
    return _(
        "equity {equity}, wins {win} % (gammon {gammon} %, loses a gammon {lose_gammon} %)"
    ).format(
        equity=f"{evaluation.equity:+.3f}",
        win=round(100 * win),
        gammon=round(100 * win_g),
        lose_gammon=round(100 * lose_g),
    )
