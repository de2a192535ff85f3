"""The companion page on a phone, in German, in a real headless Chromium emulating a
phone's screen (390×844 and 360×640 CSS pixels): the phone seat's two buttons stay on
the first screen in one place and work from the keyboard; a restarted table or a game
started from Setup with another phone seat is noticed by an open page; the History
fits the screen, opens from the keyboard and names everything as the panel does;
Setup marks the fields its errors are about. Screenshots along the way
(``SPIELTISCH_SCREENSHOTS=DIR`` keeps them)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")
pytest.importorskip("selenium.webdriver")

from selenium.webdriver.common.keys import Keys

from controller import i18n
from controller.machine import Mode
from controller.session import Session
from controller.web.attach import serve
from hardware.interfaces import ButtonEvent
from tests.test_web import ServedTable, client_session, pair, run
from tests.test_web_browser import (  # noqa: F401 (pytestmark: the same skip)
    SHOTS_ENV,
    chromium,
    next_notice,
    pytestmark,
    wait_for,
)
from tests.test_web_pages import GAMES, add_games, config_file, setup_post

PHONES = [(390, 844), (360, 640)]


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    yield from chromium(tmp_path)


@pytest.fixture(autouse=True)
def _german() -> Iterator[None]:
    """The table speaks German (as the appliance does from its start with ``language =
    "de"``), so its status line on the page is German too."""
    i18n.use("de")
    yield None
    i18n.use("en")


def phone(driver: Any, width: int, height: int) -> None:
    """Make the browser's screen a phone's: that many CSS pixels, touch, mobile."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
    )


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def rect(driver: Any, element_id: str) -> dict[str, float]:
    found: dict[str, float] = driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,"
        " width: innerWidth, height: innerHeight};",
        element_id,
    )
    return found


def on_screen(box: dict[str, float]) -> bool:
    return (
        box["top"] >= 0
        and box["left"] >= 0
        and box["bottom"] <= box["height"]
        and box["right"] <= box["width"]
        and box["bottom"] > box["top"]
    )


def pair_german(driver: Any, table: ServedTable) -> None:
    driver.get(table.url + "/")
    wait_for(lambda: driver.find_element("id", "link").text == "verbunden", "the stream")
    driver.find_element("id", "show-code").click()
    notice = wait_for(lambda: next_notice(table), "the code on the panel")
    driver.find_element("id", "code").send_keys(notice.text.split()[-1])
    driver.find_element("css selector", "#pair-form button").click()
    wait_for(lambda: driver.find_element("id", "phone-bar").is_displayed(), "the phone seat")


def drawn_frames(driver: Any) -> int:
    return int(driver.find_element("id", "panel").get_attribute("data-frames"))


def luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(one: str, two: str) -> float:
    low, high = sorted((luminance(one), luminance(two)))
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_the_phone_seats_buttons_stay_on_the_first_screen_in_one_place(
    browser: Any, tmp_path: Path, width: int, height: int
) -> None:
    table = ServedTable(language="de")
    try:
        table.rig.start(Session.start("maedn", "classic", ["human", "bot"], seed=3, bot="random"))
        table.rig.app.loop.draw()
        phone(browser, width, height)
        pair_german(browser, table)
        places = {name: rect(browser, name) for name in ("btn-ok", "btn-next")}
        for name, box in places.items():
            assert on_screen(box), (name, box)
        assert "rot" in browser.find_element("id", "bar-seat").text  # its colour, no number
        assert "Platz 1" not in browser.find_element("id", "bar-seat").text
        ok = browser.find_element("id", "btn-ok")
        colours = browser.execute_script(
            "const s = getComputedStyle(arguments[0]); return [s.color, s.backgroundColor];", ok
        )
        assert contrast(*colours) >= 4.5, colours

        # the status is a live region: the stream repeats it with every frame, the page
        # writes it only when it changes
        browser.execute_script(
            "window.statusWrites = 0;"
            "new MutationObserver((m) => { window.statusWrites += m.length; })"
            ".observe(document.getElementById('status'),"
            " {childList: true, characterData: true, subtree: true});"
        )
        said = browser.find_element("id", "status").text
        for _ in range(8):  # as while the panel blinks: new frames, the same words
            frames = drawn_frames(browser)
            table.publisher.show(table.rig.frame())
            wait_for(lambda seen=frames: drawn_frames(browser) > seen, "the repeated frame")
        assert browser.execute_script("return window.statusWrites") == 0
        assert browser.find_element("id", "status").text == said

        # Enter on OK rolls, as the seat's own button would
        session = table.rig.app.table.require_session()
        before = len(session.history)
        ok.send_keys(Keys.ENTER)
        wait_for(lambda: len(session.history) > before, "the roll from the keyboard", table)
        for _ in range(10):
            if table.rig.app.table.state is not Mode.ROLLING:
                break
            table.rig.advance()
        table.rig.settle()
        wait_for(lambda: browser.find_element("id", "dice").text, "the dice line", table)
        assert "Würfel" in browser.find_element("id", "dice").text
        # the dice line and the new status moved nothing
        assert {name: rect(browser, name) for name in places} == places
        browser.save_screenshot(str(shots(tmp_path) / f"phone-seat-{width}x{height}.png"))
        assert not browser.find_element("id", "press-message").text

        # Space on NEXT presses and releases it, as the seat's own NEXT
        events = table.rig.app.events
        while len(events):
            events.get(0)
        browser.find_element("id", "btn-next").send_keys(Keys.SPACE)
        pressed: list[tuple[int | None, str, str]] = []

        def next_pressed() -> bool:
            while len(events):
                event = events.get(0)
                if isinstance(event, ButtonEvent):
                    pressed.append((event.seat, event.button, event.kind))
            return "up" in [kind for _seat, _button, kind in pressed]

        wait_for(next_pressed, "NEXT from the keyboard")
        assert pressed[:2] == [(0, "next", "down"), (0, "next", "up")], pressed
    finally:
        table.close()


