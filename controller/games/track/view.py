"""Board views of the MÄDN family: Mensch ärgere dich nicht and Kleiner Ärger.

Both games are :class:`rules.track.engine.MaednState` on a :class:`TrackGeometry` whose fields
have grid cells, so one renderer draws both: a layout only says how big a grid cell is
and where the die goes. Board colours: empty track fields grey, start fields, goal
lanes and home circles tinted in their colour, pieces in full colour with the seat cue
of :mod:`controller.views.palette`.

Animations (all pure functions of the scene):

* a moving piece steps field by field; with a capture the last 30 % of the animation
  flashes the captured piece on its home field;
* the NEXT preview lights the target field and blinks the piece, starting lit at the
  press (so both phases differ from the plain board: the target is always lit);
* while a human's roll is awaited their die blinks in their colour (the cue to press);
* the hint lights the target in the hint colour;
* Lingo's pieces in their goal lane (uncapturable) are drawn at 45 % brightness.

Kleiner Ärger's pieces wait *off* the board (its rule text); the views draw them on the
empty corner squares beside their start field (:data:`KA_WAITING`).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from controller.scene import Scene
from controller.views import timing
from controller.views.dice import die_size, draw_dice, roll_faces
from controller.views.overlay import (
    Box,
    countdown_fraction,
    draw_banner,
    draw_bar,
    draw_frame_countdown,
    draw_result,
    draw_winner,
)
from controller.views.palette import (
    BLACK,
    CORNER,
    FIELD,
    HINT,
    RGB,
    TARGET,
    WHITE,
    blink,
    id_dip,
    scale,
    seat_colour,
)
from rules.core import Move
from rules.track.boards import Cell, TrackGeometry
from rules.track.engine import MOVE, OVER, MaednState, TrackMove

CAPTURE_FLASH_SHARE = 0.3
"""Share of a capturing move's animation spent flashing the captured piece home."""
SAFE_DIM = 0.45
"""Brightness of Lingo's uncapturable pieces."""

KA_WAITING: dict[str, tuple[Cell, ...]] = {
    "red": ((5, 0), (6, 0)),
    "blue": ((0, 1), (0, 0)),
    "green": ((1, 6), (0, 6)),
    "yellow": ((6, 5), (6, 6)),
}
"""Kleiner Ärger: where waiting pieces are drawn (corner squares that are no holes)."""


@dataclass(frozen=True)
class TrackLayout:
    """How a geometry's grid maps onto one panel size.

    ``die_at`` maps a colour to the die's top-left pixel (the die of the player on turn
    goes to their side when there is room); ``bar`` is the countdown bar's box, or None
    when the frame around the die shows the countdown.
    """

    pitch: int
    cell: int
    origin: tuple[int, int]
    die_pitch: int
    die_at: dict[str, tuple[int, int]]
    framed: bool
    bar: Box | None


def _everyone(xy: tuple[int, int]) -> dict[str, tuple[int, int]]:
    return {c: xy for c in ("red", "blue", "green", "yellow")}


LAYOUTS: dict[tuple[str, int, int], TrackLayout] = {
    # 16×16: the board centred-left, die bottom-right, timer bar along the top edge.
    ("maedn", 16, 16): TrackLayout(1, 1, (2, 2), 1, _everyone((13, 13)), False, (2, 0, 12, 0)),
    ("maedn", 32, 32): TrackLayout(
        3,
        2,
        (0, 0),
        2,
        # The free 7×7 square in each quadrant, next to that colour's home circle.
        {"red": (5, 20), "blue": (5, 5), "green": (20, 5), "yellow": (20, 20)},
        True,
        None,
    ),
    ("kleiner_aerger", 16, 16): TrackLayout(
        2, 1, (0, 0), 1, _everyone((13, 13)), False, (15, 0, 15, 11)
    ),
    ("kleiner_aerger", 32, 32): TrackLayout(
        4, 3, (0, 0), 2, _everyone((27, 27)), False, (29, 0, 30, 25)
    ),
}


def sizes(game: str) -> list[tuple[int, int, str]]:
    return sorted((w, h, "RGB") for g, w, h in LAYOUTS if g == game)


def layout_for(game: str, width: int, height: int) -> TrackLayout:
    return LAYOUTS[(game, width, height)]


def cell_box(game: str, width: int, height: int, cell: Cell) -> Box:
    """Pixels (x0, y0, x1, y1 inclusive) of grid cell (row, col) in a layout."""
    lay = layout_for(game, width, height)
    row, col = cell
    x0 = lay.origin[0] + col * lay.pitch
    y0 = lay.origin[1] + row * lay.pitch
    return (x0, y0, x0 + lay.cell - 1, y0 + lay.cell - 1)


def home_cells(geo: TrackGeometry, colour: str) -> tuple[Cell, ...]:
    return geo.home_cells[colour] or KA_WAITING.get(colour, ())


