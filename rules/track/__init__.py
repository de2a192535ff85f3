"""The track games: Mensch ärgere dich nicht (classic, "Ärgern" house rules, Schmidt)
and Kleiner Ärger, all played by one engine whose board and rule switches are data."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import cast

from rules.budget import Budget
from rules.core import Bot, Move, State
from rules.registry import Capabilities, GameInfo, PlayoutResult, register_game
from rules.track import facts, why_not
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


def _move_values(player: Bot, state: State) -> list[tuple[Move, float]]:
    # The strong player's evaluation of the position after each move: its search's
    # first pass, in steps of progress (rules.track.bot.evaluate).
    from rules.track.bot import TrackBot, evaluate
    from rules.track.kleiner_aerger_bot import KleinerAergerBot

    if isinstance(player, KleinerAergerBot):
        player = player.fallback
    assert isinstance(player, TrackBot) and isinstance(state, MaednState)
    seat = state.turn
    return [(m, evaluate(state.apply(m), seat, player.weights)) for m in state.legal_moves()]


def _playout(state: State, rng: random.Random) -> PlayoutResult:
    return cast(MaednState, state).random_playout(rng)


_TRACK = Capabilities(
    fast_playout=_playout,
    move_facts=facts.move_facts,
    preset_facts=facts.preset_facts,
    move_values=_move_values,
    # In steps of progress; weakest level first (calibrated: docs/bots.md). Kleiner
    # Ärger's: with four players 4 steps played nearly as well as none (29.5 % and 30.7 %
    # wins against three random players), so the advanced level sits at 5 and the
    # casual one at 10, spaced from a sweep over both two and four players. MÄDN's
    # levels are spaced closer to the strong player (below).
    level_noise=(30.0, 10.0, 5.0, 0.0),
    why_not=why_not.why_not,
    # In steps of progress (docs/bots.md: the coach).
    coach_threshold=6.0,
)

_MAEDN = replace(
    _TRACK,
    # Against three strong players 11 and 4 steps measured alike (17.8 % and 19.0 %
    # wins): the win share falls steeply between no noise and 3 steps, and slowly
    # after 5, so the middle levels sit at 8 and 2.75 (docs/bots.md).
    level_noise=(30.0, 8.0, 2.75, 0.0),
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
        capabilities=_MAEDN,
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
