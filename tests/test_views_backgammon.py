"""Backgammon views: golden PNGs of every layout, and pixel checks that the frames show
what the rules state says (points, stacks, bar, trays, dice, cube, previews, animation).

Golden pictures live in ``tests/golden/backgammon_*.png`` (the scaled-up copies in the
README, ``docs/img/backgammon_*.png``, are drawn by ``tests/docs_pictures.py``). They
are only (re)written on purpose::

    SPIELTISCH_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_views_backgammon.py

Look at the changed pictures before committing them.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import rules
from controller import views
from controller.games.backgammon import view_dice, view_layout
from controller.games.backgammon.view_frame import (
    BLACK_BAR,
    BLACK_OFF,
    WHITE_BAR,
    WHITE_OFF,
    animated_frame,
)
from controller.i18n import _
from controller.scene import CheckerEntryView, MoveAnimation, RollAnimation, Scene, Standing
from controller.views import palette
from controller.views.palette import WHITE
from rules.backgammon.engine import (
    DOUBLE_ACTION,
    DROP_ACTION,
    ROLL_ACTION,
    TAKE_ACTION,
    BackgammonGame,
    BackgammonState,
)
from rules.core import Move
from tests.golden_check import GOLDEN_LANGUAGES, check_golden

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("SPIELTISCH_REGEN_GOLDEN") == "1"
SIZES = [(32, 32, "RGB"), (16, 16, "RGB"), (32, 8, "1")]
ORANGE = view_layout.SIDE["white"]
SKY = view_layout.SIDE["black"]
STEADY_T = 2.1
"""A moment outside the 16×16 identification dips, in the preview's on phase and in
black's visible phase on 32×8."""
OFF_T = 2.3
"""The preview's off phase (sources hidden, targets lit)."""


def bg(
    white: dict[int, int],
    black: dict[int, int],
    preset: str = "money",
    **fields: Any,
) -> BackgammonState:
    """A position from point -> count maps, each side numbering its own points 1–24
    (``25`` is that side's bar)."""
    points = {"white": [0] * 24, "black": [0] * 24}
    bar = {"white": 0, "black": 0}
    for colour, spots in (("white", white), ("black", black)):
        for point, count in spots.items():
            if point == 25:
                bar[colour] = count
            else:
                points[colour][point - 1] = count
    data: dict[str, Any] = {"game": "backgammon", "preset": preset, "points": points, "bar": bar}
    data.update(fields)
    state = rules.state_from_json(data)
    assert isinstance(state, BackgammonState)
    return state


START_POINTS = {6: 5, 8: 3, 13: 5, 24: 2}


def midgame() -> BackgammonState:
    """White on roll with 6-3 and a checker on the bar; a tall stack of eight on white's
    6 point; a black blot on white's 22 point; black has borne off three; black owns
    the cube at 2."""
    return bg(
        {6: 8, 8: 2, 13: 3, 24: 1, 25: 1},
        {3: 1, 6: 4, 7: 2, 8: 2, 23: 3},
        turn="white",
        phase="move",
        dice=[6, 3],
        cube=2,
        cube_owner="black",
    )


def hitting_play(state: BackgammonState) -> Move:
    """bar/22* 13/7: enter with a hit, then a second checker from the 13 point."""
    return state.parse_move("bar/22* 13/7")


def pending_double() -> BackgammonState:
    """White has doubled (cube 1 -> 2); black decides take or drop."""
    return bg(
        {6: 5, 8: 3, 13: 5, 24: 2},
        {6: 5, 8: 3, 13: 5, 24: 2},
        turn="white",
        phase="take",
    )


def bearing_off() -> BackgammonState:
    """Both sides bearing off: white has 9 off, black 6; black on roll with 4-4."""
    return bg(
        {1: 2, 2: 2, 4: 2},
        {1: 3, 3: 2, 4: 4},
        preset="single",
        turn="black",
        phase="move",
        dice=[4, 4],
    )


