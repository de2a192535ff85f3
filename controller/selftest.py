"""``spieltisch selftest``: check new wiring, LED by LED and button by button.

1. **LED walk.** Every LED lights alone in turn, row by row from the top-left, so a
   dead LED, a wrong chain order (mapping) or a wrong rotation shows at once.
2. **Colours.** The whole panel red, green, blue, then white (white is dimmed by the
   power limiter, as in a game); a monochrome panel goes all on, then all off.
3. **Buttons.** Each button of each seat is asked for in turn (the prompt on the
   panel shows the seat as 1-4 dots in the top-left corner and the button as a green
   block for OK, a blue arrow for NEXT, a red frame for the system button); a press
   turns the panel green. A different button is reported by name, which finds swapped
   wires. Buttons not pressed within the timeout are reported at the end.

It talks only to the hardware interfaces, so it runs the same on the table, on the
emulators (pygame window + keyboard) and in tests (luma dummy + gpiozero mock pins).
Exit code 0 when every button was seen, 1 when some were missing, 2 for a bad config.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from PIL import Image, ImageDraw

from controller import i18n
from controller.config import DEFAULT_PATH, Config, ConfigError, default_config, load_config
from controller.i18n import _
from controller.sim.legend import button_word
from hardware.build import build_display, build_input
from hardware.buttons import Key, button_pins
from hardware.interfaces import ButtonEvent, Display, InputBackend
from hardware.keyboard import DEFAULT_KEYS
from hardware.specs import DISPLAY_TYPES, INPUT_TYPES
from rules.build_info import describe_build

COLOURS = (
    ("red", (255, 0, 0)),
    ("green", (0, 255, 0)),
    ("blue", (0, 0, 255)),
    ("white", (255, 255, 255)),
)


@dataclass
class SelftestReport:
    leds: int = 0
    pressed: list[Key] = field(default_factory=list)
    missing: list[Key] = field(default_factory=list)
    wrong: list[tuple[Key, Key]] = field(default_factory=list)
    """(asked for, got instead) pairs: likely swapped wires."""

    @property
    def ok(self) -> bool:
        return not self.missing


def button_words(key: Key) -> str:
    """A button as people say it: "seat 2 NEXT" or "system" (German: "Platz 2 WEITER")."""
    seat, button = key
    if seat is None:
        return _("system")
    return _("seat {number} {button}").format(number=seat + 1, button=button_word(button))


class Selftest:
    """One selftest run over a display and an input backend (already built)."""

    def __init__(
        self,
        display: Display,
        buttons: InputBackend | None,
        keys: Sequence[Key],
        *,
        labels: dict[Key, str] | None = None,
        out: IO[str] = sys.stdout,
        step_s: float = 0.02,
        colour_s: float = 0.8,
        button_timeout_s: float = 10.0,
        on_prompt: Callable[[Key], None] | None = None,
    ) -> None:
        self.display = display
        self.buttons = buttons
        self.keys = list(keys)
        self.labels = labels or {}
        self.out = out
        self.step_s = step_s
        self.colour_s = colour_s
        self.button_timeout_s = button_timeout_s
        self.on_prompt = on_prompt
        """Called with each button as it is asked for (tests press it from here)."""
        self.events: queue.Queue[ButtonEvent] = queue.Queue(maxsize=256)

    def _sink(self, event: ButtonEvent) -> None:
        # A stuck button flooding the queue must not block the thread it runs on.
        with contextlib.suppress(queue.Full):
            self.events.put_nowait(event)

    def run(self, leds: bool = True, buttons: bool = True) -> SelftestReport:
        """Walk the LEDs and ask for every button; either can be skipped, and a skipped
        part is neither opened nor counted (no buttons backend is needed to test LEDs)."""
        report = SelftestReport()
        buttons = buttons and self.buttons is not None
        if buttons and self.buttons is not None:
            self.buttons.start(self._sink)
        if leds:
            report.leds = self.walk_leds()
            self.show_colours()
        if buttons:
            self.ask_buttons(report)
        self.display.show(self._blank())
        self._summary(report, leds=leds, buttons=buttons)
        return report

    # --- frames -------------------------------------------------------------------

    def _blank(self) -> Image.Image:
        return Image.new(self.display.mode, (self.display.width, self.display.height))

    def _ink(self, rgb: tuple[int, int, int]) -> Any:
        return 1 if self.display.mode == "1" else rgb

    def walk_leds(self) -> int:
        w, h = self.display.width, self.display.height
        self._say(
            _("LED walk: {count} LEDs one at a time, row by row from the top-left").format(
                count=w * h
            )
        )
        for y in range(h):
            for x in range(w):
                frame = self._blank()
                frame.putpixel((x, y), self._ink((255, 255, 255)))
                self.display.show(frame)
                self._wait(self.step_s)
        return w * h

    def show_colours(self) -> None:
        if self.display.mode == "1":
            steps: list[tuple[str, Any]] = [("all on", 1), ("all off", 0)]
            self._say(_("pattern: all on, all off"))
        else:
            steps = list(COLOURS)
            self._say(_("colours: red, green, blue, white (white is power limited)"))
        for _name, colour in steps:
            self.display.show(
                Image.new(self.display.mode, (self.display.width, self.display.height), colour)
            )
            self._wait(self.colour_s)

    def prompt_frame(self, key: Key) -> Image.Image:
        """The panel while waiting for ``key``: seat dots plus a button symbol."""
        frame = self._blank()
        draw = ImageDraw.Draw(frame)
        w, h = frame.size
        seat, button = key
        if seat is not None:
            for i in range(seat + 1):
                draw.point((2 * i, 0), fill=self._ink((255, 255, 255)))
        cx, cy = w // 2, h // 2
        r = max(1, min(w, h) // 4)
        if button == "ok":
            draw.rectangle((cx - r, cy - r, cx + r - 1, cy + r - 1), fill=self._ink((0, 200, 0)))
        elif button == "next":
            draw.polygon(
                [(cx - r, cy - r), (cx + r - 1, cy), (cx - r, cy + r - 1)],
                fill=self._ink((0, 80, 255)),
            )
        else:
            draw.rectangle((0, 0, w - 1, h - 1), outline=self._ink((255, 0, 0)))
        return frame

    # --- buttons ------------------------------------------------------------------

    def ask_buttons(self, report: SelftestReport) -> None:
        self._drain()
        for key in self.keys:
            label = self.labels.get(key, "")
            button = button_words(key) + (f" ({label})" if label else "")
            self._say(_("press {button} ...").format(button=button))
            self.display.show(self.prompt_frame(key))
            if self.on_prompt is not None:
                self.on_prompt(key)
            if self._await(key, report):
                report.pressed.append(key)
                self._say("  " + _("{button}: ok").format(button=button_words(key)))
                self.display.show(
                    Image.new(
                        self.display.mode,
                        (self.display.width, self.display.height),
                        self._ink((0, 255, 0)),
                    )
                )
                self._wait(min(0.3, self.colour_s))
            else:
                report.missing.append(key)
                missing = _("{button}: MISSING (no press in {seconds} s)")
                self._say(
                    "  "
                    + missing.format(button=button_words(key), seconds=f"{self.button_timeout_s:g}")
                )

    def _await(self, key: Key, report: SelftestReport) -> bool:
        deadline = time.monotonic() + self.button_timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            event = self._next_event(remaining)
            if event is None or event.kind != "down":
                continue
            got: Key = (event.seat, event.button)
            if got == key:
                return True
            report.wrong.append((key, got))
            got_words = _("got {got} instead of {button} (swapped wires?)")
            self._say("  " + got_words.format(got=button_words(got), button=button_words(key)))

    def _next_event(self, timeout: float) -> ButtonEvent | None:
        buttons = self.buttons
        if buttons is not None and buttons.poll_interval is not None:
            buttons.poll()
            timeout = min(timeout, buttons.poll_interval)
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def _drain(self) -> None:
        while not self.events.empty():
            self.events.get_nowait()

    def _wait(self, seconds: float) -> None:
        """Pause between frames; keeps a polled input (pygame window) responsive."""
        buttons = self.buttons
        if buttons is not None and buttons.poll_interval is not None:
            buttons.poll()
        if seconds > 0:
            time.sleep(seconds)

    def _summary(self, report: SelftestReport, *, leds: bool = True, buttons: bool = True) -> None:
        total = len(self.keys)
        led_part = _("{count} LEDs walked").format(count=report.leds) if leds else _("LEDs skipped")
        button_part = (
            _("{pressed}/{total} buttons ok").format(pressed=len(report.pressed), total=total)
            if buttons
            else _("buttons skipped")
        )
        line = _("selftest: {leds}, {buttons}").format(leds=led_part, buttons=button_part)
        if report.missing:
            missing = ", ".join(
                button_words(k) + (f" ({self.labels[k]})" if k in self.labels else "")
                for k in report.missing
            )
            line += _("; missing: {buttons}").format(buttons=missing)
        self._say(line)

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()


# --- command line ---------------------------------------------------------------------


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    p = sub.add_parser("selftest", help="light every LED and ask for every button")
    p.add_argument("--config", type=Path, help=f"config file (default {DEFAULT_PATH})")
    p.add_argument("--display", choices=DISPLAY_TYPES, help="override display.type")
    p.add_argument("--input", choices=INPUT_TYPES, help="override input.type")
    p.add_argument("--step-ms", type=float, default=20.0, help="ms per LED in the walk")
    p.add_argument("--colour-s", type=float, default=0.8, help="seconds per colour")
    p.add_argument("--button-timeout", type=float, default=10.0, help="seconds per button")
    p.add_argument("--skip-leds", action="store_true", help="only test the buttons")
    p.add_argument("--skip-buttons", action="store_true", help="only test the LEDs")


def _config_for(args: argparse.Namespace) -> Config:
    if args.config is None and not DEFAULT_PATH.exists() and (args.display or args.input):
        config = default_config()
    else:
        config = load_config(args.config or DEFAULT_PATH)
    hardware = config.hardware
    if args.display:
        hardware = replace(
            hardware, display=replace(hardware.display, type=args.display, mapping="row")
        )
    if args.input:
        hardware = replace(hardware, input_type=args.input)
    return replace(config, hardware=hardware)


def labels_for(config: Config) -> dict[Key, str]:
    """How each button is found: its GPIO pin, or its key in the simulator."""
    if config.hardware.input_type == "keyboard":
        return {key: _("key {key}").format(key=char) for char, key in DEFAULT_KEYS.items()}
    return {key: f"GPIO {pin}" for key, pin in button_pins(config.buttons).items()}


def run(args: argparse.Namespace, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    try:
        config = _config_for(args)
    except ConfigError as exc:
        for line in exc.errors:
            sys.stderr.write(_("spieltisch: error: {message}").format(message=line) + "\n")
        return 2
    # The owner reads this at the table being wired: in the table's language, else
    # the locale's (the words of a config that cannot be read are the locale's).
    i18n.use(i18n.table_language(config.language, os.environ))
    # Which rules build runs (compiled or pure Python): a table that fell back to the
    # pure build is slower, and this is where an owner checks a new install.
    out.write(_("selftest: {build}").format(build=describe_build()) + "\n")
    display = build_display(config.display)
    try:
        # --skip-buttons: the buttons are not opened at all (a laptop has no GPIO).
        buttons = None if args.skip_buttons else build_input(config.hardware)
        try:
            test = Selftest(
                display,
                buttons,
                list(button_pins(config.buttons)),
                labels=labels_for(config),
                out=out,
                step_s=args.step_ms / 1000,
                colour_s=args.colour_s,
                button_timeout_s=args.button_timeout,
            )
            report = test.run(leds=not args.skip_leds, buttons=not args.skip_buttons)
        finally:
            if buttons is not None:
                buttons.close()
    finally:
        display.close()
    return 0 if report.ok else 1
