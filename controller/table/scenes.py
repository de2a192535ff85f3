"""The table's scenes: pure functions from what the table holds to what the panel shows.

Why apart from the table: a scene is a read of the table's fields, never a change, and
reading it here keeps the table to what presses, timers and bots do. What it reads
is :class:`~controller.table.holdings.Holdings`, the class the table derives from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import rules
from controller import names, setup_rows
from controller.games import presentation
from controller.i18n import _
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
    StatisticsScene,
)
from controller.scene import CheckerEntryView as EntryView
from controller.session import Session
from controller.table import analysis as table_analysis
from controller.table import resign as table_resign
from controller.table.holdings import Holdings
from rules.core import Dice, State

if TYPE_CHECKING:
    from controller.sim.status import TableStatus
    from controller.table.menu import MenuRoom


def require(table: Holdings) -> Session:
    if table.session is None:
        raise RuntimeError("no game in progress")
    return table.session


def player_name(session: Session, player: str) -> str:
    return names.player_name(session.game, player, session.kinds, session.people)


def progress(table: Holdings) -> float:
    """How far the running animation is, 0..1."""
    return table.motion.progress(table.now)


def spoken(session: Session, text: str) -> str:
    """``text`` with the rules' side names replaced by what the panel calls them."""
    words = text.split(" ")
    return " ".join(player_name(session, w) if w in session.kinds else w for w in words)


def last_roll(session: Session) -> Dice | None:
    """The last dice thrown, from the session's history, as a game in play shows them
    beside the board (a resumed game shows them again); None before the first throw."""
    for entry in reversed(session.history):
        if "dice" in entry:
            return tuple(int(d) for d in entry["dice"])
    return None


def status(table: Holdings) -> TableStatus:
    """The table in words and the seats' looks, for the simulator's status line and
    window (``controller.status_line``)."""
    from controller.status_line import MenuOffer, table_status

    choice = None
    moves = table.choice.moves
    if table.state is Mode.CHOOSE and moves:
        choice = (table.choice.cursor % len(moves), len(moves))
    offer = None
    if table.state is Mode.CONFIRM_MENU:
        shown = table_resign.shown_offer(table.session, table.offer_index)
        offer = MenuOffer(shown, bool(table_resign.offers(table.session)))
    return table_status(
        table.state,
        scene(table),
        table.session,
        seat_count=table.options.seat_count,
        choice=choice,
        physical_dice=table.options.physical_dice,
        entering=tuple(table.dice_entry.values) if table.state is Mode.AWAIT_ROLL else (),
        offer=offer,
    )


def scene(table: Holdings) -> AnyScene:
    """The scene of this moment; asleep, the picture behind the sleep stands still."""
    inner = awake_scene(table)
    if not table.time.asleep:
        return inner
    if isinstance(inner, MenuScene | SetupScene | MessageScene):
        inner = replace(inner, t=inner.since)  # asleep on the text's first letters
    return SleepScene(inner)


