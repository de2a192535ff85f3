"""One recorded event (a roll or a move) played again: the step every replay is made of.

A kept game is a start position and its events; the history's export, the companion
page's replays and the analysis at game over all walk those events the same way, so
the walk is written once here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import State
from rules.playout import PlayStep


def replay_event(state: State, entry: Mapping[str, Any]) -> PlayStep:
    """``entry`` (``{"player", "dice"}`` or ``{"player", "move"}``) applied to ``state``.

    Raises what the rules raise for an event that does not apply (``RulesError``), and
    ``KeyError``/``TypeError``/``ValueError`` for a malformed entry; callers that read
    stored records turn those into their own error.
    """
    player = str(entry.get("player") or "")
    if "dice" in entry:
        dice = tuple(int(d) for d in entry["dice"])
        return PlayStep(player, state, state.roll(dice), dice=dice)
    move = state.parse_move(str(entry["move"]))
    return PlayStep(player, state, state.apply(move), move=move)
