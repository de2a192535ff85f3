"""The two walks through the table, traced: which modules they pass through and how
often control comes back into the table's model.

Run by hand (the figures are counts, never times):

    .venv/bin/python -m benchmarks.table_walks

* **An OK press, from the pin to its frame**: gpiozero's MockFactory pin of seat 1's OK
  is driven low, the button backend puts the press on the loop's queue, and one loop
  step hands it to the table and draws the frame (and carries out the save it queued).
  The game is MÄDN classic, a human at seat 1 choosing among moves, so the press
  commits a move.
* **A bot's move, to its save and its record**: a bot's answer arrives for the last
  move of a game; one loop step hands it to the table, and the loop steps on until the
  move's save is written and the game is in the history (a real state directory).

Each walk runs under :func:`sys.setprofile`. *Modules* counts the project's modules
(``controller``, ``hardware``, ``rules``) in which a function ran; *calls into
model.py* counts calls of a function of ``controller/table/model.py`` from another
module, *returns into model.py* the returns from a function of another module into one
of ``model.py``'s (what the table's model hands off and gets back). The same two
counts for the table's class as a whole (``model.py`` and the modules of the classes
it derives from), and of the calls in, those from the table's own helpers
(``controller.table.*``), which call back into the table through a reference to it.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from gpiozero.pins.mock import MockFactory

from controller import views
from controller.bot_worker import think
from controller.events import BotMoveEvent, EventQueue
from controller.history.keeper import HistoryKeeper
from controller.loop import Loop
from controller.machine import Mode
from controller.persistence import SaveStore
from controller.safekeeping import Safekeeping
from controller.session import Session
from controller.table import Table, TableOptions
from controller.testing.clock import FakeClock
from hardware.build import build_display
from hardware.buttons import GpioButtons
from hardware.interfaces import ButtonEvent
from hardware.specs import ButtonWiring, DisplaySpec, SeatPins

PROJECT = ("controller", "hardware", "rules")
MODEL = "controller.table.model"
SCENES = "controller.table.scenes"
"""The picture: pure functions that read the table (never write into it)."""
TABLE = frozenset(
    c.__module__ for c in Table.__mro__ if c.__module__.startswith("controller.table.")
)
"""The modules of the table's class and the classes it derives from (the machine's
declared triggers aside): entering any of them is entering the table."""


@dataclass
class Trace:
    modules: set[str] = field(default_factory=set)
    model_calls: int = 0
    model_returns: int = 0
    table_calls: int = 0
    table_returns: int = 0
    from_helpers: int = 0
    """Calls into the table's class from its helpers (``controller.table.*``): writes
    and calls back through a reference to the table."""

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event not in ("call", "return"):
            return
        name = str(frame.f_globals.get("__name__", ""))
        if name.split(".")[0] in PROJECT:
            self.modules.add(name)
        caller = frame.f_back
        outer = str(caller.f_globals.get("__name__", "")) if caller is not None else ""
        if event == "call" and name == MODEL and outer != MODEL:
            self.model_calls += 1
        elif event == "return" and outer == MODEL and name != MODEL:
            self.model_returns += 1
        if event == "call" and name in TABLE and outer not in TABLE:
            self.table_calls += 1
            self.from_helpers += outer.startswith("controller.table.") and outer != SCENES
        elif event == "return" and outer in TABLE and name not in TABLE:
            self.table_returns += 1


def traced(walk: Callable[[], object]) -> Trace:
    trace = Trace()
    sys.setprofile(trace.profile)
    try:
        walk()
    finally:
        sys.setprofile(None)
    return trace


class Counted:
    """luma's dummy panel (through the project's display wrapper), its frames counted."""

    def __init__(self) -> None:
        self.inner = build_display(DisplaySpec(type="dummy", width=16, height=16))
        self.frames = 0

    width = property(lambda self: self.inner.width)
    height = property(lambda self: self.inner.height)
    mode = property(lambda self: self.inner.mode)

    def show(self, image: Any) -> None:
        self.inner.show(image)
        self.frames += 1

    def set_brightness(self, level: float) -> None:
        self.inner.set_brightness(level)

    def close(self) -> None:
        self.inner.close()


class Line:
    """The real loop on a fake clock."""

    def __init__(self, table: Table, keeper: Safekeeping | None = None) -> None:
        self.clock = FakeClock()
        self.events = EventQueue()
        self.table = table
        self.display = Counted()
        self.loop = Loop(
            table, self.events, self.display, views.render, clock=self.clock, keeper=keeper
        )
        self.loop.draw()

    def step(self) -> None:
        """Let the loop take every queued event and whatever is due now."""
        self.loop.step(timeout_cap=0)
        while len(self.events):
            self.loop.step(timeout_cap=0)

    def on(self) -> None:
        """On to the next deadline."""
        times = [t for t in (self.table.next_wakeup(), self.loop.next_frame) if t is not None]
        assert times, self.table.state
        self.clock.advance_to(min(times))
        self.step()


def ok_press() -> Trace:
    """MÄDN classic, a human at seat 1 against a bot, on to the human's choice among
    moves; then the OK press from the pin."""
    line = Line(Table(TableOptions(bot="random", seat_count=2)))
    session = Session.start("maedn", "classic", ["human", "bot"], seed=5, bot="random")
    line.table.start_session(session)
    line.step()
    factory = MockFactory()
    spec = ButtonWiring(seats=(SeatPins(17, 27), SeatPins(22, 23)), system=26, debounce_s=0.02)
    buttons = GpioButtons(spec, pin_factory=factory, clock=line.clock)
    buttons.start(line.events.put)
    for _ in range(2000):
        table = line.table
        human = not session.is_bot(session.player)
        if table.state is Mode.CHOOSE and len(table.choice.moves) > 1 and human:
            break
        if table.state is Mode.AWAIT_ROLL and human and session.player is not None:
            line.events.put(ButtonEvent(session.seats[session.player], "ok", "down", 0.0))
            line.step()
            continue
        line.on()
    else:
        raise RuntimeError("the human never chose among moves")
    assert session.player is not None
    pin = factory.pin(spec.seats[session.seats[session.player]].ok)
    frames = line.display.frames

    def walk() -> None:
        pin.drive_low()
        line.step()

    trace = traced(walk)
    assert line.display.frames > frames and line.table.state is Mode.MOVING, line.table.state
    buttons.close()
    return trace


def bot_move() -> Trace:
    """Two bots play MÄDN classic on to the last move; then its answer arrives."""
    asked: list[tuple[Any, ...]] = []
    folder = Path(tempfile.mkdtemp(prefix="walks-"))
    keeper = Safekeeping(
        SaveStore(folder),
        time.monotonic,
        lambda warn, notice: HistoryKeeper(folder, 2, warn, notice=notice),
    )
    keeper.prepare()
    table = Table(
        TableOptions(bot="random", seat_count=2),
        ask_bot=lambda *question: asked.append(question),
    )
    line = Line(table, keeper)
    session = Session.start("maedn", "classic", ["bot", "bot"], seed=3, bot="random")
    table.start_session(session)
    line.step()
    for _ in range(5000):
        if table.state is Mode.CHOOSE and asked:
            state, kind, request, seed = asked.pop()
            move = think(state, kind, seed)
            if state.apply(move).is_terminal():
                break
            line.events.put(BotMoveEvent(request, move))
            line.step()
            continue
        assert table.state is not Mode.GAME_OVER, "the game ended on a roll"
        line.on()
    else:
        raise RuntimeError("the game never reached its last move")

    def walk() -> None:
        line.events.put(BotMoveEvent(request, move))
        line.step()
        while table.state is not Mode.GAME_OVER:
            line.on()

    trace = traced(walk)
    saved = (folder / "session.json").read_text("utf-8")
    assert Session.from_json(json.loads(saved)).state.is_terminal()
    assert keeper.history is not None and not keeper.history.backlog
    keeper.close()
    return trace


def main() -> None:
    for name, walk in (("OK press, pin to frame", ok_press), ("bot move to save+record", bot_move)):
        trace = walk()
        print(
            f"{name}: {len(trace.modules)} modules; model.py: {trace.model_calls} calls "
            f"in, {trace.model_returns} returns in; the table's class "
            f"({', '.join(sorted(TABLE))}): {trace.table_calls} "
            f"calls in ({trace.from_helpers} from its helpers), {trace.table_returns} "
            "returns in"
        )
        if "-v" in sys.argv:
            for module in sorted(trace.modules):
                print("   ", module)


if __name__ == "__main__":
    main()
