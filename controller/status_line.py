"""The table in words: one status line and the seats' looks, for the simulator.

On the real table the players see the board, the dice and each other. A newcomer at a
laptop does not know yet what a blinking LED means, so the simulator's terminal and
window write under the board what the table already knows: whose turn it is, the dice,
what the previewed move would do and which button does what next, e.g.

    red (seat 1): 5 — piece on 12 → 17 · move 1 of 3: NEXT shows another, OK plays it

Everything here is a pure function of the machine's mode, the scene the views draw and
the session (who sits where, human or bot): no clock, no I/O, so the words can never
disagree with the picture and are tested like the views.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from controller.games import move_words as game_move_words
from controller.games import presentation
from controller.i18n import _, ngettext
from controller.machine import Mode
from controller.names import colour_name, player_name, title
from controller.scene import (
    STATISTICS_ITEM,
    AnyScene,
    CheckerEntryView,
    MenuScene,
    MessageScene,
    Scene,
    SetupScene,
    SleepScene,
    StatisticsScene,
)
from controller.session import Session, seat_kind
from controller.sim.status import SEAT_DEFAULTS, SeatLook, TableStatus
from controller.views.palette import SEAT
from controller.words import seat_word
from rules.core import Move, State


def table_status(
    mode: Mode,
    scene: AnyScene,
    session: Session | None,
    *,
    seat_count: int,
    choice: tuple[int, int] | None = None,
    physical_dice: bool = False,
    entering: tuple[int, ...] = (),
    offer: MenuOffer | None = None,
) -> TableStatus:
    """The status line and seat looks for one moment of the table.

    ``choice`` is (index, count) of the previewed move among the legal ones while a
    player chooses, so the line can say "move 2 of 5"; ``physical_dice`` says the
    players enter real dice with the buttons, ``entering`` the values counted so far;
    ``offer`` is what the system menu shows while it asks (:class:`MenuOffer`).
    """
    return TableStatus(
        describe(mode, scene, session, choice, physical_dice, entering, offer),
        seat_looks(mode, scene, session, seat_count),
    )


def describe(
    mode: Mode,
    scene: AnyScene,
    session: Session | None,
    choice: tuple[int, int] | None = None,
    physical_dice: bool = False,
    entering: tuple[int, ...] = (),
    offer: MenuOffer | None = None,
) -> str:
    """The one line in words."""
    if isinstance(scene, SleepScene):
        return _("asleep: press any button to wake the table (that press does nothing else)")
    if isinstance(scene, MenuScene):
        item = scene.items[scene.selected]
        # The statistics entry is no game: "statistics (5 of 5)" counted it as one.
        games = [i.game != STATISTICS_ITEM.game for i in scene.items]
        if not games[scene.selected]:
            line = _("menu: {entry} · NEXT: back to the first game, OK: show it").format(
                entry=item.words
            )
        else:
            line = _("menu: {game} ({number} of {count}) · NEXT: next game, OK: choose it").format(
                game=item.words, number=sum(games[: scene.selected + 1]), count=sum(games)
            )
        return _with_banner(line, scene.banner)
    if isinstance(scene, SetupScene):
        return describe_setup(scene)
    if isinstance(scene, MessageScene):
        return _("shutting down: bye") if scene.kind == "shutdown" else scene.text
    if isinstance(scene, StatisticsScene):
        if not scene.pages:
            return _("statistics: no finished games yet · OK: back to the menu")
        page = scene.pages[scene.page % len(scene.pages)]
        wins = ", ".join(f"{colour_name(page.game, c)} {count}" for c, count in page.wins)
        last = ngettext("the last game", "last {n} games", page.games).format(n=page.games)
        if page.leaders:
            board = ", ".join(
                _("{place}. {name}: {won} of {games}").format(
                    place=place, name=leader.name, won=leader.won, games=leader.games
                )
                for place, leader in enumerate(page.leaders, start=1)
            )
            return _(
                "leaderboard: {game}, {last}: {board} · NEXT: next page, OK: back to the menu"
            ).format(game=title(page.game), last=last, board=board)
        return _(
            "statistics: {game}, {last}: {wins} · NEXT: next game, OK: back to the menu"
        ).format(game=title(page.game), last=last, wins=wins)
    if session is None:
        return ""
    return describe_game(mode, scene, session, choice, physical_dice, entering, offer)


def describe_setup(scene: SetupScene) -> str:
    """The setup entries in order (the rule set where the game has several, each seat,
    "start"), the one under the cursor in brackets, and what the buttons do there."""
    names = scene.names or scene.colours
    entries = [f"{name} {seat_word(kind)}" for name, kind in zip(names, scene.seats, strict=False)]
    entries.append(_("start"))
    marked = [f"[{text}]" if i == scene.cursor else text for i, text in enumerate(entries)]
    for seat in reversed(range(len(scene.seats))):
        if scene.people and seat_kind(scene.seats[seat]) == "human":  # its name row (coached too)
            person = scene.people[seat] if seat < len(scene.people) else None
            named = _("name: {name}").format(name=person if person is not None else _("guest"))
            chosen = scene.naming and seat == scene.cursor
            if chosen:
                marked[seat] = entries[seat]
            marked.insert(seat + 1, f"[{named}]" if chosen else named)
    if scene.rules is not None:
        rules_entry = _("rules: {rules}").format(rules=scene.rules)
        marked.insert(0, f"[{rules_entry}]" if scene.cursor < 0 else rules_entry)
    if scene.cursor < 0:
        action = _("OK: next rule set")
    elif scene.cursor == len(scene.seats):
        action = _("OK: begin")
    elif scene.naming:
        action = _("OK: next name")
    else:
        action = _("OK: human/bot/empty")
    if scene.problem is not None and scene.cursor == len(scene.seats):
        return _("{game}: {entries} · cannot begin: {problem} · NEXT: next entry").format(
            game=scene.item.words, entries=", ".join(marked), problem=scene.problem
        )
    return _("{game}: {entries} · NEXT: next entry, {action}").format(
        game=scene.item.words, entries=", ".join(marked), action=action
    )


def describe_game(
    mode: Mode,
    scene: Scene,
    session: Session,
    choice: tuple[int, int] | None,
    physical_dice: bool = False,
    entering: tuple[int, ...] = (),
    offer: MenuOffer | None = None,
) -> str:
    state = scene.state
    player = state.current_player
    who = who_is(session, player)
    dice = dice_words(scene, session)
    if mode is Mode.CONFIRM_MENU:
        return menu_question(state, offer)
    if mode is Mode.GAME_OVER and scene.winner is None and not state.is_terminal():
        # game over's analysis replays a decision in the position it was made in, which
        # nobody has won yet: the line says what the buttons do, the banner the rest
        line = _("analysis · NEXT: on, OK: back to the menu")
    elif mode is Mode.GAME_OVER or scene.winner is not None:
        result = game_over_words(scene, session)
        if scene.banner == _("NEXT: analyse, OK: menu"):
            # the analysis's offer is the banner: the line names OK once, not twice
            return _("{result} · NEXT: analyse, OK: back to the menu").format(result=result)
        line = _("{result} · OK: back to the menu").format(result=result)
    elif mode is Mode.AWAIT_ROLL:
        line = describe_roll(state, session, player, who, physical_dice, entering)
    elif mode is Mode.ROLLING and scene.roll is not None and scene.roll.opening:
        line = _("opening roll: {words}").format(words=opening_words(scene, session))
    elif mode is Mode.ROLLING:
        line = _("{who}: rolling the dice").format(who=who)
    elif mode is Mode.MOVING and scene.moving is not None:
        before = scene.moving.before
        line = f"{who}: {situation_or(before, dice)}{move_words(before, scene.moving.move)}"
    elif mode is Mode.CHOOSE and scene.entry is not None:
        line = f"{who}: {dice}{entry_words(session.game, scene.entry)}"
    elif mode is Mode.CHOOSE and scene.preview is not None:
        situation = situation_words(state)
        line = f"{who}: {situation_or(state, dice)}{move_words(state, scene.preview)}"
        if not session.is_bot(player) and choice is not None:
            index, count = choice
            if count == 1:
                line += _(" · the only move: it plays itself")
            elif situation is not None:
                line += _(" · choice {number} of {count}: NEXT shows another, OK takes it").format(
                    number=index + 1, count=count
                )
            else:
                line += _(" · move {number} of {count}: NEXT shows another, OK plays it").format(
                    number=index + 1, count=count
                )
        if scene.hint is not None:
            line += _(" · best: {move}").format(move=move_words(state, scene.hint))
            figures = presentation(state.game.name).hint_words
            if figures is not None and (words := figures(state, scene.hint)):
                line += f" ({words})"
    elif mode is Mode.CHOOSE and session.is_bot(player):
        line = f"{who}: {situation_or(state, dice)}" + _("thinking")
    else:
        line = f"{who}: {dice.removesuffix(' — ')}" if dice else who
    if scene.countdown is not None:
        line += _(" · {seconds} s left").format(seconds=math.ceil(scene.countdown))
    return _with_banner(line, scene.banner)


@dataclass(frozen=True)
class MenuOffer:
    """What the system menu (the held system button) asks: ``move`` is the side move
    shown (a resignation), None the plain "back to the menu?"; ``more`` says a tap of
    the system button shows another question."""

    move: Move | None = None
    more: bool = False


def menu_question(state: State, offer: MenuOffer | None) -> str:
    """The system menu's question, as the panel asks it and as OK answers it: leave the
    game, or make the side move shown."""
    if offer is None or offer.move is None:
        line = _("back to the menu? OK: yes (the game ends), NEXT: no")
    else:
        line = _("{offer}? OK: yes, NEXT: no (back to the game)").format(
            offer=move_words(state, offer.move)
        )
    if offer is not None and offer.more:
        line += _(" · system button: the next question")
    return line


def describe_roll(
    state: State,
    session: Session,
    player: str | None,
    who: str,
    physical_dice: bool,
    entering: tuple[int, ...] = (),
) -> str:
    automatic = player is None or player not in session.seats or session.is_bot(player)
    if state.is_opening():
        if automatic:
            return _("opening roll: {who} rolls; the highest die begins").format(who=who)
        return _("opening roll: {who} · OK: roll; the highest die begins").format(who=who)
    if player is None or player not in session.seats:
        return _("the dice roll")
    if session.is_bot(player):
        return _("{who}: rolls the dice").format(who=who)
    if physical_dice:
        line = _("{who}: throw your dice, then NEXT counts up, OK confirms each die").format(
            who=who
        )
        if entering:
            counted = ", ".join(
                _("die {number}: {value}").format(number=i + 1, value=value)
                for i, value in enumerate(entering)
            )
            line += f" · {counted}"
        return line
    tried = presentation(session.game).roll_try
    tries = 0 if tried is None else tried(state)
    if tries > 0:
        return _("{who}: OK: roll the dice (try {number} of 3)").format(who=who, number=tries + 1)
    return _("{who}: OK: roll the dice").format(who=who)


def who_is(session: Session, player: str | None) -> str:
    """How a player is named: by name where a named player sits, else "red (seat 1)"
    for a human, "blue (bot)" for a bot, by the colour the panel draws it in
    (Backgammon's white is orange)."""
    if player is None:
        return _("the dice")
    person = session.people.get(player)
    if person is not None:
        return person.name  # the seat's colour on the panel is the cue
    name = colour_name(session.game, player)
    if session.is_bot(player):
        return _("{name} (bot)").format(name=name)
    seat = session.seats.get(player)
    return name if seat is None else _("{name} (seat {number})").format(name=name, number=seat + 1)


def step_words(game: str, step: tuple[int, int, bool]) -> str:
    """One step of a move being entered piece by piece, in the game's words."""
    words = presentation(game).step_words
    if words is not None:
        return words(step)
    a, b, hit = step
    return f"{a}/{b}{'*' if hit else ''}"


def entry_words(game: str, entry: CheckerEntryView) -> str:
    """A play being entered checker by checker: the fixed steps, then the previewed one."""
    fixed = " ".join(step_words(game, step) for step in entry.played)
    parts = [_("fixed {steps}").format(steps=fixed)] if fixed else []
    if entry.step is not None:
        step = step_words(game, entry.step)
        parts.append(_("NEXT shows checker {step}, OK fixes it").format(step=step))
    return " · ".join(parts) if parts else _("play complete")


def dice_words(scene: Scene, session: Session) -> str:
    """The dice shown beside the board, as the start of a line ("5 — "); a game whose
    dice are not the mover's says whose they are."""
    if scene.dice is None:
        return ""
    values = " ".join(str(d) for d in scene.dice)
    if len(scene.dice) == 2 and scene.dice[0] == scene.dice[1]:
        values = _("{dice}, doubles").format(dice=values)  # the rule texts' "Pasch"
    words = presentation(session.game).dice_words
    return f"{values} — " if words is None else words(values)


def situation_words(state: State) -> str | None:
    """What a decision without dice is about, in the game's words ("blue doubles to
    2"); None where the player moves with the dice on show."""
    words = presentation(state.game.name).situation_words
    return None if words is None else words(state)


def situation_or(state: State, dice: str) -> str:
    """The start of a line about a choice in ``state``: the decision's situation where
    it has one (the dice beside the board are then someone else's last roll), else the
    dice ("5 — ")."""
    situation = situation_words(state)
    return dice if situation is None else f"{situation} — "


def move_words(state: State, move: Move) -> str:
    """What a move does in ``state``, in words: "piece on 12 → 17", "checkers 24/20
    13/10"; the game words its own moves (:mod:`controller.games`)."""
    return game_move_words(state, move)


def winner_words(scene: Scene, session: Session) -> str:
    """Who won, as the panel says it ("you win!", "bot wins", "orange wins", "you
    lost"), then the places of the others."""
    if scene.result:
        return ", ".join(standing.text.strip() for standing in scene.result)
    winner = scene.winner or next(iter(scene.state.winners()), None)
    if winner is None:
        return _("nobody wins")
    return _("{name} wins").format(
        name=player_name(session.game, winner, session.kinds, session.people)
    )


def game_over_words(scene: Scene, session: Session) -> str:
    """Who won, as the panel says it ("you win!", "bot wins", "orange wins", "you
    lost"), then the places of the others, then what the game says of its end (the
    points won and how, a match's final score): the panel's standings where the scene
    has them, which say all of that."""
    words = winner_words(scene, session)
    if scene.result:
        return words
    result = presentation(session.game).result_words
    end = result(scene.state) if result is not None and scene.state.is_terminal() else ""
    return f"{words}, {end}" if end else words


def opening_words(scene: Scene, session: Session) -> str:
    """How an opening throw came out: the game's words, else who threw what and, once
    it is decided, who begins."""
    roll = scene.roll
    assert roll is not None
    state = scene.state
    words = presentation(session.game).opening_words
    if words is not None:
        return words(roll.final, state)
    values = " ".join(str(d) for d in roll.final)
    line = _("{who} threw {dice}").format(who=who_is(session, roll.roller), dice=values)
    if not state.is_opening() and state.current_player is not None:
        line += _(" · {who} begins").format(who=who_is(session, state.current_player))
    tie = presentation(session.game).opening_tie
    tied = () if tie is None else tie(state)
    if tied:
        names = [colour_name(session.game, p) for p in tied]
        together = _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])
        line += _(" · {players}: a tie, they throw again").format(players=together)
    return line


