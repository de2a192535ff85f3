"""The table's own path, from pin to LED: whole games played by pressing gpiozero
MockFactory pins, frames taken from luma's dummy device, and the pixels checked against
what the rules state says.

The test thread is the loop thread: it presses pins (gpiozero runs the callbacks, which
only enqueue), then steps the loop. A fake clock drives debounce, animations and bots,
so there is no sleeping and no timing flakiness.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

import rules
from controller import views
from controller.app import Appliance, table_options
from controller.config import parse_config
from controller.machine import Mode
from controller.views import palette
from hardware.build import build_display
from hardware.buttons import GpioButtons
from rules.track.engine import MaednState

SEAT_PINS = [(17, 27), (22, 23), (24, 25), (5, 6)]
SYSTEM_PIN = 26


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_config(size: int = 16, players: tuple[str, ...] = ("human",) * 4) -> Any:
    return parse_config(
        {
            "display": {"type": "dummy", "width": size, "height": size},
            "input": {"type": "gpio", "system_pin": SYSTEM_PIN, "debounce_ms": 20},
            "seats": [
                {"ok": ok, "next": nxt, "player": kind}
                for (ok, nxt), kind in zip(SEAT_PINS, players, strict=False)
            ],
            "game": {"bot": "random"},
        }
    )


class Rig:
    """An appliance on mock pins and a dummy panel, stepped by hand."""

    def __init__(self, tmp_path: Path, size: int = 16, players: tuple[str, ...] = ("human",) * 4):
        self.factory = MockFactory()
        self.clock = FakeClock()
        config = make_config(size, players)
        self.display = build_display(config.display)
        self.buttons = GpioButtons(config.buttons, pin_factory=self.factory, clock=self.clock)
        # Fewer animation frames than on a real panel keep the test quick; every frame
        # still goes through the views to the dummy device.
        options = table_options(
            config, bot_delay_s=0.05, forced_delay_s=0.05, frame_interval_s=0.25
        )
        self.app = Appliance(
            config,
            display=self.display,
            inputs=[self.buttons],
            sound=None,
            state_dir=tmp_path,
            render=views.render,
            clock=self.clock,
            bot_thread=False,
            options=options,
        )
        self.table = self.app.table
        self.app.start()
        self.app.loop.draw()

    def press(self, seat: int, button: str) -> None:
        ok, nxt = SEAT_PINS[seat]
        pin = self.factory.pin(ok if button == "ok" else nxt)
        pin.drive_low()
        self.clock.advance(0.03)
        pin.drive_high()
        self.clock.advance(0.03)
        self.settle()

    def settle(self) -> None:
        """Let the loop take every queued event (without advancing time)."""
        while len(self.app.events):
            self.app.loop.step(timeout_cap=0)
        self.app.loop.step(timeout_cap=0)

    def wait(self) -> None:
        """Advance the fake clock to the table's next deadline and step once."""
        wake = self.table.next_wakeup()
        if wake is not None and wake > self.clock.now:
            self.clock.now = wake
        self.app.loop.step(timeout_cap=0)

    def frame(self) -> Any:
        return self.display.device.image.convert("RGB")

    def choose_menu(self, game: str, preset: str) -> None:
        """Pick ``game`` in the menu, then its rule set ``preset`` in setup."""
        for _ in range(len(self.table.options.menu)):
            if self.table.options.menu[self.table.menu_index].game == game:
                break
            self.press(0, "next")
        self.press(0, "ok")
        assert self.table.state is Mode.SETUP
        for _ in range(len(rules.presets(game))):
            if self.table.setup_preset == preset:
                break
            assert self.table.setup_cursor == -1  # the rules entry comes first
            self.press(0, "ok")
        assert self.table.setup_preset == preset

    def start_from_setup(self) -> None:
        while self.table.setup_cursor != len(self.table.setup_kinds):
            self.press(0, "next")  # past every seat to "start"
        self.press(0, "ok")
        assert self.table.session is not None

    def close(self) -> None:
        self.app.close()


