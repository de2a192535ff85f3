"""Keyboard input for the simulator: a real pseudo-terminal and real pygame events."""

from __future__ import annotations

import os
import pty
import threading
from typing import Any

import pytest

from controller.sim.legend import key_help
from controller.testing.clock import FakeClock
from hardware.interfaces import ButtonEvent, HardwareError
from hardware.keyboard import DEFAULT_KEYS, PygameKeys, TerminalKeys


class Recorder:
    def __init__(self) -> None:
        self.events: list[ButtonEvent] = []
        self.cond = threading.Condition()

    def __call__(self, event: ButtonEvent) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait_count(self, n: int) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: len(self.events) >= n, 10)

    def kinds(self) -> list[tuple[int | None, str, str]]:
        return [(e.seat, e.button, e.kind) for e in self.events]


def test_terminal_key_is_a_tap_and_shift_is_a_long_press() -> None:
    master, slave = pty.openpty()
    keys = TerminalKeys(fd=slave)
    rec = Recorder()
    keys.start(rec)
    try:
        os.write(master, b"q?Sx")  # seat 1 OK, an unmapped key, seat 2 NEXT long, system
        assert rec.wait_count(7)
    finally:
        keys.close()
        os.close(master)
        os.close(slave)
    assert rec.kinds() == [
        (0, "ok", "down"),
        (0, "ok", "up"),
        (1, "next", "down"),
        (1, "next", "held"),
        (1, "next", "up"),
        (None, "system", "down"),
        (None, "system", "up"),
    ]


def test_terminal_mode_is_restored_on_close() -> None:
    import termios

    master, slave = pty.openpty()
    before = termios.tcgetattr(slave)
    keys = TerminalKeys(fd=slave)
    keys.start(Recorder())
    assert termios.tcgetattr(slave) != before, "cbreak mode while reading"
    keys.close()
    assert termios.tcgetattr(slave) == before
    os.close(master)
    os.close(slave)


def test_terminal_keys_need_a_terminal(tmp_path: object) -> None:
    read, write = os.pipe()
    try:
        with pytest.raises(HardwareError, match="needs a terminal"):
            TerminalKeys(fd=read).start(Recorder())
    finally:
        os.close(read)
        os.close(write)


@pytest.fixture
def pygame_window():  # type: ignore[no-untyped-def]
    import pygame

    pygame.display.init()
    pygame.display.set_mode((32, 32))
    pygame.event.clear()
    yield pygame
    pygame.display.quit()


def test_pygame_keys_down_held_up(pygame_window: Any, fake_clock: FakeClock) -> None:
    pg = pygame_window
    keys = PygameKeys(hold_s=1.0, clock=fake_clock)
    assert keys.poll_interval is not None  # the loop pumps it on its own thread
    rec = Recorder()
    keys.start(rec)
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_w))
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_x))
    keys.poll()
    fake_clock.advance(0.5)
    pg.event.post(pg.event.Event(pg.KEYUP, key=pg.K_x))
    keys.poll()
    fake_clock.advance(0.6)  # w has now been down 1.1 s
    keys.poll()
    keys.poll()  # held is reported once
    pg.event.post(pg.event.Event(pg.KEYUP, key=pg.K_w))
    keys.poll()
    assert rec.kinds() == [
        (1, "ok", "down"),
        (None, "system", "down"),
        (None, "system", "up"),
        (1, "ok", "held"),
        (1, "ok", "up"),
    ]


def test_pygame_window_close_is_reported(pygame_window) -> None:  # type: ignore[no-untyped-def]
    from hardware.display import DisplayClosed

    pg = pygame_window
    keys = PygameKeys()
    keys.start(Recorder())
    pg.event.post(pg.event.Event(pg.QUIT))
    with pytest.raises(DisplayClosed):
        keys.poll()


def test_key_help_names_every_key() -> None:
    text = key_help()
    assert all(f"{char}=" in text for char in DEFAULT_KEYS)
    assert "q=1OK" in text and "x=system" in text
