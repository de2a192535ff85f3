"""What the table does on entering each state: the machine's ``on_enter_<MODE>`` callbacks.

Why a mixin: the machine calls these by name on the table; kept apart, the table's own
module holds the order of presses and deadlines, and this one what each state sets up
when it begins (clear the pending action, restart the state's clock, save, schedule).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.i18n import _
from controller.views.text import scroll_seconds
from controller.voice import prompts

if TYPE_CHECKING:
    from controller.session import Session
    from controller.table.clock import TableTime
    from controller.table.menu import MenuRoom
    from controller.table.motion import Motion
    from controller.table.options import TableOptions
    from controller.table.turns import Turns
    from controller.voice.catalog import Prompt
    from hardware.interfaces import Cue


class Entering:
    """The state-entry callbacks (module docstring); the table inherits them."""

    if TYPE_CHECKING:  # what the table provides; declared for the type checker only
        time: TableTime
        menu: MenuRoom
        turns: Turns
        motion: Motion
        options: TableOptions
        panel: tuple[int, int]
        message: str
        since: float
        over_since: float
        stop_requested: bool
        session: Session | None

        def speak(self, prompt: Prompt | None) -> None: ...
        def clear_action(self) -> None: ...
        def persist(self) -> None: ...
        def play_cue(self, cue: Cue) -> None: ...
        def advance(self) -> bool: ...
        def dismiss(self) -> bool: ...

    def on_enter_MENU(self, *_press: object) -> None:
        self.clear_action()
        self.time.hurry = False
        self.since = self.time.now

    def on_enter_SETUP(self, *_press: object) -> None:
        self.menu.open_setup()
        self.since = self.time.now

    def on_enter_NEXT_TURN(self, *_press: object) -> None:
        self.clear_action()
        self.advance()

    def on_enter_AWAIT_ROLL(self, *_press: object) -> None:
        self.turns.await_roll()

    def on_enter_ROLLING(self, *_press: object) -> None:
        self.turns.rolling()

    def on_enter_CHOOSE(self, *_press: object) -> None:
        self.turns.choose()

    def on_enter_MOVING(self, *_press: object) -> None:
        self.turns.moving()

    def on_enter_GAME_OVER(self, *_press: object) -> None:
        self.motion.begin(self.time.now, self.options.winner_time_s)
        self.over_since = self.time.now
        self.time.hurry = False
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