def progress_cell(state: MaednState, colour: str, progress: int, home_slot: int = 0) -> Cell:
    """The grid cell of a piece of ``colour`` at ``progress`` (-1 = home, slot given)."""
    game = state.game
    geo = game.geometry
    if progress < 0:
        return home_cells(geo, colour)[home_slot]
    if progress < geo.ring:
        return geo.ring_cells[(geo.start_of(colour) + progress) % geo.ring]
    if progress < geo.track_steps:  # Kleiner Ärger "lap": back on the own start field
        return geo.ring_cells[geo.start_of(colour)]
    return geo.goal_cells[colour][progress - geo.track_steps]


@dataclass
class Piece:
    colour: str
    progress: int
    cell: Cell
    visible: bool = True
    flash: bool = False


def pieces_of(state: MaednState) -> list[Piece]:
    """Every piece with its cell; home pieces fill the home cells in order."""
    found: list[Piece] = []
    for colour, own in zip(state.players, state.pieces, strict=True):
        slot = 0
        for progress in own:
            found.append(Piece(colour, progress, progress_cell(state, colour, progress, slot)))
            slot += progress < 0
    return found


def move_path(state: MaednState, colour: str, move: TrackMove) -> list[Cell]:
    """The cells a moving piece visits, start included: one per field stepped."""
    start = move.from_progress
    cells = [_piece_cell(state, colour, start)]
    cells.extend(progress_cell(state, colour, p) for p in range(start + 1, move.to_progress + 1))
    return cells


def _piece_cell(state: MaednState, colour: str, progress: int) -> Cell:
    """Cell of the piece of ``colour`` at ``progress``; at home, its last home slot."""
    if progress >= 0:
        return progress_cell(state, colour, progress)
    at_home = sum(1 for p in state.progress(colour) if p < 0)
    return progress_cell(state, colour, -1, max(0, at_home - 1))


def animated_pieces(scene: Scene, t: float) -> tuple[MaednState, list[Piece], str | None]:
    """Pieces of the frame, with a running move animation applied.

    Returns the state whose board is shown, the pieces, and the mover's colour.
    """
    anim = scene.moving
    if anim is None or not isinstance(anim.move, TrackMove):
        state = _maedn(scene.state)
        return state, pieces_of(state), None
    before, after = _maedn(anim.before), _maedn(anim.after)
    colour = before.players[before.turn]
    move = anim.move
    pieces = pieces_of(after)
    path = move_path(before, colour, move)
    share = 1.0 - CAPTURE_FLASH_SHARE if move.capture else 1.0
    steps = len(path)
    index = timing.step_index(anim, share, steps)
    arrived = index == steps - 1
    for piece in pieces:
        if piece.colour == colour and piece.progress == move.to_progress:
            piece.cell = path[index]
            # Drawn last: a piece jumping over another is seen on top of it.
            pieces.remove(piece)
            pieces.append(piece)
            break
    victim = _victim(before, after, colour, move) if move.capture else None
    if victim is not None:
        home = [p for p in pieces if p.colour == victim and p.progress < 0]
        captured = home[-1]
        if not arrived:
            captured.cell = path[-1]
        else:
            captured.flash = True
            captured.visible = blink(t, 4.0)
    return after, pieces, colour


def _victim(before: MaednState, after: MaednState, mover: str, move: TrackMove) -> str | None:
    """The colour whose piece the move sent home (possibly the mover's own in Lingo)."""
    for colour in before.players:
        was = sum(1 for p in before.progress(colour) if p < 0)
        now = sum(1 for p in after.progress(colour) if p < 0)
        if colour == mover:
            was -= move.from_progress < 0
        if now > was:
            return colour
    return None


def _maedn(state: object) -> MaednState:
    if not isinstance(state, MaednState):
        raise TypeError(f"the MÄDN view draws MÄDN-family states, not {type(state).__name__}")
    return state


