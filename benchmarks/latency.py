"""Press-to-light latency and idle CPU of the appliance loop (issue 6 benchmark).

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/latency.py [--presses 1000] [--idle 20]

Setup: the real loop thread with the real clock, gpiozero MockFactory pins, luma's dummy
panel (16x16 RGB) behind the project's display backend, MÄDN classic with seats 1 and 3
human and seats 2 and 4 bots, so bot moves animate between the human turns.

* **Latency**: a press is timed from just before the pin is driven low until the end of
  the first ``display.show`` call that the loop makes after handling that press. Only
  presses that change the picture count (the seat on turn pressing OK/NEXT); presses
  by other seats are ignored by design and are reported separately as "ignored".
* **Idle CPU**: the appliance sits in the menu with nothing pressed; CPU time of the
  process over the wall time, in % of one core.
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


def build(tmp: Path, players: tuple[str, ...]) -> tuple[Appliance, MockFactory, TimedDisplay]:
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
        options=table_options(config, bot_delay_s=0.05, forced_delay_s=0.05),
    )
    return app, factory, display


def measure_latency(presses: int, seed: int = 1) -> dict[str, float]:
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="spieltisch-latency-"))
    app, factory, display = build(tmp, ("human", "bot", "human", "bot"))
    table = app.table
    handled = threading.Event()
    original = table.handle

    def handle(event: ButtonEvent, now: float) -> None:  # our own object, instrumented
        original(event, now)
        handled.set()

    table.handle = handle  # type: ignore[method-assign]
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

    tap(SEAT_PINS[0][0])
    for _ in range(4):
        tap(SEAT_PINS[0][1])
    tap(SEAT_PINS[0][0])
    deadline = time.monotonic() + 1200
    while len(samples) < presses and time.monotonic() < deadline:
        session = table.session
        if session is None or table.state is Mode.GAME_OVER:
            tap(SEAT_PINS[0][0])  # winner screen -> menu -> new game
            tap(SEAT_PINS[0][0])
            for _ in range(4):
                tap(SEAT_PINS[0][1])
            tap(SEAT_PINS[0][0])
            continue
        player = session.player
        seat = session.seats.get(player or "", 0)
        human = session.kinds.get(player or "") == "human"
        actionable = human and table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE)
        choosing = table.state is Mode.CHOOSE and len(table.moves) > 1
        # While choosing, mostly NEXT (the preview moves: a visible effect without
        # ending the turn), sometimes OK; at a roll, OK. Seats not on turn also press,
        # a quarter of the time, to show they are ignored (not counted as latency).
        button = SEAT_PINS[seat][1] if choosing and rng.random() < 0.85 else SEAT_PINS[seat][0]
        if not actionable:
            if rng.random() > 0.25:
                time.sleep(0.005)
                continue
            button = SEAT_PINS[rng.choice([0, 2])][0]
        frames_before = display.frames
        display.shown.clear()
        handled.clear()
        pin = factory.pin(button)
        start = time.perf_counter()
        pin.drive_low()
        if actionable and display.shown.wait(1.0) and display.frames > frames_before:
            samples.append(display.last_show - start)
        else:
            handled.wait(1.0)
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
        "median_ms": statistics.median(samples) * 1000,
        "p99_ms": samples[max(0, int(len(samples) * 0.99) - 1)] * 1000,
        "max_ms": samples[-1] * 1000,
        "frames": display.frames,
    }


def measure_idle(seconds: float) -> dict[str, float]:
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="spieltisch-idle-"))
    app, _factory, display = build(tmp, ("human", "bot", "bot", "bot"))
    thread = threading.Thread(target=app.run, daemon=True)
    thread.start()
    time.sleep(1.0)  # let start-up finish
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
    parser.add_argument("--presses", type=int, default=1000)
    parser.add_argument("--idle", type=float, default=20.0)
    args = parser.parse_args()
    lat = measure_latency(args.presses)
    print(
        f"press-to-frame latency over {lat['presses']} effective presses: "
        f"median {lat['median_ms']:.2f} ms, p99 {lat['p99_ms']:.2f} ms, max {lat['max_ms']:.2f} ms "
        f"({lat['ignored']} presses by seats not on turn ignored, {lat['frames']} frames)"
    )
    print("target: p99 < 20 ms ->", "met" if lat["p99_ms"] < 20 else "MISSED")
    idle = measure_idle(args.idle)
    print(
        f"idle loop: {idle['cpu_percent']:.3f} % of one core over {idle['seconds']:.1f} s "
        f"({idle['frames']} frames drawn while idle)"
    )
    print("target: < 1 % ->", "met" if idle["cpu_percent"] < 1 else "MISSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
