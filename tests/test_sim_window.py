"""The simulator's window under SDL's dummy video driver (no screen needed).

Each drawn button is clicked with synthetic pygame mouse events and must send its seat
event; keys, holds, closing, resizing and screenshots are checked the same way. One
golden screenshot per game (tests/golden/window_<game>.png) pins what the window looks
like; regenerate with ``SPIELTISCH_REGEN_GOLDEN=1`` and look at them before committing.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

import rules
from controller.app import Appliance
from controller.config import default_config
from controller.machine import Mode
from controller.scene import Scene
from controller.session import Session
from controller.sim.status import TableStatus
from controller.sim.window import TableWindow, WindowUnavailable
from controller.sim.window_layout import plan_window
from controller.status_line import table_status
from controller.table import TableOptions
from controller.testing.clock import FakeClock
from controller.views import render
from hardware.display import DisplayClosed, FrameError
from hardware.interfaces import ButtonEvent
from rules.minimaki.engine import Step
from tests.file_events import DirectoryEvents
from tests.views_scenes import kleiner_midgame, maedn_midgame, minimaki_midgame

pygame = pytest.importorskip("pygame")

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("SPIELTISCH_REGEN_GOLDEN") == "1"
SIZE = (720, 640)


class Recorder(list[ButtonEvent]):
    def kinds(self) -> list[tuple[int | None, str, str]]:
        return [(e.seat, e.button, e.kind) for e in self]


@pytest.fixture
def window(fake_clock: FakeClock) -> Iterator[TableWindow]:
    table_window = TableWindow(16, 16, size=SIZE, clock=fake_clock)
    table_window.show(Image.new("RGB", (16, 16), (200, 40, 40)))
    yield table_window
    table_window.close()


def click(window: TableWindow, pos: tuple[int, int], clock: FakeClock, hold: float = 0.0) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    window.poll()
    if hold:
        clock.advance(hold)
        window.poll()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    window.poll()


def test_every_drawn_button_sends_its_seat_event(
    window: TableWindow, fake_clock: FakeClock
) -> None:
    events = Recorder()
    window.start(events.append)
    layout = window.layout
    assert set(layout.buttons) == {
        (seat, button) for seat in range(4) for button in ("ok", "next")
    } | {(None, "system")}
    picture = window.picture()
    looks = window.status.seats
    for (seat, button), circle in layout.buttons.items():
        # the button is drawn where it is clicked: its face is in the seat's colour
        face = picture.getpixel((circle.x - circle.r * 2 // 3, circle.y))
        if seat is not None:
            assert face == looks[seat].colour, (seat, button)
        events.clear()
        click(window, (circle.x, circle.y), fake_clock)
        assert events.kinds() == [(seat, button, "down"), (seat, button, "up")]
    events.clear()
    board = layout.board
    click(window, (board.x + board.w // 2, board.y + board.h // 2), fake_clock)
    assert events == [], "the board is not a button"


def test_a_button_held_down_is_a_long_press(window: TableWindow, fake_clock: FakeClock) -> None:
    events = Recorder()
    window.start(events.append)
    circle = window.layout.buttons[(None, "system")]
    click(window, (circle.x, circle.y), fake_clock, hold=1.2)
    assert events.kinds() == [
        (None, "system", "down"),
        (None, "system", "held"),
        (None, "system", "up"),
    ]


def test_keys_work_in_the_window_too(window: TableWindow) -> None:
    events = Recorder()
    window.start(events.append)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_w))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z))  # no button
    window.poll()
    assert events.kinds() == [(1, "ok", "down"), (1, "ok", "up")]


@pytest.mark.parametrize("event", ["quit", "escape"])
def test_closing_the_window_stops_the_table(window: TableWindow, event: str) -> None:
    if event == "quit":
        pygame.event.post(pygame.event.Event(pygame.QUIT))
    else:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
    with pytest.raises(DisplayClosed):
        window.poll()


@pytest.mark.parametrize("size", [(360, 320), (800, 600), (1400, 700), (600, 1000)])
def test_resizing_keeps_leds_square_and_everything_inside(
    window: TableWindow, size: tuple[int, int]
) -> None:
    window.resize(size)
    layout = window.layout
    board = layout.board
    assert board.w == board.h == layout.pitch * 16, "LEDs stay square"
    assert window.picture().size == size
    for key, circle in layout.buttons.items():
        assert circle.x - circle.r >= 0 and circle.x + circle.r <= size[0], key
        assert circle.y - circle.r >= 0 and circle.y + circle.r <= layout.status.y, key
        nearest_x = min(max(circle.x, board.x), board.x + board.w)
        nearest_y = min(max(circle.y, board.y), board.y + board.h)
        assert (nearest_x - circle.x) ** 2 + (nearest_y - circle.y) ** 2 > circle.r**2, key
    assert layout.status.y >= board.y + board.h


def test_leds_are_round_with_a_glow(window: TableWindow) -> None:
    window.show(Image.new("RGB", (16, 16), (255, 255, 255)))
    picture = window.picture()
    board, pitch = window.layout.board, window.layout.pitch
    x, y = board.x + 5 * pitch, board.y + 5 * pitch  # the corner of LED (5, 5)
    centre = picture.getpixel((x + pitch // 2, y + pitch // 2))
    corner = picture.getpixel((x, y))
    assert centre == (255, 255, 255)
    assert 60 < corner[0] < 200, "between the LEDs: only the glow"  # type: ignore[index]


def test_the_status_line_draws_an_arrow_not_a_dash_and_bracket(window: TableWindow) -> None:
    """pygame's font has no "→"; the window wrote "->" where the terminal and the page
    showed the arrow. Now it draws one: the line differs from the "->" one, and from
    one with a blank there."""
    status = window.layout.status
    box = (status.x, status.y, status.x + status.w, status.y + status.h)

    def line(text: str) -> Image.Image:
        window.show_status(TableStatus(text))
        return window.picture().crop(box)

    arrow = line("piece on 10 → 11")
    assert ImageChops.difference(arrow, line("piece on 10 -> 11")).getbbox() is not None
    assert ImageChops.difference(arrow, line("piece on 10   11")).getbbox() is not None


def test_frames_of_the_wrong_size_are_refused(window: TableWindow) -> None:
    with pytest.raises(FrameError, match="8x8"):
        window.show(Image.new("RGB", (8, 8)))


def test_f12_and_exit_write_the_whole_window_as_png(tmp_path: Path, fake_clock: FakeClock) -> None:
    shot = tmp_path / "shot.png"
    table_window = TableWindow(16, 16, size=SIZE, clock=fake_clock, screenshot=shot)
    table_window.show(Image.new("RGB", (16, 16), (0, 90, 200)))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12))
    table_window.poll()
    assert Image.open(shot).size == SIZE
    assert table_window.screenshots == 1
    table_window.close()
    assert table_window.screenshots == 1, "F12 was pressed: exit does not overwrite it"
    at_exit = tmp_path / "exit.png"
    table_window = TableWindow(16, 16, size=(500, 450), clock=fake_clock, screenshot=at_exit)
    table_window.close()
    assert Image.open(at_exit).size == (500, 450)


def test_f12_without_a_file_writes_a_time_stamped_png_here_and_says_where(
    tmp_path: Path, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ``--screenshot``: F12 writes ``spieltisch-DATE-TIME.png`` in the current
    directory, a second F12 in the same second a second file, and each time the
    window's hint line and the terminal are told the path."""
    import re

    monkeypatch.chdir(tmp_path)
    said: list[str] = []
    table_window = TableWindow(16, 16, size=SIZE, clock=fake_clock, say=said.append)
    try:
        table_window.show(Image.new("RGB", (16, 16), (0, 90, 200)))
        before = table_window.picture()
        for _ in range(2):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12))
            table_window.poll()
        shots = sorted(tmp_path.glob("*.png"))
        assert len(shots) == 2
        for shot in shots:
            assert re.fullmatch(r"spieltisch-\d{4}-\d\d-\d\d-\d{6}(-2)?\.png", shot.name)
            assert Image.open(shot).size == SIZE
        assert sorted(said) == sorted(f"screenshot saved to {shot}" for shot in shots)
        hint = ImageChops.difference(before, table_window.picture()).getbbox()
        assert hint is not None and hint[1] > SIZE[1] * 3 // 4, "the hint line says where"
        fake_clock.advance(10)
        table_window.show(Image.new("RGB", (16, 16), (0, 90, 200)))
        assert ImageChops.difference(before, table_window.picture()).getbbox() is None
    finally:
        table_window.close()
    assert len(list(tmp_path.glob("*.png"))) == 2, "closing writes no screenshot of its own"


