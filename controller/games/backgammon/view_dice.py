"""Backgammon's middle band: the dice and the doubling cube.

Why apart from the view: how the dice tumble, settle and show the last roll, and how
the cube shows its value, its owner and a pending double, are drawn from the scene
and the state alone, on the board's layout (:mod:`controller.games.backgammon.view_layout`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.games.backgammon.view_frame import (
    step_die,
)
from controller.games.backgammon.view_layout import (
    NEUTRAL,
    SIDE,
    BgLayout,
    Painter,
)
from controller.scene import Scene
from controller.views.dice import FACE_BG, PIPS, draw_die, roll_faces
from controller.views.palette import (
    RGB,
    WHITE,
    blink,
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
from rules.core import Move


def dice_positions(lay: BgLayout, count: int) -> list[tuple[int, int]]:
    step = 2 * lay.die_pitch + 1 + lay.dice_gap
    x, y = lay.dice_at
    return [(x, y + i * step) if lay.dice_vertical else (x + i * step, y) for i in range(count)]


def face(colour: RGB) -> RGB:
    return scale(colour, 0.22)


def draw_dice(paint: Painter, lay: BgLayout, scene: Scene, state: BackgammonState) -> None:
    faces: Sequence[int] = ()
    pips: list[RGB] = []
    tints: list[RGB] = []
    roller = state.current_player or PLAYERS[state.turn]
    if scene.roll is not None:
        faces, settled = roll_faces(scene.roll)
        sides = list(PLAYERS) if opening_roll(state) else [roller] * len(faces)
        pips = [WHITE if settled else SIDE[s] for s in sides]
        tints = [face(SIDE[s]) for s in sides]
    elif state.phase == MOVE and state.dice and scene.entry is not None:
        faces, pips, tints = entry_dice(scene, state, SIDE[roller])
    elif state.phase == MOVE and state.dice:
        faces = state.dice
        pips = [WHITE] * len(faces)
        tints = [face(SIDE[roller])] * len(faces)
    elif scene.cue is not None and state.phase == ROLL and not blink(scene.t, 1.0):
        # The roll is awaited: empty dice in the roller's colour blink once a second.
        for x, y in dice_positions(lay, 2):
            empty_die(paint, lay, x, y, SIDE[roller])
        return
    elif scene.preview is ROLL_ACTION and state.phase == DOUBLE:
        if blink(scene.t, since=scene.preview_since):
            for x, y in dice_positions(lay, 2):
                empty_die(paint, lay, x, y, SIDE[roller])
        return
    elif scene.dice and state.phase != OVER:
        faces = scene.dice
        pips = [NEUTRAL] * len(faces)
        tints = [FACE_BG] * len(faces)
    for (x, y), value, pip, tint in zip(
        dice_positions(lay, len(faces)), faces, pips, tints, strict=True
    ):
        if value in PIPS:
            draw_die(paint.image, x, y, value, lay.die_pitch, pip=pip, face=tint)


def entry_dice(
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
            tints.append(face(colour) if taken and next_die is not None else FACE_BG)
    return faces, pips, tints


def opening_roll(state: BackgammonState) -> bool:
    """Whether the roll on display is the opening roll, one die per side ([white,
    black]). The table shows a roll with the state *after* it, so besides the opening
    phase (a tie is thrown again) this is a move from the untouched start position."""
    return state.phase == OPENING or (
        state.phase == MOVE and state.boards == (START, START) and state.cube == 1
    )


def empty_die(paint: Painter, lay: BgLayout, x: int, y: int, colour: RGB) -> None:
    """A die without pips: a tinted face on RGB, a ring of LEDs on monochrome panels."""
    side = 2 * lay.die_pitch + 1
    for dy in range(side):
        for dx in range(side):
            edge = dx in (0, side - 1) or dy in (0, side - 1)
            if paint.mode == "RGB":
                paint.put(x + dx, y + dy, colour if edge else face(colour))
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


def draw_cube(paint: Painter, lay: BgLayout, look: CubeLook | None, t: float, since: float) -> None:
    if look is None or (look.blinking and not blink(t, since=since)):
        return
    x0, x1 = lay.cube_x
    top = lay.cube_top[look.place]
    if lay.cube_digits:
        box = (x0, top, x1, top + 4)
        draw_text(paint.image, box, str(look.value), look.colour, t, font=TINY)
    else:
        box = (x0, top, x1, top + 2)
        paint.fill(box, face(look.colour))
        doublings = look.value.bit_length() - 1
        spots = PIPS.get(doublings, tuple((i // 3, i % 3) for i in range(min(doublings, 9))))
        for row, col in spots:
            paint.put(x0 + col, top + row, look.colour)
    if look.struck:
        x0, y0, x1, y1 = box
        across = max(1, x1 - x0)
        for i in range(x1 - x0 + 1):
            paint.put(x0 + i, y1 - round(i * (y1 - y0) / across), WHITE)
