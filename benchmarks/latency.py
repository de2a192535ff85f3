"""Press-to-light latency and idle CPU of the appliance loop.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/latency.py [--presses 1000] [--idle 20]

Setup: the real loop thread with the real clock, gpiozero MockFactory pins, luma's dummy
panel (16x16 RGB) behind the project's display backend, MÄDN classic with seats 1 and 3
human and seats 2 and 4 bots, so bot moves animate between the human turns.

* **Latency**: a press is timed from just before the pin is driven low until the end of
  the ``display.show`` call of the frame the loop draws right after handling that
  press. Only presses that change the picture count (the seat on turn pressing
  OK/NEXT); presses by other seats are ignored by design and reported as "ignored", and
  presses the table took that left the picture as it was (the loop sends no frame equal
  to the one shown) are reported as "nothing new to show".
* **Idle CPU** in three states, nothing pressed; CPU time of the process over the wall
  time, in % of one core, and the frames drawn meanwhile:

  - the menu, its title scrolling (a frame every 0.1 s while it moves): target < 3 %;
  - a game waiting for a human's roll, the die blinking as the cue and the 16×16
    colour-blind dips running: target < 3 %;
  - asleep (a still, dim picture; nothing is drawn): target < 0.5 %.

  The three run in the same process one after the other, so their ratios compare like
  with like on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted, seconds_type
from gpiozero.pins.mock import MockFactory

from controller import views
from controller.app import Appliance, table_options
from controller.config import parse_config
from controller.machine import Mode
from hardware.build import build_display
from hardware.buttons import GpioButtons
from hardware.interfaces import ButtonEvent

SEAT_PINS = [(17, 27), (22, 23), (24, 25), (5, 6)]


class TimedDisplay:
    """Forwards to the real display and notes when each frame was shown."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.shown = threading.Event()
        self.last_show = 0.0
        self.frames = 0

    width = property(lambda self: self.inner.width)
    height = property(lambda self: self.inner.height)
    mode = property(lambda self: self.inner.mode)

    def show(self, image: Any) -> None:
        self.inner.show(image)
        self.frames += 1
        self.last_show = time.perf_counter()
        self.shown.set()

    def set_brightness(self, level: float) -> None:
        self.inner.set_brightness(level)

    def close(self) -> None:
        self.inner.close()


def build(
    tmp: Path, players: tuple[str, ...], **options: float
) -> tuple[Appliance, MockFactory, TimedDisplay]:
    config = parse_config(
        {
            "display": {"type": "dummy", "width": 16, "height": 16},
            "input": {"type": "gpio", "system_pin": 26},
            "seats": [
                {"ok": ok, "next": nxt, "player": kind}
                for (ok, nxt), kind in zip(SEAT_PINS, players, strict=True)
            ],
            "game": {"bot": "random"},
        }
    )
    factory = MockFactory()
    display = TimedDisplay(build_display(config.display))
    buttons = GpioButtons(config.buttons, pin_factory=factory)
    app = Appliance(
        config,
        display=display,  # type: ignore[arg-type]
        inputs=[buttons],
        sound=None,
        state_dir=tmp,
        render=views.render,
        options=table_options(config, bot_delay_s=0.05, forced_delay_s=0.05, **options),
    )
    return app, factory, display


