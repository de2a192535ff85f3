"""The hotspot's setup page in a real headless Chromium (Debian's chromium and
chromium-driver, through Selenium), as a phone's captive browser shows it: choose the
network, type a wrong password, read the reason, type the right one, read the address.
The supervisor runs on its own thread over a NetworkManager in memory."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from controller.appliance.network import FakeNetwork
from controller.appliance.portal import Portal
from controller.appliance.status import HOTSPOT, ONLINE
from controller.appliance.supervisor import Supervisor
from tests.test_web_browser import CHROMIUM, DRIVER, SHOTS_ENV, browser, downloads

__all__ = ["browser", "downloads"]  # the fixtures, used by name

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)


def wait(done: Any) -> None:
    stop = threading.Event()
    for _ in range(600):
        if done():
            return
        stop.wait(0.05)
    raise AssertionError("not reached in 30 s")


@pytest.fixture
def portal() -> Iterator[tuple[str, Supervisor]]:
    net = FakeNetwork(reach={"Home": "secret-pass", "Nachbar": ""})
    sup = Supervisor(net, "spieltisch-3f9a", wait_s=0.0, make_password=lambda: "k7m2p9qx")
    stop = threading.Event()
    thread = threading.Thread(target=sup.run, args=(stop, 0.05))
    thread.start()
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(Portal(sup, language="de").app())
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = runner.addresses[0][1]
    server = threading.Thread(target=loop.run_forever)
    server.start()
    try:
        wait(lambda: sup.status.state == HOTSPOT)
        yield f"http://127.0.0.1:{port}", sup
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        server.join(30)
        loop.close()
        stop.set()
        sup.wake.set()
        thread.join(30)


def shot(driver: Any, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(folder / f"portal-{name}.png"))


def test_a_phone_sets_up_the_wifi_in_a_real_browser(
    browser: Any, portal: tuple[str, Supervisor], tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base, sup = portal
    browser.get(base + "/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "WLAN des Tischs einrichten"
    choices = Select(browser.find_element(By.ID, "ssid"))
    assert [o.get_attribute("value") for o in choices.options] == ["Home", "Nachbar"]
    shot(browser, tmp_path, "form")
    choices.select_by_value("Home")
    browser.find_element(By.ID, "password").send_keys("falsches-wort")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert "Der Tisch verbindet sich mit Home" in browser.find_element(By.TAG_NAME, "body").text
    wait(lambda: sup.status.state == HOTSPOT and sup.status.reason != "")
    browser.get(base + "/")
    problem = browser.find_element(By.CLASS_NAME, "problem").text
    reason = "das Passwort für Home stimmt nicht"
    assert problem == f"Verbinden hat nicht geklappt: {reason}. Versuch es noch einmal."
    shot(browser, tmp_path, "wrong-password")
    Select(browser.find_element(By.ID, "ssid")).select_by_value("Home")
    browser.find_element(By.ID, "password").send_keys("secret-pass")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(lambda: sup.status.state == ONLINE)
    browser.get(base + "/")
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "Der Tisch ist im Netz Home: http://192.168.1.23:8080" in body
    shot(browser, tmp_path, "online")
