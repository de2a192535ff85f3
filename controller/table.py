"""The table: what every button press, timer and bot answer does (the machine's model).

The loop thread owns one :class:`Table`. It feeds it events (:meth:`handle`), calls
:meth:`tick` when a deadline it asked for (:meth:`next_wakeup`) is due, and draws
:meth:`scene` whenever :attr:`dirty` is set or an animation runs. Nothing here sleeps,
blocks or touches hardware; time comes in as arguments, which is what makes the whole
appliance testable with a fake clock.

Controls (DESIGN §3): each seat has OK/ROLL and NEXT; only the seat whose player is on
turn acts. NEXT cycles the legal moves with a preview (a held NEXT jumps to the next
piece/checker group), OK commits at once (there is no take-back: touch-move, MÄDN rule
12 and Lingo house rule 0). Forced moves and passes play themselves after a short visible
preview. The system button: held → "back to menu?" (OK confirms, NEXT returns); held
for ``shutdown_hold_s`` → shutdown.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import rules
from controller.events import BotRequest, HintRequest, MoveRequest
from controller.machine import Mode, build_machine
from controller.match_banner import banner_seconds, game_end_banner
from controller.scene import (
    STATISTICS_ITEM,
    AnyScene,
    MenuItem,
    MenuScene,
    MessageScene,
    MoveAnimation,
    RollAnimation,
    Scene,
    SetupScene,
    StatisticsPage,
    StatisticsScene,
)
from controller.session import SEAT_KINDS, Session
from hardware.interfaces import ButtonEvent, Cue, Sound
from rules.core import Dice, Move, Pass, State

if TYPE_CHECKING:
    from hardware.display_status import TableStatus

log = logging.getLogger(__name__)


def default_menu() -> tuple[MenuItem, ...]:
    items = []
    for name in rules.game_names():
        for preset in rules.presets(name):
            items.append(MenuItem(name, preset, f"{name} {preset}"))
    return tuple(items)


@dataclass
class TableOptions:
    """Timing and behaviour knobs; the config file sets these (controller.config)."""

    seat_count: int = 4
    move_timer_s: float | None = None
    """A move timer for every game and preset (None: only presets that have one)."""
    preset_timer_s: float | None = None
    """The length of the timer of presets that have one (Lingo); 0 switches it off."""
    physical_dice: bool = False
    bot: str = "strong"
    hints: bool = True
    """Light the best move for human players in games with an exact, instant policy
    (Mini-Maki: the optimal red step, rules/bot_minimaki)."""
    default_seats: tuple[str, ...] = ()
    """What setup offers per seat first ("human", "bot", "empty"); from the config."""
    bot_delay_s: float = 0.6
    match_banner_s: float = 6.0
    """The least time the score of a match shows after each of its games (it scrolls)."""
    forced_delay_s: float = 0.8
    roll_time_s: float = 0.6
    step_time_s: float = 0.12
    checker_step_time_s: float = 0.28
    """Backgammon: one die's checker step (the view walks it point by point)."""
    capture_time_s: float = 0.5
    winner_time_s: float = 6.0
    message_time_s: float = 4.0
    shutdown_hold_s: float = 6.0
    frame_interval_s: float = 1 / 30
    menu: tuple[MenuItem, ...] = field(default_factory=default_menu)


AskBot = Callable[[State, str, BotRequest, int], None]
"""Ask a bot (on a worker thread) for a move: (state, bot kind, request, seed)."""