def test_an_open_page_notices_a_restarted_table_and_asks_to_pair_again(
    browser: Any, tmp_path: Path
) -> None:
    table = ServedTable(language="de")
    try:
        table.rig.start(Session.start("maedn", "classic", ["human", "bot"], seed=3, bot="random"))
        table.rig.app.loop.draw()
        phone(browser, 390, 844)
        pair_german(browser, table)
        assert table.server is not None
        port = table.server.port
        table.server.stop()  # the table restarts: its pairings are gone
        table.server = serve(table.rig.app, table.publisher, port, [0], None, "de")
        assert table.server is not None and table.server.port == port
        wait_for(lambda: browser.find_element("id", "pairing").is_displayed(), "pairing again")
        assert not browser.find_element("id", "phone-bar").is_displayed()
        message = browser.find_element("id", "pair-message").text
        assert "neu koppeln" in message, message
        browser.save_screenshot(str(shots(tmp_path) / "phone-restarted.png"))
    finally:
        table.close()


def test_a_game_started_from_setup_with_another_phone_seat_moves_the_buttons_to_it(
    browser: Any, tmp_path: Path
) -> None:
    path = config_file(tmp_path)
    table = ServedTable(seats=("human", "bot", "human", "human"), config_path=path, language="de")
    try:
        table.rig.start()  # the menu
        table.rig.app.loop.draw()
        phone(browser, 390, 844)
        pair_german(browser, table)

        async def start_from_setup() -> Any:
            async with client_session() as client:  # another phone, on the Setup page
                csrf = await pair(client, table)
                values = {"game": "maedn", "seats": ["bot", "phone", "empty", "empty"]}
                return await setup_post(client, table, csrf, {"action": "start", "values": values})

        status, data = run(start_from_setup())
        assert status == 200, data
        session = wait_for(lambda: table.rig.app.table.session, "the game", table)
        table.rig.app.loop.draw()
        wait_for(
            lambda: browser.find_element("id", "phone-seat").get_attribute("value") == "1",
            "the phone seat read again",
            table,
        )
        # two players in MÄDN sit opposite: seat 2 plays green
        assert "grün" in browser.find_element("id", "bar-seat").text
        while len(table.rig.app.events):
            table.rig.app.events.get(0)
        browser.find_element("id", "btn-ok").click()
        pressed = wait_for(
            lambda: next(
                (
                    e
                    for e in iter(lambda: table.rig.app.events.get(0), None)
                    if isinstance(e, ButtonEvent)
                ),
                None,
            ),
            "the press",
        )
        assert pressed.seat == 1 and session.game == "maedn"
        assert not browser.find_element("id", "press-message").text
        browser.save_screenshot(str(shots(tmp_path) / "phone-after-setup.png"))
    finally:
        table.close()


def test_a_press_the_table_refuses_is_answered_beside_the_buttons(
    browser: Any, tmp_path: Path
) -> None:
    """Setup has started a game with the phone at another seat, and the table has not
    begun it yet: a press for the old seat is refused, and the page says so beside the
    buttons, in German, and plays the new seat from then on."""
    path = config_file(tmp_path)
    table = ServedTable(seats=("human", "bot", "human", "human"), config_path=path, language="de")
    try:
        table.rig.start()  # the menu
        table.rig.app.loop.draw()
        phone(browser, 360, 640)
        pair_german(browser, table)

        async def start_from_setup() -> Any:
            async with client_session() as client:
                csrf = await pair(client, table)
                values = {"game": "maedn", "seats": ["bot", "phone", "empty", "empty"]}
                return await setup_post(client, table, csrf, {"action": "start", "values": values})

        assert run(start_from_setup())[0] == 200
        browser.find_element("id", "btn-ok").click()  # the table is still in its menu
        said = wait_for(lambda: browser.find_element("id", "press-message").text, "the answer")
        assert said == "Dieser Platz wird in diesem Spiel nicht vom Handy aus gespielt."
        assert on_screen(rect(browser, "press-message"))
        wait_for(
            lambda: browser.find_element("id", "phone-seat").get_attribute("value") == "1",
            "the phone seat read again",
        )
        browser.save_screenshot(str(shots(tmp_path) / "phone-refused.png"))
        wait_for(lambda: table.rig.app.table.session, "the game", table)
        table.rig.app.loop.draw()
        wait_for(
            lambda: not browser.find_element("id", "press-message").text,
            "the answer gone with the new game",
            table,
        )
    finally:
        table.close()


