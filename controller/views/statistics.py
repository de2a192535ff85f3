"""The statistics screen: per game, a bar chart of wins per seat colour.

One page per game, NEXT turns the page. A page shows the game's menu icon (top left),
the number of finished games counted (up to the last 50, beside the icon; dots below
it say which page this is), and one bar per colour that played, in seat order (red,
blue, green, yellow; Backgammon's white and black; Mini-Maki's red and the black
pieces). The longest bar is the most wins; a colour without a win shows a dim stub, so
every colour that played is there. On 32×32 the bars lie in rows, each after its
number of wins; on 16×16 they stand side by side without numbers.

The picture is still (no scrolling text): it needs no frames while it is shown, and the
order of the bars, which never changes, is the cue besides colour.

Where named players played a game, its leaderboard follows its chart: the same icon
and count, then one row per person, most wins first, each with their wins and their
name (a name too long for the row scrolls, as words do everywhere on the panel). A
person has no seat colour (they may play red today and blue tomorrow), so the names
are white, the leader's brightest. On 16×16 and the strips the board is one line,
"Anna 5 · Ben 3", scrolling.
"""

from __future__ import annotations

from typing import Any

from luma.core.legacy import text as legacy_text
from PIL import Image, ImageDraw

from controller.games import presentation
from controller.scene import StatisticsPage, StatisticsScene
from controller.views.fonts import panel_text
from controller.views.menu import draw_icon
from controller.views.palette import BLACK, RGB, WHITE, ink, scale, side_colour
from controller.views.text import LARGE, TINY, draw_text, note_text, text_width

EMPTY_ICON_GAME = "statistics"
"""No finished games yet: the page shows the statistics icon and a 0."""
STUB = 0.25
"""Brightness of the stub of a colour without a win."""


def render(scene: StatisticsScene, width: int, height: int, mode: str) -> Image.Image:
    image = Image.new(mode, (width, height), ink(BLACK, mode))
    pages = scene.pages or (StatisticsPage(EMPTY_ICON_GAME, 0, ()),)
    index = scene.page % len(pages)
    page = pages[index]
    if page.leaders:
        return render_board(image, page, index, len(pages), scene)
    if height >= 32 and width >= 32:
        draw_icon(image, page.game, 0, 0, 1)
        draw_number(image, 9, 0, width - 1, str(page.games), WHITE, LARGE)
        draw_page_dots(image, 9, 8, width - 1, index, len(pages))
        draw_rows(image, page, (0, 9, width - 1, height - 1))
    elif height >= 16:
        draw_icon(image, page.game, 0, 0, 1)
        draw_number(image, 9, 0, width - 1, str(page.games), WHITE, TINY)
        draw_page_dots(image, 9, 7, width - 1, index, len(pages))
        draw_bars(image, page, (0, 9, width - 1, height - 1))
    elif width >= 24:  # a 32×8 strip: the icon, then the bars
        draw_icon(image, page.game, 0, 0, 1)
        draw_bars(image, page, (10, 0, width - 1, height - 1))
    else:  # 8×8: bars only
        draw_bars(image, page, (0, 0, width - 1, height - 1))
    return image


def board_line(page: StatisticsPage) -> str:
    """The leaderboard as one line: "Anna 5 · Ben 3"."""
    return " · ".join(f"{leader.name} {leader.won}" for leader in page.leaders)


def render_board(
    image: Image.Image, page: StatisticsPage, index: int, count: int, scene: StatisticsScene
) -> Image.Image:
    """A game's leaderboard: rows of wins and names on 32×32, else one scrolling line."""
    width, height = image.size
    t, since = scene.t, scene.since
    if height >= 32 and width >= 32:
        draw_icon(image, page.game, 0, 0, 1)
        draw_number(image, 9, 0, width - 1, str(page.games), WHITE, LARGE)
        draw_page_dots(image, 9, 8, width - 1, index, count)
        numbers = text_width("00", TINY)
        for place, leader in enumerate(page.leaders):
            top = 9 + place * 6
            if top + 4 > height - 1:
                break
            shade = WHITE if place == 0 else scale(WHITE, 0.6)
            draw_number(image, 0, top, numbers - 1, str(leader.won), shade, TINY)
            left = numbers + 2
            # a name that fits stands at the left, under the others; a long one scrolls
            right = min(width - 1, left + text_width(panel_text(leader.name), TINY) - 2)
            draw_text(image, (left, top, right, top + 4), leader.name, shade, t, TINY, since=since)
    elif height >= 16:
        draw_icon(image, page.game, 0, 0, 1)
        draw_number(image, 9, 0, width - 1, str(page.games), WHITE, TINY)
        draw_page_dots(image, 9, 7, width - 1, index, count)
        draw_text(image, (0, 10, width - 1, 15), board_line(page), WHITE, t, TINY, since=since)
    elif width >= 24:
        draw_icon(image, page.game, 0, 0, 1)
        draw_text(image, (10, 0, width - 1, height - 1), board_line(page), WHITE, t, since=since)
    else:
        draw_text(image, (0, 0, width - 1, height - 1), board_line(page), WHITE, t, since=since)
    return image


