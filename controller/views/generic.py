"""The view of a game that has no board of its own yet: a registered game is playable at
the table from the moment its rules are registered, before anyone draws its board.

It shows what every dice game has, in the colours the table uses everywhere: a band in
the colour of the player on turn, the dice (tumbling while they roll), and one line of
text that scrolls: the previewed move (what OK would play), "red to roll", or the
winner. Any panel of at least 8×8 can show it, colour or monochrome.
"""

from __future__ import annotations

from PIL import Image

from controller.games import presentation
from controller.i18n import _
from controller.scene import Scene
from controller.views.dice import die_size, draw_dice, rolling_faces
from controller.views.overlay import Box
from controller.views.palette import BLACK, WHITE, ink, scale, side_colour
from controller.views.text import draw_text


def sizes() -> list[tuple[int, int, str]]:
    """Every layout the table supports, since nothing here depends on a board."""
    return [(8, 8, "1"), (16, 16, "RGB"), (32, 8, "1"), (32, 32, "RGB")]


def cell_box(width: int, height: int, mode: str, cell: tuple[int, int]) -> Box:
    """A generic view has no board cells; the whole panel is its one cell."""
    return (0, 0, width - 1, height - 1)


def words(scene: Scene) -> str:
    """The line of text: the winner, the previewed move, or who rolls."""
    state = scene.state
    if state.is_terminal():
        winners = state.winners()
        return _("{name} wins").format(name=winners[0]) if winners else _("game over")
    player = state.current_player or ""
    if scene.preview is not None:
        return f"{player}: {scene.preview.notation}"
    if state.is_chance():
        return _("{player} to roll").format(player=player)
    return _("{player} to move").format(player=player)


def render(scene: Scene, width: int, height: int, mode: str) -> Image.Image:
    image = Image.new(mode, (width, height), ink(BLACK, mode))
    state = scene.state
    player = state.current_player or (state.winners() or ("",))[0]
    colour = side_colour(player, presentation(state.game.name).side_inks) if player else WHITE
    if height >= 16:
        image.paste(ink(scale(colour, 0.6), mode), (0, 0, width, 2))
    dice: tuple[int, ...] | None = scene.dice
    if scene.roll is not None:
        dice, _settled = rolling_faces(scene.roll.final, scene.roll.progress)
    text_rows = 8 if height >= 24 else (6 if height >= 16 else height)
    top = 3 if height >= 16 else 0
    text_colour = colour if mode != "1" else WHITE
    if dice and height >= 16:
        pitch = 2 if height >= 32 else 1
        side = die_size(pitch)
        x = (width - (side + 1) * len(dice) + 1) // 2
        draw_dice(image, x, height - side - 1, dice, pitch)
    elif dice:
        # 8-row panels: the dice replace the text while they roll or are fresh
        draw_dice(image, 0, (height - 3) // 2, dice, 1)
        return image
    draw_text(image, (0, top, width - 1, top + text_rows - 1), words(scene), text_colour, scene.t)
    return image