class Table:
    """The machine's model. ``state`` (a :class:`Mode`) is maintained by transitions."""

    state: Mode

    if TYPE_CHECKING:  # triggers that transitions adds to the model at run time

        def pick_game(self) -> bool: ...
        def back(self) -> bool: ...
        def start_game(self) -> bool: ...
        def roll(self) -> bool: ...
        def rolled(self) -> bool: ...
        def commit(self) -> bool: ...
        def moved(self) -> bool: ...
        def advance(self) -> bool: ...
        def finish(self) -> bool: ...
        def ask_menu(self) -> bool: ...
        def confirm(self) -> bool: ...
        def cancel(self) -> bool: ...
        def show_message(self) -> bool: ...
        def dismiss(self) -> bool: ...
        def shut_down(self) -> bool: ...
        def show_statistics(self) -> bool: ...

    def __init__(
        self,
        options: TableOptions | None = None,
        sound: Sound | None = None,
        save: Callable[[Session | None], None] | None = None,
        ask_bot: AskBot | None = None,
        poweroff: Callable[[], None] | None = None,
        record: Callable[[Session, str], None] | None = None,
        statistics: Callable[[], tuple[StatisticsPage, ...]] | None = None,
    ) -> None:
        self.options = options or TableOptions()
        self.sound = sound
        self.save = save
        self.ask_bot = ask_bot
        self.poweroff = poweroff
        self.record = record
        """Hands a game that ended ("finished") or was given up ("abandoned") to the
        history, after the frame like the save (controller.history_keeper)."""
        self.records_pending: list[tuple[Session, str]] = []
        self.recorded: Session | None = None
        self.statistics = statistics
        self.statistics_pages: tuple[StatisticsPage, ...] = ()
        self.statistics_page = 0
        self.session: Session | None = None
        self.machine = build_machine(self)
        self.now = 0.0
        self.dirty = True
        self.menu_index = 0
        self.setup_kinds: list[str] = []
        self.setup_cursor = 0
        self.cursor = 0
        self.moves: Sequence[Move] = ()
        self.anim_start = 0.0
        self.anim_length = 0.0
        self.roll_result: Dice | None = None
        self.roller: str | None = None
        self.last_dice: Dice | None = None
        self.moving: tuple[Move, State, State] | None = None
        self.action_at: float | None = None
        self.action: Callable[[], object] | None = None
        self.timer_end: float | None = None
        self.timer_total: float | None = None
        self.entry: list[int] = []
        self.banner: str | None = None
        self.banner_until = 0.0
        self.message = ""
        self.system_down_at: float | None = None
        self.defer_saves = False
        self.save_pending = False
        self.bot_request = MoveRequest(0)
        self.hint_request = HintRequest(0)
        self.hint: Move | None = None
        self.stop_requested = False
        self.ignored_presses = 0

    # -- guards used by the transition table -------------------------------------------

    def game_is_over(self) -> bool:
        return self.session is not None and self.session.state.is_terminal()

    def dice_are_due(self) -> bool:
        return self.session is not None and self.session.state.is_chance()

    # -- entry callbacks ----------------------------------------------------------------

    def on_enter_MENU(self) -> None:
        self.clear_action()
        self.dirty = True

    def on_enter_SETUP(self) -> None:
        item = self.options.menu[self.menu_index]
        game = rules.get_game(item.game, item.preset)
        most = min(max(game.player_counts), self.options.seat_count)
        defaults = list(self.options.default_seats) or ["human"] + ["bot"] * 3
        self.setup_kinds = [defaults[i] if i < len(defaults) else "bot" for i in range(most)]
        while self.setup_kinds.count("empty") > most - min(game.player_counts):
            self.setup_kinds[self.setup_kinds.index("empty")] = "bot"
        self.setup_cursor = 0
        self.dirty = True

    def on_enter_NEXT_TURN(self) -> None:
        self.clear_action()
        self.advance()

    def on_enter_AWAIT_ROLL(self) -> None:
        session = self.require_session()
        self.entry = []
        player = session.player
        if player not in session.seats or session.is_bot(player):
            delay = self.options.bot_delay_s if session.is_bot(player) else 0.3
            self.schedule(delay, self.roll_now)
        self.dirty = True

    def on_enter_ROLLING(self) -> None:
        self.anim_start = self.now
        self.anim_length = self.options.roll_time_s
        self.play_cue("dice")
        self.schedule(self.anim_length, self.finish_roll)

    def on_enter_CHOOSE(self) -> None:
        session = self.require_session()
        self.moves = cycling_order(session.state.legal_moves())
        self.cursor = 0
        self.timer_end = None
        player = session.player
        if session.is_bot(player):
            self.bot_request = request = MoveRequest(self.bot_request.number + 1)
            if self.ask_bot is not None:
                self.ask_bot(session.state, session.bot, request, session.rng.getrandbits(32))
            else:  # no worker: think on this thread
                self.schedule(self.options.bot_delay_s, lambda: self.bot_answer(request, None))
        elif len(self.moves) == 1:
            self.schedule(self.options.forced_delay_s, self.commit_cursor)
        else:
            self.request_hint()
            seconds = self.move_timer()
            if seconds:
                self.timer_end = self.now + seconds
                self.timer_total = seconds
                self.schedule(seconds, self.timer_expired)
        self.dirty = True

    def on_enter_MOVING(self) -> None:
        if self.moving is None:  # a decision with nothing to animate
            self.moved()
            return
        move = self.moving[0]
        steps = move_steps(move)
        per_step = self.options.step_time_s
        if isinstance(getattr(move, "steps", None), tuple):
            per_step = self.options.checker_step_time_s
        capture = bool(getattr(move, "capture", False)) or "*" in move.notation
        self.anim_start = self.now
        self.anim_length = steps * per_step + (self.options.capture_time_s if capture else 0.0)
        self.play_cue("capture" if capture else "move")
        self.schedule(self.anim_length, self.finish_move)

    def on_enter_GAME_OVER(self) -> None:
        self.anim_start = self.now
        self.anim_length = self.options.winner_time_s
        self.play_cue("win")
        self.persist()
        self.dirty = True

    def on_enter_CONFIRM_MENU(self) -> None:
        self.clear_action()
        self.dirty = True

    def on_enter_MESSAGE(self) -> None:
        self.clear_action()
        self.schedule(self.options.message_time_s, self.dismiss)
        self.dirty = True

    def on_enter_SHUTDOWN(self) -> None:
        self.clear_action()
        self.message = "bye"  # not a message left over from before
        self.persist()
        self.stop_requested = True
        self.dirty = True

    # -- actions --------------------------------------------------------------------------

    def start_session(self, session: Session) -> None:
        """Begin (or resume) a game."""
        self.session = session
        self.last_dice = None
        self.persist()
        self.start_game()

    def roll_now(self, dice: Dice | None = None) -> None:
        session = self.require_session()
        self.roll_result = dice if dice is not None else session.draw_dice()
        self.roller = session.player  # before the roll: an opening throw passes the turn
        session.roll(self.roll_result)
        self.last_dice = self.roll_result
        self.persist()
        self.roll()

    def finish_roll(self) -> None:
        self.roll_result = None
        self.rolled()

    def commit_cursor(self) -> None:
        if not self.moves:
            return
        self.commit_move(self.moves[self.cursor % len(self.moves)])

    def commit_move(self, move: Move) -> None:
        session = self.require_session()
        if move.notation == "roll" and not self.options.physical_dice:
            # Backgammon's cube decision "roll": the same press throws the dice.
            session.play(move)
            self.timer_end = None
            if session.state.is_chance():
                self.roll_now()
                return
            self.persist()
            self.advance_after_decision()
            return
        before = session.play(move)
        news = game_end_banner(before, session.state)
        if news is not None:
            self.flash(news, banner_seconds(news, self.options.match_banner_s))
        self.moving = (move, before, session.state)
        self.timer_end = None
        self.persist()
        self.commit()

    def advance_after_decision(self) -> None:
        """A decision without an animation (a cube action) ends like a move."""
        self.moving = None
        self.commit()

    def finish_move(self) -> None:
        self.moving = None
        self.moved()

    def request_hint(self) -> None:
        """Ask the strong bot for the best move of a human player (hint games only)."""
        self.hint = None
        session = self.require_session()
        if not self.options.hints or session.game not in HINT_GAMES:
            return
        self.hint_request = request = HintRequest(self.hint_request.number + 1)
        if self.ask_bot is not None:
            self.ask_bot(session.state, "strong", request, 0)
        else:
            from rules.bots import make_bot

            self.bot_answer(
                request, make_bot(bot_kind("strong")).choose(session.state, random.Random(0))
            )

    def bot_answer(self, request: BotRequest, move: Move | None) -> None:
        """A bot's move arrived (from the worker) or is to be computed here."""
        if isinstance(request, HintRequest):
            if request == self.hint_request and self.state is Mode.CHOOSE and move in self.moves:
                self.hint = move
                self.dirty = True
            return
        if request != self.bot_request or self.state is not Mode.CHOOSE:
            return  # stale: the game moved on (menu, resume...)
        session = self.require_session()
        if move is None:
            from rules.bots import make_bot

            move = make_bot(bot_kind(session.bot)).choose(session.state, session.rng)
        if move not in self.moves:
            log.error("bot returned an illegal move %s; playing the first legal one", move)
            move = self.moves[0]
        self.cursor = list(self.moves).index(move)
        self.dirty = True
        self.schedule(self.options.bot_delay_s, self.commit_cursor)

    def timer_expired(self) -> None:
        """The move timer ran out: pass if passing is legal, else a bot plays for them."""
        self.timer_end = None
        passes = [m for m in self.moves if isinstance(m, Pass)]
        self.flash("time!")
        if passes:
            self.commit_move(passes[0])
        else:
            self.bot_answer(self.bot_request, None)

    def move_timer(self) -> float:
        """Seconds for this move, 0 for no timer (Lingo house rule 8 sets one)."""
        if self.options.move_timer_s is not None:
            return self.options.move_timer_s
        session = self.require_session()
        preset_rules = getattr(session.state.game, "rules", None)
        preset_timer = float(getattr(preset_rules, "move_timer_s", 0.0) or 0.0)
        if preset_timer and self.options.preset_timer_s is not None:
            return self.options.preset_timer_s
        return preset_timer

    # -- events -------------------------------------------------------------------------

    def handle(self, event: ButtonEvent, now: float) -> None:
        self.now = now
        if event.button == "system":
            self.handle_system(event)
            return
        if event.kind == "up" or event.seat is None:
            return
        mode = self.state
        if mode is Mode.MENU:
            self.menu_press(event)
        elif mode is Mode.SETUP:
            self.setup_press(event)
        elif mode is Mode.AWAIT_ROLL:
            self.roll_press(event)
        elif mode is Mode.CHOOSE:
            self.choose_press(event)
        elif mode is Mode.GAME_OVER:
            if event.button == "ok" and event.kind == "down":
                self.finish()
        elif mode is Mode.CONFIRM_MENU:
            if event.kind == "down":
                if event.button == "ok":
                    self.abandon_game()
                else:
                    self.cancel()
        elif mode is Mode.MESSAGE and event.kind == "down":
            self.dismiss()
        elif mode is Mode.STATISTICS and event.kind == "down":
            self.statistics_press(event)
        else:
            self.ignored_presses += 1

    def handle_system(self, event: ButtonEvent) -> None:
        if event.kind == "down":
            self.system_down_at = self.now
        elif event.kind == "up":
            self.system_down_at = None
        elif event.kind == "held":
            self.system_held()
        self.dirty = True

    def system_held(self) -> None:
        """A long press asks "back to menu?", and is never lost to an animation: a roll
        or move already happened in the session, so its animation is cut short and the
        question follows at once. A game the cut move ended goes to the menu, as OK does."""
        if self.state is Mode.ROLLING:
            self.clear_action()
            self.finish_roll()
        elif self.state is Mode.MOVING:
            self.clear_action()
            self.finish_move()
        if self.state in (Mode.AWAIT_ROLL, Mode.CHOOSE):
            self.clear_action()
            self.ask_menu()
        elif self.state is Mode.GAME_OVER:
            self.finish()

    def on_turn(self, seat: int) -> bool:
        """Only the seat whose player is on turn acts (an automatic roll: any human)."""
        session = self.require_session()
        player = session.player
        if player is None or session.is_bot(player):
            return False
        if player not in session.seats:
            return any(session.kinds[p] == "human" for p in session.seats)
        return session.seats[player] == seat

    def menu_press(self, event: ButtonEvent) -> None:
        if event.kind != "down":
            return
        if event.button == "next":
            self.menu_index = (self.menu_index + 1) % len(self.options.menu)
            self.dirty = True
        elif event.button == "ok":
            if self.options.menu[self.menu_index].game == STATISTICS_ITEM.game:
                self.open_statistics()
                return
            self.pick_game()

    def setup_press(self, event: ButtonEvent) -> None:
        if event.kind != "down":
            return
        entries = len(self.setup_kinds) + 1  # the seats, then "start"
        if event.button == "next":
            self.setup_cursor = (self.setup_cursor + 1) % entries
        elif self.setup_cursor == len(self.setup_kinds):
            self.begin_from_setup()
        else:
            kind = self.setup_kinds[self.setup_cursor]
            self.setup_kinds[self.setup_cursor] = SEAT_KINDS[
                (SEAT_KINDS.index(kind) + 1) % len(SEAT_KINDS)
            ]
        self.dirty = True

    def begin_from_setup(self) -> None:
        item = self.options.menu[self.menu_index]
        try:
            session = Session.start(
                item.game,
                item.preset,
                self.setup_kinds,
                seat_count=self.options.seat_count,
                bot=self.options.bot,
            )
        except ValueError as exc:
            self.flash(str(exc))
            self.play_cue("error")
            return
        self.start_session(session)

    def roll_press(self, event: ButtonEvent) -> None:
        if event.kind != "down" or event.seat is None or not self.on_turn(event.seat):
            self.ignored_presses += 1
            return
        if not self.options.physical_dice:
            if event.button == "ok":
                self.roll_now()
            return
        # Physical dice: NEXT cycles 1–6 for the die being entered, OK confirms it.
        count = len(self.require_session().state.chance_outcomes()[0][0])
        if not self.entry:
            self.entry = [1]
        if event.button == "next":
            self.entry[-1] = self.entry[-1] % 6 + 1
        elif len(self.entry) < count:
            self.entry.append(1)
        else:
            dice = tuple(self.entry)
            self.entry = []
            try:
                self.roll_now(dice)
            except ValueError as exc:  # e.g. a double where the node forbids it
                self.flash(str(exc))
                self.play_cue("error")
        self.dirty = True

    def choose_press(self, event: ButtonEvent) -> None:
        if event.seat is None or not self.on_turn(event.seat) or not self.moves:
            self.ignored_presses += 1
            return
        if event.button == "next" and event.kind == "down":
            self.cursor = (self.cursor + 1) % len(self.moves)
        elif event.button == "next" and event.kind == "held":
            self.cursor = next_group(self.moves, self.cursor)
        elif event.button == "ok" and event.kind == "down":
            self.clear_action()
            self.commit_cursor()
        self.dirty = True

    def abandon_game(self) -> None:
        """Confirmed "back to menu": the unfinished game is dropped for good (the
        history keeps it, marked abandoned)."""
        self.keep_record("abandoned")
        self.session = None
        self.persist()
        self.confirm()

    # -- time ---------------------------------------------------------------------------

    def schedule(self, delay: float, action: Callable[[], object]) -> None:
        self.action_at = self.now + delay
        self.action = action

    def clear_action(self) -> None:
        self.action_at = None
        self.action = None
        self.timer_end = None

    def tick(self, now: float) -> None:
        """Run whatever is due at ``now``."""
        self.now = now
        hold = self.system_down_at
        if hold is not None and now - hold >= self.options.shutdown_hold_s:
            self.system_down_at = None
            if self.state is not Mode.SHUTDOWN:
                log.warning("system button held %.1f s: shutting down", now - hold)
                self.shut_down()
                if self.poweroff is not None:
                    self.poweroff()
            return
        if self.action_at is not None and now >= self.action_at:
            action = self.action
            self.action_at = None
            self.action = None
            if action is not None:
                action()
        if self.banner is not None and now >= self.banner_until:
            self.banner = None
            self.dirty = True

    def animating(self) -> bool:
        if self.state in (Mode.ROLLING, Mode.MOVING):
            return True
        if self.state is Mode.GAME_OVER:
            return self.now - self.anim_start < self.anim_length
        return self.banner is not None

    def next_wakeup(self) -> float | None:
        """The next moment :meth:`tick` must run, or None to sleep until an event."""
        times = [t for t in (self.action_at, self.banner_until if self.banner else None) if t]
        if self.system_down_at is not None:
            times.append(self.system_down_at + self.options.shutdown_hold_s)
        if self.timer_end is not None:
            # the countdown digits change once a second
            left = self.timer_end - self.now
            times.append(self.now + (left % 1.0 or 1.0))
        if self.animating():
            times.append(self.now + self.options.frame_interval_s)
        return min(times) if times else None

    # -- helpers --------------------------------------------------------------------------

    def require_session(self) -> Session:
        if self.session is None:
            raise RuntimeError("no game in progress")
        return self.session

    def persist(self) -> None:
        """Save the session now, or (``defer_saves``) right after the next frame.

        The loop defers: a press then lights its frame first and the fsync of the save
        follows in the same loop iteration, so a slow SD card never delays what the
        players see, and a pulled plug still loses at most the move in flight.
        """
        if self.session is not None and self.session.state.is_terminal():
            self.keep_record("finished")
        if self.defer_saves:
            self.save_pending = True
        elif self.save is not None:
            self.save(self.session)

    def flush_save(self) -> None:
        self.flush_records()  # a finished game is in the history before its last save
        if self.save_pending:
            self.save_pending = False
            if self.save is not None:
                self.save(self.session)

    def keep_record(self, outcome: str) -> None:
        """Hand the game to the history once, when it ends or is abandoned; like a
        save it waits for the next frame when the loop defers."""
        session = self.session
        if self.record is None or session is None or session is self.recorded:
            return
        self.recorded = session
        self.records_pending.append((session, outcome))
        if not self.defer_saves:
            self.flush_records()

    def flush_records(self) -> None:
        pending, self.records_pending = self.records_pending, []
        for session, outcome in pending:
            if self.record is not None:
                self.record(session, outcome)

    def open_statistics(self) -> None:
        self.statistics_pages = self.statistics() if self.statistics is not None else ()
        self.statistics_page = 0
        self.dirty = True
        self.show_statistics()

    def statistics_press(self, event: ButtonEvent) -> None:
        """NEXT turns to the next game's chart, OK goes back to the menu."""
        if event.button == "next":
            self.statistics_page = (self.statistics_page + 1) % max(1, len(self.statistics_pages))
            self.dirty = True
        elif event.button == "ok":
            self.back()

    def play_cue(self, cue: Cue) -> None:
        if self.sound is not None:
            try:
                self.sound.play(cue)
            except OSError as exc:  # a sound fault must never stop the game
                log.warning("sound: %s", exc)

    def flash(self, text: str, seconds: float = 2.5) -> None:
        self.banner = text
        self.banner_until = self.now + seconds
        self.dirty = True

    def show_text(self, text: str) -> None:
        self.message = text
        self.show_message()

    # -- what to draw -----------------------------------------------------------------------

    def scene(self) -> AnyScene:
        now = self.now
        mode = self.state
        if mode is Mode.MENU:
            return MenuScene(self.options.menu, self.menu_index, now, self.banner)
        if mode is Mode.SETUP:
            item = self.options.menu[self.menu_index]
            colours = colours_of(item, len(self.setup_kinds))
            return SetupScene(item, tuple(self.setup_kinds), colours, self.setup_cursor, now)
        if mode is Mode.STATISTICS:
            return StatisticsScene(self.statistics_pages, self.statistics_page, now)
        if mode in (Mode.MESSAGE, Mode.SHUTDOWN):
            kind = "shutdown" if mode is Mode.SHUTDOWN else "info"
            return MessageScene(self.message or "bye", now, kind)
        session = self.require_session()
        if mode is Mode.CONFIRM_MENU:
            return Scene(session.state, now, banner="menu? OK=yes NEXT=no", dice=self.last_dice)
        preview = None
        if mode is Mode.CHOOSE and self.moves:
            preview = self.moves[self.cursor % len(self.moves)]
        roll = None
        if mode is Mode.ROLLING and self.roll_result is not None:
            roll = RollAnimation(self.roll_result, self.progress(), self.roller)
        moving = None
        state = session.state
        if mode is Mode.MOVING and self.moving is not None:
            move, before, after = self.moving
            moving = MoveAnimation(move, before, after, self.progress())
            state = before
        countdown = None
        if self.timer_end is not None:
            countdown = max(0.0, self.timer_end - now)
        winner = None
        if mode is Mode.GAME_OVER and state.winners():
            winner = state.winners()[0]
        dice = tuple(self.entry) if self.entry else self.last_dice
        return Scene(
            state,
            now,
            preview=preview,
            dice=dice,
            roll=roll,
            moving=moving,
            countdown=countdown,
            countdown_total=self.timer_total if countdown is not None else None,
            winner=winner,
            banner=self.banner,
            hint=self.hint if mode is Mode.CHOOSE else None,
        )

    def status(self) -> TableStatus:
        """The table in words and the seats' looks, for the simulator's status line and
        window (``controller/status_line.py``); read on the loop thread when drawing."""
        from controller.status_line import table_status

        choice = None
        if self.state is Mode.CHOOSE and self.moves:
            choice = (self.cursor % len(self.moves), len(self.moves))
        return table_status(
            self.state,
            self.scene(),
            self.session,
            seat_count=self.options.seat_count,
            choice=choice,
            physical_dice=self.options.physical_dice,
        )

    def progress(self) -> float:
        if self.anim_length <= 0:
            return 1.0
        return min(1.0, max(0.0, (self.now - self.anim_start) / self.anim_length))


