"""Board views of Mini-Maki: 6×6, six black pieces against the red Maki.

Cells are the rules' own fields ``(row, col)``, both 1–6: row 1 (black's baseline, red's
goal) is drawn at the top, row 6 (red's baseline) at the bottom, columns 1–6 (the die
faces) left to right, so a die showing 3 moves the black drawn in the third column.

An LED cannot be black, so the black side is drawn in sky blue (Okabe-Ito) and red in
vermillion; the second cue is shape on RGB panels (red a filled square, blacks hollow
or diagonal) and blink on monochrome ones (red blinks 1 Hz with 75 % duty; blacks are
steady). The preview target blinks at 2 Hz, the hint (the optimal step) at 4 Hz on
monochrome panels and in purple on RGB ones.

Layouts: 16×16 and 32×32 RGB (board left, the two dice and the timer right), 32×8 mono
(board 2 LEDs per column in a frame, dice beside it, the round number at the right) and
8×8 mono (board in the middle; the rolled columns are marked on the top row, and while
the dice roll they fill the panel).

Animation: black steps move field by field; red's step moves in the first half; pieces
sent back (blacks reset to row 1 by red, red reset to row 6 by black) flash on their
new field in the last 30 % of the animation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from controller.scene import RollAnimation, Scene
from controller.views import timing
from controller.views.dice import die_size, draw_dice, roll_faces
from controller.views.overlay import (
    Box,
    countdown_fraction,
    draw_banner,
    draw_bar,
    draw_result,
    draw_winner,
)
from controller.views.palette import (
    BLACK,
    FIELD,
    HINT,
    RGB,
    SEAT,
    TARGET,
    WHITE,
    blink,
    ink,
    scale,
    seat_colour,
)
from controller.views.text import TINY, draw_text
from rules.core import Move
from rules.minimaki.engine import BLACK_BASE, RED_BASE, SIZE, MinimakiState, Place, Step

Field = tuple[int, int]

RED: RGB = SEAT["red"]
BLACKS: RGB = SEAT["sky"]
FLASH_SHARE = 0.3


@dataclass(frozen=True)
class MakiLayout:
    """``pitch``/``cell``: pixels per field; ``dice_at``: top-left of the first die."""

    mode: str
    pitch_x: int
    pitch_y: int
    cell_w: int
    cell_h: int
    origin: tuple[int, int]
    dice_at: tuple[int, int] | None
    die_pitch: int
    dice_vertical: bool
    bar: Box | None
    frame: Box | None = None
    round_box: Box | None = None


LAYOUTS: dict[tuple[int, int, str], MakiLayout] = {
    (16, 16, "RGB"): MakiLayout("RGB", 2, 2, 2, 2, (0, 2), (13, 2), 1, True, (14, 10, 14, 13)),
    (32, 32, "RGB"): MakiLayout("RGB", 4, 4, 3, 3, (1, 5), (26, 5), 2, True, (28, 18, 29, 27)),
    (32, 8, "1"): MakiLayout(
        "1", 2, 1, 2, 1, (1, 1), (15, 2), 1, False, None, (0, 0, 13, 7), (23, 0, 31, 7)
    ),
    (8, 8, "1"): MakiLayout("1", 1, 1, 1, 1, (1, 1), None, 1, False, (7, 1, 7, 6)),
}


def sizes() -> list[tuple[int, int, str]]:
    return sorted(LAYOUTS)


def cell_box(width: int, height: int, mode: str, cell: Field) -> Box:
    """Pixels of field (row, col), both 1–6, at a layout."""
    lay = LAYOUTS[(width, height, mode)]
    row, col = cell
    if not (1 <= row <= SIZE and 1 <= col <= SIZE):
        raise ValueError(f"Mini-Maki fields are (row, col) with 1–6, got {cell!r}")
    x0 = lay.origin[0] + (col - 1) * lay.pitch_x
    y0 = lay.origin[1] + (row - 1) * lay.pitch_y
    return (x0, y0, x0 + lay.cell_w - 1, y0 + lay.cell_h - 1)


@dataclass
class Token:
    side: str  # "red" | "black"
    field: Field
    visible: bool = True


def _tokens(state: MinimakiState) -> list[Token]:
    found = [
        Token("black", (row, col))
        for col, row in enumerate(state.black, start=1)
        if row is not None
    ]
    if state.red is not None:
        found.append(Token("red", state.red))
    return found


def animated_tokens(scene: Scene) -> tuple[MinimakiState, list[Token]]:
    """The pieces of the frame with the running animation applied (module docstring)."""
    anim = scene.moving
    if anim is None:
        state = _maki(scene.state)
        return state, _tokens(state)
    before, after = _maki(anim.before), _maki(anim.after)
    tokens = _tokens(after)
    if before.match != after.match or before.seat != after.seat:
        return after, tokens  # a new game of a match began: nothing to step through
    flashing: list[Token] = []
    walks: list[tuple[Token, list[Field]]] = []
    for token in tokens:
        if token.side == "black":
            col = token.field[1]
            was = before.black[col - 1]
            now = token.field[0]
            if was is None or was == now:
                continue
            if now > was:
                walks.append((token, [(r, col) for r in range(was, now + 1)]))
            else:
                walks.append((token, [(was, col)]))
                flashing.append(token)
        elif before.red is not None and before.red != token.field:
            if isinstance(anim.move, Step) and anim.move.dst == token.field:
                walks.append((token, [before.red, token.field]))
            else:
                walks.append((token, [before.red]))
                flashing.append(token)
    share = 1.0 - FLASH_SHARE if flashing else 1.0
    longest = max((len(path) for _, path in walks), default=1)
    index = timing.step_index(anim, share, longest)
    arrived = anim.progress >= share
    if flashing and not arrived:
        timing.at_progress(anim, share)
    for token, path in walks:
        if token in flashing:
            if arrived:
                token.visible = blink(scene.t, 4.0)
            else:
                token.field = path[0]
        else:
            token.field = path[min(index, len(path) - 1)]
    return after, tokens


def _maki(state: object) -> MinimakiState:
    if not isinstance(state, MinimakiState):
        raise TypeError(f"the Mini-Maki view draws Mini-Maki states, not {type(state).__name__}")
    return state


def _target(move: Move | None) -> tuple[Field, str] | None:
    """The field a preview/hint move lights, and which side's piece it concerns."""
    if isinstance(move, Step):
        return move.dst, "red"
    if isinstance(move, Place):
        return (move.row, move.col), "red" if move.row == RED_BASE else "black"
    return None


