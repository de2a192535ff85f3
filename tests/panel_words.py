"""The table read in words: every text the views draw and every status line, kept.

An appliance on fake hardware (:class:`controller.testing.rig.ApplianceRig`: luma's
dummy panel, a fake clock, bots on the loop's thread) whose frames are drawn through
:func:`controller.views.text.collect_texts`, so each frame is also a list of the texts
on it (:class:`Drawn`), and whose status line is read after every step. The window's
and the terminal's own words (:func:`window_texts`, :func:`terminal_texts`) are what
the simulator would write around these.

Presses go into the table's event queue as the buttons' backend puts them there, at
the fake clock's time: the pins themselves are tested elsewhere (test_end_to_end) and
closing them costs a tenth of a second each.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

import rules
from controller import views
from controller.machine import Mode
from controller.scene import AnyScene
from controller.session import Session
from controller.sim.legend import key_help, legend_lines
from controller.sim.status import TableStatus
from controller.testing.rig import PRESS_S, SHORT_ANIMATIONS, ApplianceRig
from controller.views.text import DrawnText, collect_texts
from hardware.interfaces import ButtonEvent


@dataclass(frozen=True)
class Drawn:
    """One frame in words: when the table drew it and the texts on it."""

    at: float
    texts: tuple[DrawnText, ...]


@dataclass
class Words:
    """Everything a run showed, by where it was shown."""

    frames: list[Drawn] = field(default_factory=list)
    statuses: list[TableStatus] = field(default_factory=list)

    def panel(self) -> set[str]:
        return {drawn.text for frame in self.frames for drawn in frame.texts}

    def status_lines(self) -> set[str]:
        return {status.text for status in self.statuses}


class WordWatch:
    """An appliance whose words are kept in :attr:`words` (module docstring)."""

    def __init__(
        self,
        state_dir: Path | None,
        *,
        seats: Iterable[str] = ("bot",) * 4,
        size: int = 16,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.words = Words()
        chosen = {**SHORT_ANIMATIONS, **(options or {})}
        self.rig = ApplianceRig(
            state_dir,
            seats=tuple(seats),
            size=size,
            buttons=False,
            options=chosen,
            render=self.render,
        )
        self.table = self.rig.table

    def render(self, scene: AnyScene, width: int, height: int, mode: str) -> Image.Image:
        with collect_texts() as found:
            image = views.render(scene, width, height, mode)
        self.words.frames.append(Drawn(self.table.now, tuple(found)))
        return image

    def note_status(self) -> None:
        status = self.table.status()
        if not self.words.statuses or self.words.statuses[-1] != status:
            self.words.statuses.append(status)

    def start(self, session: Session | None = None) -> None:
        self.rig.start(session)
        self.note_status()

    def settle(self) -> None:
        self.rig.settle()
        self.note_status()

    def advance(self) -> bool:
        """Run to the table's next deadline; False when nothing is due (it waits for a
        press)."""
        if self.table.next_wakeup() is None:
            return False
        self.rig.advance()
        self.note_status()
        return True

    def run_for(self, seconds: float) -> None:
        """Let ``seconds`` pass, stopping at every deadline on the way."""
        end = self.rig.clock.now + seconds
        while (wake := self.table.next_wakeup()) is not None and wake <= end:
            self.advance()
        self.rig.clock.advance_to(end)
        self.settle()

    def event(self, seat: int | None, button: str, kind: str) -> None:
        self.rig.app.events.put(ButtonEvent(seat, button, kind, self.rig.clock()))  # type: ignore[arg-type]

    def press(self, seat: int | None, button: str) -> None:
        """A tap: down, then up a moment later, as the buttons' backend reports it."""
        self.event(seat, button, "down")
        self.settle()
        self.rig.clock.advance(PRESS_S)
        self.event(seat, button, "up")
        self.settle()

    def hold(self, seat: int | None, button: str) -> None:
        """A long press: down, held, up."""
        self.event(seat, button, "down")
        self.settle()
        self.rig.clock.advance(1.0)
        self.event(seat, button, "held")
        self.settle()
        self.event(seat, button, "up")
        self.settle()

    def human_seat_on_turn(self) -> int | None:
        session = self.table.session
        if session is None or session.player is None:
            return None
        if session.kinds.get(session.player) != "human":
            return None
        return session.seats[session.player]

    def play_out(self, limit: int = 50_000, browse: bool = True, over_s: float = 15.0) -> int:
        """Play the game on the table to its end and past its game-over screen: bots by
        themselves, a human seat by pressing (NEXT once to see another move if
        ``browse``, then OK), and OK once the game-over words have been up ``over_s``.
        Returns how many games ended (a match has several)."""
        games = 0
        for _ in range(limit):
            state = self.table.state
            if state is Mode.MENU:
                return games
            if state is Mode.GAME_OVER:
                games += 1
                self.run_for(over_s)
                self.press(0, "ok")
                assert self.table.state is not Mode.GAME_OVER, "OK did not leave game over"
                continue
            seat = self.human_seat_on_turn()
            if seat is not None and state in (Mode.AWAIT_ROLL, Mode.CHOOSE):
                if state is Mode.CHOOSE and browse:
                    self.press(seat, "next")
                self.press(seat, "ok")
                continue
            if not self.advance():
                raise AssertionError(f"the table waits in {state} with no one to press")
        raise AssertionError(f"no end after {limit} steps, in {self.table.state}")

    def close(self) -> None:
        self.rig.close()


def walk_menu_and_setup(watch: WordWatch) -> None:
    """Every menu entry, and in each game's setup every rule set, every seat's every
    kind and "start" (which refuses where too few seats are taken)."""
    table = watch.table
    for index in range(len(table.options.menu)):
        while table.menu.index != index:
            watch.press(0, "next")
        watch.run_for(12.0)  # the label scrolls through
        if table.options.menu[index].game == "statistics":
            continue
        watch.press(0, "ok")
        assert table.state is Mode.SETUP
        item = table.options.menu[index]
        if table.menu.entry == -1:
            for _ in rules.presets(item.game):
                watch.press(0, "ok")
                watch.run_for(6.0)
            watch.press(0, "next")
        for _ in table.menu.kinds:
            for _ in range(3):
                watch.press(0, "ok")
                watch.run_for(2.0)
            watch.press(0, "next")
        saved = list(table.menu.kinds)
        table.menu.kinds[:] = ["human"] + ["empty"] * (len(saved) - 1)
        watch.press(0, "ok")  # "start" with one player: refused in words
        watch.run_for(8.0)
        table.menu.kinds[:] = saved
        watch.hold(None, "system")  # back to the menu (a solo game began: confirm)
        watch.run_for(1.0)
        if table.state is Mode.CONFIRM_MENU:
            watch.press(0, "ok")
        assert table.state is Mode.MENU, table.state


def window_texts(statuses: Iterable[TableStatus], size: int = 16) -> set[str]:
    """The simulator window's words (seat labels, buttons, status, footer) for each of
    ``statuses``, drawn by the real window under SDL's dummy driver."""
    from controller.sim.window import TableWindow

    window = TableWindow(size, size, size=(720, 640))
    found: set[str] = set()
    try:
        for status in statuses:
            window.show_status(status)
            # The window splits a long status line in two; the line is read whole as
            # the status line, its halves would only be cut marks here.
            found.update(text for text in window.drawn_texts if text not in status.text)
    finally:
        window.close()
    return found


def terminal_texts() -> set[str]:
    """The terminal's key legend (wide and narrow) and the simulator's key line."""
    return {*legend_lines(80), *legend_lines(40), key_help()}
