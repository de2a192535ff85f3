"""The factory reset by holding the system button while the table starts: on gpiozero's
MockFactory pins (the system button's pin driven low before the start), with the panel
and buttons opened as ``spieltisch run`` opens them, real files and a real history."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from controller.cli.run import open_hardware
from controller.config import Config, load_table_config
from controller.events import EventQueue
from controller.history.store import HistoryStore
from controller.release.notice import unseen
from controller.start_reset import HOLD_S, reset_if_held
from controller.testing.clock import FakeClock
from controller.testing.files import SYSTEM_PIN, config_text, write_bot_game
from controller.views.text import collect_texts
from tests.update_fixtures import spieltisch

GAMES = ["first", "second", "third"]


class ButtonPin(MockPin):  # type: ignore[misc]
    """A pin with a push button to ground: held down, the button beats the pull-up, as on
    the board (gpiozero's mock pin takes its pull resistor's level whatever was driven,
    so a button held before the pin is opened would read as let go)."""

    held = False

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.held:
            self.drive_low()


def hold(pins: MockFactory, pin: int) -> ButtonPin:
    """The button on ``pin`` pressed before the table starts."""
    button = pins.pin(pin, pin_class=ButtonPin)
    button.held = True
    button.drive_low()
    return button  # type: ignore[no-any-return]


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    """gpiozero's default pin factory, a mock one, for the buttons the start opens."""
    before = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = before


@pytest.fixture
def table(tmp_path: Path) -> dict[str, Path]:
    state = tmp_path / "state"
    store = HistoryStore(state)
    store.open()
    store.close()
    connection = sqlite3.connect(state / "history.sqlite3")
    for uid in GAMES:
        connection.execute(
            "INSERT INTO records (uid, game, preset, ended, outcome, places, result, rolls,"
            " moves, start_state, final_state, history) VALUES (?, 'maedn', 'classic',"
            " '2026-01-01', 'finished', '[]', '{}', 1, 1, '{}', '{}', '[]')",
            (uid,),
        )
    connection.commit()
    connection.close()
    # a game in progress: the family holding the button means it, and the backup keeps it
    write_bot_game(state, "maedn", "classic", 2, seed=4)
    (state / "setups.json").write_text("{}\n")
    config = tmp_path / "etc" / "config.toml"
    config.parent.mkdir()
    config.write_text(config_text().replace('bot = "random"', 'bot = "random"\nmove_timer_s = 30'))
    return {"state": state, "config": config, "tmp": tmp_path}


def contents(table: dict[str, Path]) -> dict[str, str]:
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest()
        for root in (table["state"], table["config"].parent)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def start(
    table: dict[str, Path], clock: FakeClock, wait: Callable[[float], None] | None = None
) -> tuple[Config, list[str]]:
    """The start's steps up to the hook: the config, the panel and buttons opened as
    ``spieltisch run`` opens them, then the hook; returns its config and the panel's
    words."""
    config = load_table_config(table["config"])
    display, inputs = open_hardware(config, EventQueue())
    try:
        with collect_texts() as drawn:
            result = reset_if_held(
                config,
                display,
                inputs,
                table["state"],
                table["config"],
                clock=clock,
                wait=wait or clock.advance,
            )
    finally:
        for backend in inputs:
            backend.close()
    words: list[str] = []
    for text in drawn:
        if not words or words[-1] != text.text:
            words.append(text.text)
    return result, words


def test_held_through_the_start_resets_with_a_backup_of_what_it_removed(
    table: dict[str, Path], pins: MockFactory
) -> None:
    hold(pins, SYSTEM_PIN)  # held as the table is switched on
    config, words = start(table, FakeClock())
    assert words[0] == f"keep holding the system button for a factory reset: {HOLD_S:.0f} s"
    assert "keep holding the system button for a factory reset: 1 s" in words
    assert words[-1] == "factory reset done: a backup of what it removed is kept"
    # the config back to new, but its panel and buttons; history, save, setups gone
    assert config.game.move_timer_s != 30
    assert "move_timer_s" not in table["config"].read_text()
    assert config.hardware.buttons.system == SYSTEM_PIN
    assert not (table["state"] / "history.sqlite3").exists()
    assert not (table["state"] / "session.json").exists()
    # said once more on the panel after the start
    assert unseen(table["state"]) == "factory reset done"
    # the backup gives every game back
    (kept,) = (table["state"] / "backups").glob("before-factory-reset-*.tar.gz")
    restored = spieltisch(
        "backup",
        "--state-dir",
        str(table["state"]),
        "--config",
        str(table["config"]),
        "--keys",
        str(table["tmp"] / "keys"),
        "restore",
        str(kept),
    )
    assert restored.returncode == 0, restored.stderr
    connection = sqlite3.connect(table["state"] / "history.sqlite3")
    try:
        assert [r[0] for r in connection.execute("SELECT uid FROM records ORDER BY id")] == GAMES
    finally:
        connection.close()
    assert "move_timer_s = 30" in table["config"].read_text()
    assert json.loads((table["state"] / "session.json").read_text())["game"] == "maedn"


def test_let_go_before_the_end_nothing_changes(table: dict[str, Path], pins: MockFactory) -> None:
    before = contents(table)
    pin = hold(pins, SYSTEM_PIN)
    clock = FakeClock()
    began = clock()

    def wait(seconds: float) -> None:
        clock.advance(seconds)
        if clock() - began >= 3.0:
            pin.held = False  # let go after three seconds
            pin.drive_high()

    config, words = start(table, clock, wait)
    assert words[-1] == "no factory reset"
    assert config.game.move_timer_s == 30
    assert contents(table) == before
    assert not (table["state"] / "backups").exists()


def test_a_start_without_the_button_draws_nothing_and_changes_nothing(
    table: dict[str, Path], pins: MockFactory
) -> None:
    before = contents(table)
    hold(pins, 17)  # a seat's button held: not the system button
    config, words = start(table, FakeClock())
    assert words == []
    assert config.game.move_timer_s == 30
    assert contents(table) == before
