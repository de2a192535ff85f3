"""Views: golden PNGs of every game and layout, plus pixel checks at field positions.

Golden pictures live in ``tests/golden/<scene>_<w>x<h>_<mode>.png`` and are compared
pixel for pixel. They are only (re)written on purpose::

    SPIELTISCH_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_views.py

Look at the changed pictures (``git diff --stat tests/golden``, an image viewer) before
committing them.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from PIL import Image

from controller import views
from controller.games.track import view as maedn_view
from controller.scene import MenuScene, MoveAnimation, RollAnimation, Scene
from controller.views import dice, palette
from controller.views.palette import SEAT, WHITE
from rules.minimaki.engine import Step
from tests.golden_check import GOLDEN_LANGUAGES, check_golden
from tests.helpers import position
from tests.views_scenes import (
    MENU_ITEMS,
    SCENES,
    golden_cases,
    kleiner_midgame,
    maedn_midgame,
    minimaki_midgame,
)

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("SPIELTISCH_REGEN_GOLDEN") == "1"
RED = SEAT["red"]


def rgb(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    value = image.convert("RGB").getpixel(xy)
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


def box_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    x0, y0, x1, y1 = box
    return {rgb(image, (x, y)) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}


@pytest.mark.parametrize("language", GOLDEN_LANGUAGES)
@pytest.mark.parametrize(("name", "width", "height", "mode"), golden_cases())
def test_golden(name: str, width: int, height: int, mode: str, language: str) -> None:
    image = check_golden(
        lambda: views.render(SCENES[name](), width, height, mode),
        f"{name}_{width}x{height}_{mode}",
        language,
    )
    assert image.size == (width, height) and image.mode == mode


def test_views_are_pure_functions_of_the_scene() -> None:
    for name, factory in SCENES.items():
        a = views.render(factory(), 32, 32, "RGB")
        b = views.render(factory(), 32, 32, "RGB")
        assert a.tobytes() == b.tobytes(), name


# -- layouts -------------------------------------------------------------------------


def test_every_game_has_16_and_32_rgb_and_minimaki_has_mono() -> None:
    """Layouts: 16×16 and 32×32 RGB for every game; 32×8 and 8×8 mono for Mini-Maki."""
    found = views.layouts()
    for game in ("maedn", "kleiner_aerger", "minimaki"):
        assert (16, 16, "RGB") in found[game] and (32, 32, "RGB") in found[game]
    assert (32, 8, "1") in found["minimaki"] and (8, 8, "1") in found["minimaki"]
    assert views.supports("minimaki", 8, 8, "1")
    assert not views.supports("maedn", 8, 8, "1")
    assert not views.supports("chess", 16, 16, "RGB")


def test_unsupported_size_is_one_clear_line() -> None:
    with pytest.raises(views.ViewLayoutError) as info:
        views.render(Scene(maedn_midgame()), 8, 8, "1")
    message = str(info.value)
    assert "\n" not in message
    assert "maedn" in message and "8x8 1" in message and "16x16 RGB" in message
    assert isinstance(info.value, ValueError)


# -- MÄDN family ---------------------------------------------------------------------


@pytest.mark.parametrize("size", [16, 32])
def test_red_piece_on_track_index_0_lights_cell_10_4_in_red(size: int) -> None:
    """As decided for the MÄDN board: track index 0 is red's start (10,4); the frame
    shows the piece there."""
    scene = Scene(maedn_midgame("classic"), t=2.0)
    image = views.render(scene, size, size, "RGB")
    box = views.cell_box("maedn", size, size, (10, 4))
    assert RED in box_pixels(image, box)
    # A track field nobody stands on shows the grey field colour, not a piece.
    empty = views.cell_box("maedn", size, size, (8, 4))  # track index 2
    assert box_pixels(image, empty) == {palette.FIELD}


def test_32x32_pieces_carry_a_white_corner_towards_their_seat() -> None:
    """Colour is never the only cue: red's white corner is bottom-left, green's top-right."""
    image = views.render(Scene(maedn_midgame("classic"), t=2.0), 32, 32, "RGB")
    x0, y0, x1, y1 = views.cell_box("maedn", 32, 32, (10, 4))  # red on its start
    assert rgb(image, (x0, y1)) == WHITE and rgb(image, (x1, y0)) == RED
    green_cell = maedn_view.progress_cell(maedn_midgame("classic"), "green", 2)  # track 22
    x0, y0, x1, y1 = views.cell_box("maedn", 32, 32, green_cell)
    assert rgb(image, (x1, y0)) == WHITE and rgb(image, (x0, y1)) == SEAT["green"]


def test_16x16_seats_blink_their_seat_number() -> None:
    """At 16×16 the cue is a blink count: red dips once per cycle, yellow four times."""

    def dips(colour: str) -> int:
        samples = [palette.id_dip(colour, i * 0.01) for i in range(int(palette.ID_CYCLE_S * 100))]
        return sum(1 for a, b in itertools.pairwise(samples) if b and not a) + samples[0]

    assert [dips(c) for c in ("red", "blue", "green", "yellow")] == [1, 2, 3, 4]


def test_lingo_goal_pieces_are_drawn_darker() -> None:
    """MÄDN, "Ärgern" house rules: pieces in the goal lane cannot be captured, so
    the Lingo preset draws them darker; classic draws them in full colour."""
    lingo = views.render(Scene(maedn_midgame("lingo"), t=2.0), 32, 32, "RGB")
    classic = views.render(Scene(maedn_midgame("classic"), t=2.0), 32, 32, "RGB")
    goal2 = views.cell_box("maedn", 32, 32, (8, 5))  # red goal 2
    x1, y0 = goal2[2], goal2[1]
    assert rgb(classic, (x1, y0)) == RED
    darker = rgb(lingo, (x1, y0))
    assert darker == palette.scale(RED, maedn_view.SAFE_DIM)
    # The track piece on index 0 is not safe and stays bright in Lingo.
    assert RED in box_pixels(lingo, views.cell_box("maedn", 32, 32, (10, 4)))


def test_preview_blinks_the_piece_and_lights_the_target() -> None:
    """NEXT previews a legal move: its target lights up and its piece blinks, starting
    lit at the press; both phases differ from the board without a preview."""
    state = maedn_midgame("lingo")
    move = state.parse_move("5-8")
    src = views.cell_box("maedn", 16, 16, (6, 3))  # track 5
    dst = views.cell_box("maedn", 16, 16, (6, 0))  # track 8
    pressed = 7.1  # any moment: the blink starts with the press
    plain = views.render(Scene(state, t=pressed), 16, 16, "RGB")
    on = views.render(Scene(state, t=pressed, preview=move, preview_since=pressed), 16, 16, "RGB")
    off = views.render(
        Scene(state, t=pressed + 0.3, preview=move, preview_since=pressed), 16, 16, "RGB"
    )
    assert RED in box_pixels(on, src) and palette.TARGET in box_pixels(on, dst)
    assert RED not in box_pixels(off, src) and palette.TARGET in box_pixels(off, dst)
    assert plain.tobytes() not in (on.tobytes(), off.tobytes())


def test_moving_piece_steps_field_by_field() -> None:
    state = maedn_midgame("lingo")
    move = state.parse_move("5-8")
    after = state.apply(move)
    path = [(6, 3), (6, 2), (6, 1), (6, 0)]  # track 5, 6, 7, 8
    seen = []
    for i in range(8):
        scene = Scene(state, t=2.0, moving=MoveAnimation(move, state, after, i / 8))
        image = views.render(scene, 16, 16, "RGB")
        lit = [c for c in path if RED in box_pixels(image, views.cell_box("maedn", 16, 16, c))]
        assert len(lit) == 1
        seen.append(lit[0])
    assert seen[0] == path[0] and seen[-1] == path[-1]
    assert [c for i, c in enumerate(seen) if i == 0 or seen[i - 1] != c] == path


def test_captured_piece_flashes_home() -> None:
    """MÄDN rule 10: a captured piece goes home; the view flashes it there."""
    scene = SCENES["maedn_capture"]()
    assert isinstance(scene, Scene) and scene.moving is not None
    last_home = maedn_view.home_cells(maedn_midgame().game.geometry, "blue")[3]
    blue_home = views.cell_box("maedn", 16, 16, last_home)  # where blue's 4th piece waits
    frames = [
        views.render(
            Scene(
                scene.state,
                t=t,
                moving=MoveAnimation(
                    scene.moving.move, scene.moving.before, scene.moving.after, 0.9
                ),
            ),
            16,
            16,
            "RGB",
        )
        for t in (2.0, 2.125)
    ]
    shown = [SEAT["blue"] in box_pixels(f, blue_home) for f in frames]
    assert shown == [True, False]
    # Before the mover arrives the victim still stands on the target field (track 7).
    early = Scene(
        scene.state,
        t=2.0,
        moving=MoveAnimation(scene.moving.move, scene.moving.before, scene.moving.after, 0.1),
    )
    image = views.render(early, 16, 16, "RGB")
    assert SEAT["blue"] in box_pixels(image, views.cell_box("maedn", 16, 16, (6, 1)))


def test_kleiner_aerger_cells_and_waiting_pieces() -> None:
    """Kleiner Ärger rule text: pieces start off the board; a4 is red's start, goals b4/c4 etc."""
    state = kleiner_midgame()
    image = views.render(Scene(state, t=2.0), 32, 32, "RGB")
    a4 = views.cell_box("kleiner_aerger", 32, 32, (3, 0))
    assert RED in box_pixels(image, a4)
    waiting = views.cell_box("kleiner_aerger", 32, 32, maedn_view.KA_WAITING["red"][0])
    assert RED in box_pixels(image, waiting)
    f4 = views.cell_box("kleiner_aerger", 32, 32, (3, 5))  # green goal 1
    assert SEAT["green"] in box_pixels(image, f4)