def render(scene: Scene, width: int, height: int, mode: str) -> Image.Image:
    """One frame of a MÄDN-family game (see the module docstring)."""
    state = _maedn(scene.state)
    game = state.game
    geo = game.geometry
    lay = layout_for(game.name, width, height)
    image = Image.new("RGB", (width, height), BLACK)
    t = scene.t

    def fill(cell: Cell, colour: RGB) -> None:
        x0, y0, x1, y1 = cell_box(game.name, width, height, cell)
        image.paste(colour, (x0, y0, x1 + 1, y1 + 1))

    for index, cell in enumerate(geo.ring_cells):
        fill(cell, FIELD)
        if index in geo.starts:
            fill(cell, scale(seat_colour(geo.colours[geo.starts.index(index)]), 0.35))
    for colour in geo.colours:
        for cell in geo.goal_cells[colour]:
            fill(cell, scale(seat_colour(colour), 0.22))
        for cell in home_cells(geo, colour):
            fill(cell, scale(seat_colour(colour), 0.15))

    shown, pieces, mover = animated_pieces(scene, t)
    on_turn = None if state.phase == OVER else state.players[state.turn]
    if geo.centre is not None and on_turn is not None:
        _draw_turn_marker(image, cell_box(game.name, width, height, geo.centre), on_turn)

    preview = _track_move(scene.preview)
    preview_piece = _preview_piece(state, pieces, preview) if mover is None else None
    dark = game.rules.dark_safe_pieces
    for piece in pieces:
        if not piece.visible:
            continue
        if piece is preview_piece and not blink(t, since=scene.preview_since):
            continue
        ink_colour = seat_colour(piece.colour)
        if dark and shown.is_safe(piece.progress):
            ink_colour = scale(ink_colour, SAFE_DIM)
        box = cell_box(game.name, width, height, piece.cell)
        _draw_piece(image, lay, box, piece, ink_colour, t)

    if preview is not None and preview_piece is not None and on_turn is not None:
        fill(progress_cell(state, on_turn, preview.to_progress), TARGET)
    hint = _track_move(scene.hint)
    if hint is not None and on_turn is not None and mover is None:
        target = progress_cell(state, on_turn, hint.to_progress)
        if not any(p.cell == target for p in pieces) or blink(t, 1.0):
            fill(target, HINT)

    _draw_dice(image, scene, state, lay, on_turn, t)
    if scene.winner is not None:
        draw_winner(image, seat_colour(scene.winner), t)
    if scene.result:
        words = [(s.text, seat_colour(s.player)) for s in scene.result]
        draw_result(image, words, t, scene.result_since)
    if scene.banner:
        draw_banner(image, scene.banner, t, scene.banner_since)
    return image if mode == "RGB" else image.convert(mode)


def _track_move(move: Move | None) -> TrackMove | None:
    return move if isinstance(move, TrackMove) else None


def _preview_piece(state: MaednState, pieces: list[Piece], move: TrackMove | None) -> Piece | None:
    if move is None or state.phase != MOVE:
        return None
    colour = state.players[state.turn]
    cell = _piece_cell(state, colour, move.from_progress)
    for piece in pieces:
        if piece.colour == colour and piece.cell == cell:
            return piece
    return None


def _draw_piece(
    image: Image.Image, lay: TrackLayout, box: Box, piece: Piece, colour: RGB, t: float
) -> None:
    x0, y0, x1, y1 = box
    if lay.cell == 1:
        # 16×16: the seat cue is the blink count (palette.id_dip).
        shown = scale(colour, 0.2) if id_dip(piece.colour, t) else colour
        image.putpixel((x0, y0), shown)
        return
    image.paste(colour, (x0, y0, x1 + 1, y1 + 1))
    cx, cy = CORNER.get(piece.colour, (0, 0))
    corner_white = WHITE if colour == seat_colour(piece.colour) else scale(WHITE, SAFE_DIM)
    image.putpixel((x1 if cx else x0, y1 if cy else y0), corner_white)


def _draw_turn_marker(image: Image.Image, box: Box, colour: str) -> None:
    """The free centre field shows whose turn it is: half-bright, checkered on cells
    bigger than one LED, so it never looks like a piece."""
    x0, y0, x1, y1 = box
    dim = scale(seat_colour(colour), 0.5)
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            if x1 == x0 or (x + y) % 2 == 0:
                image.putpixel((x, y), dim)


def _draw_dice(
    image: Image.Image,
    scene: Scene,
    state: MaednState,
    lay: TrackLayout,
    on_turn: str | None,
    t: float,
) -> None:
    roller = on_turn or (scene.winner or "red")
    if scene.roll is not None and scene.roll.roller is not None:
        roller = scene.roll.roller  # an opening throw has already passed the turn on
    x, y = lay.die_at.get(roller, next(iter(lay.die_at.values())))
    pip = WHITE
    values: tuple[int, ...] | None = None
    if scene.roll is not None:
        values, settled = roll_faces(scene.roll)
        pip = WHITE if settled else seat_colour(roller)
    elif scene.dice is not None:
        values = scene.dice
    elif state.phase == MOVE:
        values = (state.die,)
    side = die_size(lay.die_pitch)
    if lay.framed:
        fraction = (
            countdown_fraction(scene.countdown, scene.countdown_total, t)
            if scene.countdown is not None
            else None
        )
        if on_turn is not None:
            draw_frame_countdown(
                image, (x, y, x + side + 1, y + side + 1), fraction, seat_colour(roller), t
            )
        x, y = x + 1, y + 1
    elif lay.bar is not None and scene.countdown is not None and on_turn is not None:
        fraction = countdown_fraction(scene.countdown, scene.countdown_total, t)
        x0, y0, x1, y1 = lay.bar
        draw_bar(image, lay.bar, fraction, seat_colour(on_turn), t, vertical=y1 - y0 > x1 - x0)
    if scene.cue is not None and scene.roll is None and not blink(t, 1.0):
        # The roll is awaited: the die blinks in the roller's colour, once a second.
        side = die_size(lay.die_pitch)
        image.paste(scale(seat_colour(scene.cue), 0.6), (x, y, x + side, y + side))
        return
    if values:
        draw_dice(image, x, y, values[:1], lay.die_pitch, pip=pip)