def check_track_pixels(rig: Rig, state: MaednState, size: int) -> int:
    """Every piece on the ring or in a goal lights its cell in its seat's colour."""
    frame = rig.frame()
    geo = state.game.geometry
    checked = 0
    for colour, own in zip(state.players, state.pieces, strict=True):
        if palette.id_dip(colour, rig.table.now):
            continue  # the 16x16 identity blink: this seat is dimmed right now
        for progress in own:
            if progress < 0:
                continue
            if progress < geo.track_steps:
                ring = (geo.start_of(colour) + progress) % geo.ring
                cell = geo.ring_cells[ring]
            else:
                cell = geo.goal_cells[colour][progress - geo.track_steps]
            x0, y0, x1, y1 = views.cell_box(state.game.name, size, size, cell)
            pixels = {frame.getpixel((x, y)) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
            wanted = palette.seat_colour(colour)
            dark = palette.scale(wanted, 0.45)
            assert pixels & {wanted, dark}, (colour, progress, cell, pixels)
            checked += 1
    return checked


@pytest.mark.parametrize(
    ("game", "preset", "size"),
    [
        ("maedn", "classic", 16),
        ("maedn", "lingo", 32),
        ("kleiner_aerger", "standard", 16),
    ],
)
def test_whole_game_by_pressing_pins_with_pixel_checks(
    tmp_path: Path, game: str, preset: str, size: int
) -> None:
    rig = Rig(tmp_path, size, players=("human", "bot", "human", "bot"))
    try:
        rig.choose_menu(game, preset)
        kinds = rig.table.setup_kinds
        assert kinds[:2] == ["human", "bot"]
        rig.start_from_setup()
        session = rig.table.session
        assert session is not None
        presses = checked = 0
        for _ in range(200_000):
            if rig.table.state is Mode.GAME_OVER:
                break
            player = session.player
            human = player is not None and session.kinds.get(player) == "human"
            if rig.table.state is Mode.AWAIT_ROLL and isinstance(session.state, MaednState):
                checked += check_track_pixels(rig, session.state, size)
            if human and rig.table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE):
                seat = session.seats[player]
                if rig.table.state is Mode.CHOOSE and presses % 3 == 0:
                    rig.press(seat, "next")
                rig.press(seat, "ok")
                presses += 1
            else:
                rig.wait()
        else:
            pytest.fail("the game did not end")
        assert session.state.is_terminal()
        assert presses > 20 and checked > 50
        assert session.history and any("move" in h for h in session.history)
        winner_frame = rig.frame()
        assert winner_frame.getbbox() is not None
        rig.press(0, "ok")
        assert rig.table.state is Mode.MENU
    finally:
        rig.close()


def test_button_bounce_gives_one_press(tmp_path: Path) -> None:
    """10 edges within 5 ms on seat 1's NEXT move the menu cursor once."""
    rig = Rig(tmp_path)
    try:
        pin = rig.factory.pin(SEAT_PINS[0][1])
        for i in range(10):
            (pin.drive_low if i % 2 == 0 else pin.drive_high)()
            rig.clock.advance(0.0005)
        pin.drive_high()
        rig.clock.advance(0.05)
        rig.settle()
        assert rig.table.menu_index == 1
    finally:
        rig.close()


def test_every_seat_mashing_at_once_is_survived(tmp_path: Path) -> None:
    """All 8 seat buttons pressed together, 200 times: only the seat on turn acts, the
    queue stays bounded, and the game goes on."""
    rig = Rig(tmp_path)
    try:
        rig.choose_menu("maedn", "classic")
        rig.start_from_setup()
        session = rig.table.session
        assert session is not None
        for _ in range(200):
            pins = [rig.factory.pin(p) for pair in SEAT_PINS for p in pair]
            for pin in pins:
                pin.drive_low()
            rig.clock.advance(0.03)
            for pin in pins:
                pin.drive_high()
            rig.clock.advance(0.03)
            assert len(rig.app.events) <= rig.app.events.maxsize
            rig.settle()
            rig.wait()
        assert len(session.history) > 20
        assert rig.table.ignored_presses > 0
    finally:
        rig.close()