def test_countdown_bar_drains_once_a_second() -> None:
    """The bar shows whole seconds: it steps down exactly when a second has run out."""
    state = kleiner_midgame()
    green = SEAT["green"]
    column = [(15, y) for y in range(12)]

    def lit(left: float) -> int:
        scene = Scene(state, t=0.0, countdown=left, countdown_total=5.0)
        image = views.render(scene, 16, 16, "RGB")
        return sum(rgb(image, p) == green for p in column)

    assert [lit(x) for x in (5.0, 4.01, 4.0, 3.5, 3.0, 2.0, 1.0)] == [12, 12, 10, 10, 7, 5, 2]


def test_winner_animation_moves() -> None:
    a = views.render(Scene(kleiner_midgame(), t=0.0, winner="green"), 16, 16, "RGB")
    b = views.render(Scene(kleiner_midgame(), t=0.2, winner="green"), 16, 16, "RGB")
    assert a.tobytes() != b.tobytes()
    assert SEAT["green"] in {rgb(a, (x, 15)) for x in range(16)}


def test_banner_scrolls_over_the_board() -> None:
    """A banner starts at its first letter, holds a moment, then scrolls."""
    frames = [
        views.render(
            Scene(kleiner_midgame(), t=t, banner="red passes", banner_since=3.0), 16, 16, "RGB"
        )
        for t in (3.0, 3.5, 5.0)
    ]
    assert frames[0].tobytes() == frames[1].tobytes()
    assert frames[1].tobytes() != frames[2].tobytes()
    assert any(rgb(frames[1], (x, y)) == WHITE for x in range(16) for y in range(5, 11))