def test_a_screenshot_appears_whole_under_its_name(
    tmp_path: Path, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F12 wrote the PNG in place, and a picture opened at once (by a person, or the
    window test) was half there: "image file is truncated". Both F12's time-stamped
    file and ``--screenshot FILE`` (replaced at exit) now appear by a rename, never
    written under their own names, and no temporary file is left."""
    monkeypatch.chdir(tmp_path)
    shot = tmp_path / "shot.png"
    shot.write_bytes(b"an older picture")
    events = DirectoryEvents(tmp_path)
    try:
        table_window = TableWindow(16, 16, size=SIZE, clock=fake_clock)
        table_window.show(Image.new("RGB", (16, 16), (0, 90, 200)))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12))
        table_window.poll()
        table_window.close()
        table_window = TableWindow(16, 16, size=SIZE, clock=fake_clock, screenshot=shot)
        table_window.close()  # --screenshot FILE without F12: the picture at exit
        names = events.names()
    finally:
        events.close()
    (stamped,) = tmp_path.glob("spieltisch-*.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([stamped.name, "shot.png"])
    assert names.get(stamped.name) == ["moved_to"]
    assert names.get("shot.png") == ["moved_to"]
    for picture in (stamped, shot):
        assert Image.open(picture).size == SIZE


def test_a_screenshot_that_cannot_be_written_is_said(tmp_path: Path, fake_clock: FakeClock) -> None:
    said: list[str] = []
    target = tmp_path / "missing" / "shot.png"
    table_window = TableWindow(
        16, 16, size=SIZE, clock=fake_clock, screenshot=target, say=said.append
    )
    try:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12))
        table_window.poll()
    finally:
        table_window.screenshot_path = None
        table_window.close()
    assert len(said) == 1 and said[0].startswith("screenshot not saved: ")


@pytest.fixture
def windowed_app(fake_clock: FakeClock) -> Iterator[tuple[TableWindow, Appliance]]:
    """The window as the appliance's display and input, on the fake clock, not started."""
    table_window = TableWindow(16, 16, size=SIZE, clock=fake_clock)
    app = Appliance(
        default_config(),
        display=table_window,
        inputs=[table_window],
        sound=None,
        state_dir=None,
        render=render,
        clock=fake_clock,
        bot_thread=False,
        options=TableOptions(bot="random"),
    )
    yield table_window, app
    app.close()


def test_a_click_plays_at_the_table(windowed_app: tuple[TableWindow, Appliance]) -> None:
    """The window as the appliance's display and input: a click on seat 1's OK in the
    menu chooses the game, and the status line follows."""
    table_window, app = windowed_app
    table_window.status_source = app.table.status
    app.start()
    app.loop.draw()
    assert table_window.status.text.startswith("menu: ")
    circle = table_window.layout.buttons[(0, "ok")]
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(circle.x, circle.y), button=1)
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(circle.x, circle.y), button=1))
    for _ in range(4):
        app.loop.step(timeout_cap=0)
    assert app.table.state is Mode.SETUP
    assert "NEXT: next entry" in table_window.status.text