HINT_GAMES = frozenset({"minimaki"})
"""Games whose strong bot is exact and instant, so a hint is the true best move."""


def bot_kind(kind: str) -> str:
    """The configured bot if it exists, else the random one (never fail a game)."""
    from rules.bots import BOT_KINDS

    return kind if kind in BOT_KINDS else "random"


def colours_of(item: MenuItem, seats: int) -> tuple[str, ...]:
    """The player (colour/side) each of ``seats`` setup entries stands for."""
    game = rules.get_game(item.game, item.preset)
    count = seats if seats in game.player_counts else max(game.player_counts)
    players = tuple(game.new_state(count).to_json().get("players", ())) or ("player",)
    return tuple(players[i % len(players)] for i in range(seats))


def move_steps(move: Move) -> int:
    """How many field steps (or checker steps) a move animates (at least one)."""
    checker_steps = getattr(move, "steps", None)
    if isinstance(checker_steps, tuple):
        return max(1, len(checker_steps))
    frm = getattr(move, "from_progress", None)
    to = getattr(move, "to_progress", None)
    if isinstance(frm, int) and isinstance(to, int):
        return max(1, to - max(frm, 0))
    return max(1, move.notation.count("/"))


def cycling_order(moves: Sequence[Move]) -> tuple[Move, ...]:
    """Backgammon plays sorted by their first checker (highest point first, the bar is
    25), so a held NEXT steps checker by checker; other games keep the rules' order."""

    def first_source(move: Move) -> int:
        steps = getattr(move, "steps", None)
        if not isinstance(steps, tuple) or not steps:
            return 0
        return -max(int(step[0]) for step in steps)  # the notation names it first

    if not any(isinstance(getattr(m, "steps", None), tuple) for m in moves):
        return tuple(moves)
    return tuple(sorted(moves, key=lambda m: (first_source(m), m.notation)))


def next_group(moves: Sequence[Move], cursor: int) -> int:
    """The next move that starts with another piece/checker (a held NEXT)."""

    def group(move: Move) -> str:
        return move.notation.split()[0].split("-")[0].split("/")[0]

    current = group(moves[cursor % len(moves)])
    for offset in range(1, len(moves) + 1):
        index = (cursor + offset) % len(moves)
        if group(moves[index]) != current:
            return index
    return cursor