# -- dice ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", range(1, 7))
def test_die_shows_its_value_as_pips(value: int) -> None:
    image = Image.new("RGB", (5, 5))
    dice.draw_die(image, 0, 0, value, pip_pitch=2, face=None)
    assert sum(1 for x in range(5) for y in range(5) if rgb(image, (x, y)) == WHITE) == value


def test_rolling_animation_tumbles_then_settles_deterministically() -> None:
    faces = [dice.rolling_faces((4,), i / 20)[0] for i in range(20)]
    assert len(set(faces)) > 2
    assert not any(dice.rolling_faces((4,), i / 20)[1] for i in range(20))
    assert dice.rolling_faces((4,), 1.0) == ((4,), True)
    assert faces == [dice.rolling_faces((4,), i / 20)[0] for i in range(20)]
    scene = Scene(maedn_midgame(), t=2.0, roll=RollAnimation((6,), 1.0))
    image = views.render(scene, 16, 16, "RGB")
    pips = [(x, y) for x in range(13, 16) for y in range(13, 16) if rgb(image, (x, y)) == WHITE]
    assert len(pips) == 6


# -- Mini-Maki ---------------------------------------------------------------------


@pytest.mark.parametrize(("w", "h", "mode"), [(16, 16, "RGB"), (32, 32, "RGB")])
def test_minimaki_pieces_at_their_fields(w: int, h: int, mode: str) -> None:
    """Mini-Maki: red on (4,3), the black of column 5 on row 4; the hint in purple."""
    scene = Scene(minimaki_midgame(), t=0.1, hint=Step((4, 3), (3, 4)))
    image = views.render(scene, w, h, mode)
    assert RED in box_pixels(image, views.cell_box("minimaki", w, h, (4, 3), mode))
    assert SEAT["sky"] in box_pixels(image, views.cell_box("minimaki", w, h, (4, 5), mode))
    assert palette.HINT in box_pixels(image, views.cell_box("minimaki", w, h, (3, 4), mode))


