"""``spieltisch selftest`` on luma's dummy/capture/pygame devices and gpiozero mock pins."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from controller.cli import main
from controller.selftest import Selftest
from hardware.buttons import GpioButtons, Key, button_pins
from hardware.display import LumaDisplay, open_display
from hardware.specs import ButtonWiring, DisplaySpec, SeatPins
from rules.build_info import describe_build

SPEC = ButtonWiring(seats=(SeatPins(17, 27), SeatPins(22, 23)), system=26, hold_s=5.0)


class RecordingDisplay:
    """Wraps a real display and keeps every frame shown (to check the LED walk)."""

    def __init__(self, inner: LumaDisplay) -> None:
        self.inner = inner
        self.frames: list[Image.Image] = []
        self.width, self.height, self.mode = inner.width, inner.height, inner.mode

    def show(self, image: Image.Image) -> None:
        self.frames.append(image.copy())
        self.inner.show(image)

    def set_brightness(self, level: float) -> None:
        self.inner.set_brightness(level)

    def close(self) -> None:
        self.inner.close()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def presser(factory: MockFactory, skip: set[Key] = frozenset(), swap: dict[Key, Key] | None = None):  # type: ignore[no-untyped-def,assignment]
    pins = button_pins(SPEC)

    def press(key: Key) -> None:
        if key in skip:
            return
        pin = factory.pin(pins[(swap or {}).get(key, key)])
        pin.drive_low()
        pin.drive_high()

    return press


def run(factory: MockFactory, display_spec: DisplaySpec, **kwargs) -> tuple[Selftest, object, str]:  # type: ignore[no-untyped-def]
    display = RecordingDisplay(open_display(display_spec))
    buttons = GpioButtons(SPEC, pin_factory=factory)
    out = io.StringIO()
    test = Selftest(
        display,
        buttons,
        list(button_pins(SPEC)),
        out=out,
        step_s=0,
        colour_s=0,
        button_timeout_s=kwargs.pop("timeout", 5.0),
        **kwargs,
    )
    try:
        report = test.run()
    finally:
        buttons.close()
        display.close()
    test.display = display
    return test, report, out.getvalue()


def test_walk_lights_every_led_alone_in_turn(factory: MockFactory) -> None:
    test, report, _ = run(factory, DisplaySpec(type="dummy"), on_prompt=presser(factory))
    frames = test.display.frames  # type: ignore[attr-defined]
    walk = frames[:256]
    lit = [
        [(x, y) for y in range(16) for x in range(16) if f.getpixel((x, y)) != (0, 0, 0)]
        for f in walk
    ]
    assert lit == [[(i % 16, i // 16)] for i in range(256)]
    assert report.leds == 256  # type: ignore[attr-defined]


def test_colours_follow_the_walk(factory: MockFactory) -> None:
    test, _, out = run(factory, DisplaySpec(type="dummy"), on_prompt=presser(factory))
    colours = [f.getpixel((8, 8)) for f in test.display.frames[256:260]]  # type: ignore[attr-defined]
    assert colours == [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
    assert "colours: red, green, blue, white" in out


def test_every_button_pressed_passes(factory: MockFactory) -> None:
    _, report, out = run(factory, DisplaySpec(type="dummy"), on_prompt=presser(factory))
    assert report.ok and report.missing == []  # type: ignore[attr-defined]
    assert "selftest: 256 LEDs walked, 5/5 buttons ok" in out
    assert "press seat 2 NEXT" in out


def test_missing_presses_are_reported_at_the_end(factory: MockFactory) -> None:
    skip = {(1, "next"), (None, "system")}
    _, report, out = run(
        factory, DisplaySpec(type="dummy"), on_prompt=presser(factory, skip), timeout=0.05
    )
    assert report.missing == [(1, "next"), (None, "system")]  # type: ignore[attr-defined]
    assert out.strip().splitlines()[-1].endswith("3/5 buttons ok; missing: seat 2 NEXT, system")


def test_a_swapped_wire_is_named(factory: MockFactory) -> None:
    swap = {(0, "ok"): (0, "next")}
    _, report, out = run(
        factory, DisplaySpec(type="dummy"), on_prompt=presser(factory, swap=swap), timeout=0.05
    )
    assert ((0, "ok"), (0, "next")) in report.wrong  # type: ignore[attr-defined]
    assert "got seat 1 NEXT instead of seat 1 OK (swapped wires?)" in out


def test_monochrome_panel_walks_and_blinks(factory: MockFactory) -> None:
    from luma.core.interface.serial import noop

    display = open_display(DisplaySpec(type="max7219", width=32, height=8), interface=noop())
    buttons = GpioButtons(SPEC, pin_factory=factory)
    out = io.StringIO()
    test = Selftest(display, buttons, [], out=out, step_s=0, colour_s=0)
    try:
        report = test.run()
    finally:
        buttons.close()
    assert report.leds == 256
    assert "pattern: all on, all off" in out.getvalue()


def test_prompt_frames_on_the_capture_emulator(factory: MockFactory, tmp_path: Path) -> None:
    spec = DisplaySpec(type="capture", scale=8, brightness=1.0, file=str(tmp_path / "f{0:04}.png"))
    run(factory, spec, on_prompt=presser(factory))
    files = sorted(tmp_path.glob("f*.png"))
    # 256 walk + 4 colours + 5 × (prompt + green) + final blank
    assert len(files) == 256 + 4 + 5 * 2 + 1
    prompt_ok = Image.open(files[260]).convert("RGB")  # seat 1 OK: one dot, green block
    assert prompt_ok.getpixel((4, 4)) == (255, 255, 255)
    assert prompt_ok.getpixel((8 * 8, 8 * 8)) == (0, 200, 0)
    prompt_system = Image.open(files[268]).convert("RGB")  # the system button: red frame
    assert prompt_system.getpixel((4, 60)) == (255, 0, 0)


def test_cli_selftest_on_the_pygame_emulator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The emulator run: pygame window (SDL dummy driver) and keyboard; nobody presses."""
    config = tmp_path / "sim.toml"
    config.write_text(
        '[display]\ntype = "pygame"\n[input]\ntype = "keyboard"\n[[seats]]\nok = 17\nnext = 27\n'
    )
    code = main(
        [
            "selftest",
            "--config",
            str(config),
            "--step-ms",
            "0",
            "--colour-s",
            "0",
            "--button-timeout",
            "0.01",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert "press seat 1 OK (key q)" in out
    assert "selftest: 256 LEDs walked, 0/3 buttons ok; missing: seat 1 OK (key q)" in out
    # which rules build runs (tests/test_compiled.py checks both answers)
    assert out.startswith(f"selftest: {describe_build()}\n")


def test_cli_selftest_with_a_bad_config_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text('[display]\ntype = "pygame"\nwidth = 7\n')
    assert main(["selftest", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "display.width: 7x16" in err


def test_skip_buttons_opens_no_buttons_and_counts_none(tmp_path: Path) -> None:
    """``--skip-buttons`` on a machine without GPIO (this one, with no mock pin factory):
    the GPIO buttons of the config are never opened, and the summary says they were
    skipped instead of "0/9 buttons ok"."""
    import os
    import subprocess
    import sys

    config = tmp_path / "config.toml"
    config.write_text('[display]\ntype = "dummy"\n\n[input]\ntype = "gpio"\n')
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    root = Path(__file__).resolve().parent.parent
    args = ["--config", str(config), "--step-ms", "0", "--colour-s", "0"]
    result = subprocess.run(
        [sys.executable, "-m", "controller", "selftest", *args, "--skip-buttons"],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "GPIO" not in result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    assert summary == "selftest: 256 LEDs walked, buttons skipped"


def test_skip_leds_says_so(factory: MockFactory) -> None:
    buttons = GpioButtons(SPEC, pin_factory=factory)
    out = io.StringIO()
    display = open_display(DisplaySpec(type="dummy"))
    test = Selftest(display, buttons, [], out=out, step_s=0, colour_s=0)
    try:
        report = test.run(leds=False)
    finally:
        buttons.close()
        display.close()
    assert report.leds == 0
    assert out.getvalue().strip().splitlines()[-1] == "selftest: LEDs skipped, 0/0 buttons ok"
