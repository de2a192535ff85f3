"""Backgammon in the players' words: a play, a cube decision, one checker step, the
opening roll and a hint's figures.

The rules give typed facts (a play's steps, a :class:`CubeDecision`, a hint's
:class:`Evaluation`); this module is the only place that turns them into words, each
through the catalog so that the table can speak German.
"""

from __future__ import annotations

import re

from controller.games.presentation import colour_name, notation_words
from controller.i18n import _, ngettext
from rules.backgammon.engine import (
    BACKGAMMON,
    BEAVER,
    DOUBLE,
    GAMMON,
    PLAYERS,
    RESIGNED,
    TAKE,
    BackgammonState,
    Play,
)
from rules.backgammon.facts import CubeDecision, checkers_moved, cube_decision
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


def play_words(play: Play) -> str:
    """A play's notation with its bar and its bearing off in the players' words
    ("bar/22", "6/off(2)" in German "Bar/22", "6/raus(2)")."""
    words = {"bar": _("bar"), "off": _("off")}
    return re.sub(r"\b(bar|off)\b", lambda found: words[found.group(1)], play.notation)


def move_words(state: State, move: Move) -> str:
    """ "checkers 24/20 13/10" for a play ("checker bar/22" for one checker), the cube
    decision in words, else the notation."""
    if isinstance(move, Play):
        count = checkers_moved(move)
        return ngettext("checker {play}", "checkers {play}", count).format(play=play_words(move))
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


def side_name(seat: int) -> str:
    """A side by the colour it is drawn in (orange, blue)."""
    return colour_name("backgammon", PLAYERS[seat])


def situation_words(state: State) -> str | None:
    """What a cube decision or an answer to a resignation is about, in place of the
    dice beside the board (the last roll, often the opponent's): who doubled and to
    what, who resigns; None while a player moves with the dice."""
    if not isinstance(state, BackgammonState):
        return None
    if state.offer:
        return _("{side} resigns").format(side=side_name(state.turn))
    if state.phase == DOUBLE:
        return _("before the roll, the cube at {cube}").format(cube=state.cube)
    if state.phase == TAKE:
        return _("{side} doubles to {cube}").format(side=side_name(state.turn), cube=2 * state.cube)
    if state.phase == BEAVER:
        return _("{side} beavers: the cube to {cube}").format(
            side=side_name(1 - state.turn), cube=2 * state.cube
        )
    return None


def result_words(state: State) -> str:
    """How the last game ended: the points and their kind ("2 points, gammon"), and at
    a match's end the final score; empty before the end."""
    if not isinstance(state, BackgammonState) or not state.results:
        return ""
    _winner, points, kind = state.results[-1]
    words = ngettext("{points} point", "{points} points", points).format(points=points)
    level = kind - RESIGNED if kind > RESIGNED else kind
    how = {GAMMON: _("gammon"), BACKGAMMON: _("backgammon")}.get(level)
    if kind == 0:
        how = _("the double dropped")
    elif kind > RESIGNED:
        how = _("resigned") if how is None else _("resigned, {level}").format(level=how)
    if how is not None:
        words += f", {how}"
    if state.match_length:
        white, black = state.score
        words += _(" · final score: {white_side} {white}, {black_side} {black}").format(
            white_side=side_name(0), white=white, black_side=side_name(1), black=black
        )
    return words
