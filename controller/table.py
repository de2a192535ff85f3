"""The table: what every button press, timer and bot answer does (the machine's model).

The loop thread owns one :class:`Table`. It feeds it events (:meth:`handle`), calls
:meth:`tick` when a deadline it asked for (:meth:`next_wakeup`) is due, and draws
:meth:`scene` whenever :attr:`dirty` is set or an animation runs. Nothing here sleeps,
blocks or touches hardware; time comes in as arguments, which is what makes the whole
appliance testable with a fake clock.

Controls: each seat has OK/ROLL and NEXT; only the seat whose player is on turn acts.
NEXT cycles the legal moves with a preview (a held NEXT jumps to the next piece/checker
group), OK commits at once (there is no take-back: touch-move, MÄDN rule 12 and Lingo
house rule 0). A game whose presentation says so (Backgammon) is entered checker by
checker (:mod:`controller.games.backgammon.checker_entry`).
Forced moves and passes play themselves after a short visible preview. The system
button: held → "back to menu?" (OK confirms, NEXT returns); held for
``shutdown_hold_s`` → shutdown.

Time. The picture's own changes (blinks, scrolling, countdown steps, animation steps)
are the views' business: they say when they next change and the loop draws then. The
table only records *when* things began (a preview, a label, a banner) so that every
press shows its effect in the very next frame, and keeps the deadlines of what it does
itself (a bot's move, a roll, the move timer, sleep). Pace: ``bot_delay_s`` paces the
bots; a held OK while only bots are on turn makes them hurry until a human's turn.
After ``sleep_after_s`` without a press, while the table waits for a person, the panel
sleeps: a dim, static picture. The press that wakes it does nothing else.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import rules
from controller import names, setup_rows, table_scenes
from controller.events import BotRequest, HintRequest, MoveRequest
from controller.games import checker_steps, presentation
from controller.machine import Mode, build_machine
from controller.scene import (
    STATISTICS_ITEM,
    AnyScene,
    Standing,
    StatisticsPage,
)
from controller.session import SEAT_KINDS, Session
from controller.table_buttons import SideButtons
from controller.table_options import (
    FAST_PACE,
    TableOptions,
    default_menu,
    match_banner_seconds,
)
from controller.table_time import TableTime
from controller.views.overlay import banner_seconds as scroll_seconds_on
from controller.views.text import scroll_seconds
from hardware.interfaces import ButtonEvent, Cue, Sound
from rules.core import Dice, Move, Pass, State

if TYPE_CHECKING:
    from controller.sim.status import TableStatus

log = logging.getLogger(__name__)


Step = tuple[int, int, bool]
"""A step of a move entered piece by piece: (from, to, hit)."""

AskBot = Callable[[State, str, BotRequest, int], None]
"""Ask a bot (on a worker thread) for a move: (state, bot kind, request, seed)."""


class Table(SideButtons):
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
        def trigger(self, name: str, *args: object) -> bool: ...

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
        self.time = TableTime(self.options)
        """The time handed over, what is scheduled, the move timer, pace and sleep."""
        self.sound = sound
        self.save = save
        self.ask_bot = ask_bot
        self.poweroff = poweroff
        self.record = record
        """Hands a game that ended ("finished") or was given up ("abandoned") to the
        history, after the frame like the save (controller.history.keeper)."""
        self.records_pending: list[tuple[Session, str]] = []
        self.recorded: Session | None = None
        self.statistics = statistics
        self.statistics_pages: tuple[StatisticsPage, ...] = ()
        self.statistics_page = 0
        self.session: Session | None = None
        self.panel = (16, 16)
        """The panel's size, for how long a text needs to pass (the loop sets it)."""
        self.dirty = True
        self.menu_index = 0
        self.setup_kinds: list[str] = []
        self.setup_cursor = 0
        self.setup_preset = ""
        self.cursor = 0
        self.moves: Sequence[Move] = ()
        self.anim_start = 0.0
        self.anim_length = 0.0
        self.roll_result: Dice | None = None
        self.roller: str | None = None
        self.opening = False
        self.last_dice: Dice | None = None
        self.moving: tuple[Move, State, State] | None = None
        self.entry: list[int] = []
        self.checkers: Any = None
        """Backgammon: the play a human enters checker by checker (None: whole moves)."""
        self.played: tuple[Step, ...] = ()
        self.steps: tuple[Step, ...] = ()
        self.banner: str | None = None
        self.banner_until = 0.0
        self.banner_since = 0.0
        self.message = ""
        self.defer_saves = False
        self.save_pending = False
        self.bot_request = MoveRequest(0)
        self.hint_request = HintRequest(0)
        self.hint: Move | None = None
        self.stop_requested = False
        self.ignored_presses = 0
        self.since = 0.0
        """When the thing under the cursor was chosen (a menu entry, a setup entry, a
        preview): its blink starts lit and its text at its first letter from here."""
        self.over_since = 0.0
        self.swallowed: set[tuple[int | None, str]] = set()
        """Buttons whose press woke the panel: their held and up events are dropped."""
        self.press_from: int | None = None
        """The cursor when the NEXT press now down began (a held NEXT jumps from it)."""
        self.system_was_held = False
        self.machine = build_machine(self)

    @property
    def now(self) -> float:
        """The time the table was last handed (read-only: :meth:`at`, :meth:`tick`)."""
        return self.time.now

    def begin(self, now: float, panel: tuple[int, int] | None = None) -> None:
        """The table starts running at ``now`` on a panel of that size (how long a text
        needs to pass): what is on show starts from here."""
        self.time.now = now
        if panel is not None:
            self.panel = panel
        self.since = self.banner_since = self.over_since = self.time.last_activity = now
        self.dirty = True

    def at(self, now: float) -> None:
        """The time is ``now`` (the loop hands it over before it asks anything)."""
        self.time.now = now

    def defer_effects(self) -> None:
        """Saves and records wait for the next frame: the loop carries them out after
        drawing (:meth:`flush_save`), so a press lights its frame first."""
        self.defer_saves = True

    def redraw(self) -> None:
        """Draw the next frame even if nothing changed (the window was uncovered)."""
        self.dirty = True

    def drawn(self) -> None:
        """The loop drew the table as it is now."""
        self.dirty = False

    def shutting_down(self, now: float) -> None:
        """The appliance stops: the game is saved (and recorded) now, not after a frame."""
        self.time.now = now
        self.persist()
        self.flush_save()

    def device_status(self, text: str, now: float) -> None:
        """A device went offline or came back: it is said over the board."""
        self.time.now = now
        self.flash(text)

    def bot_arrived(self, request: BotRequest, move: Move | None, now: float) -> None:
        """A bot's (or the hint's) answer came from the worker."""
        self.time.now = now
        self.bot_answer(request, move)

    def state_changed(self, *_press: object) -> None:
        """After every transition: the picture must show the new state in the very next
        frame (a roll starts tumbling at the press, not at the next blink)."""
        self.dirty = True

    # -- guards used by the transition table -------------------------------------------

    def game_is_over(self, *_press: object) -> bool:
        return self.session is not None and self.session.state.is_terminal()

    def dice_are_due(self, *_press: object) -> bool:
        return self.session is not None and self.session.state.is_chance()

    # -- entry callbacks ----------------------------------------------------------------

    def on_enter_MENU(self, *_press: object) -> None:
        self.clear_action()
        self.since = self.time.now
        self.time.hurry = False
        self.dirty = True

    def on_enter_SETUP(self, *_press: object) -> None:
        item = self.options.menu[self.menu_index]
        self.setup_preset = item.preset
        self.setup_kinds = self.default_kinds(item.game, item.preset)
        self.setup_cursor = -len(setup_rows.rows(item.game, item.preset))
        self.since = self.time.now
        self.dirty = True

    def default_kinds(self, game_name: str, preset: str) -> list[str]:
        game = rules.get_game(game_name, preset)
        most = min(max(game.player_counts), self.options.seat_count)
        defaults = list(self.options.default_seats) or ["human"] + ["bot"] * 3
        kinds = [defaults[i] if i < len(defaults) else "bot" for i in range(most)]
        while kinds.count("empty") > most - min(game.player_counts):
            kinds[kinds.index("empty")] = "bot"
        return kinds

    def on_enter_NEXT_TURN(self, *_press: object) -> None:
        self.clear_action()
        self.advance()

    def on_enter_AWAIT_ROLL(self, *_press: object) -> None:
        session = self.require_session()
        self.entry = []
        player = session.player
        automatic = presentation(session.game).dice_roll_themselves
        if automatic or player not in session.seats or session.is_bot(player):
            delay = self.options.bot_delay_s if session.is_bot(player) else 0.3
            self.schedule(delay, self.roll_now)
        else:
            self.time.hurry = False
        self.dirty = True

    def on_enter_ROLLING(self, *_press: object) -> None:
        self.start_animation(self.options.roll_time_s)
        self.play_cue("dice")
        self.schedule(self.anim_length, self.finish_roll, paced=False)

    def on_enter_CHOOSE(self, *_press: object) -> None:
        session = self.require_session()
        self.moves = cycling_order(session.game, session.state.legal_moves())
        self.cursor = 0
        self.press_from = None
        self.since = self.time.now
        self.time.timer_end = None
        self.checkers = None
        self.played = ()
        self.steps = ()
        self.hint = None  # a hint belongs to one choice of one game
        player = session.player
        if session.is_bot(player):
            self.bot_request = request = MoveRequest(self.bot_request.number + 1)
            if self.ask_bot is not None:
                self.ask_bot(session.state, session.bot, request, session.rng.getrandbits(32))
            else:  # no worker: think on this thread
                self.schedule(self.options.bot_delay_s, lambda: self.bot_answer(request, None))
        elif len(self.moves) == 1:
            self.time.hurry = False
            self.schedule(self.options.forced_delay_s, self.commit_cursor)
        else:
            self.time.hurry = False
            enter = presentation(session.game).checker_entry
            self.checkers = None if enter is None else enter(session.state, self.moves)
            if self.checkers is not None:
                self.resume_entry(session)
            self.request_hint()
            seconds = self.move_timer()
            if seconds:
                self.time.timer_end = self.time.now + seconds
                self.time.timer_total = seconds
                self.schedule(seconds, self.timer_expired, paced=False)
        self.dirty = True

    def resume_entry(self, session: Session) -> None:
        """Checker entry begins, with the steps already fixed of this play (a resumed
        game keeps them) where they are still a way to a legal play."""
        entry = self.checkers
        self.played = ()
        for step in session.entered:
            if step not in entry.options(self.played):
                break
            self.played = (*self.played, step)
        session.entered = list(self.played)
        self.steps = entry.options(self.played)

    def on_enter_MOVING(self, *_press: object) -> None:
        if self.moving is None:  # a decision with nothing to animate
            self.moved()
            return
        game = self.require_session().game
        facts = rules.move_facts(game, self.moving[0])
        per_step = self.options.step_time_s
        if checker_steps(game, self.moving[0]):
            per_step = self.options.checker_step_time_s
        capture_s = self.options.capture_time_s if facts.capture else 0.0
        self.start_animation(facts.steps * per_step + capture_s)
        self.play_cue("capture" if facts.capture else "move")
        self.schedule(self.anim_length, self.finish_move, paced=False)

    def on_enter_GAME_OVER(self, *_press: object) -> None:
        self.anim_start = self.time.now
        self.anim_length = self.options.winner_time_s
        self.over_since = self.time.now
        self.time.hurry = False
        self.play_cue("win")
        self.persist()
        self.dirty = True

    def on_enter_CONFIRM_MENU(self, *_press: object) -> None:
        self.clear_action()
        self.since = self.time.now
        self.dirty = True

    def on_enter_MESSAGE(self, *_press: object) -> None:
        self.clear_action()
        self.since = self.time.now
        width, height = self.panel
        seconds = max(self.options.message_time_s, scroll_seconds(self.message, width, height))
        self.schedule(seconds, self.dismiss, paced=False)
        self.dirty = True

    def on_enter_SHUTDOWN(self, *_press: object) -> None:
        self.clear_action()
        self.message = "bye"  # not a message left over from before
        self.since = self.time.now
        self.persist()
        self.stop_requested = True
        self.dirty = True

    # -- actions --------------------------------------------------------------------------

    def start_session(self, session: Session) -> None:
        """Begin (or resume) a game."""
        self.session = session
        self.last_dice = last_roll(session)
        self.hint = None
        self.persist()
        self.start_game()

    def start_animation(self, seconds: float) -> None:
        self.anim_start = self.time.now
        self.anim_length = seconds * self.pace()

    def roll_now(self, dice: Dice | None = None) -> None:
        session = self.require_session()
        self.roll_result = dice if dice is not None else session.draw_dice()
        self.roller = session.player  # before the roll: an opening throw passes the turn
        self.opening = session.state.to_json().get("phase") == "opening"
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
        self.checkers = None
        self.played = ()
        self.steps = ()
        rolls = presentation(session.game).decision_rolls
        if rolls is not None and rolls(move) and not self.options.physical_dice:
            # Backgammon's cube decision "roll": the same press throws the dice.
            session.play(move)
            self.time.timer_end = None
            if session.state.is_chance():
                self.roll_now()
                return
            self.persist()
            self.advance_after_decision()
            return
        before = session.play(move)
        end_banner = presentation(session.game).game_end_banner
        news = None if end_banner is None else end_banner(before, session.state)
        if news is not None:
            self.flash(self.spoken(news), match_banner_seconds(news, self.options.match_banner_s))
        self.moving = (move, before, session.state)
        self.time.timer_end = None
        self.persist()
        self.commit()

    def spoken(self, text: str) -> str:
        """``text`` with the rules' side names replaced by what the panel calls them."""
        session = self.session
        if session is None:
            return text
        words = text.split(" ")
        return " ".join(self.player_name(word) if word in session.kinds else word for word in words)

    def player_name(self, player: str) -> str:
        session = self.require_session()
        return names.player_name(session.game, player, session.kinds)

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
        if not self.options.hints or not presentation(session.game).hint:
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
        if request != self.bot_request or self.state is not Mode.CHOOSE or self.side_move(move):
            return  # stale: the game moved on (menu, resume...); or a resignation
        session = self.require_session()
        if move is None:
            from rules.bots import make_bot

            move = make_bot(bot_kind(session.bot)).choose(session.state, session.rng)
        if move not in self.moves:
            log.error("bot returned an illegal move %s; playing the first legal one", move)
            move = self.moves[0]
        self.cursor = list(self.moves).index(move)
        self.checkers = None  # a bot (or the timer) plays whole moves
        self.since = self.time.now
        self.dirty = True
        self.schedule(self.options.bot_delay_s, self.commit_cursor)

    def timer_expired(self) -> None:
        """The move timer ran out: "time!" shows briefly, over a board that stands
        still; then a pass if passing is legal, else the bot's move (with its preview,
        so nobody misses it)."""
        self.time.timer_end = None
        self.flash("time!", self.options.time_up_s)
        self.schedule(self.options.time_up_s, self.play_for_the_late, paced=False)

    def play_for_the_late(self) -> None:
        passes = [m for m in self.moves if isinstance(m, Pass)]
        if passes:
            self.commit_move(passes[0])
        else:
            self.bot_answer(self.bot_request, None)

    def move_timer(self) -> float:
        """Seconds for this move, 0 for no timer (Lingo house rule 8 sets one)."""
        if self.options.move_timer_s is not None:
            return self.options.move_timer_s
        session = self.require_session()
        preset_timer = rules.preset_facts(session.state.game).move_timer_s
        if preset_timer and self.options.preset_timer_s is not None:
            return self.options.preset_timer_s
        return preset_timer

    # -- events -------------------------------------------------------------------------

    def handle(self, event: ButtonEvent, now: float) -> None:
        self.time.now = now
        key = (event.seat, event.button)
        if key in self.swallowed:
            if event.kind == "up":
                self.swallowed.discard(key)
            return
        if event.kind == "down":
            self.time.last_activity = now
            if self.time.asleep:
                self.wake()
                self.swallowed.add(key)
                return
        if event.button == "system":
            self.handle_system(event)
            return
        if event.kind == "up" or event.seat is None:
            return
        if event.button == "ok" and event.kind == "held" and self.bots_on_turn():
            self.hurry_up()
            return
        trigger = event.button if event.kind == "down" else f"{event.button}_{event.kind}"
        if trigger in self.machine.get_triggers(self.state):
            self.trigger(trigger, event)  # a failed guard counts itself as ignored
        else:
            self.ignored_presses += 1  # harmless: this state does not list that press
        self.dirty = True

    def handle_system(self, event: ButtonEvent) -> None:
        """The system button's own timing (a very long press shuts down, :meth:`tick`);
        what a held or tapped press does is the machine's ``system_held``/``system_tap``."""
        if event.kind == "down":
            self.time.system_down_at = self.time.now
            self.system_was_held = False
        elif event.kind == "up":
            tapped = self.time.system_down_at is not None and not self.system_was_held
            self.time.system_down_at = None
            if tapped:
                self.trigger("system_tap", event)
        elif event.kind == "held":
            self.system_was_held = True
            self.cut_short_then_system_held(event)
        self.dirty = True

    def cut_short_then_system_held(self, event: ButtonEvent | None = None) -> None:
        """A long press is never lost to an animation: the roll or move already happened
        in the session, so its animation is cut short first, and the press then counts
        for the state that follows ("back to menu?", or the menu after a game the move
        ended), as the machine's ``system_held`` says."""
        if self.state in (Mode.ROLLING, Mode.MOVING):
            self.clear_action()
            if self.state is Mode.ROLLING:
                self.finish_roll()
            else:
                self.finish_move()
        self.trigger("system_held", event)

    # -- what a press does (the machine's ``after`` callbacks) --------------------------

    def seat_on_turn(self, event: ButtonEvent | None = None) -> bool:
        """The shared guard: the press comes from the seat whose player is on turn."""
        if event is None or event.seat is None or not self.on_turn(event.seat):
            self.ignored_presses += 1
            return False
        return True

    def can_choose(self, event: ButtonEvent | None = None) -> bool:
        """There is a move to choose, and "time!" has not already taken the choice."""
        return bool(self.moves) and self.time.action != self.play_for_the_late

    def choose_menu_entry(self, event: ButtonEvent | None = None) -> None:
        if self.options.menu[self.menu_index].game == STATISTICS_ITEM.game:
            self.open_statistics()
        else:
            self.pick_game()

    def next_menu_entry(self, event: ButtonEvent | None = None) -> None:
        self.menu_index = (self.menu_index + 1) % len(self.options.menu)
        self.since = self.time.now

    def next_page(self, event: ButtonEvent | None = None) -> None:
        """NEXT turns to the next game's chart."""
        self.statistics_page = (self.statistics_page + 1) % max(1, len(self.statistics_pages))

    def on_turn(self, seat: int) -> bool:
        """Only the seat whose player is on turn acts (an automatic roll: any human)."""
        session = self.require_session()
        player = session.player
        if player is None or session.is_bot(player):
            return False
        if player not in session.seats:
            return any(session.kinds[p] == "human" for p in session.seats)
        return session.seats[player] == seat

    def setup_next(self, event: ButtonEvent | None = None) -> None:
        """NEXT: the next setup entry (the rule set, each seat, "start")."""
        item = self.options.menu[self.menu_index]
        first = -len(setup_rows.rows(item.game, self.setup_preset or item.preset))
        start = len(self.setup_kinds)
        self.setup_cursor = first if self.setup_cursor >= start else self.setup_cursor + 1
        self.since = self.time.now

    def setup_ok(self, event: ButtonEvent | None = None) -> None:
        """OK: the next rule set, the seat's next kind, or begin the game."""
        item = self.options.menu[self.menu_index]
        start = len(self.setup_kinds)
        if self.setup_cursor == start:
            self.begin_from_setup()
        elif self.setup_cursor < 0:
            setup_rows.step(self, item.game, self.setup_preset or item.preset)
            kinds = self.default_kinds(item.game, self.setup_preset)
            if len(kinds) != len(self.setup_kinds):
                self.setup_kinds = kinds
        else:
            kind = self.setup_kinds[self.setup_cursor]
            self.setup_kinds[self.setup_cursor] = SEAT_KINDS[
                (SEAT_KINDS.index(kind) + 1) % len(SEAT_KINDS)
            ]
        self.since = self.time.now
        self.dirty = True

    def begin_from_setup(self) -> None:
        item = self.options.menu[self.menu_index]
        try:
            session = Session.start(
                item.game,
                self.setup_preset or item.preset,
                self.setup_kinds,
                seat_count=self.options.seat_count,
                bot=self.options.bot,
            )
        except ValueError as exc:
            self.flash(str(exc))
            self.play_cue("error")
            return
        self.start_session(session)

    def roll_next(self, event: ButtonEvent | None = None) -> None:
        """Physical dice: NEXT counts the die being entered up, 1–6."""
        if not self.options.physical_dice:
            return
        if not self.entry:
            self.entry = [1]
        self.entry[-1] = self.entry[-1] % 6 + 1

    def roll_ok(self, event: ButtonEvent | None = None) -> None:
        """OK rolls; with physical dice it confirms the die being entered."""
        if not self.options.physical_dice:
            self.roll_now()
            return
        count = len(self.require_session().state.chance_outcomes()[0][0])
        if not self.entry:
            self.entry = [1]
        if len(self.entry) < count:
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

    def preview_next(self, event: ButtonEvent | None = None) -> None:
        """NEXT: the next legal move (or checker step) in preview."""
        count = len(self.steps) if self.checkers is not None else len(self.moves)
        if not count:
            return
        self.press_from = self.cursor
        self.cursor = (self.cursor + 1) % count
        self.since = self.time.now

    def preview_next_piece(self, event: ButtonEvent | None = None) -> None:
        """A held NEXT: the next piece (or the other die). The press's "down" already
        stepped one move on, so it jumps from the one shown when the press began."""
        start = self.held_from()
        if self.checkers is not None:
            if self.steps:
                starts = self.checkers.groups(self.steps)
                later = [i for i in starts if i > start % len(self.steps)]
                self.cursor = later[0] if later else starts[0]
        else:
            self.cursor = next_group(self.moves, start)
        self.since = self.time.now

    def commit_preview(self, event: ButtonEvent | None = None) -> None:
        """OK: play the previewed move, or fix the previewed checker step."""
        if self.checkers is not None:
            self.fix_step()
            return
        self.clear_action()
        self.commit_cursor()

    def held_from(self) -> int:
        """Where the held press began: the cursor before its own "down" stepped on."""
        start = self.cursor if self.press_from is None else self.press_from
        self.press_from = None
        return start

    def fix_step(self) -> None:
        """OK while a play is entered checker by checker: fix the previewed step; the
        play commits once it is complete."""
        entry = self.checkers
        if not self.steps:
            return
        self.played = (*self.played, self.steps[self.cursor % len(self.steps)])
        play = entry.complete(self.played)
        if play is not None:
            self.clear_action()
            self.commit_move(play)
            return
        self.steps = entry.options(self.played)
        self.cursor = 0
        self.since = self.time.now
        self.require_session().entered = list(self.played)
        self.persist()  # a resumed game shows the steps already fixed

    def abandon_game(self, event: ButtonEvent | None = None) -> None:
        """Confirmed "back to menu": the unfinished game is dropped for good (the
        history keeps it, marked abandoned)."""
        self.keep_record("abandoned")
        self.session = None
        self.persist()
        self.confirm()

    # -- pace and sleep ------------------------------------------------------------------

    def bots_on_turn(self) -> bool:
        """Only bots (or the table itself: an automatic roll) are on turn now."""
        if self.session is None or self.state in (Mode.MENU, Mode.SETUP, Mode.GAME_OVER):
            return False
        if self.state in (Mode.CONFIRM_MENU, Mode.MESSAGE, Mode.SHUTDOWN):
            return False
        player = self.session.player
        return player is None or self.session.is_bot(player) or player not in self.session.seats

    def hurry_up(self) -> None:
        """A held OK: what is scheduled and what animates now runs at the fast pace."""
        if not self.time.hurry_up():
            return
        factor = self.options.fast_factor
        if self.state in (Mode.ROLLING, Mode.MOVING) and self.anim_length > 0:
            done = table_scenes.progress(self)
            self.anim_length *= factor
            self.anim_start = self.time.now - done * self.anim_length
        self.dirty = True

    def pace(self) -> float:
        return self.time.pace()

    def waiting_for_a_person(self) -> bool:
        """Nothing will happen until someone presses: the panel may fall asleep."""
        if not self.time.idle():
            return False
        return self.state not in (Mode.ROLLING, Mode.MOVING, Mode.NEXT_TURN, Mode.SHUTDOWN)

    def sleep_at(self) -> float | None:
        return self.time.sleep_at(self.waiting_for_a_person())

    def wake(self) -> None:
        self.time.asleep = False
        self.since = self.time.now
        self.banner_since = self.time.now
        self.over_since = self.time.now
        self.dirty = True

    # -- time ---------------------------------------------------------------------------

    def schedule(self, delay: float, action: Callable[[], object], paced: bool = True) -> None:
        self.time.schedule(delay, action, paced)

    def clear_action(self, *_press: object) -> None:
        self.time.clear()

    def tick(self, now: float) -> None:
        """Run whatever is due at ``now``."""
        self.time.now = now
        held = self.time.shutdown_due()
        if held is not None:
            if self.state is not Mode.SHUTDOWN:
                log.warning("system button held %.1f s: shutting down", held)
                self.shut_down()
                if self.poweroff is not None:
                    self.poweroff()
            return
        action = self.time.due_action()
        if action is not None:
            action()
        if self.banner is not None and now >= self.banner_until:
            self.banner = None
            self.dirty = True
        winner_ends = self.anim_start + self.anim_length
        if self.state is Mode.GAME_OVER and self.anim_length and now >= winner_ends:
            self.anim_length = 0.0  # the winner's stripes stop; the words stay
            self.dirty = True
        sleep = self.sleep_at()
        if sleep is not None and now >= sleep:
            self.time.asleep = True
            self.dirty = True

    def next_wakeup(self) -> float | None:
        """The next moment :meth:`tick` must run, or None to sleep until an event. The
        picture's own changes are not here: the views tell the loop about those."""
        times = self.time.deadlines(self.waiting_for_a_person())
        if self.banner and self.banner_until:
            times.append(self.banner_until)
        if self.state is Mode.GAME_OVER and self.anim_length:
            times.append(self.anim_start + self.anim_length)
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

    def play_cue(self, cue: Cue) -> None:
        if self.sound is not None:
            try:
                self.sound.play(cue)
            except OSError as exc:  # a sound fault must never stop the game
                log.warning("sound: %s", exc)

    def flash(self, text: str, seconds: float = 2.5) -> None:
        """Show ``text`` over the board for ``seconds``, and at least long enough to
        pass once across the panel."""
        width, height = self.panel
        self.banner = text
        self.banner_since = self.time.now
        self.banner_until = self.time.now + max(seconds, scroll_seconds_on(text, width, height))
        self.dirty = True

    def show_text(self, text: str) -> None:
        self.message = text
        self.show_message()

    # -- what to draw -----------------------------------------------------------------------

    def scene(self) -> AnyScene:
        """What the panel shows now: a pure function of the table (``table_scenes``)."""
        return table_scenes.scene(self)

    def standings(self) -> tuple[Standing, ...]:
        return table_scenes.standings(self)

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
            entering=tuple(self.entry) if self.state is Mode.AWAIT_ROLL else (),
        )

    def progress(self) -> float:
        if self.anim_length <= 0:
            return 1.0
        return min(1.0, max(0.0, (self.time.now - self.anim_start) / self.anim_length))


