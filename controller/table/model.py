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
:class:`~controller.table.effects.Outbox`, a turn's steps to
:class:`~controller.table.turns.Turns`, and the picture to the pure functions of
:mod:`controller.table.scenes`. None of them holds the table: each is handed what it
reads and hands back what changes (:class:`~controller.table.then.Then`), which
:meth:`Table.apply` applies in one place. What the table keeps is the order of
things: which press or deadline leads where, as the machine's transition table
declares (what a press does in every state included).

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

from controller.events import BotRequest
from controller.i18n import _
from controller.session import Session
from controller.table import analysis as table_analysis
from controller.table import resign as table_resign
from controller.table import scenes as table_scenes
from controller.table.core import TableCore
from controller.table.menu import START
from controller.table.then import Then
from controller.views.text import scroll_seconds
from controller.voice import prompts
from hardware.interfaces import ButtonEvent
from rules.core import Dice, Move

log = logging.getLogger(__name__)


class Table(TableCore):
    """The machine's model: its callbacks (``on_enter_*``, ``before``/``after`` steps)."""

    # -- a game, a roll, a move ------------------------------------------------------------

    def start_session(self, session: Session) -> None:
        """Begin (or resume) a game; a resumed game shows its last dice again."""
        self.session = session
        self.motion.shown_dice(table_scenes.last_roll(session))
        self.bots.forget_hint()
        self.persist()
        self.start_game()

    def roll_now(self, dice: Dice | None = None) -> None:
        """Throw ``dice`` (None: the session draws them) for the player on turn."""
        self.apply(self.turns.roll_now(self.require_session(), dice))

    # -- what entering a state sets up (the machine's ``on_enter_<MODE>``) ---------------

    def on_enter_MENU(self, *_press: object) -> None:
        self.clear_action()
        self.time.calm()
        self.since = self.time.now

    def on_enter_SETUP(self, *_press: object) -> None:
        self.menu.open_setup()
        self.since = self.time.now

    def on_enter_NEXT_TURN(self, *_press: object) -> None:
        self.clear_action()
        self.advance()

    def on_enter_AWAIT_ROLL(self, *_press: object) -> None:
        self.apply(self.turns.await_roll(self.require_session()))

    def on_enter_ROLLING(self, *_press: object) -> None:
        self.apply(self.turns.rolling())

    def on_enter_CHOOSE(self, *_press: object) -> None:
        self.apply(self.turns.choose(self.require_session()))

    def on_enter_MOVING(self, *_press: object) -> None:
        self.apply(self.turns.moving(self.require_session()))

    def on_enter_GAME_OVER(self, *_press: object) -> None:
        # the coach's last words are about a turn that is over: they would hide the winner
        if self.turns.coach_text is not None and self.banner.take_down(self.turns.coach_text):
            self.dirty = True
        self.motion.begin(self.time.now, self.options.winner_time_s)
        self.over_since = self.time.now
        self.time.calm()
        self.play_cue("win")
        if self.session is not None:
            self.speak(prompts.game_over(self.session.state, self.session.people))
        self.persist()

    def on_enter_CONFIRM_MENU(self, *_press: object) -> None:
        self.clear_action()
        self.since = self.time.now

    def on_enter_MESSAGE(self, *_press: object) -> None:
        self.clear_action()
        self.since = self.time.now
        shown = scroll_seconds(self.message, *self.panel)
        self.time.schedule(max(self.options.message_time_s, shown), self.dismiss, paced=False)

    def on_enter_SHUTDOWN(self, *_press: object) -> None:
        self.clear_action()
        self.message = _("bye")  # not a message left over from before
        self.since = self.time.now
        self.persist()
        self.stop_requested = True

    # -- what a press does (the machine's ``before``/``after`` callbacks) -----------------

    def open_statistics(self, *_press: object) -> None:
        self.menu.open_statistics(self.statistics)

    def next_menu_entry(self, *_press: object) -> None:
        self.menu.next_entry()
        self.since = self.time.now

    def next_page(self, *_press: object) -> None:
        self.menu.next_page()
        self.since = self.time.now  # a leaderboard's long names scroll from the start

    def setup_next(self, *_press: object) -> None:
        self.menu.setup_next()
        self.since = self.time.now

    def setup_coach(self, *_press: object) -> None:
        self.menu.setup_coach()
        self.since = self.time.now

    def setup_ok(self, *_press: object) -> None:
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
            self.outbox.remember(*self.menu.remember())
            self.start_session(session)
        self.since = self.time.now

    def begun_from_page(self, session: Session) -> None:
        """The companion page began ``session``: setup proposes its seats and names next
        time, also after a restart (``controller.setup_memory``)."""
        self.outbox.remember(*self.menu.begun_from_page(session))

    def roll_next(self, *_press: object) -> None:
        self.apply(self.turns.roll_next())

    def roll_ok(self, *_press: object) -> None:
        self.apply(self.turns.roll_ok(self.require_session()))

    def preview_next(self, *_press: object) -> None:
        self.apply(self.turns.preview_next())

    def preview_next_piece(self, *_press: object) -> None:
        self.apply(self.turns.preview_next_piece())

    def commit_preview(self, *_press: object) -> None:
        self.apply(self.turns.commit_preview(self.require_session()))

    def take_answer(self, request: BotRequest, move: Move) -> None:
        self.apply(self.turns.bot_answer(self.require_session(), request, move))

    def hurry_up(self, *_press: object) -> None:
        """A held OK: what is scheduled runs at the fast pace (until a human's turn)."""
        self.time.hurry_up()

    def hurry_motion(self, *_press: object) -> None:
        """... and what animates now runs at the fast pace, from where it is."""
        if self.motion.length > 0:
            self.motion.hurry(self.time.now, self.options.fast_factor)

    def roll_shown(self, *_press: object) -> None:
        self.motion.roll_shown()

    def move_shown(self, *_press: object) -> None:
        self.motion.move_shown()

    def hold_again(self, event: ButtonEvent | None = None) -> None:
        """The long press counts again, for the state the cut-short animation led to."""
        self.trigger("system_held", event)

    def power_off(self, held: float = 0.0) -> None:
        log.warning("system button held %.1f s: shutting down", held)
        if self.poweroff is not None:
            self.poweroff()

    def stop_stripes(self, *_press: object) -> None:
        self.motion.stop()  # the winner's stripes stop; the words stay

    def game_over_next(self, *_press: object) -> None:
        """NEXT at game over: start the analysis, or show its next frame."""
        run = table_analysis.current(self.analysis, self.session)
        run, then = table_analysis.next_press(run, self.session, self.poll_analysis)
        if run is not None:
            self.analysis = run
        self.apply(then)

    def poll_analysis(self) -> Then:
        run = table_analysis.current(self.analysis, self.session)
        return table_analysis.poll(run, self.poll_analysis)

    def menu_tap(self, *_press: object) -> None:
        """A system tap in the system menu: the next side move (a resignation) shown."""
        index = table_resign.next_offer(self.session, self.offer_index)
        if index is not None:
            self.offer_index = index
            self.since = self.time.now
            self.dirty = True

    def menu_ok(self, *_press: object) -> None:
        """OK in the system menu: make the side move shown, or (none shown) leave."""
        move = table_resign.shown_offer(self.session, self.offer_index)
        self.offer_index = 0  # the next visit starts at the plain question
        if move is None:
            self.abandon_game()
            return
        self.require_session().play(move)
        self.persist()
        self.cancel()  # back to the game: the opponent answers the offer

    def menu_left(self, *_press: object) -> None:
        """NEXT left the system menu: the next visit starts at the plain question."""
        self.offer_index = 0

    def abandon_game(self, *_press: object) -> None:
        """Confirmed "back to menu": the unfinished game is dropped for good (the
        history keeps it, marked abandoned)."""
        self.outbox.record(self.session, "abandoned")
        self.session = None
        self.persist()
        self.confirm()


def bot_kind(kind: str) -> str:
    """The configured bot if it exists, else the random one (never fail a game)."""
    from rules.bots import BOT_KINDS

    return kind if kind in BOT_KINDS else "random"