def measure_latency(presses: int, seed: int = 1) -> dict[str, float]:
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="spieltisch-latency-"))
    app, factory, display = build(tmp, ("human", "bot", "human", "bot"))
    table = app.table
    loop = app.loop
    handled = threading.Event()
    answered = threading.Event()
    probe: dict[str, Any] = {"pending": False, "shown_at": None, "unchanged": False}
    original_handle = table.handle
    original_draw = loop.draw
    original_show = display.show

    # Our own objects, instrumented: a press the table acted on is "pending" until the
    # loop's next draw; that draw either sends its frame (the sample) or finds the
    # picture unchanged (a press with nothing new to show, e.g. NEXT with one move).
    def handle(event: ButtonEvent, now: float) -> None:
        ignored_before = table.ignored_presses
        original_handle(event, now)
        if event.kind == "down" and table.ignored_presses == ignored_before:
            if table.dirty:
                probe["pending"] = True
            else:
                probe["unchanged"] = True
                answered.set()
        handled.set()

    def show(image: Any) -> None:
        original_show(image)
        if probe["pending"]:
            probe["pending"] = False
            probe["shown_at"] = display.last_show
            answered.set()

    def draw() -> None:
        original_draw()
        if probe["pending"]:
            probe["pending"] = False
            probe["unchanged"] = True
            answered.set()

    table.handle = handle  # type: ignore[method-assign]
    loop.draw = draw  # type: ignore[method-assign]
    display.show = show  # type: ignore[method-assign]
    unchanged = 0
    thread = threading.Thread(target=app.run, daemon=True)
    thread.start()
    rng = random.Random(seed)
    samples: list[float] = []
    ignored = 0

    # menu -> MÄDN classic -> start with the configured seats
    def tap(pin_no: int) -> None:
        pin = factory.pin(pin_no)
        pin.drive_low()
        time.sleep(0.03)
        pin.drive_high()
        time.sleep(0.03)

    def start_game() -> None:
        """Menu -> MÄDN -> NEXT past the rules and the seats to "start" -> OK."""
        tap(SEAT_PINS[0][0])
        while table.state is Mode.SETUP and table.menu.entry != len(table.menu.kinds):
            tap(SEAT_PINS[0][1])
        tap(SEAT_PINS[0][0])

    start_game()
    deadline = time.monotonic() + 1200
    while len(samples) < presses and time.monotonic() < deadline:
        session = table.session
        if session is None or table.state is Mode.GAME_OVER:
            tap(SEAT_PINS[0][0])  # winner screen -> menu -> new game
            start_game()
            continue
        player = session.player
        seat = session.seats.get(player or "", 0)
        human = session.kinds.get(player or "") == "human"
        actionable = human and table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE)
        choosing = table.state is Mode.CHOOSE and len(table.choice.moves) > 1
        # While choosing, mostly NEXT (the preview moves: a visible effect without
        # ending the turn), sometimes OK; at a roll, OK. Seats not on turn also press,
        # a quarter of the time, to show they are ignored (not counted as latency).
        button = SEAT_PINS[seat][1] if choosing and rng.random() < 0.85 else SEAT_PINS[seat][0]
        if not actionable:
            if rng.random() > 0.25:
                time.sleep(0.005)
                continue
            button = SEAT_PINS[rng.choice([0, 2])][0]
        handled.clear()
        answered.clear()
        probe.update(pending=False, shown_at=None, unchanged=False)
        pin = factory.pin(button)
        start = time.perf_counter()
        pin.drive_low()
        handled.wait(1.0)
        if answered.wait(1.0) and probe["shown_at"] is not None:
            samples.append(probe["shown_at"] - start)
        elif probe["unchanged"]:
            unchanged += 1
        else:
            ignored += 1
        time.sleep(0.025)
        pin.drive_high()
        time.sleep(rng.uniform(0.03, 0.08))
    app.events.put(__import__("controller.events", fromlist=["ShutdownEvent"]).ShutdownEvent())
    thread.join(5)
    samples.sort()
    return {
        "presses": len(samples),
        "ignored": ignored,
        "unchanged": unchanged,
        "median_ms": statistics.median(samples) * 1000,
        "p99_ms": samples[max(0, int(len(samples) * 0.99) - 1)] * 1000,
        "max_ms": samples[-1] * 1000,
        "frames": display.frames,
    }


IDLE_STATES = {
    "menu": "the menu, its title scrolling",
    "roll": "waiting for a human's roll, the cue blinking",
    "asleep": "asleep",
}
IDLE_TARGETS = {"menu": 3.0, "roll": 3.0, "asleep": 0.5}


def measure_idle(seconds: float, state: str) -> dict[str, float]:
    import tempfile

    from controller.session import Session

    tmp = Path(tempfile.mkdtemp(prefix="spieltisch-idle-"))
    sleep_after = 1.0 if state == "asleep" else 600.0
    app, _factory, display = build(tmp, ("human", "bot", "bot", "bot"), sleep_after_s=sleep_after)
    game = None
    if state == "roll":
        game = Session.start("maedn", "classic", ["human", "bot", "bot", "bot"], seed=1)
        game.state = game.state.game.new_state(4, first="red")  # type: ignore[attr-defined]
    thread = threading.Thread(target=app.run, args=(game,), daemon=True)
    thread.start()
    time.sleep(2.0)  # let start-up finish (and, for "asleep", the panel fall asleep)
    if state == "roll":
        assert app.table.state is Mode.AWAIT_ROLL, app.table.state
    if state == "asleep":
        assert app.table.time.asleep
    frames = display.frames
    cpu0, wall0 = time.process_time(), time.perf_counter()
    time.sleep(seconds)
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    from controller.events import ShutdownEvent

    app.events.put(ShutdownEvent())
    thread.join(5)
    return {"cpu_percent": 100 * cpu / wall, "seconds": wall, "frames": display.frames - frames}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presses", type=counted(1), default=1000)
    parser.add_argument("--idle", type=seconds_type, default=20.0)
    args = parser.parse_args()
    lat = measure_latency(args.presses)
    print(
        f"press-to-frame latency over {lat['presses']} effective presses: "
        f"median {lat['median_ms']:.2f} ms, p99 {lat['p99_ms']:.2f} ms, max {lat['max_ms']:.2f} ms "
        f"({lat['ignored']} presses by seats not on turn ignored, {lat['unchanged']} with"
        f" nothing new to show, {lat['frames']} frames)"
    )
    print("target: p99 < 20 ms ->", "met" if lat["p99_ms"] < 20 else "MISSED")
    found = {}
    for state, words in IDLE_STATES.items():
        idle = found[state] = measure_idle(args.idle, state)
        target = IDLE_TARGETS[state]
        print(
            f"idle, {words}: {idle['cpu_percent']:.3f} % of one core over "
            f"{idle['seconds']:.1f} s, {idle['frames']:.0f} frames "
            f"({idle['frames'] / idle['seconds']:.1f}/s); target < {target} % -> "
            + ("met" if idle["cpu_percent"] < target else "MISSED")
        )
    floor = max(found["asleep"]["cpu_percent"], 1e-3)
    print(
        f"relative to asleep: menu {found['menu']['cpu_percent'] / floor:.1f}x, "
        f"waiting for a roll {found['roll']['cpu_percent'] / floor:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
