"""The statistics screen: wins per seat colour as a bar chart, at 16×16 and 32×32.

Golden pictures live in ``tests/golden/statistics_*``; with ``SPIELTISCH_REGEN_GOLDEN=1``
they are rewritten (the pictures ``docs/img/statistics_*.png`` of docs/history.md are
drawn by ``tests/docs_pictures.py``). Look at them before committing. The last test
opens the screen at a table (mock pins, luma's dummy panel) over a history of recorded
games and checks that the panel shows exactly the chart of those games.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from controller import views
from controller.history.record import record_of
from controller.history.store import HistoryStore
from controller.machine import Mode
from controller.scene import STATISTICS_ITEM, StatisticsPage, StatisticsScene
from controller.testing.rig import SHORT_ANIMATIONS, ApplianceRig
from controller.views.palette import SEAT, scale
from controller.views.statistics import STUB
from tests.golden_check import GOLDEN_LANGUAGES, check_golden
from tests.history_games import played

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("SPIELTISCH_REGEN_GOLDEN") == "1"
SIZES = [(16, 16), (32, 32)]

PAGES = (
    StatisticsPage("maedn", 50, (("red", 20), ("blue", 12), ("green", 0), ("yellow", 18))),
    StatisticsPage("backgammon", 7, (("white", 5), ("black", 2))),
)
SCENES = {
    "statistics": StatisticsScene(PAGES, 0),
    "statistics_backgammon": StatisticsScene(PAGES, 1),
    "statistics_empty": StatisticsScene((), 0),
}


def rgb(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    value = image.convert("RGB").getpixel(xy)
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


CHART_TOP = 9
"""Rows above are the game's icon, the number of games and the page dots."""


def lit_pixels(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """Pixels of ``colour`` in the chart (below the icon row)."""
    return sum(
        rgb(image, (x, y)) == colour
        for x in range(image.width)
        for y in range(CHART_TOP, image.height)
    )


@pytest.mark.parametrize("language", GOLDEN_LANGUAGES)
@pytest.mark.parametrize("name", sorted(SCENES))
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_golden(name: str, size: tuple[int, int], language: str) -> None:
    width, height = size
    image = check_golden(
        lambda: views.render(SCENES[name], width, height, "RGB"),
        f"{name}_{width}x{height}_RGB",
        language,
    )
    assert image.size == size and image.mode == "RGB"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_bars_grow_with_the_wins_and_a_colour_without_wins_keeps_a_stub(
    size: tuple[int, int],
) -> None:
    image = views.render(SCENES["statistics"], *size, "RGB")
    area = {name: lit_pixels(image, SEAT[name]) for name in ("red", "blue", "yellow")}
    # the number above or beside a bar is drawn in its colour too, so compare the order
    assert area["red"] > area["yellow"] > area["blue"] > 0
    if size == (16, 16):
        assert lit_pixels(image, SEAT["green"]) == 0
    else:  # only its number, "0"
        assert 0 < lit_pixels(image, SEAT["green"]) < lit_pixels(image, SEAT["blue"]) // 4
    assert lit_pixels(image, scale(SEAT["green"], STUB)) >= 1


def test_pages_and_sizes_differ_and_drawing_is_pure() -> None:
    frames = {name: views.render(scene, 32, 32, "RGB").tobytes() for name, scene in SCENES.items()}
    assert len(set(frames.values())) == len(frames)
    again = views.render(SCENES["statistics"], 32, 32, "RGB").tobytes()
    assert again == frames["statistics"]


def test_other_panels_draw_the_chart_too() -> None:
    for width, height, mode in [(32, 8, "1"), (8, 8, "1"), (64, 32, "RGB")]:
        image = views.render(SCENES["statistics"], width, height, mode)
        assert image.size == (width, height) and image.getbbox() is not None


def test_the_menu_entry_shows_the_recorded_games_at_the_table(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    """Games recorded in the state directory; at the table the menu's last entry opens
    the chart, NEXT turns to the next game, OK goes back to the menu."""
    store = HistoryStore(tmp_path)
    store.open()
    winners: dict[str, list[str]] = {"maedn": [], "minimaki": []}
    for seed in range(6):
        for game, kinds in (("maedn", ["bot", "empty", "bot", "bot"]), ("minimaki", ["human"])):
            session = played(game, "classic" if game == "maedn" else "standard", kinds, seed)
            record = record_of(session, "finished", f"2025-02-0{seed + 1}T10:00:00+00:00", 4, "r")
            store.add(record)
            winners[game].append(session.state.winners()[0])
    store.close()
    rig = appliance_rig(tmp_path, seats=("human",) * 4, size=32, options=SHORT_ANIMATIONS)
    rig.start()
    menu = rig.table.options.menu
    assert menu[-1] == STATISTICS_ITEM
    for _ in range(len(menu) - 1):
        rig.press(0, "next")
    rig.press(0, "ok")
    assert rig.table.state is Mode.STATISTICS
    first = rig.frame()
    rig.press(2, "next")
    second = rig.frame()
    rig.press(0, "ok")
    assert rig.table.state is Mode.MENU
    rig.close()
    maedn = StatisticsPage(
        "maedn", 6, tuple((c, winners["maedn"].count(c)) for c in ("red", "blue", "green"))
    )
    sides = ["red"] + (["black"] if "black" in winners["minimaki"] else [])  # unseated
    minimaki = StatisticsPage(
        "minimaki", 6, tuple((c, winners["minimaki"].count(c)) for c in sides)
    )
    expected = (maedn, minimaki)
    assert rig.table.menu.pages == expected
    for page, frame in enumerate((first, second)):
        drawn = views.render(StatisticsScene(expected, page), 32, 32, "RGB")
        assert ImageChops.difference(drawn, frame).getbbox() is None
