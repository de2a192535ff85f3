"""The Players page in a real headless Chromium: a German table, a paired phone adds,
renames and removes names through the page's own controls, a refusal shows beside
them, and the leaderboard and the history list name the people."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")
pytest.importorskip("selenium.webdriver")

from controller.history.record import record_of
from controller.history.store import HistoryStore
from controller.players import book
from tests.history_games import played
from tests.test_web import ServedTable
from tests.test_web_browser import (
    SHOTS_ENV,
    browser,
    downloads,
    next_notice,
    pytestmark,
    wait_for,
)

__all__ = ["browser", "downloads", "pytestmark"]


def pair_in_german(driver: Any, table: ServedTable) -> None:
    driver.get(table.url + "/")
    wait_for(lambda: driver.find_element("id", "link").text == "verbunden", "the stream")
    driver.find_element("id", "show-code").click()
    notice = wait_for(lambda: next_notice(table), "the code on the panel")
    driver.find_element("id", "code").send_keys(notice.text.split()[-1])
    driver.find_element("css selector", "#pair-form button").click()
    wait_for(lambda: driver.find_element("id", "pairing").is_displayed() is False, "pairing")


def names_listed(driver: Any) -> list[str]:
    """The names in the list, read in one go (the page redraws it after each change)."""
    found = driver.execute_script(
        "return [...document.querySelectorAll('#list li input')].map((i) => i.value);"
    )
    return [str(name) for name in found]


def test_the_family_names_its_players_on_the_page(browser: Any, tmp_path: Path) -> None:
    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    state = tmp_path / "state"
    state.mkdir()
    oma = book.PlayerBook(state).add("Oma")
    store = HistoryStore(state)
    store.open()
    for seed in range(4):
        session = played("maedn", "classic", ["human", "bot", "bot", "bot"], seed)
        session.people = {"red": oma}
        store.add(record_of(session, "finished", f"2026-04-0{seed + 1}T10:00:00+00:00", 4, "r"))
    store.close()
    table = ServedTable(state_dir=state, language="de")
    try:
        table.rig.start()
        table.rig.app.loop.draw()
        pair_in_german(browser, table)
        browser.get(table.url + "/players")
        wait_for(lambda: names_listed(browser) == ["Oma"], "the names")
        for name in ("Anna", "Ben"):
            browser.find_element("id", "new-name").send_keys(name)
            browser.find_element("id", "add").click()
            wait_for(lambda n=name: n in names_listed(browser), f"{name} added")
        browser.find_element("id", "new-name").send_keys("anna")
        browser.find_element("id", "add").click()
        message = browser.find_element("id", "players-message")
        wait_for(lambda: message.text == "„anna“ ist schon ein Spieler", "the refusal")
        ben = browser.find_element("css selector", "#list li[data-id='p3'] input")
        ben.clear()
        ben.send_keys("Benni")
        browser.find_element("css selector", "#list li[data-id='p3'] button").click()
        wait_for(lambda: names_listed(browser) == ["Oma", "Anna", "Benni"], "the renaming")
        board = browser.find_element("css selector", "#leaderboards [data-game='maedn']")
        assert board.find_element("tag name", "h3").text == "Mensch ärgere dich nicht"
        assert board.find_element("tag name", "li").text.startswith("Oma: ")
        shots.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(shots / "players.png"))
        remove = browser.find_elements("css selector", "#list li[data-id='p2'] button")[1]
        remove.click()
        alert = browser.switch_to.alert
        assert "Anna" in alert.text
        alert.accept()
        wait_for(lambda: names_listed(browser) == ["Oma", "Benni"], "the removal")
        assert [p.name for p in book.read(state)] == ["Oma", "Benni"]
        browser.get(table.url + "/history")
        wait_for(
            lambda: "Oma (rot Mensch)" in browser.find_element("id", "games").text,
            "the history naming Oma",
        )
    finally:
        table.close()


def test_a_game_started_from_setup_names_its_players(browser: Any, tmp_path: Path) -> None:
    """Setup's seats offer the names where a person plays (a bot seat has none), the
    game starts with them, and the page proposes them again when it is opened next."""
    from selenium.webdriver.support.ui import Select

    from controller.testing.files import config_text

    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    state = tmp_path / "state"
    state.mkdir()
    names = book.PlayerBook(state)
    anna, ben = names.add("Anna"), names.add("Ben")
    seats = ("human", "bot", "coached", "bot")
    config = tmp_path / "config.toml"
    config.write_text(config_text(seats), encoding="utf-8")
    table = ServedTable(seats=seats, state_dir=state, config_path=config, language="de")
    try:
        table.rig.start()  # the menu
        table.rig.app.loop.draw()
        pair_in_german(browser, table)
        browser.get(table.url + "/setup")
        wait_for(lambda: browser.find_elements("id", "who3"), "the seats' names")
        shown = [browser.find_element("id", f"who{i}").is_displayed() for i in range(4)]
        assert shown == [True, False, True, False]  # a bot seat has no name
        who = Select(browser.find_element("id", "who0"))
        assert [o.text for o in who.options] == ["Gast", "Anna", "Ben"]
        who.select_by_visible_text("Anna")
        Select(browser.find_element("id", "who2")).select_by_visible_text("Anna")
        browser.find_element("id", "start").click()
        error = wait_for(lambda: browser.find_element("id", "err-seat2").text, "the refusal")
        assert error == "Anna sitzt schon an Platz 1"
        Select(browser.find_element("id", "who2")).select_by_visible_text("Ben")
        Select(browser.find_element("id", "seat1")).select_by_value("human")
        assert browser.find_element("id", "who1").is_displayed()  # a person now: a name
        browser.find_element("id", "start").click()
        session = wait_for(lambda: table.rig.app.table.session, "the game at the table", table)
        assert session.people == {"red": anna, "green": ben}
        assert session.kinds["blue"] == "human" and session.coached == ("green",)
        shots.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(shots / "setup-names.png"))
        table.rig.settle()
        browser.get(table.url + "/setup")
        wait_for(lambda: browser.find_elements("id", "who3"), "the seats again")
        chosen = [
            Select(browser.find_element("id", f"who{i}")).first_selected_option.text for i in (0, 2)
        ]
        assert chosen == ["Anna", "Ben"]
    finally:
        table.close()
