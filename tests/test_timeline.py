"""The picture in time: the real loop with a fake clock, every frame recorded with the
moment it reached the panel.

What is checked: the loop draws exactly when the picture changes and never otherwise
(every frame differs from the one before, and no picture was drawn in vain); the menu
label scrolls on schedule and comes back to its start; a preview blinks with its
period and its first frame shows it; the countdown steps down every second and "time!"
never covers a move; the panel falls asleep, draws nothing while asleep, and the press
that wakes it does nothing else.

The timelines are also drawn as PNG strips in ``docs/img/timeline_*.png``, by
``tests/docs_pictures.py`` (which runs these tests to get them).
"""

from __future__ import annotations

import pytest
from PIL import Image

import rules
from controller import views
from controller.machine import Mode
from controller.scene import MenuItem
from controller.session import Session
from controller.table import TableOptions
from controller.views import palette, text
from tests.timeline import Frame, Timeline, strip

TITLE = "Mensch ärgere dich nicht"
MENU = (MenuItem("maedn", "classic", TITLE), MenuItem("backgammon", "single", "Backgammon"))


def options(**kw: object) -> TableOptions:
    kw.setdefault("bot", "random")
    kw.setdefault("menu", MENU)
    return TableOptions(**kw)  # type: ignore[arg-type]


def times(frames: list[Frame], start: float) -> list[float]:
    return [round(f.at - start, 3) for f in frames]


def assert_each_frame_is_news(line: Timeline) -> None:
    """Every frame differs from the one before, and every picture drawn was shown."""
    for before, after in zip(line.frames, line.frames[1:], strict=False):
        assert before.image.tobytes() != after.image.tobytes(), after.at
    assert line.loop.renders == len(line.frames)


STRIPS: dict[str, Image.Image] | None = None
"""Where the README's strips go while ``tests/docs_pictures.py`` runs these tests."""


def save_strip(name: str, frames: list[Frame], start: float, scale: int = 8) -> None:
    if STRIPS is not None:
        STRIPS[name] = strip(frames, start, scale=scale)


def pixels(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, ...]]:
    x0, y0, x1, y1 = box
    rgb = image.convert("RGB")
    return {rgb.getpixel((x, y)) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}  # type: ignore[misc]


# -- the menu --------------------------------------------------------------------------


def test_menu_label_scrolls_on_schedule_and_comes_back_to_its_start() -> None:
    overflow = text.text_width(TITLE, text.TINY) - 16
    step = 1 / text.SCROLL_PX_PER_S
    cycle = text.HOLD_START_S + overflow * step + text.HOLD_END_S
    assert cycle <= 10.0, "the whole title passes within 10 s"
    line = Timeline(options())
    start = line.now
    line.run_for(2 * cycle + 0.01)
    frames = line.since(start)
    # held at its first letters, then one pixel a step, then held at its end
    expected = [0.0] + [text.HOLD_START_S + k * step for k in range(1, overflow + 1)]
    assert times(frames, start)[: len(expected)] == pytest.approx(expected, abs=1e-6)
    again = next(f for f in frames if f.at > start + cycle - 1e-6)
    assert again.at - start == pytest.approx(cycle)
    assert again.image.tobytes() == frames[0].image.tobytes()  # back to its start
    assert len(frames) == 2 * (overflow + 1) + 1  # two passes, the third begun: nothing else
    assert_each_frame_is_news(line)
    save_strip("menu", [*frames[: overflow + 2 : 4], again], start)


def test_next_in_the_menu_starts_the_new_label_at_its_beginning() -> None:
    line = Timeline(options())
    line.run_for(4.33)  # mid-scroll
    shown = len(line.frames)
    line.tap(0, "next")
    pressed = line.now
    assert len(line.frames) == shown + 1
    first = line.frames[-1]
    assert first.at == pressed
    expected = views.render(line.table.scene(), 16, 16, "RGB")
    assert first.image.tobytes() == expected.tobytes()
    line.run_for(0.9)
    assert line.frames[-1] is first  # "Backgammon" holds at its start


