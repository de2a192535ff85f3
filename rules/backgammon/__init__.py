"""Backgammon: the full standard game, with the doubling cube and match play, and
GNU Backgammon's formats (Position IDs, Match IDs, ``.mat`` match files)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from rules.backgammon import facts, hint, why_not
from rules.backgammon.engine import (
    MATCHES,
    MONEY,
    BackgammonGame,
    BackgammonState,
    backgammon_game,
)
from rules.backgammon.mat import match_file
from rules.backgammon.options import Presets
from rules.budget import Budget
from rules.core import Bot, Game, Move, State
from rules.errors import InvalidStateError
from rules.registry import Capabilities, GameInfo, RecordAnalysis, register_game


def _strong_player(budget: Budget) -> Bot:
    # A small network trained offline, plus cube heuristics.
    from rules.backgammon.bot import BackgammonBot

    return BackgammonBot(budget)


def _move_values(player: Bot, state: State) -> list[tuple[Move, float]] | None:
    # The strong player's ranking: cubeless equity after each play from its network
    # (and the bear-off database), without the lookahead. Cube actions, offers and
    # answers to them are left to the strong player.
    from rules.backgammon.bot import BackgammonBot
    from rules.backgammon.engine import MOVE, Play

    assert isinstance(player, BackgammonBot) and isinstance(state, BackgammonState)
    if state.phase != MOVE or state.offer or player.resignation(state) is not None:
        return None
    plays = [m for m in state.legal_moves() if isinstance(m, Play)]
    return [(p, player.value(p.mover, p.other)) for p in plays] or None


def _from_position_id(game: Game, text: str) -> State:
    """Either ID; the default cube-less preset gives way to the match or money preset
    when the ID is of a match or has a turned cube (the ID says what is played)."""
    chosen = cast(BackgammonGame, game)
    try:
        return chosen.state_from_position(text)
    except InvalidStateError:
        if chosen.rules.cube:
            raise
        money = backgammon_game(MONEY).state_from_position(text)
        if not money.match_length:
            return money
        match = MATCHES.get(money.match_length, MATCHES[5])
        return backgammon_game(match).state_from_position(text)


def _interchange(state: State) -> dict[str, str]:
    return cast(BackgammonState, state).interchange()


def _play_stats(state: State) -> dict[str, float]:
    return cast(BackgammonState, state).play_stats()


def _analysis(steps: Iterable[Any]) -> RecordAnalysis:
    # The judge runs the network a few thousand times: imported only when asked for.
    from rules.backgammon.analysis import analyse

    return analyse(steps)


def _side_moves(state: State) -> tuple[Move, ...]:
    return cast(BackgammonState, state).resign_offers()


def _match_file(steps: Iterable[Any]) -> str:
    return match_file(steps)


register_game(
    GameInfo(
        name="backgammon",
        title="Backgammon",
        presets=Presets(
            (
                "single",
                "money",
                "money-jacoby",
                "money-automatic",
                "money-beavers",
                "money-all",
                *(rules_set.name for rules_set in MATCHES.values()),
            )
        ),
        strong_bot=_strong_player,
        capabilities=Capabilities(
            position_id=_from_position_id,
            interchange=_interchange,
            record_export=_match_file,
            record_suffix=".mat",
            record_analysis=_analysis,
            play_stats=_play_stats,
            move_facts=facts.move_facts,
            hint_details=hint.hint_details,
            side_moves=_side_moves,
            move_values=_move_values,
            # In cubeless equity; weakest level first (calibrated: docs/bots.md).
            level_noise=(0.5, 0.15, 0.08, 0.02),
            why_not=why_not.why_not,
            # In cubeless equity (docs/bots.md: the coach).
            coach_threshold=0.08,
        ),
    )
)
