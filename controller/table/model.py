"""The table's model: what every button press, timer and bot answer does.

The loop thread owns one :class:`Table`. It feeds it events (:meth:`handle`), calls
:meth:`tick` when a deadline it asked for (:meth:`next_wakeup`) is due, draws
:meth:`scene` whenever :attr:`dirty` is set or an animation runs, and carries out the
saves and records it queued (:meth:`take_effects`). Nothing here sleeps, blocks, writes
to disk or touches hardware; time comes in as arguments, which is what makes the whole
appliance testable with a fake clock.

The table delegates: the menu and setup to :class:`~controller.table.menu.MenuRoom`,
the choice of a move to :class:`~controller.table.choice.Choice`, questions to the bots
to :class:`~controller.table.bots.Thinking`, animations to
:class:`~controller.table.motion.Motion`, time and pace to
:class:`~controller.table.clock.TableTime`, saves and records to an
:class:`~controller.table.effects.Outbox`, what each state sets up on entry to
:class:`~controller.table.entering.Entering`, and the picture to the pure functions of
:mod:`controller.table.scenes`. What it keeps is the order of things: which press or
deadline leads where, as the machine's transition table declares.

Controls: each seat has OK/ROLL and NEXT; only the seat whose player is on turn acts.
NEXT cycles the legal moves with a preview (a held NEXT jumps to the next piece/checker
group), OK commits at once (there is no take-back: touch-move, MÄDN rule 12 and Lingo
house rule 0). Forced moves and passes play themselves after a short visible preview.
The system button: held → "back to menu?" (OK confirms, NEXT returns); held for
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
from collections.abc import Callable
from typing import TYPE_CHECKING

from controller.bot_worker import AnswerHere
from controller.events import BotRequest
from controller.machine import Mode, Triggers, build_machine
from controller.scene import AnyScene, StatisticsPage
from controller.session import Session
from controller.table import scenes as table_scenes
from controller.table.banner import Banner
from controller.table.bots import AskBot, Thinking
from controller.table.buttons import Buttons
from controller.table.choice import Choice
from controller.table.clock import TableTime
from controller.table.effects import Effect, Outbox
from controller.table.entering import Entering
from controller.table.menu import START, MenuRoom
from controller.table.motion import DiceEntry, Motion
from controller.table.options import TableOptions
from controller.table.side_buttons import SideButtons
from controller.table.turns import Turns
from controller.voice.catalog import Prompt
from hardware.interfaces import ButtonEvent, Cue, Sound
from rules.core import Move

if TYPE_CHECKING:
    from controller.sim.status import TableStatus

log = logging.getLogger(__name__)


class Table(Triggers, Entering, SideButtons):
    """The machine's model. ``state`` (a :class:`Mode`) is maintained by transitions."""

    def __init__(
        self,
        options: TableOptions | None = None,
        sound: Sound | None = None,
        ask_bot: AskBot | None = None,
        poweroff: Callable[[], None] | None = None,
        statistics: Callable[[], tuple[StatisticsPage, ...]] | None = None,
    ) -> None:
        self.options = options or TableOptions()
        self.time = TableTime(self.options)
        self.sound = sound
        self.poweroff = poweroff
        self.statistics = statistics
        self.session: Session | None = None
        self.panel = (16, 16)
        """The panel's size, for how long a text needs to pass (:meth:`begin`)."""
        self.dirty = True
        self.menu = MenuRoom(self.options)
        self.choice = Choice()
        self.bots = Thinking(
            ask_bot or AnswerHere(lambda *answer: self.turns.bot_answer(*answer)).request
        )
        """Without a worker thread the bots think here and answer at once."""
        self.motion = Motion()
        self.dice_entry = DiceEntry()
        self.banner = Banner()
        self.outbox = Outbox()
        self.message = ""
        self.stop_requested = False
        self.ignored_presses = 0
        self.since = 0.0
        """When the thing under the cursor was chosen (a menu entry, a setup entry, a
        preview): its blink starts lit and its text at its first letter from here."""
        self.over_since = 0.0
        self.turns = Turns(self)
        self.buttons = Buttons(self)
        self.machine = build_machine(self)

    # -- what the loop hands over and takes ---------------------------------------------

    @property
    def now(self) -> float:
        """The time the table was last handed (read-only: :meth:`at`, :meth:`tick`)."""
        return self.time.now

    def begin(self, now: float, panel: tuple[int, int] | None = None) -> None:
        """The table starts running at ``now`` on a panel of that size: what is on show
        starts from here."""
        self.time.now = now
        self.panel = panel or self.panel
        self.since = self.banner.since = self.over_since = self.time.last_activity = now
        self.dirty = True

    def at(self, now: float) -> None:
        """The time is ``now`` (the loop hands it over before it asks anything)."""
        self.time.now = now

    def redraw(self) -> None:
        """Draw the next frame even if nothing changed (the window was uncovered)."""
        self.dirty = True

    def drawn(self) -> None:
        self.dirty = False

    def take_effects(self) -> list[Effect]:
        """The saves and records queued since last asked (the loop carries them out)."""
        return self.outbox.take()

    def shutting_down(self, now: float) -> None:
        """The appliance stops: the game is saved (the loop carries it out at once)."""
        self.time.now = now
        self.persist()

    def notify(self, text: str, seconds: float, now: float) -> None:
        """Something to say over the board: a device offline, the disk refusing a save."""
        self.time.now = now
        self.flash(text, seconds)

    def bot_arrived(self, request: BotRequest, move: Move, now: float) -> None:
        """A bot's (or the hint's) answer came from the worker."""
        self.time.now = now
        self.turns.bot_answer(request, move)

    def handle(self, event: ButtonEvent, now: float) -> None:
        """A button was pressed, held or let go (:class:`~controller.table.buttons.Buttons`)."""
        self.time.now = now
        self.buttons.handle(event)

    def state_changed(self, *_press: object) -> None:
        """After every transition: the next frame shows the new state."""
        self.dirty = True

    def game_is_over(self, *_press: object) -> bool:  # the machine's guards from here
        return self.session is not None and self.session.state.is_terminal()

    def dice_are_due(self, *_press: object) -> bool:
        return self.session is not None and self.session.state.is_chance()

    def seat_on_turn(self, event: ButtonEvent | None = None) -> bool:
        return self.buttons.seat_on_turn(event)

    def can_choose(self, event: ButtonEvent | None = None) -> bool:
        """There is a move to choose, and "time!" has not already taken the choice."""
        late = self.time.action == self.turns.play_for_the_late or self.bots.waiting
        return bool(self.choice.moves) and not late

    # -- a game, a roll, a move ------------------------------------------------------------

    def start_session(self, session: Session) -> None:
        """Begin (or resume) a game; a resumed game shows its last dice again."""
        self.session = session
        self.motion.last_dice = table_scenes.last_roll(session)
        self.bots.hint = None
        self.persist()
        self.start_game()

    # -- what a press does (the machine's ``after`` callbacks) --------------------------

    def choose_menu_entry(self, event: ButtonEvent | None = None) -> None:
        if not self.menu.is_statistics():
            self.pick_game()
            return
        self.menu.open_statistics(self.statistics)
        self.show_statistics()

    def next_menu_entry(self, event: ButtonEvent | None = None) -> None:
        self.menu.next_entry()
        self.since = self.time.now

    def next_page(self, event: ButtonEvent | None = None) -> None:
        self.menu.next_page()

    def setup_next(self, event: ButtonEvent | None = None) -> None:
        self.menu.setup_next()
        self.since = self.time.now

    def setup_coach(self, event: ButtonEvent | None = None) -> None:
        self.menu.setup_coach()
        self.since = self.time.now

    def setup_ok(self, event: ButtonEvent | None = None) -> None:
        """OK: the next rule set, the seat's next kind, or begin the game."""
        if self.menu.setup_ok() != START:
            self.since = self.time.now
            return
        if self.menu.start_problem() is not None:
            # said on "start" itself (the setup scene's ``problem``), never as a banner
            # that would outlive setup and run over the next game's first line
            self.play_cue("error")
        else:
            session = self.menu.new_session()
            self.outbox.remember(self.menu.remember())
            self.start_session(session)
        self.since = self.time.now

    def roll_next(self, event: ButtonEvent | None = None) -> None:
        self.turns.roll_next()

    def roll_ok(self, event: ButtonEvent | None = None) -> None:
        self.turns.roll_ok()

    def preview_next(self, event: ButtonEvent | None = None) -> None:
        self.turns.preview_next()

    def preview_next_piece(self, event: ButtonEvent | None = None) -> None:
        self.turns.preview_next_piece()

    def commit_preview(self, event: ButtonEvent | None = None) -> None:
        self.turns.commit_preview()

    def abandon_game(self, event: ButtonEvent | None = None) -> None:
        """Confirmed "back to menu": the unfinished game is dropped for good (the
        history keeps it, marked abandoned)."""
        self.outbox.record(self.session, "abandoned")
        self.session = None
        self.persist()
        self.confirm()

    # -- presses, pace and sleep ------------------------------------------------------------

    def schedule(self, delay: float, action: Callable[[], object], paced: bool = True) -> None:
        self.time.schedule(delay, action, paced)

    def commit_move(self, move: Move) -> None:
        self.turns.commit_move(move)

    def clear_action(self, *_press: object) -> None:
        self.time.clear()

    def tick(self, now: float) -> None:
        """Run whatever is due at ``now``."""
        self.time.now = now
        if self.buttons.shutdown_held():
            return
        action = self.time.due_action()
        if action is not None:
            action()
        self.dirty |= self.banner.expire(now)
        if self.state is Mode.GAME_OVER and self.motion.length and now >= self.motion.ends():
            self.motion.length = 0.0  # the winner's stripes stop; the words stay
            self.dirty = True
        self.dirty |= self.buttons.fall_asleep()

    def next_wakeup(self) -> float | None:
        """The next moment :meth:`tick` must run, or None to sleep until an event. The
        picture's own changes are not here: the views tell the loop about those."""
        times = self.time.deadlines(self.buttons.waiting_for_a_person())
        times += [t for t in (self.banner.deadline(),) if t is not None]
        if self.state is Mode.GAME_OVER and self.motion.length:
            times.append(self.motion.ends())
        return min(times) if times else None

    # -- helpers ----------------------------------------------------------------------------

    def require_session(self) -> Session:
        if self.session is None:
            raise RuntimeError("no game in progress")
        return self.session

    def persist(self) -> None:
        """Queue a save of the game (a game that ended is recorded first); the loop
        carries it out right after the next frame, so a press lights its frame first and
        a pulled plug still loses at most the move in flight."""
        self.outbox.save(self.session)

    def play_cue(self, cue: Cue) -> None:
        if self.sound is not None:
            try:
                self.sound.play(cue)
            except OSError as exc:  # a sound fault must never stop the game
                log.warning("sound: %s", exc)

    def speak(self, prompt: Prompt | None) -> None:
        """Queue ``prompt`` for the voice (the loop hands it over after the frame)."""
        self.outbox.speak(prompt)

    def flash(self, text: str, seconds: float = 2.5) -> None:
        """Show ``text`` over the board for ``seconds`` (at least one pass across)."""
        self.banner.show(text, seconds, self.time.now, self.panel)
        self.dirty = True

    def show_text(self, text: str) -> None:
        self.message = text
        self.show_message()

    # -- what to draw: pure functions of the table (``controller.table.scenes``) -----------

    def scene(self) -> AnyScene:
        return table_scenes.scene(self)

    def status(self) -> TableStatus:
        """The table in words and the seats' looks, for the simulator's status line and
        window (``controller.status_line``); read on the loop thread when drawing."""
        return table_scenes.status(self)


def bot_kind(kind: str) -> str:
    """The configured bot if it exists, else the random one (never fail a game)."""
    from rules.bots import BOT_KINDS

    return kind if kind in BOT_KINDS else "random"