# -- the NEXT preview ------------------------------------------------------------------


def choosing_table(size: int = 32) -> Timeline:
    """MÄDN, red to move a 2 with three pieces out: three legal moves."""
    line = Timeline(options(), size=size)
    session = Session.start("maedn", "classic", ["human", "empty", "human", "empty"], seed=1)
    session.state = rules.state_from_json(
        {
            "game": "maedn",
            "preset": "classic",
            "players": ["red", "green"],
            "turn": "red",
            "pieces": {"red": [3, 12, 25, "home"], "green": ["home"] * 4},
        }
    )
    line.table.start_session(session)
    line.step()
    line.table.roll_now((2,))
    line.step()
    line.run_until(lambda: line.table.state is Mode.CHOOSE)
    return line


def cell(progress: int) -> tuple[int, int, int, int]:
    """The 32×32 box of red's track field ``progress``."""
    geo = rules.get_game("maedn").geometry  # type: ignore[attr-defined]
    ring = (geo.start_of("red") + progress) % geo.ring
    return views.cell_box("maedn", 32, 32, geo.ring_cells[ring])


def test_preview_blinks_with_its_period_and_restarts_with_each_next() -> None:
    line = choosing_table()
    start = line.now
    line.run_for(1.1)
    assert times(line.since(start), start) == [0.0, 0.25, 0.5, 0.75, 1.0]
    red = palette.seat_colour("red")
    on, off = line.since(start)[:2]
    assert red in pixels(on.image, cell(3)) and palette.TARGET in pixels(on.image, cell(5))
    assert red not in pixels(off.image, cell(3)) and palette.TARGET in pixels(off.image, cell(5))
    # NEXT in the middle of a dark phase: the new preview shows at once, lit, and its
    # blink counts from the press
    line.run_for(0.3)
    pressed = line.now
    line.tap(0, "next")
    line.run_for(0.8)
    after = line.since(pressed)
    assert times(after, pressed) == [0.0, 0.25, 0.5, 0.75]
    assert red in pixels(after[0].image, cell(12)) and palette.TARGET in pixels(
        after[0].image, cell(14)
    )
    assert red not in pixels(after[1].image, cell(12))
    assert_each_frame_is_news(line)
    save_strip("preview", line.since(start), start, scale=4)


def test_every_first_frame_after_next_shows_the_preview() -> None:
    """Whatever the phase of the clock, the frame at the press shows the new target."""
    line = choosing_table()
    moves = list(line.table.choice.moves)
    for press in range(12):
        line.run_for(0.07 * (press % 5) + 0.03)
        pressed = line.now
        line.tap(0, "next")
        move = moves[line.table.choice.cursor]
        frame = line.since(pressed)[0]
        assert frame.at == pressed
        target = cell(move.to_progress)  # type: ignore[attr-defined]
        assert palette.TARGET in pixels(frame.image, target), (press, move)


# -- the move timer ----------------------------------------------------------------------


def lingo_timer_table() -> tuple[Timeline, Session]:
    line = Timeline(options())
    session = Session.start("maedn", "lingo", ["human", "bot", "human", "bot"], seed=5)
    session.state = rules.get_game("maedn", "lingo").new_state(4, first="red")
    line.table.start_session(session)
    line.step()
    line.table.roll_now((6,))  # red may enter, or pass
    line.step()
    line.run_until(lambda: line.table.state is Mode.CHOOSE)
    return line, session


def bar_lit(image: Image.Image) -> int:
    """Lit pixels of the 16×16 MÄDN timer bar (top edge, x 2..12) in red."""
    red = palette.seat_colour("red")
    rgb = image.convert("RGB")
    return sum(rgb.getpixel((x, 0)) == red for x in range(2, 13))


