"""The table's scenes: pure functions from what the table holds to what the panel shows.

Why apart from the table: a scene is a read of the table's fields, never a change, and
reading it here keeps the table to what presses, timers and bots do. ``Shown`` lists
exactly what is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

import rules
from controller import names, setup_rows, table_analysis, table_resign
from controller.games import presentation
from controller.machine import Mode
from controller.scene import (
    AnyScene,
    MenuItem,
    MenuScene,
    MessageScene,
    MoveAnimation,
    RollAnimation,
    Scene,
    SetupScene,
    SleepScene,
    Standing,
    StatisticsPage,
    StatisticsScene,
)
from controller.scene import CheckerEntryView as EntryView
from controller.session import Session
from controller.table_time import TableTime
from rules.core import Dice, Move, State


class Shown(Protocol):
    """What a scene reads of the table."""

    state: Mode

    @property
    def now(self) -> float: ...

    options: Any
    session: Session | None
    menu_index: int
    setup_kinds: list[str]
    setup_cursor: int
    setup_preset: str
    banner: str | None
    since: float
    banner_since: float
    over_since: float
    statistics_pages: tuple[StatisticsPage, ...]
    statistics_page: int
    message: str
    last_dice: Dice | None
    checkers: Any
    steps: tuple[tuple[int, int, bool], ...]
    played: tuple[tuple[int, int, bool], ...]
    cursor: int
    moves: Sequence[Move]
    roll_result: Dice | None
    roller: str | None
    opening: bool
    anim_start: float
    anim_length: float
    moving: tuple[Move, State, State] | None
    time: TableTime
    entry: list[int]
    hint: Move | None
    offer_index: int
    analysis: Any


def require(table: Shown) -> Session:
    if table.session is None:
        raise RuntimeError("no game in progress")
    return table.session


def player_name(session: Session, player: str) -> str:
    return names.player_name(session.game, player, session.kinds)


def progress(table: Shown) -> float:
    """How far the running animation is, 0..1."""
    if table.anim_length <= 0:
        return 1.0
    return min(1.0, max(0.0, (table.now - table.anim_start) / table.anim_length))


def scene(table: Shown) -> AnyScene:
    """The scene of this moment; asleep, the picture behind the sleep stands still."""
    inner = awake_scene(table)
    if not table.time.asleep:
        return inner
    if isinstance(inner, MenuScene | SetupScene | MessageScene):
        inner = replace(inner, t=inner.since)  # asleep on the text's first letters
    return SleepScene(inner)


def awake_scene(table: Shown) -> MenuScene | SetupScene | MessageScene | StatisticsScene | Scene:
    """The scene of the table's mode, from what the table holds (it reads, never writes)."""
    now = table.now
    mode = table.state
    if mode is Mode.MENU:
        return MenuScene(
            table.options.menu,
            table.menu_index,
            now,
            table.banner,
            since=table.since,
            banner_since=table.banner_since,
        )
    if mode is Mode.SETUP:
        return setup_scene(table)
    if mode is Mode.STATISTICS:
        return StatisticsScene(table.statistics_pages, table.statistics_page, now)
    if mode in (Mode.MESSAGE, Mode.SHUTDOWN):
        kind = "shutdown" if mode is Mode.SHUTDOWN else "info"
        return MessageScene(table.message or "bye", now, kind, since=table.since)
    session = require(table)
    if mode is Mode.CONFIRM_MENU:
        return Scene(
            session.state,
            now,
            banner=table_resign.menu_banner(session, table.offer_index),
            banner_since=table.since,
            dice=table.last_dice,
        )
    run = table.analysis if mode is Mode.GAME_OVER else None
    frame = run.frame() if run is not None and run.session is session else None
    if frame is not None:  # game over's analysis replays a decision
        shown_dice = frame.state.to_json().get("dice") or None
        return Scene(
            frame.state,
            now,
            preview=frame.move,
            dice=None if shown_dice is None else tuple(shown_dice),
            banner=frame.words,
            preview_since=table.since,
            banner_since=table.since,
        )
    preview = None
    entry = None
    if mode is Mode.CHOOSE and table.checkers is not None:
        step = table.steps[table.cursor % len(table.steps)] if table.steps else None
        entry = EntryView(table.played, step)
    elif mode is Mode.CHOOSE and table.moves:
        preview = table.moves[table.cursor % len(table.moves)]
    roll = None
    if mode is Mode.ROLLING and table.roll_result is not None:
        roll = RollAnimation(
            table.roll_result,
            progress(table),
            table.roller,
            table.anim_start,
            table.anim_length,
            opening=table.opening,
        )
    moving = None
    state = session.state
    if mode is Mode.MOVING and table.moving is not None:
        move, before, after = table.moving
        moving = MoveAnimation(
            move, before, after, progress(table), table.anim_start, table.anim_length
        )
        state = before
    countdown = None
    if table.time.timer_end is not None:
        countdown = max(0.0, table.time.timer_end - now)
    winner = None
    result: tuple[Standing, ...] = ()
    if mode is Mode.GAME_OVER and state.winners():
        if table.anim_length:
            winner = state.winners()[0]
        result = standings(table)
    dice = tuple(table.entry) if table.entry else table.last_dice
    banner = table.banner
    if mode is Mode.GAME_OVER and banner is None:
        words = table_analysis.offer_banner(session, table.analysis)
        if words and (run is not None or not table.anim_length):
            banner = words
    cue = None
    player = session.player
    if mode is Mode.AWAIT_ROLL and player in session.seats and not session.is_bot(player):
        cue = player
    return Scene(
        state,
        now,
        preview=preview,
        dice=dice,
        roll=roll,
        moving=moving,
        countdown=countdown,
        countdown_total=table.time.timer_total if countdown is not None else None,
        winner=winner,
        banner=banner,
        hint=table.hint if mode is Mode.CHOOSE else None,
        preview_since=table.since,
        banner_since=table.banner_since,
        entry=entry,
        result=result,
        result_since=table.over_since,
        cue=cue,
    )