def test_the_history_fits_a_phone_opens_from_the_keyboard_and_speaks_german(
    browser: Any, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    ended = "2026-11-21T18:00:00+00:00"
    money = ("backgammon", "money", ["bot", "bot", "empty", "empty"], 7, ended)
    add_games(state, (*GAMES, money))
    table = ServedTable(state_dir=state, language="de")
    try:
        table.rig.start()
        phone(browser, 390, 844)
        browser.get(table.url + "/history")
        rows = wait_for(
            lambda: browser.find_elements("css selector", "#games tbody tr"), "the games"
        )
        wait_for(lambda: browser.find_elements("css selector", ".player .chi"), "the charts")
        widths = browser.execute_script(
            "return [document.documentElement.scrollWidth, innerWidth,"
            " document.getElementById('games').getBoundingClientRect().right];"
        )
        assert widths[0] <= widths[1] and widths[2] <= widths[1], widths
        text = browser.find_element("id", "list").text
        for word in ("maedn", "kleiner_aerger", "white", "black", "random", "classic"):
            assert word not in text, word
        assert "Mensch ärgere dich nicht · klassisch" in text and "Kleiner Ärger" in text
        assert "orange Computer (leicht), blau Computer (leicht)" in text
        browser.save_screenshot(str(shots(tmp_path) / "history-phone.png"))

        # open the money game from the keyboard: Tab to its button, Enter
        row = next(r for r in rows if "mit Doppler" in r.text)
        button = row.find_element("css selector", "button.open")
        button.send_keys(Keys.ENTER)
        wait_for(lambda: browser.find_element("id", "detail").is_displayed(), "the game")
        title = browser.find_element("id", "detail-title").text
        assert "Backgammon · mit Doppler" in title and "gewonnen" in title, title
        assert not re.search(r"\b(white|black)\b", title)
        browser.find_element("id", "forward").click()
        step = wait_for(lambda: browser.find_element("id", "step-text").text, "step 1")
        assert re.fullmatch(r"Schritt 1 von \d+: Anfangswurf: orange \d, blau \d", step), step
        moves = browser.find_element("id", "moves").text
        assert "doppelt" in moves and "nimmt den Doppler an" in moves
        assert not re.search(r": (roll|double|take|drop|beaver)$", moves, re.MULTILINE)
        browser.find_element("id", "last").click()
        wait_for(
            lambda: browser.execute_script(
                "const l = document.getElementById('moves'), n = l.querySelector('li.now');"
                "if (!n) return false;"
                "const a = l.getBoundingClientRect(), b = n.getBoundingClientRect();"
                "return b.top >= a.top && b.bottom <= a.bottom;"
            ),
            "the move list following the step",
        )
        browser.execute_script("document.getElementById('detail-title').scrollIntoView()")
        browser.save_screenshot(str(shots(tmp_path) / "replay-phone.png"))
    finally:
        table.close()


def test_setup_on_a_phone_marks_the_fields_and_says_the_seat_count_at_once(
    browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.support.ui import Select

    table = ServedTable(config_path=config_file(tmp_path), language="de")
    try:
        table.rig.start()
        table.rig.app.loop.draw()
        phone(browser, 360, 640)
        pair_german(browser, table)
        browser.get(table.url + "/setup")
        wait_for(lambda: browser.find_element("id", "game").get_attribute("value"), "the form")
        bots = [o.text for o in Select(browser.find_element("id", "bot")).options]
        # every bot kind, weakest first, in the family's words
        levels = ["Anfänger", "Gelegenheitsspieler", "Fortgeschritten", "Profi"]
        assert bots == ["leicht", *levels, "stark"], bots
        Select(browser.find_element("id", "game")).select_by_value("backgammon")
        Select(browser.find_element("id", "seat1")).select_by_value("empty")
        timer = browser.find_element("id", "move_timer_s")
        timer.clear()
        timer.send_keys("-4")
        browser.find_element("id", "start").click()
        seats = wait_for(lambda: browser.find_element("id", "err-seats").text, "the seat count")
        assert seats == "Backgammon ist für 2 Spieler, 1 gewählt"
        error = browser.find_element("id", "err-move_timer_s").text
        assert error.startswith("-4 liegt außerhalb"), error
        assert timer.get_attribute("aria-invalid") == "true"
        assert browser.find_element("id", "seat0").get_attribute("aria-invalid") == "true"
        marked = browser.find_elements("css selector", ".invalid")
        assert len(marked) == 2, [m.get_attribute("outerHTML")[:80] for m in marked]
        message = browser.find_element("id", "setup-message").text
        assert message.startswith("nicht gestartet") and "Zugzeit" in message, message
        browser.execute_script("document.getElementById('seats').scrollIntoView()")
        browser.save_screenshot(str(shots(tmp_path) / "setup-phone.png"))
        browser.execute_script("document.getElementById('start').scrollIntoView()")
        browser.save_screenshot(str(shots(tmp_path) / "setup-phone-message.png"))
    finally:
        table.close()