def _moving() -> Scene:
    state = midgame()
    play = hitting_play(state)
    return Scene(state, t=STEADY_T, moving=MoveAnimation(play, state, state.apply(play), 0.3))


def _winner() -> Scene:
    before = bg({1: 1}, {1: 3, 3: 4, 5: 2, 20: 1}, preset="single", turn="white")
    before = before.roll((6, 5))
    after = before.apply(before.legal_moves()[0])
    assert after.is_terminal()
    words = (Standing(_("you win!"), "white"),)
    return Scene(after, t=1.3, winner="white", result=words, result_since=1.0)


def _entry() -> Scene:
    """White enters 6-4 checker by checker: 13/7 is fixed, 24/20 is under the cursor
    (the 6 is used up and grey, the 4 in white's colour is the die being played)."""
    state = bg(START_POINTS, START_POINTS, turn="white", phase="move", dice=[6, 4])
    return Scene(state, t=STEADY_T, entry=CheckerEntryView(((12, 6, False),), (23, 19, False)))


SCENES: dict[str, Callable[[], Scene]] = {
    "backgammon": lambda: Scene(midgame(), t=STEADY_T, countdown=3.0, countdown_total=5.0),
    "backgammon_preview": lambda: Scene(midgame(), t=OFF_T, preview=hitting_play(midgame())),
    "backgammon_moving": _moving,
    "backgammon_take": lambda: Scene(pending_double(), t=STEADY_T, preview=TAKE_ACTION),
    "backgammon_rolling": lambda: Scene(
        rules.get_game("backgammon", "money").new_state(),
        t=STEADY_T,
        roll=RollAnimation(final=(5, 2), progress=0.4),
    ),
    "backgammon_bearoff": lambda: Scene(bearing_off(), t=STEADY_T),
    "backgammon_entry": _entry,
    "backgammon_winner": _winner,
}