def setup_scene(table: Shown) -> SetupScene:
    item = table.options.menu[table.menu_index]
    preset = table.setup_preset or item.preset
    shown = MenuItem(item.game, preset, item.label)
    colours = colours_of(shown, len(table.setup_kinds))
    return SetupScene(
        shown,
        tuple(table.setup_kinds),
        colours,
        table.setup_cursor,
        table.now,
        since=table.since,
        names=tuple(names.colour_name(item.game, c) for c in colours),
        rules=setup_rows.words(item.game, preset, table.setup_cursor),
    )


def standings(table: Shown) -> tuple[Standing, ...]:
    """The game-over words: who won, in words and in the winner's colour, then the
    places of the others where more than two played. Mini-Maki alone says won or
    lost."""
    session = require(table)
    state = session.state
    players = list(session.kinds)
    lost_colour = presentation(session.game).solo_standing
    if lost_colour is not None and len(players) == 1:
        (alone,) = players
        won = state.winners()[:1] == (alone,)
        who = "you" if session.kinds[alone] == "human" else alone
        return (Standing(f"{who} won!" if won else f"{who} lost", alone if won else lost_colour),)
    order = places(state, players)
    first = player_name(session, order[0])
    words = [Standing("you win!" if first == "you" else f"{first} wins", order[0])]
    if len(order) > 2:
        for place, player in enumerate(order[1:], start=2):
            words.append(Standing(f"  {place}. {player_name(session, player)}", player))
    return tuple(words)


def places(state: State, players: Sequence[str]) -> list[str]:
    """Every player in finishing order: the game's own order where it has one (how far
    the pieces got), else the rules' winners first and then the others."""
    order = presentation(state.game.name).places
    if order is not None:
        return order(state, players)
    ranked = [p for p in state.winners() if p in players]
    return ranked + [p for p in players if p not in ranked]


def colours_of(item: MenuItem, seats: int) -> tuple[str, ...]:
    """The player (colour/side) each of ``seats`` setup entries stands for."""
    game = rules.get_game(item.game, item.preset)
    count = seats if seats in game.player_counts else max(game.player_counts)
    players = tuple(game.new_state(count).to_json().get("players", ())) or ("player",)
    return tuple(players[i % len(players)] for i in range(seats))
