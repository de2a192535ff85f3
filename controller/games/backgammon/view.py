"""Board views of Backgammon at 32×32 RGB, 16×16 RGB and 32×8 monochrome.

The board is drawn as players know it, seen from white's side: white's home board
(points 1–6) bottom right, its outer board (7–12) bottom left, black's outer board
(13–18) top left and black's home board (19–24) top right; the bar runs down the middle
and the borne-off trays sit at the right ("Die Points werden von rechts nach links
durchnumeriert", the Backgammon rule text). Stacks grow from the board's edge towards the middle.

Cells (:func:`cell_box`) are ``(point, slot)``: ``point`` 1–24 from white's view, 25
white's bar, 0 black's bar, −1 white's tray, 26 black's tray
(:mod:`controller.games.backgammon.view_frame`); ``slot`` counts from the edge, 0 first. On
points and bars the slot after the last checker slot is the overflow slot (RGB only).

Sides. An LED cannot be white without being the preview's target colour, so white plays
in Okabe-Ito orange and black in sky blue (the menu icon's colours), a pair that stays
apart for every kind of colour blindness. The second cue (colour is never the only one):

* **32×32 (shape):** white checkers are solid 2×2 blocks, black ones a diagonal pair;
* **16×16 (blink count):** one LED per checker; white dips once and black twice every
  :data:`controller.views.palette.ID_CYCLE_S` seconds, the rhythm of the MÄDN seats;
* **32×8 (blink):** white is steady, black blinks slowly (1 Hz, 75 % on).

Stacks. 32×32 and 16×16 show five checker slots; a stack of more lights the sixth
(overflow) slot white: at 32×32 one white LED per checker above five (four LEDs: nine
or more), at 16×16 one LED ("six or more"). 32×8 shows four slots and the fourth blinks
fast when more checkers stand there. Neighbouring checkers alternate between full and
70 % brightness like a checkerboard, so a stack can be counted and two neighbouring
points never merge.

Middle band: the dice (3×3 pips) in the right half, the cube in the left half, the move
timer in the bar, and a turn marker in the side's shape at its end of the tray column.
The cube shows its value in digits (16×16: as many pips as doublings, 2 = one pip,
64 = six) in the owner's colour, pushed towards the owner's side; centred and grey
while nobody owns it. A pending double blinks the offered value in the doubler's colour;
previewing *take* shows it on the taker's side, *drop* strikes it through. Previewing
*double* blinks the doubled value, previewing *roll* blinks two empty dice.

Dice: tumbling in the roller's colour while they roll (the opening roll: one die per
side), white pips once settled on a face tinted in the mover's colour; in the phases
before a roll the last roll is shown with grey pips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from controller.games.backgammon.view_frame import (
    BLACK_BAR,
    BLACK_OFF,
    WHITE_BAR,
    WHITE_OFF,
    Frame,
    animated_frame,
    entry_frame,
    preview_frame,
    shown_state,
    step_die,
)
from controller.scene import Scene
from controller.views import timing
from controller.views.dice import FACE_BG, PIPS, draw_die, roll_faces
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
    id_dip,
    ink,
    scale,
)
from controller.views.text import TINY, draw_text
from rules.backgammon.engine import (
    DOUBLE,
    DOUBLE_ACTION,
    DROP_ACTION,
    MOVE,
    OPENING,
    OVER,
    PLAYERS,
    ROLL,
    ROLL_ACTION,
    START,
    TAKE,
    TAKE_ACTION,
    BackgammonState,
)
from rules.backgammon.moves import CHECKERS
from rules.core import Move

SIDE: dict[str, RGB] = {"white": SEAT["orange"], "black": SEAT["sky"]}
"""Checker colours of the two sides (module docstring: why not white)."""
SHADE = 0.7
"""Brightness of every other checker (the checkerboard that makes stacks countable)."""
NEUTRAL: RGB = (150, 150, 150)
"""A centred cube, and the pips of the previous roll."""
TINTS: tuple[RGB, RGB] = (scale(FIELD, 0.9), scale(FIELD, 0.45))
"""Empty points alternate between two greys, like the board's two triangle colours."""


