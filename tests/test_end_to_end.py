"""The table's own path, from pin to LED: whole games played by pressing gpiozero
MockFactory pins, frames taken from luma's dummy device, and the pixels checked against
what the rules state says.

The test thread is the loop thread: it presses pins (gpiozero runs the callbacks, which
only enqueue), then steps the loop. A fake clock drives debounce, animations and bots,
so there is no sleeping and no timing flakiness.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import rules
from controller import views
from controller.machine import Mode
from controller.testing.files import SEAT_PINS
from controller.testing.rig import SHORT_ANIMATIONS, ApplianceRig
from controller.views import palette
from rules.track.engine import MaednState

TableAtPins = Callable[..., ApplianceRig]


@pytest.fixture
def table_at_pins(tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]) -> TableAtPins:
    """Builds started appliances on ``tmp_path`` with short animations:
    ``table_at_pins(size, players=(...))``."""

    def build(size: int = 16, players: tuple[str, ...] = ("human",) * 4) -> ApplianceRig:
        rig = appliance_rig(tmp_path, seats=players, size=size, options=SHORT_ANIMATIONS)
        rig.start()
        return rig

    return build


def choose_menu(rig: ApplianceRig, game: str, preset: str) -> None:
    """Pick ``game`` in the menu, then its rule set ``preset`` in setup."""
    table = rig.table
    for _ in range(len(table.options.menu)):
        if table.options.menu[table.menu.index].game == game:
            break
        rig.press(0, "next")
    rig.press(0, "ok")
    assert table.state is Mode.SETUP
    for _ in range(len(rules.presets(game))):
        if table.menu.preset == preset:
            break
        assert table.menu.entry == -1  # the rules entry comes first
        rig.press(0, "ok")
    assert table.menu.preset == preset


def start_from_setup(rig: ApplianceRig) -> None:
    while rig.table.menu.entry != len(rig.table.menu.kinds):
        rig.press(0, "next")  # past every seat to "start"
    rig.press(0, "ok")
    assert rig.table.session is not None


def check_track_pixels(rig: ApplianceRig, state: MaednState, size: int) -> int:
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
    table_at_pins: TableAtPins, game: str, preset: str, size: int
) -> None:
    rig = table_at_pins(size, players=("human", "bot", "human", "bot"))
    choose_menu(rig, game, preset)
    kinds = rig.table.menu.kinds
    assert kinds[:2] == ["human", "bot"]
    start_from_setup(rig)
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
            rig.advance()
    else:
        pytest.fail("the game did not end")
    assert session.state.is_terminal()
    assert presses > 20 and checked > 50
    assert session.history and any("move" in h for h in session.history)
    winner_frame = rig.frame()
    assert winner_frame.getbbox() is not None
    rig.press(0, "ok")
    assert rig.table.state is Mode.MENU


def test_button_bounce_gives_one_press(table_at_pins: TableAtPins) -> None:
    """10 edges within 5 ms on seat 1's NEXT move the menu cursor once."""
    rig = table_at_pins()
    pin = rig.pins.pin(SEAT_PINS[0][1])
    for i in range(10):
        (pin.drive_low if i % 2 == 0 else pin.drive_high)()
        rig.clock.advance(0.0005)
    pin.drive_high()
    rig.clock.advance(0.05)
    rig.settle()
    assert rig.table.menu.index == 1


def test_every_seat_mashing_at_once_is_survived(table_at_pins: TableAtPins) -> None:
    """All 8 seat buttons pressed together, 200 times: only the seat on turn acts, the
    queue stays bounded, and the game goes on."""
    rig = table_at_pins()
    choose_menu(rig, "maedn", "classic")
    start_from_setup(rig)
    session = rig.table.session
    assert session is not None
    for _ in range(200):
        pins = [rig.pins.pin(p) for pair in SEAT_PINS for p in pair]
        for pin in pins:
            pin.drive_low()
        rig.clock.advance(0.03)
        for pin in pins:
            pin.drive_high()
        rig.clock.advance(0.03)
        assert len(rig.app.events) <= rig.app.events.maxsize
        rig.settle()
        rig.advance()
    assert len(session.history) > 20
    assert rig.table.ignored_presses > 0


def test_resume_after_restart_continues_exactly(table_at_pins: TableAtPins) -> None:
    """A second appliance on the same state directory resumes the same position with the
    same dice to come (the RNG state is saved)."""
    rig = table_at_pins(players=("bot",) * 4)
    choose_menu(rig, "maedn", "classic")
    start_from_setup(rig)
    session = rig.table.session
    assert session is not None
    while len(session.history) < 40:
        rig.advance()
    while rig.table.state is not Mode.AWAIT_ROLL:
        rig.advance()
    saved_state = session.state
    next_dice = session.draw_dice.__self__.rng.getstate()  # type: ignore[attr-defined]
    rig.close()  # the state directory is whole before the next start
    again = table_at_pins(players=("bot",) * 4)
    resumed = again.table.session
    assert resumed is not None
    assert resumed.state == saved_state
    assert resumed.rng.getstate() == next_dice
    assert again.table.state is Mode.AWAIT_ROLL


def test_rules_still_pure_under_the_appliance() -> None:
    """Sanity: the appliance uses the registry's games, not copies."""
    assert rules.get_game("maedn") is rules.get_game("maedn", "classic")


def test_minimaki_solitaire_by_pins_red_shows_where_the_rules_put_it(
    table_at_pins: TableAtPins,
) -> None:
    """Mini-Maki: seat 1 plays red with its two buttons; black's dice roll by themselves.
    Whenever black is about to roll, red's field is lit in red on the panel."""
    rig = table_at_pins(16, players=("human",))
    choose_menu(rig, "minimaki", "standard")
    start_from_setup(rig)
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
            pixels = {frame.getpixel((x, y)) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
            assert palette.seat_colour("red") in pixels, (state, pixels)
            checked += 1
        if rig.table.state is Mode.CHOOSE and session.player == "red":
            if presses % 2:
                rig.press(0, "next")
            rig.press(0, "ok")
            presses += 1
        else:
            rig.advance()
    else:
        pytest.fail("the game did not end")
    assert session.state.is_terminal() and presses >= 1 and checked >= 1


def test_backgammon_by_pins_to_the_end(table_at_pins: TableAtPins) -> None:
    """Backgammon: seat 1 (white) against a bot, every roll and play pressed on pins;
    the dice shown on the panel change with every roll."""
    rig = table_at_pins(16, players=("human", "bot"))
    choose_menu(rig, "backgammon", "single")
    start_from_setup(rig)
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
            rig.advance()
    else:
        pytest.fail("the game did not end")
    assert session.state.is_terminal() and presses > 20
    assert len(frames) > 10, "the panel changed as the game went on"
