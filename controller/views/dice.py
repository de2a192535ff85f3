"""Dice as 3×3 pip patterns, and the tumbling animation of a roll.

A die face is a 3×3 grid of pip positions (the layout printed on real dice), so it
fits a 3×3 block of LEDs at 16×16 and a 5×5 block (pips with gaps) at 32×32. The
rolling animation is a pure function of ``progress`` (0..1 over ~0.6 s): the face
changes ever more slowly, like a die coming to rest, and the final face is shown once
progress reaches 1. Nothing here is random, so frames are reproducible.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image

from controller.scene import RollAnimation
from controller.views import timing
from controller.views.palette import RGB, WHITE, ink, scale

PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)),
}
"""Face value -> pip positions (row, col) on the 3×3 grid."""

ROLL_FLIPS = 9
"""How many faces a rolling die shows before it settles."""

FACE_BG: RGB = (28, 28, 28)


def die_size(pip_pitch: int) -> int:
    """Side length in pixels of a die whose pips are ``pip_pitch`` apart (1 or 2)."""
    return 2 * pip_pitch + 1


def draw_die(
    image: Image.Image,
    x: int,
    y: int,
    value: int,
    pip_pitch: int = 1,
    pip: RGB = WHITE,
    face: RGB | None = FACE_BG,
) -> None:
    """Draw one die with its top-left corner at (x, y).

    ``pip_pitch`` 1 packs the pips into 3×3 LEDs; 2 leaves a dark LED between pips
    (5×5). ``face`` lights the non-pip LEDs dimly so a die reads as a die (None: off,
    as on monochrome panels).
    """
    if value not in PIPS:
        raise ValueError(f"a die shows 1 to 6, got {value!r}")
    mode = image.mode
    side = die_size(pip_pitch)
    if face is not None and mode != "1":
        for dy in range(side):
            for dx in range(side):
                _put(image, x + dx, y + dy, ink(face, mode))
    for row, col in PIPS[value]:
        _put(image, x + col * pip_pitch, y + row * pip_pitch, ink(pip, mode))


def _put(image: Image.Image, x: int, y: int, fill: RGB | int) -> None:
    if 0 <= x < image.width and 0 <= y < image.height:
        image.putpixel((x, y), fill)


def _flip(progress: float) -> int:
    """The flip shown at ``progress``: an ease-out curve, fast at first, slow at the end."""
    p = max(0.0, progress)
    return math.floor(ROLL_FLIPS * (1.0 - (1.0 - p) ** 2) + timing.EPS)


def rolling_faces(final: Sequence[int], progress: float) -> tuple[tuple[int, ...], bool]:
    """The faces to show ``progress`` (0..1) through a roll, and whether they settled.

    The flip index follows an ease-out curve (fast at first, slow at the end) and the
    face of flip k is a fixed function of (k, final, die index) that never repeats the
    previous flip, so a roll looks random but is deterministic.
    """
    if progress >= 1.0:
        return tuple(final), True
    flip = _flip(progress)
    faces = []
    for index, value in enumerate(final):
        face = (value + 2 * flip + 3 * index + flip * flip) % 6 + 1
        previous = (value + 2 * (flip - 1) + 3 * index + (flip - 1) ** 2) % 6 + 1
        if face == previous:
            face = face % 6 + 1
        faces.append(face)
    return tuple(faces), False


def roll_faces(roll: RollAnimation) -> tuple[tuple[int, ...], bool]:
    """:func:`rolling_faces` of a running roll, noting when the next flip is due."""
    faces, settled = rolling_faces(roll.final, roll.progress)
    if not settled:
        flip = _flip(roll.progress)
        share = (flip + 1) / ROLL_FLIPS
        timing.at_progress(roll, 1.0 - math.sqrt(max(0.0, 1.0 - share)))
    return faces, settled


def draw_dice(
    image: Image.Image,
    x: int,
    y: int,
    values: Sequence[int],
    pip_pitch: int = 1,
    gap: int = 1,
    pip: RGB = WHITE,
    vertical: bool = False,
) -> None:
    """Draw several dice in a row (or column) starting at (x, y)."""
    step = die_size(pip_pitch) + gap
    for index, value in enumerate(values):
        dx, dy = (0, index * step) if vertical else (index * step, 0)
        draw_die(image, x + dx, y + dy, value, pip_pitch, pip)


def rolling_pip(colour: RGB) -> RGB:
    """Pips of a tumbling die take the roller's colour; a settled die is white."""
    return scale(colour, 1.0)