def last_roll(session: Session) -> Dice | None:
    """The last dice thrown, from the session's history, as a game in play shows them
    beside the board (a resumed game shows them again); None before the first throw."""
    for entry in reversed(session.history):
        if "dice" in entry:
            return tuple(int(d) for d in entry["dice"])
    return None


def bot_kind(kind: str) -> str:
    """The configured bot if it exists, else the random one (never fail a game)."""
    from rules.bots import BOT_KINDS

    return kind if kind in BOT_KINDS else "random"


def cycling_order(game: str, moves: Sequence[Move]) -> tuple[Move, ...]:
    """Backgammon plays sorted by their first checker (highest point first, the bar is
    25), so a held NEXT steps checker by checker; other games keep the rules' order."""
    sources = [checker_steps(game, m) for m in moves]
    if not any(sources):
        return tuple(moves)

    def first_source(index: int) -> int:  # the notation names the highest source first
        return -max((src for src, _ in sources[index]), default=0)

    order = sorted(range(len(moves)), key=lambda i: (first_source(i), moves[i].notation))
    return tuple(moves[i] for i in order)


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


places = table_scenes.places
colours_of = table_scenes.colours_of
"""Re-exported: the finishing order and the setup colours live with the scenes."""
__all__ = ["FAST_PACE", "Table", "TableOptions", "bot_kind", "default_menu", "places"]
