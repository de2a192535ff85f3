"""Backgammon's replay of an analysis at game over: the three costliest decisions, each
shown twice in the position it was made in, first the play made, then the best play,
with their equities (as :mod:`rules.backgammon.analysis` judged them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rules
from controller.games.presentation import AnalysisFrame, colour_name
from controller.i18n import _
from rules.errors import RulesError


def analysis_frames(analysis: Any) -> Sequence[AnalysisFrame]:
    """Two frames per costly decision: the play made, then the best one."""
    # Imported here: the analysis brings the bot's network, wanted only at game over.
    from rules.backgammon.analysis import Analysis

    if not isinstance(analysis, Analysis):
        return ()
    frames: list[AnalysisFrame] = []
    for number, decision in enumerate(analysis.worst, start=1):
        try:
            state = rules.state_from_json(decision.state)
            played = state.parse_move(decision.played)
            best = state.parse_move(decision.best)
        except RulesError:  # a record made by other rules: that decision is left out
            continue
        who = colour_name("backgammon", decision.player)
        dice = f"{decision.dice[0]}-{decision.dice[1]}"
        frames.append(
            AnalysisFrame(
                state,
                played,
                _("worst {n}: {who} {dice} played {play} ({equity:+.3f})").format(
                    n=number,
                    who=who,
                    dice=dice,
                    play=decision.played,
                    equity=decision.played_equity,
                ),
            )
        )
        frames.append(
            AnalysisFrame(
                state,
                best,
                _("worst {n}: best {play} ({equity:+.3f}), {lost:.3f} lost").format(
                    n=number, play=decision.best, equity=decision.best_equity, lost=decision.lost
                ),
            )
        )
    return frames
