"""Menu, seat setup and message screens, at any panel size from 8×8 up.

The menu shows an 8×8 icon of the selected game (doubled on 32-pixel-high panels),
one dot per game with the selected dot lit, and the game's title scrolling below from
its first letter. On panels too small for both (8×8), icon and title alternate.

Setup shows one block per seat in the seat's colour: solid = human, hollow = bot,
one dim dot = empty; the cursor's seat has a blinking underline and its setting
scrolls as text ("orange: human"). Where the game has several rule sets the first
entry is the rules ("rules: Lingo"); the last entry is "start", drawn unlike any seat:
black letters on a green band, with no seat underlined. Messages scroll their text,
framed in a colour per kind.
"""

from __future__ import annotations

import math

from PIL import Image

from controller.games import presentation
from controller.i18n import _
from controller.scene import MenuScene, MessageScene, SetupScene
from controller.views import timing
from controller.views.palette import BLACK, RGB, SEAT, WHITE, blink, ink, scale, side_colour
from controller.views.text import TINY, draw_text, scroll_seconds
from controller.words import seat_word

ICONS: dict[str, tuple[str, ...]] = {
    # The statistics screen: a bar chart of wins per colour.
    "statistics": (
        "........",
        "......Y.",
        "..B...Y.",
        "..B.G.Y.",
        "R.B.G.Y.",
        "R.B.G.Y.",
        "########",
        "........",
    ),
}
"""8×8 icons of the menu's own entries; a game's icon is in its presentation
(:mod:`controller.games`). '#' board (grey), '.' off, letters: seat colours (R B G Y),
K the black side, O the other Backgammon side."""

_ICON_INK: dict[str, RGB] = {
    "#": (90, 90, 90),
    "R": SEAT["red"],
    "B": SEAT["blue"],
    "G": SEAT["green"],
    "Y": SEAT["yellow"],
    "K": SEAT["sky"],
    "O": SEAT["orange"],
}

_UNKNOWN_ICON = ("########", *("#......#",) * 6, "########")
_KIND_INK: dict[str, RGB] = {"info": WHITE, "error": SEAT["red"], "shutdown": SEAT["sky"]}
_ICON_S = 2.0
"""8×8 menu: the icon shows this long, then the title passes once."""
START_INK: RGB = SEAT["green"]


def draw_icon(image: Image.Image, game: str, x: int, y: int, factor: int) -> None:
    """Draw ``game``'s 8×8 icon at (x, y), each icon pixel ``factor``×``factor``."""
    mode = image.mode
    icon = ICONS.get(game) or presentation(game).icon or _UNKNOWN_ICON
    for row, line in enumerate(icon):
        for col, char in enumerate(line):
            colour = _ICON_INK.get(char)
            if colour is None:
                continue
            x0, y0 = x + col * factor, y + row * factor
            image.paste(ink(colour, mode), (x0, y0, x0 + factor, y0 + factor))


def render_menu(scene: MenuScene, width: int, height: int, mode: str) -> Image.Image:
    image = Image.new(mode, (width, height), ink(BLACK, mode))
    if not scene.items:
        draw_text(image, (0, 0, width - 1, height - 1), _("no games"), WHITE, scene.t)
        return image
    selected = scene.items[scene.selected % len(scene.items)]
    label = scene.banner or selected.words
    since = scene.banner_since if scene.banner else scene.since
    t = scene.t
    if height < 16:
        if width >= 24:  # 32×8 strip: icon left, label scrolling right of it
            draw_icon(image, selected.game, 0, 0, 1)
            draw_text(image, (9, 0, width - 1, height - 1), label, WHITE, t, since=since)
            return image
        # 8×8: the icon, then the label passes once, and again
        cycle = _ICON_S + max(1.0, scroll_seconds(label, width, height))
        if timing.phase(t, cycle, _ICON_S, start=since):
            draw_icon(image, selected.game, 0, 0, 1)
        else:
            shown = since + math.floor((t - since) / cycle + timing.EPS) * cycle + _ICON_S
            draw_text(image, (0, 0, width - 1, height - 1), label, WHITE, t, since=shown)
        return image
    factor = 2 if height >= 32 and width >= 20 else 1
    icon = 8 * factor
    x = (width - icon) // 2
    top = 1 if height >= 32 else 0  # 16 rows: 8 icon, 1 gap, dots, 1 gap, 5 text
    draw_icon(image, selected.game, x, top, factor)
    dots_y = top + icon + 1
    count = len(scene.items)
    spacing = 2 if 2 * count - 1 <= width else 1
    if count * spacing - (spacing - 1) <= width:
        first = (width - (spacing * count - (spacing - 1))) // 2
        for index in range(count):
            colour = WHITE if index == scene.selected % count else scale(WHITE, 0.2)
            image.putpixel((first + spacing * index, dots_y), ink(colour, mode))
    else:  # more entries than pixels: a position marker on a dim rail
        for x in range(width):
            image.putpixel((x, dots_y), ink(scale(WHITE, 0.2), mode))
        marker = (scene.selected % count) * (width - 1) // max(1, count - 1)
        image.putpixel((marker, dots_y), ink(WHITE, mode))
    draw_text(image, (0, dots_y + 2, width - 1, height - 1), label, WHITE, t, since=since)
    return image