def draw_number(
    image: Image.Image, x0: int, y0: int, x1: int, text: str, colour: RGB, font: Any
) -> None:
    """``text`` right-aligned in the columns x0..x1 from row y0, clipped to them."""
    width = x1 - x0 + 1
    note_text(text, width, 8, font)
    used = text_width(text, font) - 1  # without the spacing column after the last glyph
    layer = Image.new("L", (width, 8), 0)
    top = -1 if font is TINY else 0  # TINY glyphs sit in rows 1-5 of their cell
    legacy_text(ImageDraw.Draw(layer), (max(0, width - used), top), text, fill=255, font=font)
    image.paste(ink(colour, image.mode), (x0, y0, x0 + width, y0 + 8), layer)


def draw_page_dots(image: Image.Image, x0: int, y: int, x1: int, index: int, count: int) -> None:
    """One dot per page, the shown one bright (nothing for a single page)."""
    if count < 2:
        return
    spacing = 2 if 2 * count - 1 <= x1 - x0 + 1 else 1
    right = x1
    for page in range(count):
        x = right - spacing * (count - 1 - page)
        if x < x0:
            continue
        colour = WHITE if page == index else scale(WHITE, 0.2)
        image.putpixel((x, y), ink(colour, image.mode))


def draw_bars(image: Image.Image, page: StatisticsPage, box: tuple[int, int, int, int]) -> None:
    """Upright bars in ``box`` (inclusive), standing on its bottom row."""
    x0, y0, x1, y1 = box
    if not page.wins:
        image.paste(ink(scale(WHITE, STUB), image.mode), (x0, y1, x1 + 1, y1 + 1))
        return
    count = len(page.wins)
    span = x1 - x0 + 1
    gap = 2 if span >= count * 4 + (count - 1) * 2 else 1
    bar = max(1, min(6, (span - gap * (count - 1)) // count))
    left = x0 + (span - (bar * count + gap * (count - 1))) // 2
    most = max(wins for _, wins in page.wins)
    for position, (colour_name, wins) in enumerate(page.wins):
        colour = side_colour(colour_name, presentation(page.game).side_inks)
        bx = left + position * (bar + gap)
        tall = length(wins, most, y1 - y0 + 1)
        shade = colour if wins else scale(colour, STUB)
        image.paste(ink(shade, image.mode), (bx, y1 - tall + 1, bx + bar, y1 + 1))


def draw_rows(image: Image.Image, page: StatisticsPage, box: tuple[int, int, int, int]) -> None:
    """One row per colour in ``box``: the number of wins, then a bar lying to the right."""
    x0, y0, x1, y1 = box
    if not page.wins:
        image.paste(ink(scale(WHITE, STUB), image.mode), (x0, y0 + 2, x0 + 1, y0 + 5))
        return
    pitch = max(5, min(7, (y1 - y0 + 2) // len(page.wins)))
    most = max(wins for _, wins in page.wins)
    numbers = text_width("00", TINY)
    bar_left = x0 + numbers + 1
    for position, (colour_name, wins) in enumerate(page.wins):
        colour = side_colour(colour_name, presentation(page.game).side_inks)
        top = y0 + position * pitch
        if top + 4 > y1:
            break
        draw_number(image, x0, top, x0 + numbers - 1, str(wins), colour, TINY)
        long = length(wins, most, x1 - bar_left + 1)
        shade = colour if wins else scale(colour, STUB)
        image.paste(ink(shade, image.mode), (bar_left, top + 1, bar_left + long, top + 4))


def length(wins: int, most: int, room: int) -> int:
    """Pixels for ``wins`` when ``most`` wins fill ``room``; a colour without a win
    keeps one pixel (drawn dim), so every colour that played shows."""
    if wins <= 0 or most <= 0:
        return 1
    return max(1, round(wins * room / most))