def render(scene: Scene, width: int, height: int, mode: str) -> Image.Image:
    """One frame of Mini-Maki at one of :data:`LAYOUTS`."""
    lay = LAYOUTS[(width, height, mode)]
    image = Image.new(mode, (width, height), ink(BLACK, mode))
    t = scene.t
    if lay.dice_at is None and scene.roll is not None:
        _draw_roll_fullscreen(image, scene.roll)
        return image

    def box(field: Field) -> Box:
        return cell_box(width, height, mode, field)

    def fill(field: Field, colour: RGB, pattern: Callable[[int, int], bool] | None = None) -> None:
        x0, y0, x1, y1 = box(field)
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                if pattern is None or pattern(x - x0, y - y0):
                    image.putpixel((x, y), ink(colour, mode))

    if mode == "RGB":
        for row in range(1, SIZE + 1):
            for col in range(1, SIZE + 1):
                shade = scale(FIELD, 1.0 if (row + col) % 2 else 0.55)
                if row == BLACK_BASE:
                    shade = scale(RED, 0.3)  # red's goal row
                fill((row, col), shade)
    if lay.frame is not None:
        x0, y0, x1, y1 = lay.frame
        for x in range(x0, x1 + 1):
            image.putpixel((x, y0), 1)
            image.putpixel((x, y1), 1)
        for y in range(y0, y1 + 1):
            image.putpixel((x0, y), 1)
            image.putpixel((x1, y), 1)

    shown, tokens = animated_tokens(scene)
    preview = _target(scene.preview) if scene.moving is None else None
    hint = _target(scene.hint) if scene.moving is None else None
    hollow = lay.cell_w >= 3
    for token in tokens:
        if not token.visible:
            continue
        if token.side == "red":
            previewed = preview is not None and preview[1] == "red"
            if previewed and not blink(t, since=scene.preview_since):
                continue
            if mode == "1" and not timing.phase(t, 1.0, 0.75):
                continue  # mono cue: red blinks, blacks are steady
            fill(token.field, RED)
        elif hollow:
            fill(token.field, BLACKS, lambda x, y: x in (0, lay.cell_w - 1) or y in (0, 2))
        elif lay.cell_w == 2 and lay.cell_h == 2:
            fill(token.field, BLACKS, lambda x, y: x == y)
        else:
            fill(token.field, BLACKS)
    if hint is not None and (mode == "RGB" or blink(t, 4.0)):
        fill(hint[0], HINT)
    if preview is not None:
        colour = RED if preview[1] == "red" else BLACKS
        lit = blink(t, since=scene.preview_since)
        if mode == "1":
            if lit:
                fill(preview[0], WHITE)
        elif lit:
            fill(preview[0], colour)
        else:
            fill(preview[0], TARGET)

    _draw_dice_and_status(image, scene, shown, lay)
    if scene.winner is not None:
        draw_winner(image, _winner_colour(scene.winner), t)
    if scene.result:
        words = [(s.text, _winner_colour(s.player)) for s in scene.result]
        draw_result(image, words, t, scene.result_since)
    if scene.banner:
        draw_banner(image, scene.banner, t, scene.banner_since)
    return image