def render_setup(scene: SetupScene, width: int, height: int, mode: str) -> Image.Image:
    image = Image.new(mode, (width, height), ink(BLACK, mode))
    if height < 16:  # 8-row strips: the entry as one line of text, "start" inverted
        _draw_entry(image, (0, 0, width - 1, height - 1), scene, None)
        return image
    seats = max(1, len(scene.seats))
    block = max(1, min(5, (width - (seats - 1)) // seats, height // 3))
    gap = max(1, min(block, (width - seats * block) // (seats + 1)))
    left = (width - (seats * block + (seats - 1) * gap)) // 2
    top = 1
    t, since = scene.t, scene.since
    for index, (kind, colour_name) in enumerate(zip(scene.seats, scene.colours, strict=True)):
        x0 = left + index * (block + gap)
        colour = side_colour(colour_name, presentation(scene.item.game).side_inks)
        if kind == "human" or block < 3:
            if kind == "empty":
                image.putpixel((x0, top), ink(scale(colour, 0.3), mode))
            else:
                image.paste(ink(colour, mode), (x0, top, x0 + block, top + block))
        elif kind == "coached":  # a human with the coach: the block with a white heart
            image.paste(ink(colour, mode), (x0, top, x0 + block, top + block))
            image.putpixel((x0 + block // 2, top + block // 2), ink(WHITE, mode))
        elif kind == "bot":
            image.paste(ink(colour, mode), (x0, top, x0 + block, top + block))
            image.paste(ink(BLACK, mode), (x0 + 1, top + 1, x0 + block - 1, top + block - 1))
        else:
            image.putpixel((x0 + block // 2, top + block // 2), ink(scale(colour, 0.3), mode))
        if index == scene.cursor and blink(t, since=since):
            image.paste(ink(WHITE, mode), (x0, top + block + 1, x0 + block, top + block + 2))
    text_top = top + block + 3
    if text_top >= height:
        return image
    # 16 rows: four small letters beat two big ones
    _draw_entry(image, (0, text_top, width - 1, height - 1), scene, TINY if height < 32 else None)
    return image


def _draw_entry(
    image: Image.Image, box: tuple[int, int, int, int], scene: SetupScene, font: object
) -> None:
    """The entry under the cursor in words; "start" must not look like a seat: dark
    letters on a green band."""
    t, since = scene.t, scene.since
    if scene.cursor >= len(scene.seats):
        if scene.problem is not None:  # why it cannot begin, in the error colour
            draw_text(image, box, scene.problem, SEAT["red"], t, font, since=since)
            return
        draw_text(image, box, _("start"), BLACK, t, font, START_INK, since)
        return
    if scene.cursor < 0:
        text = _("rules: {rules}").format(rules=scene.rules) if scene.rules else scene.item.words
    else:
        seat = scene.cursor % max(1, len(scene.seats))
        names = scene.names or scene.colours
        if not scene.seats:
            text = scene.item.words
        elif scene.naming:
            text = f"{names[seat]}: {seat_name(scene, seat)}"
        else:
            text = f"{names[seat]}: {seat_word(scene.seats[seat])}"
    draw_text(image, box, text, WHITE, t, font, since=since)


def seat_name(scene: SetupScene, seat: int) -> str:
    """Who sits at ``seat`` by name: a named player, else "guest"."""
    person = scene.people[seat] if seat < len(scene.people) else None
    return person if person is not None else _("guest")


def render_message(scene: MessageScene, width: int, height: int, mode: str) -> Image.Image:
    image = Image.new(mode, (width, height), ink(BLACK, mode))
    colour = _KIND_INK.get(scene.kind, WHITE)
    t, since = scene.t, scene.since
    if height >= 16:
        image.paste(ink(scale(colour, 0.5), mode), (0, 0, width, 1))
        image.paste(ink(scale(colour, 0.5), mode), (0, height - 1, width, height))
        rows = 8 if height >= 24 else 6
        top = (height - rows) // 2
        box = (0, top, width - 1, top + rows - 1)
        draw_text(image, box, scene.text, colour, t, since=since)
    else:
        draw_text(image, (0, 0, width - 1, height - 1), scene.text, colour, t, since=since)
    return image