@dataclass(frozen=True)
class BgLayout:
    """Where everything goes at one panel size (see the module docstring).

    ``pitch``: checker size and point width in pixels; ``left_x``/``bar_x``/``right_x``:
    first column of the left half, the bar and the right half; ``slots``: checker slots
    per point; ``overflow_slot``: whether a further slot counts the rest (RGB);
    ``tray_xs``: the tray's columns; ``tray_pitch``: rows between borne-off checkers;
    ``tray_per_column``: checkers per column when filled column by column (0: row by
    row across ``tray_xs``); ``cube_x``: the cube's columns; ``cube_top``: its top row by
    owner (None: centred); ``countdown``: the move timer's box (None: it drains the turn
    marker); ``turn``: the turn marker's box per side.
    """

    mode: str
    pitch: int
    left_x: int
    bar_x: int
    right_x: int
    slots: int
    overflow_slot: bool
    tray_xs: tuple[int, ...]
    tray_pitch: int
    tray_per_column: int
    dice_at: tuple[int, int]
    die_pitch: int
    dice_gap: int
    dice_vertical: bool
    cube_x: tuple[int, int]
    cube_top: dict[str | None, int]
    cube_digits: bool
    countdown: Box | None
    turn: dict[str, Box]


LAYOUTS: dict[tuple[int, int, str], BgLayout] = {
    (32, 32, "RGB"): BgLayout(
        "RGB",
        pitch=2,
        left_x=0,
        bar_x=12,
        right_x=14,
        slots=5,
        overflow_slot=True,
        tray_xs=(27, 29, 31),
        tray_pitch=2,
        tray_per_column=5,
        dice_at=(15, 13),
        die_pitch=2,
        dice_gap=1,
        dice_vertical=False,
        cube_x=(0, 11),
        cube_top={"black": 12, None: 13, "white": 15},
        cube_digits=True,
        countdown=(12, 12, 13, 19),
        turn={"black": (28, 12, 31, 15), "white": (28, 16, 31, 19)},
    ),
    (16, 16, "RGB"): BgLayout(
        "RGB",
        pitch=1,
        left_x=0,
        bar_x=6,
        right_x=7,
        slots=5,
        overflow_slot=True,
        tray_xs=(14, 15),
        tray_pitch=1,
        tray_per_column=0,
        dice_at=(6, 6),
        die_pitch=1,
        dice_gap=1,
        dice_vertical=False,
        cube_x=(0, 2),
        cube_top={"black": 6, None: 6, "white": 7},
        cube_digits=False,
        countdown=(6, 9, 12, 9),
        turn={"black": (4, 6, 4, 7), "white": (4, 8, 4, 9)},
    ),
    (32, 8, "1"): BgLayout(
        "1",
        pitch=1,
        left_x=0,
        bar_x=6,
        right_x=7,
        slots=4,
        overflow_slot=False,
        tray_xs=(14, 15, 16, 17),
        tray_pitch=1,
        tray_per_column=0,
        dice_at=(19, 0),
        die_pitch=1,
        dice_gap=2,
        dice_vertical=True,
        cube_x=(23, 30),
        cube_top={"black": 0, None: 1, "white": 3},
        cube_digits=True,
        countdown=None,
        turn={"black": (31, 0, 31, 3), "white": (31, 4, 31, 7)},
    ),
}


def sizes() -> list[tuple[int, int, str]]:
    return sorted(LAYOUTS)


def _top_half(point: int) -> bool:
    """Points 13–24 and white's bar are drawn in the top half."""
    return 13 <= point <= WHITE_BAR


def _column_x(lay: BgLayout, point: int) -> int:
    if point in (WHITE_BAR, BLACK_BAR):
        return lay.bar_x
    if point >= 13:
        half, col = (lay.left_x, point - 13) if point <= 18 else (lay.right_x, point - 19)
    else:
        half, col = (lay.left_x, 12 - point) if point >= 7 else (lay.right_x, 6 - point)
    return half + col * lay.pitch


