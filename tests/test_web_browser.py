"""The companion page in a real headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium): pair with the code from the panel, play a phone
seat with the page's buttons, and see the live mirror equal the panel's last frame
pixel for pixel, with screenshots along the way (docs/web.md shows them)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")
webdriver = pytest.importorskip("selenium.webdriver")

from controller.events import NoticeEvent  # noqa: E402
from controller.machine import Mode  # noqa: E402
from controller.session import Session  # noqa: E402
from tests.test_web import ServedTable  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SHOTS_ENV = "SPIELTISCH_SCREENSHOTS"
"""Where the screenshots go: docs/web.md's were made with
``SPIELTISCH_SCREENSHOTS=docs/img/web``; without it, the test's own temp directory."""

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)


@pytest.fixture
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="spieltisch-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=420,900",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(
    condition: Any, what: str, table: ServedTable | None = None, seconds: float = 10
) -> Any:
    """Poll ``condition`` (the browser works on its own), stepping the table meanwhile."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if table is not None:
            table.rig.settle()
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def canvas_pixels(driver: Any) -> bytes:
    data = driver.execute_script(
        "const c = document.getElementById('panel');"
        "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        "const out = []; for (let i = 0; i < d.length; i += 4) out.push(d[i], d[i+1], d[i+2]);"
        "return out;"
    )
    return bytes(data)


def test_pair_play_a_phone_seat_and_mirror_the_panel(browser: Any, tmp_path: Path) -> None:
    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    table = ServedTable()
    try:
        table.rig.start(Session.start("maedn", "classic", ["human", "bot"], seed=3, bot="random"))
        table.rig.app.loop.draw()
        browser.get(table.url + "/")
        wait_for(lambda: browser.find_element("id", "link").text == "live", "the stream")
        wait_for(lambda: canvas_pixels(browser) == table.rig.frame().tobytes(), "the mirror")
        shots.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(shots / "live.png"))

        # pair: ask for a code, read it off the panel's notice, type it in
        browser.find_element("id", "show-code").click()
        notice = wait_for(lambda: next_notice(table), "the code on the panel")
        code = notice.text.split()[-1]
        browser.find_element("id", "code").send_keys(code)
        browser.save_screenshot(str(shots / "pairing.png"))
        browser.find_element("css selector", "#pair-form button").click()
        wait_for(lambda: browser.find_element("id", "phone").is_displayed(), "the phone seat")

        # play seat 1 from the phone: OK rolls, exactly as the seat's own button
        session = table.rig.app.table.require_session()
        before = len(session.history)
        browser.find_element("id", "btn-ok").click()
        wait_for(lambda: len(session.history) > before, "the roll", table)
        for _ in range(10):  # let the roll's animation finish (not as long as sleep)
            if table.rig.app.table.state is not Mode.ROLLING:
                break
            table.rig.advance()
        table.rig.settle()
        panel = table.rig.frame().tobytes()
        wait_for(lambda: canvas_pixels(browser) == panel, "the mirror after the roll", table)
        browser.save_screenshot(str(shots / "phone-seat.png"))
        assert "dice" in browser.find_element("id", "dice").text
    finally:
        table.close()


def next_notice(table: ServedTable) -> NoticeEvent | None:
    events = table.rig.app.events
    while len(events):
        event = events.get(0)
        if isinstance(event, NoticeEvent):
            return event
    return None