def _winner_colour(winner: str) -> RGB:
    return {"red": RED, "black": BLACKS, "player1": SEAT["orange"], "player2": BLACKS}.get(
        winner, seat_colour(winner)
    )


def _shown_dice(scene: Scene, state: MinimakiState) -> tuple[tuple[int, ...] | None, bool]:
    if scene.roll is not None:
        return roll_faces(scene.roll)
    if scene.dice is not None:
        return scene.dice, True
    return state.last_roll, True


def _draw_dice_and_status(
    image: Image.Image, scene: Scene, state: MinimakiState, lay: MakiLayout
) -> None:
    mode = image.mode
    values, settled = _shown_dice(scene, state)
    if values and lay.dice_at is not None:
        x, y = lay.dice_at
        pip = WHITE if settled else BLACKS
        draw_dice(image, x, y, values, lay.die_pitch, pip=pip, vertical=lay.dice_vertical)
    elif values and settled:
        # 8×8: mark the rolled columns on the free top row (both LEDs for a double).
        for value in values:
            x0, _, _, _ = cell_box(image.width, image.height, mode, (1, value))
            image.putpixel((x0, 0), ink(WHITE, mode))
    if lay.bar is not None and scene.countdown is not None:
        fraction = countdown_fraction(scene.countdown, scene.countdown_total, scene.t)
        x0, y0, x1, y1 = lay.bar
        draw_bar(image, lay.bar, fraction, RED, scene.t, vertical=y1 - y0 >= x1 - x0)
    if lay.round_box is not None:
        draw_text(image, lay.round_box, str(state.round), WHITE, scene.t, font=TINY)


def _draw_roll_fullscreen(image: Image.Image, roll: RollAnimation) -> None:
    """8×8: while the dice tumble they take the whole panel, side by side."""
    faces, _ = roll_faces(roll)
    side = die_size(1)
    draw_dice(image, 0, (image.height - side) // 2, faces, 1, gap=8 - 2 * side, pip=WHITE)
