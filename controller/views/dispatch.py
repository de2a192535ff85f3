"""The views' dispatcher: which view draws a scene, and at which sizes it can.

``render(scene, width, height, mode)`` draws any scene of :mod:`controller.scene` at a
panel size and mode ("RGB" or "1"). A game scene is drawn by the view its game's
presentation declares (:mod:`controller.games`), else by the generic view; menu, setup
and message scenes draw at any size. Views do no I/O and read no clock: the same scene
always gives the same pixels, which is what the golden-image tests rely on.

Supported game layouts (:func:`layouts`): 16×16 and 32×32 RGB for every game; 32×8
monochrome for Backgammon and Mini-Maki; 8×8 monochrome for Mini-Maki.
"""

from __future__ import annotations

from PIL import Image

import rules
from controller.games import BoardView, presentation
from controller.scene import (
    AnyScene,
    MenuScene,
    MessageScene,
    Scene,
    SetupScene,
    SleepScene,
    StatisticsScene,
)
from controller.views import generic as _generic
from controller.views import menu as _menu
from controller.views import statistics as _statistics
from controller.views import timing
from controller.views.overlay import Box

MODES = ("RGB", "1")
SLEEP_DIM = 0.12
"""Brightness of the sleeping picture: the table is still there, but quiet."""


class ViewLayoutError(ValueError):
    """A game cannot be drawn at the requested panel size or mode."""


GameView = BoardView
"""What a game's view offers the dispatcher: its layouts, its drawing, its cells."""


def own_view(game: str) -> GameView | None:
    """The board view ``game``'s presentation declares, None for none."""
    view = presentation(game).view
    return None if view is None else view(game)


def layouts() -> dict[str, list[tuple[int, int, str]]]:
    """Game name -> the (width, height, mode) sizes it can be drawn at (config checks),
    for the games with a board of their own."""
    found = {}
    for name in rules.game_names():
        view = own_view(name)
        if view is not None:
            found[name] = view.sizes()
    return found


GENERIC = GameView(_generic.sizes, _generic.render, _generic.cell_box)
"""The view of any registered game without a board of its own (controller.views.generic)."""


def view_of(game: str) -> GameView:
    """The game's own view, the generic one for a registered game without one."""
    view = own_view(game)
    if view is not None:
        return view
    if game in rules.game_names():
        return GENERIC
    raise ViewLayoutError(f"no game {game!r}; games: {', '.join(rules.game_names())}")


def supports(game: str, width: int, height: int, mode: str) -> bool:
    try:
        return (width, height, mode) in view_of(game).sizes()
    except ViewLayoutError:
        return False


def _describe(sizes: list[tuple[int, int, str]]) -> str:
    return ", ".join(f"{w}x{h} {m}" for w, h, m in sizes)


def check(game: str, width: int, height: int, mode: str) -> GameView:
    """The view for ``game`` at that size, or a one-line :class:`ViewLayoutError`."""
    if mode not in MODES:
        raise ViewLayoutError(f"display mode must be one of {', '.join(MODES)}, got {mode!r}")
    view = view_of(game)
    if (width, height, mode) not in view.sizes():
        raise ViewLayoutError(
            f"{game} has no layout for {width}x{height} {mode}; layouts: {_describe(view.sizes())}"
        )
    return view


def render(scene: AnyScene, width: int, height: int, mode: str) -> Image.Image:
    """Draw ``scene`` as a ``width``×``height`` image in ``mode`` ("RGB" or "1").

    Inside :func:`controller.views.timing.collect` the drawing also notes when the
    picture changes next by itself."""
    if isinstance(scene, SleepScene):
        return render_sleep(scene, width, height, mode)
    if isinstance(scene, Scene):
        game = scene.state.game.name
        return check(game, width, height, mode).render(scene, width, height, mode)
    if mode not in MODES:
        raise ViewLayoutError(f"display mode must be one of {', '.join(MODES)}, got {mode!r}")
    if width < 8 or height < 8:
        raise ViewLayoutError(f"panels smaller than 8x8 cannot show the menu, got {width}x{height}")
    if isinstance(scene, MenuScene):
        return _menu.render_menu(scene, width, height, mode)
    if isinstance(scene, SetupScene):
        return _menu.render_setup(scene, width, height, mode)
    if isinstance(scene, MessageScene):
        return _menu.render_message(scene, width, height, mode)
    if isinstance(scene, StatisticsScene):
        return _statistics.render(scene, width, height, mode)
    raise TypeError(f"not a scene: {type(scene).__name__}")


def render_sleep(scene: SleepScene, width: int, height: int, mode: str) -> Image.Image:
    """The picture behind the sleep, frozen and dimmed. Monochrome panels cannot dim a
    picture, so they keep one LED lit in the bottom-left corner: on, but asleep."""
    with timing.ignored():
        inner = render(scene.inner, width, height, mode)
    if mode == "1":
        image = Image.new(mode, (width, height), 0)
        image.putpixel((0, height - 1), 1)
        return image
    return inner.point(lambda value: round(value * SLEEP_DIM))


def cell_box(game: str, width: int, height: int, cell: tuple[int, int], mode: str = "RGB") -> Box:
    """Pixels (x0, y0, x1, y1 inclusive) where ``game`` draws board cell ``cell`` at that
    size, so tests can check that a frame shows what the state says.

    Cells are the rules' own grid coordinates: (row, col) of the track geometry for the
    MÄDN family, and the game module's documented cell scheme for the others.
    """
    return check(game, width, height, mode).cell_box(width, height, mode, cell)


__all__ = ["ViewLayoutError", "cell_box", "check", "layouts", "render", "supports"]