def test_countdown_shrinks_every_second_and_time_never_hides_a_move() -> None:
    line, session = lingo_timer_table()
    start = line.now
    moves_before = len(session.history)
    line.run_for(4.999)
    per_second = []
    for second in range(5):
        shown = [f for f in line.since(start) if start + second <= f.at < start + second + 1]
        assert shown, second
        per_second.append(bar_lit(shown[-1].image))
        assert len({bar_lit(f.image) for f in shown}) <= 2  # steady (or blinking) within
    assert per_second == sorted(per_second, reverse=True) and len(set(per_second)) == 5
    # the timer runs out: "time!" stands over a still board, then the pass happens
    line.run_for(0.002)
    assert line.table.banner.text == "time!"
    line.tap(0, "ok")  # too late: the press changes nothing
    assert len(session.history) == moves_before and line.table.state is Mode.CHOOSE
    line.run_until(lambda: len(session.history) > moves_before, limit=5.0)
    assert line.now - (start + 5.0) == pytest.approx(line.table.options.time_up_s)
    assert line.table.banner.text is None, "the banner is gone before anything moves"
    assert session.history[-1]["move"] == "pass"
    save_strip("countdown", line.since(start)[::2], start)


# -- sleep -----------------------------------------------------------------------------


def test_the_panel_sleeps_and_the_waking_press_does_nothing_else() -> None:
    line = Timeline(options(sleep_after_s=600.0))
    start = line.now
    line.run_for(599.0)
    assert not line.table.time.asleep
    line.run_for(2.0)
    assert line.table.time.asleep
    asleep = line.frames[-1]
    assert asleep.at == pytest.approx(start + 600.0)
    brightest = max(high for _, high in asleep.image.convert("RGB").getextrema())  # type: ignore[misc]
    assert 0 < brightest <= 255 * views.SLEEP_DIM + 1
    frames = len(line.frames)
    line.run_for(3600.0)
    assert len(line.frames) == frames, "nothing is drawn while asleep"
    assert line.next_deadline() is None, "and nothing is due: no CPU"
    line.tap(0, "next")  # wakes the panel, does not move the menu
    assert not line.table.time.asleep and line.table.menu.index == 0
    woke = line.frames[-1]
    assert woke.at == line.now and woke.image.tobytes() == line.frames[0].image.tobytes()
    line.tap(0, "next")
    assert line.table.menu.index == 1
    save_strip("sleep", [line.frames[0], asleep, woke, line.frames[-1]], start)


def test_a_held_waking_press_is_not_taken_as_a_long_press() -> None:
    line = Timeline(options(sleep_after_s=60.0))
    line.run_for(61.0)
    assert line.table.time.asleep
    line.press(None, "system", "down")
    line.press(None, "system", "held")
    line.run_for(10.0)  # longer than the shutdown hold
    line.press(None, "system", "up")
    assert line.table.state is Mode.MENU and not line.table.stop_requested


def test_the_roll_shows_at_the_press_and_the_cue_blinks_before() -> None:
    """Waiting for red's roll, red's die blinks once a second (the cue); OK starts the
    dice tumbling in the very frame drawn for the press."""
    line = Timeline(options())
    session = Session.start("maedn", "classic", ["human", "bot", "bot", "bot"], seed=2)
    session.state = rules.get_game("maedn", "classic").new_state(4, first="red")
    line.table.start_session(session)
    line.step()
    assert line.table.state is Mode.AWAIT_ROLL
    start = line.now
    line.run_for(2.3)
    cue_changes = [round((f.at - start) % 1.0, 3) for f in line.since(start)[1:]]
    assert 0.5 in cue_changes and 0.0 in cue_changes  # on, off, once a second
    shown = len(line.frames)
    line.tap(0, "ok")
    assert line.table.state is Mode.ROLLING
    assert len(line.frames) == shown + 1 and line.frames[-1].at == line.now
    line.run_for(line.table.options.roll_time_s + 0.01)
    flips = [f for f in line.since(line.now - 0.6) if f.at < line.now]
    assert len(flips) >= 6, "the dice tumble: a frame per flip"