def cell_box(width: int, height: int, mode: str, cell: tuple[int, int]) -> Box:
    """Pixels (x0, y0, x1, y1 inclusive) of ``(point, slot)`` (module docstring)."""
    lay = LAYOUTS[(width, height, mode)]
    point, slot = cell
    if point in (WHITE_OFF, BLACK_OFF):
        if not 0 <= slot < CHECKERS:
            raise ValueError(f"a Backgammon tray has slots 0–14, got {cell!r}")
        return _tray_box(lay, height, point, slot)
    last = lay.slots + (1 if lay.overflow_slot else 0)
    if not (BLACK_BAR <= point <= WHITE_BAR and 0 <= slot < last):
        raise ValueError(
            f"Backgammon cells are (point 0–25 or tray −1/26, slot 0–{last - 1}), got {cell!r}"
        )
    x0 = _column_x(lay, point)
    y0 = slot * lay.pitch if _top_half(point) else height - (slot + 1) * lay.pitch
    return (x0, y0, x0 + lay.pitch - 1, y0 + lay.pitch - 1)


def _tray_box(lay: BgLayout, height: int, tray: int, slot: int) -> Box:
    """Borne-off checker ``slot`` of a tray: white's fills up from the bottom edge,
    black's down from the top, in columns of five at 32×32 (countable groups)."""
    if lay.tray_per_column:
        column, depth = divmod(slot, lay.tray_per_column)
    else:
        depth, column = divmod(slot, len(lay.tray_xs))
    x = lay.tray_xs[column]
    y = depth * lay.tray_pitch if tray == BLACK_OFF else height - 1 - depth * lay.tray_pitch
    return (x, y, x, y)


# -- drawing ---------------------------------------------------------------------------


class Painter:
    """Fills boxes on one image in RGB or monochrome ("1": any visible colour is lit)."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.mode = image.mode

    def put(self, x: int, y: int, colour: RGB) -> None:
        if 0 <= x < self.image.width and 0 <= y < self.image.height:
            self.image.putpixel((x, y), ink(colour, self.mode))

    def fill(self, box: Box, colour: RGB) -> None:
        x0, y0, x1, y1 = box
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.put(x, y, colour)


def _side_visible(side: str, lay: BgLayout, t: float) -> bool:
    """The side cue that works by time: 16×16 dips (white 1, black 2 per cycle) and
    32×8 black's slow blink. Dipped checkers are drawn dim, blinked ones dark."""
    if lay.mode == "1":
        return side == "white" or timing.phase(t, 1.0, 0.75)
    return True


def _dipped(side: str, lay: BgLayout, t: float) -> bool:
    if lay.mode != "RGB" or lay.pitch != 1:
        return False
    return id_dip("red" if side == "white" else "blue", t)


def _draw_checker(
    paint: Painter, lay: BgLayout, box: Box, side: str, point: int, slot: int, t: float
) -> None:
    colour = SIDE[side]
    if (point + slot) % 2:
        colour = scale(colour, SHADE)
    if _dipped(side, lay, t):
        colour = scale(colour, 0.2)
    x0, y0, x1, _ = box
    if lay.pitch == 1:
        paint.put(x0, y0, colour)
        return
    paint.fill(box, BLACK)
    if side == "white":
        paint.fill(box, colour)
    else:
        for i in range(x1 - x0 + 1):
            paint.put(x0 + i, y0 + i, colour)


def _draw_overflow(paint: Painter, box: Box, extra: int) -> None:
    """The overflow slot: one white LED per checker beyond the slots (as many as fit)."""
    x0, y0, x1, y1 = box
    pixels = [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]
    for x, y in pixels[:extra]:
        paint.put(x, y, WHITE)


def _draw_background(paint: Painter, lay: BgLayout, width: int, height: int) -> None:
    if lay.mode != "RGB":
        return
    for point in range(1, 25):
        tint = TINTS[point % 2]
        for slot in range(lay.slots):
            paint.fill(cell_box(width, height, lay.mode, (point, slot)), tint)


def _draw_stacks(
    paint: Painter,
    lay: BgLayout,
    frame: Frame,
    width: int,
    height: int,
    t: float,
    hint: bool,
    since: float,
) -> None:
    """Every point, bar and tray, with the preview/hint marks of ``frame``; a preview's
    sources blink from ``since`` (the press that chose it), starting lit."""
    mode = lay.mode
    for seat, side in enumerate(PLAYERS):
        counts = frame.counts[seat]
        cells = set(counts) | set(frame.arriving[seat])
        for cell in sorted(cells):
            n = counts.get(cell, 0)
            leaving = frame.leaving[seat].get(cell, 0)
            flashing = frame.flashing[seat].get(cell, 0)
            if cell in (WHITE_OFF, BLACK_OFF):
                for slot in range(min(n, CHECKERS)):
                    if slot >= n - leaving and not blink(t, since=since):
                        continue
                    paint.fill(cell_box(width, height, mode, (cell, slot)), SIDE[side])
            else:
                _draw_stack(paint, lay, cell, side, n, leaving, flashing, t, since)
    # Targets last: the hitter's target covers the blot it hits.
    for seat, side in enumerate(PLAYERS):
        for cell, arriving in sorted(frame.arriving[seat].items()):
            if seat == frame.mover or not hint:
                n = frame.counts[seat].get(cell, 0)
                colour = (HINT if hint else TARGET) if seat == frame.mover else SIDE[side]
                _draw_targets(paint, lay, cell, n, arriving, colour)