def test_resume_after_restart_continues_exactly(tmp_path: Path) -> None:
    """A second appliance on the same state directory resumes the same position with the
    same dice to come (the RNG state is saved)."""
    rig = Rig(tmp_path, players=("bot",) * 4)
    try:
        rig.choose_menu("maedn", "classic")
        rig.start_from_setup()
        session = rig.table.session
        assert session is not None
        while len(session.history) < 40:
            rig.wait()
        while rig.table.state is not Mode.AWAIT_ROLL:
            rig.wait()
        saved_state = session.state
        next_dice = session.draw_dice.__self__.rng.getstate()  # type: ignore[attr-defined]
    finally:
        rig.close()
    again = Rig(tmp_path, players=("bot",) * 4)
    try:
        resumed = again.table.session
        assert resumed is not None
        assert resumed.state == saved_state
        assert resumed.rng.getstate() == next_dice
        assert again.table.state is Mode.AWAIT_ROLL
    finally:
        again.close()


def test_rules_still_pure_under_the_appliance() -> None:
    """Sanity: the appliance uses the registry's games, not copies."""
    assert rules.get_game("maedn") is rules.get_game("maedn", "classic")


def test_minimaki_solitaire_by_pins_red_shows_where_the_rules_put_it(tmp_path: Path) -> None:
    """Mini-Maki: seat 1 plays red with its two buttons; black's dice roll by themselves.
    Whenever black is about to roll, red's field is lit in red on the panel."""
    rig = Rig(tmp_path, 16, players=("human",))
    try:
        rig.choose_menu("minimaki", "standard")
        rig.start_from_setup()
        session = rig.table.session
        assert session is not None
        presses = checked = 0
        for _ in range(50_000):
            if rig.table.state is Mode.GAME_OVER:
                break
            state = session.state.to_json()
            if rig.table.state is Mode.AWAIT_ROLL and state["red"] is not None:
                x0, y0, x1, y1 = views.cell_box("minimaki", 16, 16, tuple(state["red"]))
                frame = rig.frame()
                pixels = {
                    frame.getpixel((x, y)) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
                }
                assert palette.seat_colour("red") in pixels, (state, pixels)
                checked += 1
            if rig.table.state is Mode.CHOOSE and session.player == "red":
                if presses % 2:
                    rig.press(0, "next")
                rig.press(0, "ok")
                presses += 1
            else:
                rig.wait()
        else:
            pytest.fail("the game did not end")
        assert session.state.is_terminal() and presses >= 1 and checked >= 1
    finally:
        rig.close()


def test_backgammon_by_pins_to_the_end(tmp_path: Path) -> None:
    """Backgammon: seat 1 (white) against a bot, every roll and play pressed on pins;
    the dice shown on the panel change with every roll."""
    rig = Rig(tmp_path, 16, players=("human", "bot"))
    try:
        rig.choose_menu("backgammon", "single")
        rig.start_from_setup()
        session = rig.table.session
        assert session is not None
        presses = 0
        frames: set[bytes] = set()
        for _ in range(200_000):
            if rig.table.state is Mode.GAME_OVER:
                break
            player = session.player
            human = player is not None and session.kinds.get(player) == "human"
            if human and rig.table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE):
                seat = session.seats[player]
                if rig.table.state is Mode.CHOOSE and presses % 4 == 1:
                    rig.press(seat, "next")
                rig.press(seat, "ok")
                presses += 1
                frames.add(rig.frame().tobytes())
            else:
                rig.wait()
        else:
            pytest.fail("the game did not end")
        assert session.state.is_terminal() and presses > 20
        assert len(frames) > 10, "the panel changed as the game went on"
    finally:
        rig.close()
