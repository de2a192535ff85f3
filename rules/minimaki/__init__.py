"""Mini-Maki: the dice solitaire of one red piece against six black ones (or two
players, each playing a game in turn)."""

from __future__ import annotations

from typing import cast

from rules.budget import Budget
from rules.core import Bot, State
from rules.minimaki.engine import (
    DIAGONAL,
    FREE_SETUP,
    STANDARD,
    TWO_PLAYER,
    MinimakiState,
    minimaki_game,
)
from rules.registry import Capabilities, GameInfo, register_game


def _strong_player(budget: Budget) -> Bot:
    # The exact optimal policy.
    from rules.minimaki.bot import MinimakiBot

    return MinimakiBot(budget)


def _play_stats(state: State) -> dict[str, float]:
    return cast(MinimakiState, state).play_stats()


register_game(
    GameInfo(
        name="minimaki",
        title="Mini-Maki",
        presets={
            "standard": lambda: minimaki_game(STANDARD),
            "diagonal": lambda: minimaki_game(DIAGONAL),
            "free_setup": lambda: minimaki_game(FREE_SETUP),
            "two_player": lambda: minimaki_game(TWO_PLAYER),
        },
        strong_bot=_strong_player,
        capabilities=Capabilities(play_stats=_play_stats),
    )
)
