"""firmware/main.py and the Pico files' imports, under CPython (firmware/PROTOCOL.md).

The pure modules' behaviour is checked under CPython *and* MicroPython by
``tests/test_firmware_checks.py``. What is left here needs CPython: a static check
that the files for the Pico use only what MicroPython has, and ``main.py``, which
imports ``machine``, ``neopixel`` and ``micropython`` (they exist only on the Pico;
the fixture below puts minimal stand-ins into ``sys.modules``).
"""

from __future__ import annotations

import ast
import importlib
import os
import select
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from tests.firmware_checks import FIRMWARE_DIR, Strip, Wire, fw

FIRMWARE = Path(FIRMWARE_DIR)
PICO_FILES = ["main.py", "protocol.py", "debounce.py", "panel.py", "link.py"]


# -- MicroPython compatibility ------------------------------------------------------------


@pytest.mark.parametrize("name", PICO_FILES)
def test_files_for_the_pico_use_only_what_micropython_has(name: str) -> None:
    """firmware/README: no dataclasses/typing, no variable annotations, no zip(strict)."""
    tree = ast.parse((FIRMWARE / name).read_text(encoding="utf-8"))
    allowed = {
        "binascii",
        "select",
        "sys",
        "time",
        "machine",
        "micropython",
        "neopixel",
        "protocol",
        "debounce",
        "panel",
        "link",
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert {a.name for a in node.names} <= allowed, ast.dump(node)
        elif isinstance(node, ast.ImportFrom):
            assert node.module in allowed, node.module
        assert not isinstance(node, ast.AnnAssign), f"{name}:{node.lineno} variable annotation"
        if isinstance(node, ast.Call):
            assert not any(k.arg == "strict" for k in node.keywords), f"{name}:{node.lineno}"


# -- main.py with stubbed MicroPython modules -------------------------------------------


class Pin:
    """Shaped like ``machine.Pin``: a level the test sets, pulled up by default."""

    IN = 0
    OUT = 1
    PULL_UP = 2
    levels: ClassVar[dict[object, int]] = {}

    def __init__(self, ident: object, mode: int = 0, pull: int | None = None) -> None:
        self.ident = ident
        self.mode = mode
        Pin.levels.setdefault(ident, 1)

    def value(self, level: int | None = None) -> int:
        if level is not None:
            Pin.levels[self.ident] = level
        return Pin.levels[self.ident]


@pytest.fixture
def pico_main(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.ModuleType]:
    """Import firmware/main.py with ``machine``/``neopixel``/``micropython`` stubbed."""
    machine = types.ModuleType("machine")
    machine.Pin = Pin  # type: ignore[attr-defined]
    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = Strip  # type: ignore[attr-defined]
    micropython = types.ModuleType("micropython")
    micropython.kbd_intr = lambda char: None  # type: ignore[attr-defined]
    for name, module in (
        ("machine", machine),
        ("neopixel", neopixel),
        ("micropython", micropython),
    ):
        monkeypatch.setitem(sys.modules, name, module)
    Pin.levels = {}
    monkeypatch.delitem(sys.modules, "main", raising=False)
    module = importlib.import_module("main")
    yield module
    sys.modules.pop("main", None)


def test_main_pin_map_buttons_become_protocol_buttons(pico_main: types.ModuleType) -> None:
    """firmware/main.py: the pin map at the top drives the HELLO button list."""
    buttons = pico_main.button_list()
    assert len(buttons) == len(pico_main.BUTTON_PINS)
    assert buttons[0] == (0, fw.BTN_OK)
    assert buttons[-1] == (fw.SYSTEM_SEAT, fw.BTN_SYSTEM)
    gpios = [gpio for gpio, _, _ in pico_main.BUTTON_PINS]
    assert len(set(gpios)) == len(gpios)
    assert pico_main.PANEL_PIN not in gpios


def test_main_loop_reads_a_frame_from_usb_and_reports_a_pressed_pin(
    pico_main: types.ModuleType,
) -> None:
    """The real main.py loop (``step``) with a pipe as USB stdin and stub pins."""
    out = Wire()
    link, pins = pico_main.build(out.write)
    strip = link.panel.strip
    assert strip.writes == [bytes(len(strip.buf))]  # dark at boot
    read_fd, write_fd = os.pipe()
    with os.fdopen(read_fd, "rb", buffering=0) as stdin:
        poller = select.poll()
        poller.register(stdin, select.POLLIN)
        led = Pin("LED", Pin.OUT)
        size = pico_main.PANEL_WIDTH * pico_main.PANEL_HEIGHT * 3
        os.write(write_fd, fw.encode(fw.FRAME, 1, bytes([9]) * size))
        now = 0
        while not out.packets and now < 50:
            pico_main.step(link, pins, stdin, poller, led, now)
            now += 1
        assert out.packets == [(fw.ACK, 1, bytes([fw.FRAME]))]
        assert strip.writes[-1] == bytes([9]) * size
        assert led.value() == 1  # host alive
        pins[1].value(0)  # seat 0 NEXT pulled to GND
        for t in range(now, now + 40):
            pico_main.step(link, pins, stdin, poller, led, t)
        assert out.packets[-1][0] == fw.BUTTON
        assert out.packets[-1][2][:3] == bytes([0, fw.BTN_NEXT, fw.KIND_DOWN])
    os.close(write_fd)