def _draw_stack(
    paint: Painter,
    lay: BgLayout,
    point: int,
    side: str,
    n: int,
    leaving: int,
    flashing: int,
    t: float,
    since: float,
) -> None:
    width, height = paint.image.size
    shown = min(n, lay.slots)
    for slot in range(shown):
        from_top = n - slot  # 1 = the top checker of the stack
        if from_top <= leaving and not blink(t, since=since):
            continue  # a preview's source blinks
        if from_top <= flashing and not blink(t, 4.0):
            continue  # a checker just hit flashes on the bar
        if not _side_visible(side, lay, t):
            continue
        top_overflows = slot == lay.slots - 1 and n > lay.slots and not lay.overflow_slot
        if top_overflows and not blink(t, 4.0):
            continue  # 32×8: the fourth checker blinks fast when more stand there
        box = cell_box(width, height, lay.mode, (point, slot))
        _draw_checker(paint, lay, box, side, point, slot, t)
    if n > lay.slots and lay.overflow_slot:
        box = cell_box(width, height, lay.mode, (point, lay.slots))
        _draw_overflow(paint, box, n - lay.slots)


def _draw_targets(
    paint: Painter,
    lay: BgLayout,
    cell: int,
    n: int,
    arriving: int,
    colour: RGB,
) -> None:
    """Light the slots a play fills, steadily: with the blinking sources every frame
    of a preview differs from the plain board."""
    width, height = paint.image.size
    tray = cell in (WHITE_OFF, BLACK_OFF)
    last = CHECKERS - 1 if tray else lay.slots - (0 if lay.overflow_slot else 1)
    for slot in range(n, n + arriving):
        paint.fill(cell_box(width, height, lay.mode, (cell, min(slot, last))), colour)


def _draw_walker(
    paint: Painter, lay: BgLayout, frame: Frame, width: int, height: int, t: float
) -> None:
    """The checker in flight, on top of whatever stands where it is passing."""
    if frame.walker is None:
        return
    seat, cell = frame.walker
    side = PLAYERS[seat]
    here = frame.total(cell)
    if cell in (WHITE_OFF, BLACK_OFF):
        paint.fill(cell_box(width, height, lay.mode, (cell, min(here, CHECKERS - 1))), SIDE[side])
        return
    slot = min(here, lay.slots - 1)
    box = cell_box(width, height, lay.mode, (cell, slot))
    _draw_checker(paint, lay, box, side, cell, slot, t)


# -- middle band: dice, cube, turn, timer -------------------------------------------------


def _dice_positions(lay: BgLayout, count: int) -> list[tuple[int, int]]:
    step = 2 * lay.die_pitch + 1 + lay.dice_gap
    x, y = lay.dice_at
    return [(x, y + i * step) if lay.dice_vertical else (x + i * step, y) for i in range(count)]


def _face(colour: RGB) -> RGB:
    return scale(colour, 0.22)