def seat_looks(
    mode: Mode, scene: AnyScene, session: Session | None, seat_count: int
) -> tuple[SeatLook, ...]:
    """Per physical seat: who sits there, in whose colour, and whether it is on turn."""
    if isinstance(scene, SetupScene):
        looks = []
        for seat in range(seat_count):
            if seat < len(scene.seats):
                colour, kind = scene.colours[seat], scene.seats[seat]
                name = scene.names[seat] if seat < len(scene.names) else colour
                looks.append(
                    SeatLook(
                        f"{name} · {seat_word(kind)}",
                        SEAT.get(ink_of(scene.item.game, colour), _default(seat)),
                        on_turn=seat == scene.cursor,
                        playing=kind != "empty",
                    )
                )
            else:
                looks.append(SeatLook(seat_word("empty"), _default(seat), playing=False))
        return tuple(looks)
    if session is None or isinstance(scene, MenuScene | MessageScene):
        return tuple(SeatLook("", _default(s)) for s in range(seat_count))
    players_at: dict[int, list[str]] = {}
    for player, seat in session.seats.items():
        players_at.setdefault(seat, []).append(player)
    current = session.player
    playing = mode not in (Mode.GAME_OVER, Mode.CONFIRM_MENU)
    looks = []
    for seat in range(seat_count):
        players = players_at.get(seat, [])
        if not players:
            looks.append(SeatLook(seat_word("empty"), _default(seat), playing=False))
            continue
        kind = "bot" if all(session.is_bot(p) for p in players) else "you"
        named = [session.people[p].name for p in players if p in session.people]
        who = named[0] if named else seat_word(kind)
        looks.append(
            SeatLook(
                f"{' + '.join(colour_name(session.game, p) for p in players)} · {who}",
                SEAT.get(ink_of(session.game, players[0]), _default(seat)),
                on_turn=playing and current in players,
            )
        )
    return tuple(looks)


def ink_of(game: str, player: str) -> str:
    """The palette colour ``player`` of ``game`` is drawn in."""
    return presentation(game).side_inks.get(player, player)


def _default(seat: int) -> tuple[int, int, int]:
    return SEAT_DEFAULTS[seat % len(SEAT_DEFAULTS)]


def _with_banner(line: str, banner: str | None) -> str:
    return f"{line} · {banner}" if banner else line