# -- golden screenshots, one frame of each game ------------------------------------------


def session_for(game: str, state: rules.State, kinds: list[str]) -> Session:
    players = list(state.to_json()["players"])
    seats = {p: i * (4 // len(players)) for i, p in enumerate(players)}
    chosen = dict(zip(players, kinds, strict=True))
    return Session(game, state.game.preset, state, seats, chosen, random.Random(1))


def golden_frames() -> dict[str, tuple[Scene, Session, Mode, tuple[int, int] | None]]:
    maedn = maedn_midgame("classic")
    kleiner = kleiner_midgame()
    backgammon = rules.get_game("backgammon").new_state().roll((3, 1))
    play = next(m for m in backgammon.legal_moves() if m.notation == "8/5 6/5")
    mini = minimaki_midgame()
    return {
        "maedn": (
            Scene(maedn, 1.0, preview=maedn.legal_moves()[0], dice=(3,)),
            session_for("maedn", maedn, ["human", "bot", "bot", "bot"]),
            Mode.CHOOSE,
            (0, 1),
        ),
        "kleiner_aerger": (
            Scene(kleiner, 1.0, preview=kleiner.legal_moves()[0], dice=(4,)),
            session_for("kleiner_aerger", kleiner, ["human", "human"]),
            Mode.CHOOSE,
            (0, len(kleiner.legal_moves())),
        ),
        "backgammon": (
            Scene(backgammon, 1.0, preview=play, dice=(3, 1)),
            session_for("backgammon", backgammon, ["human", "bot"]),
            Mode.CHOOSE,
            (0, len(backgammon.legal_moves())),
        ),
        "minimaki": (
            Scene(mini, 1.0, dice=(2, 5), preview=Step((4, 3), (3, 3)), hint=Step((4, 3), (3, 4))),
            session_for("minimaki", mini, ["human"]),
            Mode.CHOOSE,
            (1, len(mini.legal_moves())),
        ),
    }


@pytest.mark.parametrize("game", ["maedn", "kleiner_aerger", "backgammon", "minimaki"])
def test_golden_window(game: str, fake_clock: FakeClock) -> None:
    scene, session, mode, choice = golden_frames()[game]
    status: TableStatus = table_status(mode, scene, session, seat_count=4, choice=choice)
    table_window = TableWindow(16, 16, size=SIZE, clock=fake_clock, status=lambda: status)
    table_window.show(render(scene, 16, 16, "RGB"))  # type: ignore[arg-type]
    picture = table_window.picture()
    table_window.close()
    path = GOLDEN / f"window_{game}.png"
    if REGEN:
        picture.save(path)
    assert path.exists(), f"no golden {path.name}; regenerate with SPIELTISCH_REGEN_GOLDEN=1"
    golden = Image.open(path).convert("RGB")
    assert golden.size == picture.size
    # Font rasterising may differ by a shade between FreeType builds; the picture may not.
    difference = ImageChops.difference(golden, picture)
    assert max(ImageStat.Stat(difference).mean) < 0.5, f"{path.name} changed"
    changed = sum(difference.convert("L").histogram()[49:])
    assert changed < picture.width * picture.height // 500, f"{path.name} changed"


def test_plan_window_is_a_pure_function_of_the_sizes() -> None:
    assert plan_window((720, 640), 16, 16) == plan_window((720, 640), 16, 16)
    small = plan_window((100, 100), 16, 16)
    assert small.size == (360, 320), "never smaller than the window's minimum"


def test_screenshot_needs_the_window(capsys: pytest.CaptureFixture[str]) -> None:
    from controller.cli import main

    assert main(["sim", "--display", "terminal", "--screenshot", "x.png"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--screenshot writes the window" in err


def test_no_window_to_be_had_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.display.quit()
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    with pytest.raises(WindowUnavailable, match=r"cannot open a window.*--display terminal"):
        TableWindow(16, 16, size=SIZE)


def test_a_window_drawn_nowhere_counts_as_no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no X server, SDL quietly falls back to drawing off screen: nobody would see
    the table, so the simulator is told there is no window (and plays in the terminal)."""
    pygame.display.quit()
    monkeypatch.delenv("SDL_VIDEODRIVER")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("DISPLAY", ":9999")  # no X server there
    with pytest.raises(WindowUnavailable, match="--display terminal"):
        TableWindow(16, 16, size=SIZE)


# -- item-8 defects: the first frame at once, labels that scale ------------------------------


def test_seat_labels_are_as_big_at_32_leds_as_at_16() -> None:
    """At ``--size 32`` the LEDs are half as big as at 16 in the same window; the seats'
    labels grew with the LEDs and came out tiny. They follow the board now."""
    from controller.sim.window_layout import label_size

    for size in (SIZE, (1100, 1000)):
        at_16 = label_size(plan_window(size, 16, 16))
        at_32 = label_size(plan_window(size, 32, 32))
        assert abs(at_32 - at_16) <= 1, "the boards differ by the rounding of their LEDs"
        assert at_32 >= 20


def test_the_first_frame_is_in_the_window_before_the_loop_runs(
    windowed_app: tuple[TableWindow, Appliance],
) -> None:
    """The window showed black until the loop's first iterations: the table's first
    picture is drawn, flipped and on screen as soon as the appliance starts."""
    table_window, app = windowed_app
    app.start()
    app.loop.first_frame()
    board = table_window.layout.board
    shown = table_window.picture().crop((board.x, board.y, board.x + board.w, board.y + board.h))
    assert shown.convert("L").getextrema()[1] > 60, "the board is still dark"


def test_a_window_the_system_shows_or_uncovers_is_drawn_again(window: TableWindow) -> None:
    """A picture flipped before the window system put the window on screen is lost; the
    window draws itself again when told it is shown or uncovered."""
    window._surface.fill((0, 0, 0))  # as if the first flip never reached the screen
    for name in ("WINDOWSHOWN", "WINDOWEXPOSED"):
        if hasattr(pygame, name):
            pygame.event.post(pygame.event.Event(getattr(pygame, name)))
    window.poll()
    board = window.layout.board
    assert window.picture().getpixel((board.x + board.w // 2, board.y + board.h // 2))[0] > 100