@pytest.mark.parametrize(("w", "h"), [(32, 8), (8, 8)])
def test_minimaki_mono_red_blinks_blacks_steady(w: int, h: int) -> None:
    state = minimaki_midgame()
    on = views.render(Scene(state, t=0.1), w, h, "1")
    off = views.render(Scene(state, t=0.9), w, h, "1")
    assert on.mode == "1"
    red = views.cell_box("minimaki", w, h, (4, 3), "1")
    black = views.cell_box("minimaki", w, h, (4, 5), "1")
    assert on.getpixel(red[:2]) and not off.getpixel(red[:2])
    assert on.getpixel(black[:2]) and off.getpixel(black[:2])


def test_minimaki_black_steps_and_reset_red_flashes() -> None:
    """Mini-Maki rule text: a black that comes to red's side resets red to row 6 (flash there)."""
    before = minimaki_midgame()
    state = before.apply(Step((4, 3), (4, 4)))  # resets the black of column 5? no: row 4
    after = state.roll((2, 2))  # column 2 black: row 3 -> 5 in two single steps
    scene = Scene(state, t=0.0, moving=MoveAnimation(Step((4, 4), (4, 4)), state, after, 0.0))
    image = views.render(scene, 16, 16, "RGB")
    assert SEAT["sky"] in box_pixels(image, views.cell_box("minimaki", 16, 16, (3, 2)))
    mid = Scene(state, t=0.0, moving=MoveAnimation(Step((4, 4), (4, 4)), state, after, 0.99))
    image = views.render(mid, 16, 16, "RGB")
    assert SEAT["sky"] in box_pixels(image, views.cell_box("minimaki", 16, 16, (5, 2)))


def test_minimaki_8x8_roll_fills_the_panel() -> None:
    scene = Scene(minimaki_midgame(), t=0.0, roll=RollAnimation((6, 6), 1.0))
    image = views.render(scene, 8, 8, "1")
    assert sum(1 for x in range(8) for y in range(8) if image.getpixel((x, y))) == 12


# -- menu, text --------------------------------------------------------------------


def test_menu_has_a_distinct_icon_per_game() -> None:
    icons = {
        views.render(MenuScene(MENU_ITEMS, i, t=0.0), 16, 16, "RGB").crop((4, 1, 12, 9)).tobytes()
        for i in range(len(MENU_ITEMS))
    }
    assert len(icons) == len(MENU_ITEMS)


def test_capture_position_helper() -> None:
    state = position(
        "maedn",
        "classic",
        players=["red", "green"],
        turn="red",
        dice=[1],
        pieces={"red": [0, "home", "home", "home"], "green": ["home"] * 4},
    )
    assert views.render(Scene(state), 16, 16, "RGB").size == (16, 16)