def _draw_dice(paint: Painter, lay: BgLayout, scene: Scene, state: BackgammonState) -> None:
    faces: Sequence[int] = ()
    pips: list[RGB] = []
    tints: list[RGB] = []
    roller = state.current_player or PLAYERS[state.turn]
    if scene.roll is not None:
        faces, settled = roll_faces(scene.roll)
        sides = list(PLAYERS) if _opening_roll(state) else [roller] * len(faces)
        pips = [WHITE if settled else SIDE[s] for s in sides]
        tints = [_face(SIDE[s]) for s in sides]
    elif state.phase == MOVE and state.dice and scene.entry is not None:
        faces, pips, tints = _entry_dice(scene, state, SIDE[roller])
    elif state.phase == MOVE and state.dice:
        faces = state.dice
        pips = [WHITE] * len(faces)
        tints = [_face(SIDE[roller])] * len(faces)
    elif scene.cue is not None and state.phase == ROLL and not blink(scene.t, 1.0):
        # The roll is awaited: empty dice in the roller's colour blink once a second.
        for x, y in _dice_positions(lay, 2):
            _empty_die(paint, lay, x, y, SIDE[roller])
        return
    elif scene.preview is ROLL_ACTION and state.phase == DOUBLE:
        if blink(scene.t, since=scene.preview_since):
            for x, y in _dice_positions(lay, 2):
                _empty_die(paint, lay, x, y, SIDE[roller])
        return
    elif scene.dice and state.phase != OVER:
        faces = scene.dice
        pips = [NEUTRAL] * len(faces)
        tints = [FACE_BG] * len(faces)
    for (x, y), value, pip, tint in zip(
        _dice_positions(lay, len(faces)), faces, pips, tints, strict=True
    ):
        if value in PIPS:
            draw_die(paint.image, x, y, value, lay.die_pitch, pip=pip, face=tint)


def _entry_dice(
    scene: Scene, state: BackgammonState, colour: RGB
) -> tuple[Sequence[int], list[RGB], list[RGB]]:
    """The dice while a play is entered checker by checker: a die used up is grey on a
    dark face, the die the previewed step takes is tinted in the mover's colour, the
    other one has white pips on a dark face. Doubles show two dice for four steps: the
    first is used up after two steps."""
    entry = scene.entry
    assert entry is not None
    faces = state.dice
    steps = [step_die(step) for step in entry.played]
    next_die = step_die(entry.step) if entry.step is not None else None
    pips: list[RGB] = []
    tints: list[RGB] = []
    doubles = len(faces) == 2 and faces[0] == faces[1]
    for index, value in enumerate(faces):
        used = len(steps) >= 2 * (index + 1) if doubles else value in steps
        taken = index == len(steps) // 2 if doubles else value == next_die
        if used:
            pips.append(NEUTRAL)
            tints.append(FACE_BG)
        else:
            pips.append(WHITE)
            tints.append(_face(colour) if taken and next_die is not None else FACE_BG)
    return faces, pips, tints


def _opening_roll(state: BackgammonState) -> bool:
    """Whether the roll on display is the opening roll, one die per side ([white,
    black]). The table shows a roll with the state *after* it, so besides the opening
    phase (a tie is thrown again) this is a move from the untouched start position."""
    return state.phase == OPENING or (
        state.phase == MOVE and state.boards == (START, START) and state.cube == 1
    )


def _empty_die(paint: Painter, lay: BgLayout, x: int, y: int, colour: RGB) -> None:
    """A die without pips: a tinted face on RGB, a ring of LEDs on monochrome panels."""
    side = 2 * lay.die_pitch + 1
    for dy in range(side):
        for dx in range(side):
            edge = dx in (0, side - 1) or dy in (0, side - 1)
            if paint.mode == "RGB":
                paint.put(x + dx, y + dy, colour if edge else _face(colour))
            elif edge:
                paint.put(x + dx, y + dy, WHITE)


@dataclass(frozen=True)
class CubeLook:
    """How the cube is drawn this frame."""

    value: int
    place: str | None  # the side it is pushed towards; None: centred
    colour: RGB
    blinking: bool = False
    struck: bool = False


def cube_look(state: BackgammonState, preview: Move | None) -> CubeLook | None:
    """The cube's value, place and colour, including a pending double and the preview of
    a cube decision (module docstring); None in presets played without the cube."""
    if not state.game.rules.cube:
        return None
    owner = None if state.cube_owner is None else PLAYERS[state.cube_owner]
    if state.phase == TAKE:
        doubler, taker = PLAYERS[state.turn], PLAYERS[1 - state.turn]
        offered = state.cube * 2
        if preview is TAKE_ACTION:
            return CubeLook(offered, taker, SIDE[taker], blinking=True)
        return CubeLook(offered, None, SIDE[doubler], blinking=True, struck=preview is DROP_ACTION)
    if state.phase == DOUBLE and preview is DOUBLE_ACTION:
        roller = PLAYERS[state.turn]
        return CubeLook(state.cube * 2, None, SIDE[roller], blinking=True)
    return CubeLook(state.cube, owner, NEUTRAL if owner is None else SIDE[owner])


