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

from PIL import Image

from controller.games.backgammon.view_dice import cube_look, draw_cube, draw_dice
from controller.games.backgammon.view_frame import (
    BLACK_OFF,
    WHITE_OFF,
    Frame,
    animated_frame,
    entry_frame,
    preview_frame,
    shown_state,
)
from controller.games.backgammon.view_layout import (
    LAYOUTS,
    SHADE,
    SIDE,
    TINTS,
    BgLayout,
    Painter,
    cell_box,
)
from controller.scene import Scene
from controller.views import timing
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
    HINT,
    RGB,
    TARGET,
    WHITE,
    blink,
    id_dip,
    ink,
    scale,
)
from rules.backgammon.engine import (
    OPENING,
    PLAYERS,
    BackgammonState,
)
from rules.backgammon.moves import CHECKERS


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


# -- middle band: the turn marker and the timer (dice and cube: view_dice) ----------------


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
    draw_dice(paint, lay, scene, state)
    preview = scene.preview if scene.moving is None else None
    draw_cube(paint, lay, cube_look(state, preview), t, since)
    _draw_turn(paint, lay, scene, state)
    if scene.winner is not None:
        draw_winner(image, SIDE.get(scene.winner, WHITE), t)
    if scene.result:
        words = [(s.text, SIDE.get(s.player, WHITE)) for s in scene.result]
        draw_result(image, words, t, scene.result_since)
    if scene.banner:
        draw_banner(image, scene.banner, t, scene.banner_since)
    return image