def rgb(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    value = image.convert("RGB").getpixel(xy)
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


def pixels(image: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    x0, y0, x1, y1 = box
    return [rgb(image, (x, y)) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]


def lit(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return any(p != (0, 0, 0) for p in pixels(image, box))


def shows(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> bool:
    """A checker of ``colour`` (full or the 70 % shade) is drawn in ``box``."""
    return any(p in (colour, palette.scale(colour, view_layout.SHADE)) for p in pixels(image, box))


def render(scene: Scene, size: tuple[int, int, str]) -> Image.Image:
    return views.render(scene, *size)


def box(size: tuple[int, int, str], point: int, slot: int) -> tuple[int, int, int, int]:
    w, h, mode = size
    return views.cell_box("backgammon", w, h, (point, slot), mode)


# -- golden pictures -------------------------------------------------------------------


@pytest.mark.parametrize("language", GOLDEN_LANGUAGES)
@pytest.mark.parametrize(
    ("name", "size"), [(n, s) for n in SCENES for s in SIZES], ids=lambda v: str(v)
)
def test_golden(name: str, size: tuple[int, int, str], language: str) -> None:
    width, height, mode = size
    image = check_golden(
        lambda: render(SCENES[name](), size), f"{name}_{width}x{height}_{mode}", language
    )
    assert image.size == (width, height) and image.mode == mode


def test_views_are_pure_functions_of_the_scene() -> None:
    for name, factory in SCENES.items():
        for size in SIZES:
            assert render(factory(), size).tobytes() == render(factory(), size).tobytes(), name


def test_layouts_16_32_rgb_and_32x8_mono() -> None:
    """Layouts: 16×16 and 32×32 RGB for every game, also 32×8 monochrome for Backgammon."""
    assert sorted(views.layouts()["backgammon"]) == sorted(SIZES)
    with pytest.raises(views.ViewLayoutError) as info:
        views.render(Scene(midgame()), 8, 8, "1")
    assert "\n" not in str(info.value) and "32x8 1" in str(info.value)


def test_bad_cells_are_one_clear_value_error() -> None:
    for cell in [(27, 0), (3, 6), (3, -1), (WHITE_OFF, 15)]:
        with pytest.raises(ValueError, match="Backgammon") as info:
            views.cell_box("backgammon", 32, 32, cell)
        assert "\n" not in str(info.value)


# -- the board -----------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_start_position_shows_every_checker_on_its_point(size: tuple[int, int, str]) -> None:
    """Rule text: "Gespielt wird mit 15 weißen und 15 schwarzen Steinen, deren Aufstellung
    fest vorgegeben ist." Each side: 2 on its 24, 5 on its 13, 3 on its 8, 5 on its 6;
    black's point p is white's 25 - p."""
    game = rules.get_game("backgammon")
    assert isinstance(game, BackgammonGame)
    state = game.new_state(first="white")
    image = render(Scene(state, t=STEADY_T), size)
    mono = size[2] == "1"
    slots = 4 if mono else 5
    stacks = {24: ("white", 2), 13: ("white", 5), 8: ("white", 3), 6: ("white", 5)}
    stacks.update({25 - p: ("black", n) for p, (_, n) in list(stacks.items())})
    for point in range(1, 25):
        side, count = stacks.get(point, ("white", 0))
        for slot in range(slots):
            cell = box(size, point, slot)
            drawn = lit(image, cell) if mono else shows(image, cell, view_layout.SIDE[side])
            assert drawn == (slot < count), (point, slot)


def test_points_numbered_right_to_left_with_the_bar_between_6_and_7() -> None:
    """Rule text: "Die Points werden von rechts nach links durchnumeriert. Zwischen dem 6.
    und 7. Point auf jeder Seite werden die Points durch die so genannte Bar in das Home-
    und das Outer-Board aufgeteilt." White's 1 point is bottom right, its 12 bottom left,
    its 13 top left, its 24 top right; the bar column lies between 6|7 and 18|19."""
    for w, h, mode in SIZES:
        x = {p: views.cell_box("backgammon", w, h, (p, 0), mode)[0] for p in range(0, 26)}
        bottom = [x[p] for p in range(12, 0, -1)]
        top = [x[p] for p in range(13, 25)]
        assert bottom == sorted(bottom) and top == sorted(top) and bottom == top
        assert x[7] < x[BLACK_BAR] < x[6] and x[18] < x[WHITE_BAR] < x[19]
        assert views.cell_box("backgammon", w, h, (1, 0), mode)[3] == h - 1
        assert views.cell_box("backgammon", w, h, (24, 0), mode)[1] == 0


def test_32x32_sides_differ_by_shape() -> None:
    """Colour is never the only cue (controller/views/palette.py). White checkers are solid 2×2
    blocks, black checkers a diagonal pair with two dark LEDs."""
    image = render(Scene(midgame(), t=STEADY_T), SIZES[0])
    white = pixels(image, box(SIZES[0], 13, 0))  # white's 13 point
    black = pixels(image, box(SIZES[0], 19, 0))  # black's 6 point = white's 19
    assert all(p != (0, 0, 0) for p in white)
    assert sum(p == (0, 0, 0) for p in black) == 2
    assert {p for p in black if p != (0, 0, 0)} <= {SKY, palette.scale(SKY, view_layout.SHADE)}


def test_16x16_sides_differ_by_blink_count() -> None:
    """At 16×16 a checker is one LED: white dips once per cycle, black twice."""
    size = SIZES[1]
    state = midgame()
    white_cell, black_cell = box(size, 13, 0), box(size, 19, 0)

    def dips(cell: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
        frames = [
            render(Scene(state, t=i * 0.05), size) for i in range(int(palette.ID_CYCLE_S / 0.05))
        ]
        dim = [not shows(f, cell, colour) for f in frames]
        return sum(1 for a, b in itertools.pairwise(dim) if b and not a) + dim[0]

    assert dips(white_cell, ORANGE) == 1
    assert dips(black_cell, SKY) == 2


def test_32x8_black_blinks_white_is_steady() -> None:
    """Monochrome: the sides are told apart by blink (palette rule)."""
    size = SIZES[2]
    on = render(Scene(midgame(), t=0.1), size)
    off = render(Scene(midgame(), t=0.9), size)
    assert on.mode == "1"
    assert lit(on, box(size, 19, 0)) and not lit(off, box(size, 19, 0))  # black
    assert lit(on, box(size, 13, 0)) and lit(off, box(size, 13, 0))  # white


def test_tall_stack_lights_the_overflow_cue() -> None:
    """Eight checkers on white's 6 point: five drawn, the sixth slot counts three more in
    white at 32×32, one white LED at 16×16; at 32×8 the fourth checker blinks fast."""
    state = midgame()
    big = render(Scene(state, t=STEADY_T), SIZES[0])
    assert pixels(big, box(SIZES[0], 6, 5)).count(WHITE) == 3
    assert all(shows(big, box(SIZES[0], 6, s), ORANGE) for s in range(5))
    small = render(Scene(state, t=STEADY_T), SIZES[1])
    assert pixels(small, box(SIZES[1], 6, 5)) == [WHITE]
    assert WHITE not in pixels(small, box(SIZES[1], 8, 5))  # only two there
    mono = [render(Scene(state, t=t), SIZES[2]) for t in (2.0, 2.2)]
    assert [lit(m, box(SIZES[2], 6, 3)) for m in mono] == [True, False]
    assert all(lit(m, box(SIZES[2], 6, 2)) for m in mono)


def test_hit_checker_waits_on_the_bar() -> None:
    """Backgammon rule text: "Geschlagene Steine werden in die Mitte des Spielfelds auf die Bar
    gesetzt." White's checker on the bar is drawn in the bar's top half, where it
    re-enters; black's hit blot in the bottom half."""
    state = midgame()
    after = state.apply(hitting_play(state))
    for size in SIZES[:2]:
        image = render(Scene(after, t=STEADY_T), size)
        assert shows(image, box(size, BLACK_BAR, 0), SKY)
        assert not shows(image, box(size, WHITE_BAR, 0), ORANGE)
        before = render(Scene(state, t=STEADY_T), size)
        assert shows(before, box(size, WHITE_BAR, 0), ORANGE)


def test_borne_off_checkers_fill_the_trays() -> None:
    """Backgammon rule text: checkers leave into "Feld null"; the trays count them, white's at the
    bottom right, black's at the top right."""
    state = bearing_off()  # white 9 off, black 6 off
    for size in SIZES:
        image = render(Scene(state, t=STEADY_T), size)
        white = [lit(image, box(size, WHITE_OFF, s)) for s in range(15)]
        black = [lit(image, box(size, BLACK_OFF, s)) for s in range(15)]
        assert white == [True] * 9 + [False] * 6, size
        assert black == [True] * 6 + [False] * 9, size


def test_32x32_tray_counts_in_columns_of_five() -> None:
    xs = {views.cell_box("backgammon", 32, 32, (WHITE_OFF, s))[0] for s in range(15)}
    assert len(xs) == 3
    rows = [views.cell_box("backgammon", 32, 32, (WHITE_OFF, s))[1] for s in range(5)]
    assert rows == [31, 29, 27, 25, 23]


# -- preview and hint ------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_preview_blinks_sources_and_lights_targets(size: tuple[int, int, str]) -> None:
    """A bot's whole play (bar/22* 13/7) previews as: both moving checkers blink, their
    targets light steadily; the blot hit on 22 makes way for the hitter's target and
    its place on the bar lights in its colour."""
    state = midgame()
    play = hitting_play(state)
    on = render(Scene(state, t=STEADY_T if size[2] == "RGB" else 0.1, preview=play), size)
    off = render(Scene(state, t=OFF_T if size[2] == "RGB" else 0.3, preview=play), size)
    bar_source = box(size, WHITE_BAR, 0)
    top_of_13 = box(size, 13, 2)
    target_7 = box(size, 7, 0)
    target_22 = box(size, 22, 0)
    blot_to_bar = box(size, BLACK_BAR, 0)
    if size[2] == "1":
        assert lit(on, bar_source) and not lit(off, bar_source)
        assert lit(on, top_of_13) and not lit(off, top_of_13)
        assert lit(on, target_7) and lit(off, target_7)
        assert lit(on, target_22) and lit(off, target_22)
        assert lit(on, blot_to_bar) and lit(off, blot_to_bar)
        return
    assert shows(on, bar_source, ORANGE) and not shows(off, bar_source, ORANGE)
    assert shows(on, top_of_13, ORANGE) and not shows(off, top_of_13, ORANGE)
    assert shows(on, box(size, 13, 1), ORANGE) and shows(off, box(size, 13, 1), ORANGE)
    for image in (on, off):
        assert palette.TARGET in pixels(image, target_7)
        assert palette.TARGET in pixels(image, target_22)
        assert shows(image, blot_to_bar, SKY)


def test_preview_of_a_double_moves_four_checkers() -> None:
    """Backgammon rule text: "Würfelt man einen Pasch ... so wird die gewürfelte Augenzahl doppelt
    gezogen": a 4-4 play bearing off four checkers lights four tray slots."""
    state = bearing_off()
    play = next(m for m in state.legal_moves() if m.notation == "4/off(4)")
    size = SIZES[0]
    off = render(Scene(state, t=OFF_T, preview=play), size)
    targets = [palette.TARGET in pixels(off, box(size, BLACK_OFF, s)) for s in range(15)]
    assert sum(targets) == 4 and targets[6:10] == [True] * 4, play.notation


def test_hint_lights_targets_in_the_hint_colour() -> None:
    state = midgame()
    image = render(Scene(state, t=OFF_T, hint=hitting_play(state)), SIZES[0])
    assert palette.HINT in pixels(image, box(SIZES[0], 7, 0))
    assert shows(image, box(SIZES[0], WHITE_BAR, 0), ORANGE)  # a hint does not blink


# -- move animation --------------------------------------------------------------------


def test_moving_checkers_step_point_by_point_and_the_hit_blot_flashes_on_the_bar() -> None:
    """Moving pieces step field by field; captured pieces flash home. The play
    bar/22* 13/7 enters on 22 (hitting), then a checker walks 13 -> 7."""
    state = midgame()
    play = hitting_play(state)
    after = state.apply(play)
    seen: list[int] = []
    for i in range(60):
        frame = animated_frame(MoveAnimation(play, state, after, i / 60))
        if frame.walker is not None and (not seen or seen[-1] != frame.walker[1]):
            seen.append(frame.walker[1])
    assert seen == [WHITE_BAR, 24, 23, 13, 12, 11, 10, 9, 8]
    size = SIZES[0]
    flashes = [
        shows(
            render(Scene(state, t=t, moving=MoveAnimation(play, state, after, 0.9)), size),
            box(size, BLACK_BAR, 0),
            SKY,
        )
        for t in (2.0, 2.125)
    ]
    assert flashes == [True, False]
    early = render(Scene(state, t=STEADY_T, moving=MoveAnimation(play, state, after, 0.05)), size)
    assert shows(early, box(size, 22, 0), SKY)  # the blot is still there
    done = render(Scene(state, t=STEADY_T, moving=MoveAnimation(play, state, after, 1.0)), size)
    assert shows(done, box(size, 7, 0), ORANGE) and shows(done, box(size, 22, 0), ORANGE)


def test_walking_checker_is_drawn_on_top_of_the_stack_it_passes() -> None:
    state = midgame()
    play = hitting_play(state)
    after = state.apply(play)
    size = SIZES[0]
    # Find a frame where the second checker passes over the 8 point (two white there).
    for i in range(100):
        anim = MoveAnimation(play, state, after, i / 100)
        if (walker := animated_frame(anim).walker) is not None and walker[1] == 8:
            image = render(Scene(state, t=STEADY_T, moving=anim), size)
            assert shows(image, box(size, 8, 2), ORANGE)
            return
    raise AssertionError("the checker never passed the 8 point")


def test_bear_off_walks_checkers_into_the_tray_one_by_one() -> None:
    """4/off(4): each checker walks 4, 3, 2, 1 and then lands in black's tray."""
    state = bearing_off()
    play = state.parse_move("4/off(4)")
    after = state.apply(play)
    frames = [animated_frame(MoveAnimation(play, state, after, i / 100)) for i in range(101)]
    trays = [f.counts[1].get(BLACK_OFF, 0) for f in frames]
    assert trays[0] == 6 and trays[-1] == 10 and trays == sorted(trays)
    assert len(set(trays)) == 5
    walked = [f.walker[1] for f in frames if f.walker is not None]
    assert [c for i, c in enumerate(walked) if i == 0 or walked[i - 1] != c][:4] == [
        21,
        22,
        23,
        24,
    ]  # black's 4, 3, 2, 1 points, seen from white


# -- dice, cube, turn, timer -------------------------------------------------------------


def test_dice_show_the_roll_as_pips_and_tumble_in_the_rollers_colour() -> None:
    size = SIZES[0]
    image = render(Scene(midgame(), t=STEADY_T), size)
    x, y = view_layout.LAYOUTS[size].dice_at
    first = pixels(image, (x, y, x + 4, y + 4))
    second = pixels(image, (x + 6, y, x + 10, y + 4))
    assert first.count(WHITE) == 6 and second.count(WHITE) == 3
    start = rules.get_game("backgammon").new_state()
    rolling = render(Scene(start, t=0.0, roll=RollAnimation((5, 2), 0.3)), size)
    opening_first = pixels(rolling, (x, y, x + 4, y + 4))
    opening_second = pixels(rolling, (x + 6, y, x + 10, y + 4))
    assert ORANGE in opening_first and SKY in opening_second  # one die per side
    # The table draws a roll with the state after it (white's 5 beat black's 2, white
    # moves): the tumbling dice still belong one to each side.
    after = start.roll((5, 2))
    rolling_after = render(Scene(after, t=0.0, roll=RollAnimation((5, 2), 0.3)), size)
    assert pixels(rolling_after, (x, y, x + 4, y + 4)) == opening_first
    assert pixels(rolling_after, (x + 6, y, x + 10, y + 4)) == opening_second
    settled = render(Scene(start, t=0.0, roll=RollAnimation((5, 2), 1.0)), size)
    assert pixels(settled, (x, y, x + 4, y + 4)).count(WHITE) == 5


def test_mono_dice_are_stacked_3x3_pip_patterns() -> None:
    image = render(Scene(midgame(), t=STEADY_T), SIZES[2])
    assert sum(lit(image, (19 + c, r, 19 + c, r)) for r in range(3) for c in range(3)) == 6
    assert sum(lit(image, (19 + c, 5 + r, 19 + c, 5 + r)) for r in range(3) for c in range(3)) == 3


def _cube_pixels(image: Image.Image, size: tuple[int, int, str]) -> list[tuple[int, int, int]]:
    lay = view_layout.LAYOUTS[size]
    top = min(lay.cube_top.values())
    return pixels(image, (lay.cube_x[0], top, lay.cube_x[1], max(lay.cube_top.values()) + 4))


def test_cube_owner_colour_and_place() -> None:
    """Cube owned by black: its value in sky blue, pushed to black's (top) side."""
    state = midgame()
    look = view_dice.cube_look(state, None)
    assert look == view_dice.CubeLook(2, "black", SKY)
    for size in SIZES:
        image = render(Scene(state, t=STEADY_T), size)
        cube = _cube_pixels(image, size)
        assert (SKY in cube) if size[2] == "RGB" else any(p != (0, 0, 0) for p in cube)
    assert view_dice.cube_look(bgv_single := bearing_off(), None) is None, bgv_single.game.preset


def test_pending_double_blinks_and_previews_take_and_drop() -> None:
    state = pending_double()
    assert view_dice.cube_look(state, None) == view_dice.CubeLook(2, None, ORANGE, blinking=True)
    assert view_dice.cube_look(state, TAKE_ACTION) == view_dice.CubeLook(
        2, "black", SKY, blinking=True
    )
    assert view_dice.cube_look(state, DROP_ACTION).struck  # type: ignore[union-attr]
    size = SIZES[0]
    on = _cube_pixels(render(Scene(state, t=STEADY_T), size), size)
    off = _cube_pixels(render(Scene(state, t=OFF_T), size), size)
    assert ORANGE in on and ORANGE not in off


def test_double_and_roll_previews_at_the_start_of_a_turn() -> None:
    """Cube actions come at the start of a turn: previewing *double* blinks the doubled
    value; previewing *roll* blinks two empty dice."""
    state = bg({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}, turn="white", phase="double")
    assert set(state.legal_moves()) == {ROLL_ACTION, DOUBLE_ACTION}
    assert view_dice.cube_look(state, DOUBLE_ACTION) == view_dice.CubeLook(
        2, None, ORANGE, blinking=True
    )
    size = SIZES[0]
    x, y = view_layout.LAYOUTS[size].dice_at
    roll_on = render(Scene(state, t=STEADY_T, preview=ROLL_ACTION), size)
    roll_off = render(Scene(state, t=OFF_T, preview=ROLL_ACTION), size)
    assert ORANGE in pixels(roll_on, (x, y, x + 4, y + 4))
    assert not lit(roll_off, (x, y, x + 4, y + 4))


def test_turn_marker_and_countdown_drain() -> None:
    size = SIZES[0]
    state = midgame()
    full = render(Scene(state, t=STEADY_T, countdown=5.0, countdown_total=5.0), size)
    half = render(Scene(state, t=STEADY_T, countdown=2.0, countdown_total=5.0), size)
    column = [(12, y) for y in range(12, 20)]
    assert sum(rgb(full, p) == ORANGE for p in column) == 8
    assert sum(rgb(half, p) == ORANGE for p in column) == 3
    assert pixels(full, view_layout.LAYOUTS[size].turn["white"]) == [ORANGE] * 16
    mono = [
        render(Scene(state, t=STEADY_T, countdown=c, countdown_total=4.0), SIZES[2])
        for c in (4.0, 2.0)
    ]
    assert [sum(lit(m, (31, y, 31, y)) for y in range(4, 8)) for m in mono] == [4, 2]


def test_winner_animation_and_banner() -> None:
    scene = _winner()
    for size in SIZES:
        a = render(scene, size)
        b = render(Scene(scene.state, t=scene.t + 0.2, winner="white"), size)
        assert a.tobytes() != b.tobytes()


def test_the_sides_colours_are_stated_once_by_the_family() -> None:
    """The generic palette names colours, never a game's sides; Backgammon's sides are
    drawn (its own view, the generic pictures and the seat looks) and named in the
    colours its package states once."""
    from controller.games import presentation
    from controller.games.backgammon.sides import SIDE_INKS
    from controller.games.backgammon.view_layout import SIDE
    from controller.status_line import ink_of
    from controller.views.palette import SEAT, side_colour

    assert set(SEAT) == {"red", "blue", "green", "yellow", "orange", "sky", "purple"}
    shown = presentation("backgammon")
    assert shown.side_inks is SIDE_INKS
    assert {side: side_colour(side, shown.side_inks) for side in ("white", "black")} == SIDE
    assert {"white": SEAT["orange"], "black": SEAT["sky"]} == SIDE
    assert [ink_of("backgammon", side) for side in ("white", "black")] == ["orange", "sky"]
    assert dict(shown.side_colours) == {"white": "orange", "black": "blue"}