def _draw_cube(
    paint: Painter, lay: BgLayout, look: CubeLook | None, t: float, since: float
) -> None:
    if look is None or (look.blinking and not blink(t, since=since)):
        return
    x0, x1 = lay.cube_x
    top = lay.cube_top[look.place]
    if lay.cube_digits:
        box = (x0, top, x1, top + 4)
        draw_text(paint.image, box, str(look.value), look.colour, t, font=TINY)
    else:
        box = (x0, top, x1, top + 2)
        paint.fill(box, _face(look.colour))
        doublings = look.value.bit_length() - 1
        spots = PIPS.get(doublings, tuple((i // 3, i % 3) for i in range(min(doublings, 9))))
        for row, col in spots:
            paint.put(x0 + col, top + row, look.colour)
    if look.struck:
        x0, y0, x1, y1 = box
        across = max(1, x1 - x0)
        for i in range(x1 - x0 + 1):
            paint.put(x0 + i, y1 - round(i * (y1 - y0) / across), WHITE)


def _draw_turn(paint: Painter, lay: BgLayout, scene: Scene, state: BackgammonState) -> None:
    """The turn marker in the side's shape (32×32), colour (16×16) or place (32×8); with
    a move timer it drains: 32×8 inside the marker, RGB in the timer box."""
    side = state.current_player
    if side is None or state.phase == OPENING:
        return
    colour = SIDE[side]
    box = lay.turn[side]
    fraction = (
        countdown_fraction(scene.countdown, scene.countdown_total, scene.t)
        if scene.countdown is not None
        else None
    )
    if lay.countdown is not None:
        x0, y0, x1, y1 = box
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                solid = side == "white" or (x + y) % 2 == 0
                paint.put(x, y, colour if solid else BLACK)
        if fraction is not None:
            bx0, by0, bx1, by1 = lay.countdown
            vertical = by1 - by0 >= bx1 - bx0
            draw_bar(paint.image, lay.countdown, fraction, colour, scene.t, vertical=vertical)
        return
    x0, y0, x1, y1 = box
    length = y1 - y0 + 1
    lit = length if fraction is None else max(1 if fraction > 0 else 0, round(fraction * length))
    if fraction is not None and fraction < 0.25 and not blink(scene.t, 4.0):
        lit = 0
    for i in range(lit):
        y = y1 - i if side == "white" else y0 + i  # drains towards the board's middle
        paint.put(x0, y, colour)


# -- the frame ---------------------------------------------------------------------------


def _backgammon(state: object) -> BackgammonState:
    if not isinstance(state, BackgammonState):
        raise TypeError(f"the Backgammon view draws Backgammon states, not {type(state).__name__}")
    return state


def render(scene: Scene, width: int, height: int, mode: str) -> Image.Image:
    """One frame of Backgammon at one of :data:`LAYOUTS` (module docstring)."""
    lay = LAYOUTS[(width, height, mode)]
    image = Image.new(mode, (width, height), ink(BLACK, mode))
    paint = Painter(image)
    t = scene.t
    state = _backgammon(scene.state)
    hint = False
    if scene.moving is not None:
        frame = animated_frame(scene.moving)
        state = shown_state(scene.moving)
    elif scene.entry is not None:
        frame = entry_frame(state, scene.entry)
    elif scene.preview is not None:
        frame = preview_frame(state, scene.preview)
    else:
        frame = preview_frame(state, scene.hint, sources=False)
        hint = scene.hint is not None
    since = scene.preview_since
    _draw_background(paint, lay, width, height)
    _draw_stacks(paint, lay, frame, width, height, t, hint, since)
    _draw_walker(paint, lay, frame, width, height, t)
    _draw_dice(paint, lay, scene, state)
    preview = scene.preview if scene.moving is None else None
    _draw_cube(paint, lay, cube_look(state, preview), t, since)
    _draw_turn(paint, lay, scene, state)
    if scene.winner is not None:
        draw_winner(image, SIDE.get(scene.winner, WHITE), t)
    if scene.result:
        words = [(s.text, SIDE.get(s.player, WHITE)) for s in scene.result]
        draw_result(image, words, t, scene.result_since)
    if scene.banner:
        draw_banner(image, scene.banner, t, scene.banner_since)
    return image
