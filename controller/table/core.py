"""What the table holds, and the one place where what its helpers hand back is
applied.

Why apart from :mod:`controller.table.model`: the model is the machine's callbacks,
the order of things; this is what they act on (the session, the rooms, the time, the
picture's clocks) and the small steps every callback shares: apply a helper's
:class:`~controller.table.then.Then`, save, say, show a banner, the guards, what is
due when. :class:`~controller.table.model.Table` derives from it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from controller.bot_worker import AnswerHere
from controller.events import BotRequest
from controller.machine import build_machine, ends_by_itself
from controller.scene import AnyScene, StatisticsPage
from controller.session import Session
from controller.table import buttons as table_buttons
from controller.table import scenes as table_scenes
from controller.table.bots import AskBot
from controller.table.effects import Effect
from controller.table.holdings import Holdings
from controller.table.options import TableOptions
from controller.table.then import Then
from controller.table.turns import Turns
from controller.voice.catalog import Prompt
from hardware.interfaces import ButtonEvent, Cue, Sound
from rules.core import Move

if TYPE_CHECKING:
    from controller.sim.status import TableStatus

log = logging.getLogger(__name__)


class TableCore(Holdings):
    """What every callback of the table shares, on what it holds."""

    def __init__(
        self,
        options: TableOptions | None = None,
        sound: Sound | None = None,
        ask_bot: AskBot | None = None,
        poweroff: Callable[[], None] | None = None,
        statistics: Callable[[], tuple[StatisticsPage, ...]] | None = None,
    ) -> None:
        # without a worker thread the bots think here and answer at once
        super().__init__(options or TableOptions(), ask_bot or AnswerHere(self.answer_here).request)
        self.sound = sound
        self.poweroff = poweroff
        self.statistics = statistics
        self.buttons = table_buttons.Buttons()
        self.turns = Turns(
            self.options, self.time, self.choice, self.motion, self.dice_entry, self.bots
        )
        self.machine = build_machine(self)

    # -- what the loop hands over and takes ---------------------------------------------

    def begin(self, now: float, panel: tuple[int, int] | None = None) -> None:
        """The table starts running at ``now`` on a panel of that size: what is on show
        starts from here."""
        self.time.at(now)
        self.time.pressed()
        self.panel = panel or self.panel
        self.since = self.over_since = now
        self.banner.restart(now)
        self.dirty = True

    def at(self, now: float) -> None:
        """The time is ``now`` (the loop hands it over before it asks anything)."""
        self.time.at(now)

    def retime(self, move_timer_s: float | None, sleep_after_s: float) -> None:
        """The companion page's move timer and sleep time, from now on."""
        self.options.retime(move_timer_s, sleep_after_s)

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
        self.time.at(now)
        self.persist()

    def notify(self, text: str, seconds: float, now: float) -> None:
        """Something to say over the board: a device offline, the disk refusing a save."""
        self.time.at(now)
        self.flash(text, seconds)

    def bot_arrived(self, request: BotRequest, move: Move, now: float) -> None:
        """A bot's (or the hint's) answer came from the worker (the machine's
        ``bot_answered``: it counts while a choice is on show)."""
        self.time.at(now)
        self.trigger("bot_answered", request, move)

    def answer_here(self, request: BotRequest, move: Move) -> None:
        self.trigger("bot_answered", request, move)

    def handle(self, event: ButtonEvent, now: float) -> None:
        """A button was pressed, held or let go: the buttons room says which trigger
        it is, the machine's button table what it does."""
        self.time.at(now)
        press = self.buttons.press(event, self.time)
        if press.woke:
            self.wake()
        if press.trigger is None:
            pass
        elif not press.seat or press.trigger in self.machine.get_triggers(self.state):
            self.trigger(press.trigger, event)  # a failed guard counts itself as ignored
        else:
            self.ignored_presses += 1  # harmless: this state does not list that press
        self.dirty |= press.redraw

    def apply(self, then: Then) -> None:
        """What a helper's step handed back, in :class:`Then`'s order."""
        if then.since:
            self.since = self.time.now
        self.dirty |= then.redraw
        if then.cue is not None:
            self.play_cue(then.cue)
        if then.flash is not None:
            self.flash(*then.flash)
        self.speak(then.speak)
        if then.persist:
            self.persist()
        if then.later is not None:
            self.time.schedule(then.later.delay, then.later.action, then.later.paced)
        if then.trigger is not None:
            self.trigger(then.trigger)

    def state_changed(self, *_press: object) -> None:
        """After every transition: the next frame shows the new state."""
        self.dirty = True

    # -- the machine's guards ---------------------------------------------------------------

    def game_is_over(self, *_press: object) -> bool:
        return self.session is not None and self.session.state.is_terminal()

    def dice_are_due(self, *_press: object) -> bool:
        return self.session is not None and self.session.state.is_chance()

    def seat_on_turn(self, event: ButtonEvent | None = None) -> bool:
        acts = table_buttons.seat_on_turn(self.require_session(), event)
        self.ignored_presses += not acts
        return acts

    def bots_on_turn(self, *_press: object) -> bool:
        hurries = table_buttons.bots_on_turn(self.session)
        self.ignored_presses += not hurries
        return hurries

    def not_hurrying(self, *_press: object) -> bool:
        return not self.time.hurry

    def can_choose(self, *_press: object) -> bool:
        """There is a move to choose, and "time!" has not already taken the choice."""
        return bool(self.choice.moves) and not self.turns.late()

    def statistics_chosen(self, *_press: object) -> bool:
        return self.menu.is_statistics()

    # -- time, pace and sleep ------------------------------------------------------------

    def clear_action(self, *_press: object) -> None:
        self.time.clear()

    def tick(self, now: float) -> None:
        """Run whatever is due at ``now``."""
        self.time.at(now)
        held = self.time.shutdown_due()
        if held is not None:
            self.trigger("system_long_held", held)
            return
        action = self.time.due_action()
        if action is not None:
            then = action()
            if isinstance(then, Then):
                self.apply(then)
        self.dirty |= self.banner.expire(now)
        if self.motion.length and now >= self.motion.ends():
            self.trigger("stripes_done")
        self.dirty |= self.fall_asleep()

    def waiting_for_a_person(self) -> bool:
        """Nothing will happen until someone presses: the panel may fall asleep."""
        return self.time.idle() and not ends_by_itself(self.state)

    def fall_asleep(self) -> bool:
        """After ``sleep_after_s`` without a press, while the table waits for a person,
        the panel sleeps; True when it just fell asleep."""
        sleep = self.time.sleep_at(self.waiting_for_a_person())
        if sleep is None or self.time.now < sleep:
            return False
        self.time.fall_asleep()
        return True

    def wake(self) -> None:
        """A press woke the panel (and does nothing else)."""
        self.time.wake()
        self.since = self.over_since = self.time.now
        self.banner.restart(self.time.now)
        self.dirty = True

    def next_wakeup(self) -> float | None:
        """The next moment :meth:`tick` must run, or None to sleep until an event. The
        picture's own changes are not here: the views tell the loop about those."""
        times = self.time.deadlines(self.waiting_for_a_person())
        times += [t for t in (self.banner.deadline(),) if t is not None]
        if self.motion.length and self.may_trigger("stripes_done"):
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
