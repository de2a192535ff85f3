"""Nothing is left untranslated: whole games under the pseudo-language, read in words.

Under :data:`controller.i18n.PSEUDO` every text that came through the catalog is
marked ``⟦…⟧``. These tests play whole seeded games of every preset (bots in every
seat, and one human per game family pressing NEXT and OK), walk the menu, every setup
entry, the sleep, the statistics screen, the messages and the config-error screen, and
keep every text the views drew (the words as the views wrote them, not pixels), every
status line, the window's labels, buttons and footer for each of those status lines,
and the terminal's key legend. Then every word must have come through the catalog
(:mod:`tests.catalog_words`): only numbers, notation and symbols may stand unmarked.

A failure lists each text with its leftover words and where it was seen, so the fix is
a ``_()`` in the module that wrote it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

import rules
from controller.config import ConfigError, parse_config
from controller.config_wait import ConfigWait
from controller.events import EventQueue
from controller.i18n import DEFAULT, PSEUDO, use
from controller.machine import Mode
from controller.scene import MessageScene
from controller.sdnotify import Notifier
from controller.session import Session
from controller.testing.clock import FakeClock
from controller.testing.files import SAVE
from controller.text.board import legend
from controller.views import render
from controller.views.text import collect_texts
from hardware.build import build_display
from hardware.specs import DisplaySpec
from tests.catalog_words import report
from tests.panel_words import Words, WordWatch, terminal_texts, walk_menu_and_setup, window_texts

SEED = 27
PRESETS = [(game, preset) for game in rules.game_names() for preset in rules.presets(game)]
HUMAN_GAMES = [(game, rules.default_preset(game)) for game in rules.game_names()]


@pytest.fixture(autouse=True)
def pseudo() -> Iterator[None]:
    use(PSEUDO)
    yield
    use(DEFAULT)


def seen_in(words: Words, size: int = 16) -> dict[str, set[str]]:
    """Every text of a run, with where it was shown."""
    texts: dict[str, set[str]] = {}
    for where, found in (
        ("panel", words.panel()),
        ("status line", words.status_lines()),
        ("window", window_texts(words.statuses, size)),
    ):
        for text in found:
            texts.setdefault(text, set()).add(where)
    return texts


def assert_all_translated(texts: dict[str, set[str]]) -> None:
    lines = report(texts)
    assert not lines, f"{len(lines)} texts with words not from the catalog:\n" + "\n".join(lines)


def kinds_for(game: str, preset: str, first: str = "bot") -> list[str]:
    count = max(rules.get_game(game, preset).player_counts)
    return [first] + ["bot"] * (count - 1) + ["empty"] * (4 - count)


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_a_whole_game_of_bots_speaks_only_catalog_words(
    tmp_path: Path, game: str, preset: str
) -> None:
    watch = WordWatch(tmp_path)
    try:
        watch.start(Session.start(game, preset, kinds_for(game, preset), seed=SEED, bot="random"))
        assert watch.play_out() >= 1
        assert watch.table.state is Mode.MENU
    finally:
        watch.close()
    assert_all_translated(seen_in(watch.words))


@pytest.mark.parametrize(("game", "preset"), HUMAN_GAMES)
def test_a_human_at_the_table_reads_only_catalog_words(
    tmp_path: Path, game: str, preset: str
) -> None:
    """A person on seat 1 (NEXT shows another move, OK plays it) and bots elsewhere,
    on the big panel this time."""
    watch = WordWatch(tmp_path, seats=("human", "bot", "bot", "bot"), size=32)
    try:
        session = Session.start(game, preset, kinds_for(game, preset, "human"), seed=SEED)
        watch.start(session)
        assert watch.play_out() >= 1
    finally:
        watch.close()
    assert_all_translated(seen_in(watch.words, 32))


def test_menu_setup_sleep_statistics_and_messages(tmp_path: Path) -> None:
    watch = WordWatch(
        tmp_path, seats=("human", "bot", "bot", "bot"), options={"sleep_after_s": 30.0}
    )
    table = watch.table
    try:
        watch.start()
        assert table.state is Mode.MENU
        # a finished game, so that the statistics have a page
        table.start_session(Session.start("minimaki", "standard", ["bot"], seed=SEED, bot="random"))
        watch.settle()
        watch.play_out()
        walk_menu_and_setup(watch)
        # the statistics screen, and its pages
        while table.options.menu[table.menu.index].game != "statistics":
            watch.press(0, "next")
        watch.press(0, "ok")
        assert table.state is Mode.STATISTICS
        for _ in range(3):
            watch.press(0, "next")
        watch.hold(None, "system")
        watch.press(0, "ok")
        watch.run_for(2.0)
        # asleep in the menu, then woken
        watch.run_for(40.0)
        watch.press(0, "next")
        # a game begun from setup, cut short: "back to menu?", then both answers
        table.start_session(
            Session.start("maedn", "lingo", ["human", "bot", "bot", "bot"], seed=SEED)
        )
        watch.settle()
        watch.run_for(12.0)  # the move timer runs out: "time!"
        watch.hold(None, "system")
        watch.run_for(3.0)
        watch.press(1, "next")  # another seat's NEXT: no
        watch.run_for(3.0)
        watch.hold(None, "system")
        watch.press(0, "ok")
        watch.run_for(3.0)
    finally:
        watch.close()
    texts = seen_in(watch.words)
    for text in terminal_texts() | {legend(game) for game in rules.game_names()}:
        texts.setdefault(text, set()).add("terminal")
    assert_all_translated(texts)


def test_a_damaged_save_is_told_in_catalog_words(tmp_path: Path) -> None:
    (tmp_path / SAVE).write_text("{ not json", encoding="utf-8")
    watch = WordWatch(tmp_path)
    try:
        watch.start()
        assert watch.table.state is Mode.MESSAGE
        watch.run_for(10.0)
    finally:
        watch.close()
    assert_all_translated(seen_in(watch.words))


@pytest.mark.parametrize(
    "section",
    ['[game]\nbot = "grandmaster"\n', "[display]\nwidth = 17\n", '[table]\nlanguage = "xx"\n'],
)
def test_the_config_error_screen_speaks_catalog_words(section: str) -> None:
    text = '[display]\ntype = "dummy"\nwidth = 16\nheight = 16\n'
    if section.startswith("[display]"):
        text = '[display]\ntype = "dummy"\nheight = 16\n' + section.removeprefix("[display]\n")
    else:
        text += section
    with pytest.raises(ConfigError) as caught:
        parse_config(tomllib.loads(text))
    display = build_display(DisplaySpec(type="dummy", width=16, height=16))
    clock = FakeClock(100.0)
    found: set[str] = set()

    def reading(scene: MessageScene, width: int, height: int, mode: str) -> object:
        with collect_texts() as drawn:
            image = render(scene, width, height, mode)
        found.update(d.text for d in drawn)
        return image

    wait = ConfigWait(
        Path("config.toml"), caught.value, display, reading, EventQueue(), Notifier({}), clock
    )
    wait.draw(clock())
    display.close()
    assert found
    assert_all_translated({text: {"config-error screen"} for text in found})
