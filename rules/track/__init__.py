"""The track games: Mensch ärgere dich nicht (classic, "Ärgern" house rules, Schmidt)
and Kleiner Ärger, all played by one engine whose board and rule switches are data."""

from __future__ import annotations

import random
from typing import cast

from rules.budget import Budget
from rules.core import Bot, State
from rules.registry import Capabilities, GameInfo, PlayoutResult, register_game
from rules.track import facts
from rules.track.engine import MaednState, kleiner_aerger_game, maedn_game
from rules.track.presets import CLASSIC, KLEINER_AERGER, LINGO, SCHMIDT


def _maedn_player(budget: Budget) -> Bot:
    # Expectimax over the bot's own re-rolls (after a 6), or through the opponents'
    # turns too where the deeper search fits the budget (rules.track.bot.maedn_bot).
    from rules.track.bot import maedn_bot

    return maedn_bot(budget)


def _kleiner_aerger_player(budget: Budget) -> Bot:
    # The exact optimal policy against the random bot for two players; expectimax four
    # decisions deep wherever the table has no answer.
    from rules.track.kleiner_aerger_bot import KleinerAergerBot

    return KleinerAergerBot(budget)


def _playout(state: State, rng: random.Random) -> PlayoutResult:
    return cast(MaednState, state).random_playout(rng)


_TRACK = Capabilities(
    fast_playout=_playout, move_facts=facts.move_facts, preset_facts=facts.preset_facts
)

register_game(
    GameInfo(
        name="maedn",
        title="Mensch ärgere dich nicht",
        presets={
            "classic": lambda: maedn_game(CLASSIC),
            "lingo": lambda: maedn_game(LINGO),
            "schmidt": lambda: maedn_game(SCHMIDT),
        },
        strong_bot=_maedn_player,
        capabilities=_TRACK,
    )
)
register_game(
    GameInfo(
        name="kleiner_aerger",
        title="Kleiner Ärger",
        presets={"standard": lambda: kleiner_aerger_game(KLEINER_AERGER)},
        strong_bot=_kleiner_aerger_player,
        capabilities=_TRACK,
    )
)
