"""The paired phones on the Setup page, and the Live page while a code is up, in a real
headless Chromium (as ``test_web_browser.py``, whose browser and helpers it uses)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("aiohttp")
pytest.importorskip("selenium.webdriver")

from controller.session import Session
from tests.test_web import ServedTable, client_session, pair, run
from tests.test_web_browser import (
    CHROMIUM,
    DRIVER,
    browser,  # noqa: F401 (the fixture)
    downloads,  # noqa: F401 (the fixture)
    next_notice,
    pair_in_browser,
    wait_for,
)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)


def items(driver: Any) -> list[str]:
    """The list's lines, read in one go (the page redraws the list as it changes)."""
    texts: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#phone-list li')].map((li) => li.textContent);"
    )
    return texts


def test_forget_a_phone_then_every_phone_then_watch_a_code_come_up(browser: Any) -> None:  # noqa: F811
    table = ServedTable()
    try:
        table.rig.start(Session.start("maedn", "classic", ["human", "bot"], seed=3, bot="random"))
        table.rig.app.loop.draw()
        pair_in_browser(browser, table)

        async def other_phone() -> None:
            async with client_session() as client:
                await pair(client, table)

        run(other_phone())
        browser.get(table.url + "/setup")
        wait_for(lambda: len(items(browser)) == 2, "two paired phones in the list")
        mine = [text for text in items(browser) if "this phone" in text]
        assert len(mine) == 1, items(browser)
        browser.execute_script(
            "[...document.querySelectorAll('#phone-list li')]"
            ".find((li) => !li.textContent.includes('this phone')).querySelector('button').click();"
        )
        wait_for(lambda: len(items(browser)) == 1, "the other phone forgotten")
        assert "forgotten" in browser.find_element("id", "phones-message").text

        # every phone, for the code on the panel
        browser.find_element("id", "forget-code").click()
        notice = wait_for(lambda: next_notice(table), "the code on the panel")
        browser.find_element("id", "forget-all-code").send_keys(notice.text.split()[-1])
        browser.find_element("css selector", "#forget-all-form button").click()
        wait_for(
            lambda: "forgotten: 1" in browser.find_element("id", "forget-all-message").text,
            "every phone forgotten",
        )
        assert table.server is not None and table.server.web is not None
        assert table.server.web.pairing.sessions == {}

        # a watcher now: asking for a code freezes its mirror, and the page says why
        browser.get(table.url + "/")
        wait_for(lambda: browser.find_element("id", "pairing").is_displayed(), "unpaired")
        assert not browser.find_element("id", "code-note").is_displayed()
        browser.find_element("id", "show-code").click()
        wait_for(lambda: browser.find_element("id", "code-note").is_displayed(), "the note")
        assert "pairing code" in browser.find_element("id", "code-note").text
    finally:
        table.close()