def awake_scene(
    table: Holdings,
) -> MenuScene | SetupScene | MessageScene | StatisticsScene | Scene:
    """The scene of the table's mode, from what the table holds (it reads, never writes)."""
    now = table.now
    mode = table.state
    if mode is Mode.MENU:
        return MenuScene(
            table.options.menu,
            table.menu.index,
            now,
            table.banner.text,
            since=table.since,
            banner_since=table.banner.since,
        )
    if mode is Mode.SETUP:
        return setup_scene(table)
    if mode is Mode.STATISTICS:
        return StatisticsScene(table.menu.pages, table.menu.page, now, since=table.since)
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
            dice=table.motion.last_dice,
        )
    choice = table.choice
    motion = table.motion
    run = table.analysis if mode is Mode.GAME_OVER else None
    frame = run.frame() if run is not None and run.session is session else None
    if frame is not None:  # game over's analysis replays a decision
        return Scene(
            frame.state,
            now,
            preview=frame.move,
            dice=frame.state.dice_shown() or None,
            banner=frame.words,
            preview_since=table.since,
            banner_since=table.since,
        )
    preview = None
    entry = None
    if mode is Mode.CHOOSE and choice.checkers is not None:
        step = choice.steps[choice.cursor % len(choice.steps)] if choice.steps else None
        entry = EntryView(choice.played, step)
    elif mode is Mode.CHOOSE and choice.moves and not bot_thinking(table, session):
        preview = choice.previewed()
    roll = None
    if mode is Mode.ROLLING and motion.dice is not None:
        roll = RollAnimation(
            motion.dice,
            progress(table),
            motion.roller,
            motion.start,
            motion.length,
            opening=motion.opening,
        )
    moving = None
    state = session.state
    if mode is Mode.MOVING and motion.moving is not None:
        move, before, after = motion.moving
        moving = MoveAnimation(move, before, after, progress(table), motion.start, motion.length)
        state = before
    countdown = None
    if table.time.timer_end is not None:
        countdown = max(0.0, table.time.timer_end - now)
    winner = None
    result: tuple[Standing, ...] = ()
    if mode is Mode.GAME_OVER and state.winners():
        if motion.length:
            winner = state.winners()[0]
        result = standings(table)
    dice = tuple(table.dice_entry.values) if table.dice_entry.values else motion.last_dice
    banner = table.banner.text
    if mode is Mode.GAME_OVER and banner is None:
        words = table_analysis.offer_banner(session, table.analysis)
        if words and (run is not None or not motion.length):
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
        hint=table.bots.hint if mode is Mode.CHOOSE else None,
        preview_since=table.since,
        banner_since=table.banner.since,
        entry=entry,
        result=result,
        result_since=table.over_since,
        cue=cue,
    )


def bot_thinking(table: Holdings, session: Session) -> bool:
    """A bot on turn has not answered yet: no move is previewed, since the first of
    the legal moves is not the one it will play."""
    return table.bots.waiting and session.is_bot(session.player)


def setup_scene(table: Holdings) -> SetupScene:
    menu = table.menu
    item = menu.item
    preset = menu.preset or item.preset
    shown = MenuItem(item.game, preset, item.label)
    colours = colours_of(shown, len(menu.kinds))
    return SetupScene(
        shown,
        tuple(menu.kinds),
        colours,
        menu.entry,
        table.now,
        since=table.since,
        names=tuple(names.colour_name(item.game, c) for c in colours),
        rules=setup_rows.words(item.game, preset, menu.entry),
        problem=menu.start_problem() if menu.entry == len(menu.kinds) else None,
        people=people_of(menu) if menu.known else (),
        naming=menu.naming,
    )


def people_of(menu: MenuRoom) -> tuple[str | None, ...]:
    """Each seat's named player as setup shows it (None: a guest or no human)."""
    seated = menu.seated()
    return tuple(seated[seat].name if seat in seated else None for seat in range(len(menu.kinds)))


def standings(table: Holdings) -> tuple[Standing, ...]:
    """The game-over words: who won, in words and in the winner's colour, then the
    places of the others where more than two played, then how the game ended where
    the game says so (the points, a match's final score, why a Mini-Maki was lost).
    Mini-Maki alone says won or lost."""
    session = require(table)
    state = session.state
    players = list(session.kinds)
    lost_colour = presentation(session.game).solo_standing
    said = presentation(session.game).result_words
    end = said(state) if said is not None else ""
    if lost_colour is not None and len(players) == 1:
        (alone,) = players
        won = state.winners()[:1] == (alone,)
        colour = alone if won else lost_colour
        if session.kinds[alone] == "human":
            text = _("you won!") if won else _("you lost")
        else:
            text = (_("{player} won!") if won else _("{player} lost")).format(
                player=player_name(session, alone)
            )
        return (Standing(text, colour), *((Standing(end, colour),) if end else ()))
    order = places(state, players)
    first = player_name(session, order[0])
    you = names.seat_role(order[0], session.kinds) == "you" and order[0] not in session.people
    winner = _("you win!") if you else _("{player} wins").format(player=first)
    words = [Standing(winner, order[0])]
    if len(order) > 2:
        for place, player in enumerate(order[1:], start=2):
            words.append(Standing(f"  {place}. {player_name(session, player)}", player))
    if end:
        words.append(Standing(f"  {end}", order[0]))
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
    players = game.new_state(count).players or ("player",)
    return tuple(players[i % len(players)] for i in range(seats))
