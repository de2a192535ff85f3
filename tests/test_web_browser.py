"""The companion page in a real headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium): pair with the code from the panel, play a phone
seat with the page's buttons, and see the live mirror equal the panel's last frame
pixel for pixel; start a game from Setup; open a finished game's replay, step it, and
download its ``.mat``, which GNU Backgammon imports. Screenshots along the way
(docs/web.md shows them)."""

from __future__ import annotations

import os
import re
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
def downloads(tmp_path: Path) -> Path:
    """Where the browser saves what the page downloads."""
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


@pytest.fixture
def browser(downloads: Path) -> Iterator[Any]:
    yield from chromium(downloads)


def chromium(downloads: Path) -> Iterator[Any]:
    """A headless Chromium saving its downloads in ``downloads``, quit afterwards."""
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="spieltisch-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.add_experimental_option(
        "prefs",
        {
            "download.default_directory": str(downloads),
            "download.prompt_for_download": False,
            "safebrowsing.enabled": False,
        },
    )
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


def pair_in_browser(browser: Any, table: ServedTable) -> None:
    browser.get(table.url + "/")
    wait_for(lambda: browser.find_element("id", "link").text == "live", "the stream")
    browser.find_element("id", "show-code").click()
    notice = wait_for(lambda: next_notice(table), "the code on the panel")
    browser.find_element("id", "code").send_keys(notice.text.split()[-1])
    browser.find_element("css selector", "#pair-form button").click()
    wait_for(lambda: browser.find_element("id", "pairing").is_displayed() is False, "pairing")


def test_start_a_game_from_setup(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select

    from tests.test_web_pages import config_file

    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    path = config_file(tmp_path)
    table = ServedTable(seats=("human", "bot", "human", "human"), config_path=path)
    try:
        table.rig.start()  # the menu
        table.rig.app.loop.draw()
        pair_in_browser(browser, table)
        browser.get(table.url + "/setup")
        wait_for(lambda: browser.find_element("id", "game").get_attribute("value"), "the form")
        Select(browser.find_element("id", "game")).select_by_value("kleiner_aerger")
        Select(browser.find_element("id", "seat2")).select_by_value("phone")
        timer = browser.find_element("id", "move_timer_s")
        timer.clear()
        timer.send_keys("-4")
        browser.find_element("id", "save").click()
        error = wait_for(
            lambda: browser.find_element("id", "err-move_timer_s").text, "the error beside it"
        )
        assert "out of range" in error
        browser.save_screenshot(str(shots / "setup-error.png"))
        timer.clear()
        timer.send_keys("8")
        browser.find_element("id", "start").click()
        wait_for(lambda: "started" in browser.find_element("id", "setup-message").text, "started")
        session = wait_for(lambda: table.rig.app.table.session, "the game at the table", table)
        assert session.game == "kleiner_aerger" and len(session.seats) == 3
        browser.save_screenshot(str(shots / "setup.png"))
    finally:
        table.close()


def test_replay_a_finished_game_and_import_its_mat_in_gnubg(
    browser: Any, tmp_path: Path, downloads: Path
) -> None:
    from tests.test_backgammon_mat import GNUBG, gnubg_scores
    from tests.test_web_pages import GAMES, add_games

    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    state = tmp_path / "state"
    add_games(state, GAMES)
    table = ServedTable(state_dir=state)
    try:
        table.rig.start()
        browser.get(table.url + "/history")
        rows = wait_for(
            lambda: browser.find_elements("css selector", "#games tbody tr"), "the games"
        )
        assert len(rows) == len(GAMES)
        wait_for(lambda: browser.find_elements("css selector", ".player .chi"), "the charts")
        browser.save_screenshot(str(shots / "history.png"))
        backgammon = next(r for r in rows if "Backgammon" in r.text)
        backgammon.click()
        wait_for(lambda: browser.find_element("id", "detail").is_displayed(), "the game")
        image = browser.find_element("id", "replay")
        for _ in range(5):
            browser.find_element("id", "forward").click()
        wait_for(lambda: image.get_attribute("data-step") == "5", "step 5")
        wait_for(
            lambda: browser.execute_script(
                "const i = document.getElementById('replay'); return i.complete && i.naturalWidth;"
            ),
            "the frame",
        )
        assert browser.execute_script("return document.getElementById('replay').naturalWidth") == 16
        assert "step 5 of" in browser.find_element("id", "step-text").text
        browser.save_screenshot(str(shots / "replay.png"))
        stats = browser.find_element("id", "player-stats")
        browser.execute_script("arguments[0].scrollIntoView()", stats)
        browser.save_screenshot(str(shots / "statistics.png"))

        browser.find_element("id", "download-mat").click()
        files = wait_for(lambda: list(downloads.glob("game-*.mat")), "the download")
        mat = files[0]
        assert " point match" in mat.read_text(encoding="utf-8")
        if GNUBG is None:
            pytest.skip("GNU Backgammon (Debian package gnubg) is not installed: import not tried")
        record_id = int(mat.stem.split("-")[1])
        from controller.history.store import HistoryStore

        store = HistoryStore(state)
        store.open(create=False)
        final = store.get(record_id).final_state
        store.close()
        won = {"white": 0, "black": 0}
        last = final["games"][-1]
        won[last["winner"]] = last["points"]
        assert gnubg_scores([mat], tmp_path) == [(len(final["games"]), won["white"], won["black"])]
    finally:
        table.close()


def test_a_german_table_shows_german_setup_and_history(browser: Any, tmp_path: Path) -> None:
    """The browser asks for English; the table is set to German, so German it is: the
    labels, the seats' kinds as the panel calls them, decimals with a comma, dates and
    the dice test as a German reads them."""
    from tests.test_web_pages import GAMES, add_games, config_file

    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    state = tmp_path / "state"
    add_games(state, GAMES)
    table = ServedTable(state_dir=state, config_path=config_file(tmp_path), language="de")
    try:
        table.rig.start()
        browser.get(table.url + "/setup")
        wait_for(lambda: browser.find_element("id", "game").get_attribute("value"), "the form")
        assert browser.execute_script("return document.documentElement.lang") == "de"
        body = browser.find_element("tag name", "body").text
        assert "Helligkeit (0–1)" in body and "Einstellungen speichern" in body
        assert "sofort" in body and "ab nächstem Start" in body and "Save settings" not in body
        seat = browser.find_element("css selector", "#seat0 option:checked").text
        assert seat == "Mensch"
        game = browser.find_element("css selector", "#game option:checked").text
        assert game == "Mensch ärgere dich nicht", "the game's own name, not its id"
        assert browser.find_element("id", "brightness").get_attribute("value") == "0,5"
        browser.save_screenshot(str(shots / "setup-de.png"))

        browser.get(table.url + "/history")
        rows = wait_for(
            lambda: browser.find_elements("css selector", "#games tbody tr"), "the games"
        )
        chi = wait_for(lambda: browser.find_elements("css selector", ".player .chi"), "the charts")[
            0
        ].text
        body = browser.find_element("tag name", "body").text
        assert "Statistik" in body and "Die Spieler und ihre Würfel" in body
        assert f"{len(GAMES)} Spiele" in browser.find_element("id", "count").text
        ended = rows[0].find_elements("tag name", "td")[1].text
        assert re.fullmatch(r"\d\d\.\d\d\.\d\d, \d\d:\d\d", ended), ended
        assert re.search(r"Würfe, χ² = \d+,\d\d \(5 FG\), p = ", chi), chi
        browser.save_screenshot(str(shots / "history-de.png"))
    finally:
        table.close()


def test_care_update_and_backup_flows(browser: Any, tmp_path: Path, downloads: Path) -> None:
    """The Care page, paired: the running version; a bundle signed by a stranger refused
    in words, a good one (signed with a key the table trusts) accepted and left for the
    root unit; a backup downloaded, then restored from that file: the table restarts,
    and at its next start the history is the backup's, game by game."""
    import sqlite3

    from controller.backup.staged import INBOX, RESTORE, at_start
    from controller.events import ShutdownEvent
    from controller.history.store import HistoryStore
    from tests.test_web_pages import config_file
    from tests.update_fixtures import keys, toy_bundle

    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    state = tmp_path / "state"
    store = HistoryStore(state)
    store.open()
    store.close()
    connection = sqlite3.connect(state / "history.sqlite3")
    for uid in ("monday", "tuesday"):
        connection.execute(
            "INSERT INTO records (uid, game, preset, ended, outcome, places, result, rolls,"
            " moves, start_state, final_state, history) VALUES (?, 'maedn', 'classic',"
            " '2026-01-01', 'finished', '[]', '{}', 1, 1, '{}', '{}', '[]')",
            (uid,),
        )
    connection.commit()
    connection.close()
    trusted = tmp_path / "trusted"
    private, public = keys(tmp_path / "builder")
    trusted.mkdir()
    (trusted / "project.pub").write_bytes(public.read_bytes())
    stranger, _ = keys(tmp_path / "stranger", "stranger")
    good = toy_bundle(tmp_path / "good" / "spieltisch-0.2.0.tar", private, "0.2.0")
    bad = toy_bundle(tmp_path / "bad" / "spieltisch-0.2.0.tar", stranger, "0.2.0")
    config = config_file(tmp_path)
    table = ServedTable(state_dir=state, config_path=config)
    assert table.server is not None and table.server.web is not None
    table.server.web.maintenance.keys_dir = trusted  # the keys this table trusts
    try:
        table.rig.start()  # the menu: no game
        table.rig.app.loop.draw()
        pair_in_browser(browser, table)
        browser.get(table.url + "/care")
        running = wait_for(lambda: browser.find_element("id", "running").text, "the version")
        assert re.search(r"\d+\.\d+\.\d+", running), running
        assert not browser.find_element("id", "upload").get_property("disabled")

        def upload(bundle: Path) -> str:
            browser.find_element("id", "bundle").send_keys(str(bundle))
            browser.find_element("id", "upload").click()
            message = browser.find_element("id", "update-message")
            return str(
                wait_for(
                    lambda: message.text if "…" not in message.text else "", "the answer", table
                )
            )

        refused = upload(bad)
        assert "signature does not match any key this table trusts" in refused, refused
        message = browser.find_element("id", "update-message")
        assert message.get_attribute("class") == "refused"  # the error colour, a warning sign
        assert not (state / INBOX / "update.tar").exists()
        browser.save_screenshot(str(shots / "care-refused.png"))
        accepted = upload(good)
        assert "bundle received" in accepted, accepted
        assert message.get_attribute("class") == "accepted"
        assert (state / INBOX / "update.tar").read_bytes() == good.read_bytes()

        browser.find_element("id", "download").click()
        (backup,) = wait_for(
            lambda: [p for p in downloads.glob("spieltisch-backup*.tar.gz")], "the backup"
        )
        wait_for(lambda: not list(downloads.glob("*.crdownload")), "the whole download")
        # a game played after the backup: the restore takes the table back before it
        connection = sqlite3.connect(state / "history.sqlite3")
        connection.execute(
            "INSERT INTO records (uid, game, preset, ended, outcome, places, result, rolls,"
            " moves, start_state, final_state, history) SELECT 'wednesday', game, preset,"
            " ended, outcome, places, result, rolls, moves, start_state, final_state,"
            " history FROM records LIMIT 1"
        )
        connection.commit()
        connection.close()
        browser.find_element("id", "backup-file").send_keys(str(backup))
        browser.find_element("id", "restore").click()
        wait_for(lambda: browser.switch_to.alert, "the question").accept()
        message = browser.find_element("id", "backup-message")
        said = wait_for(lambda: message.text, "the restore's answer")  # the table not stepped
        assert "backup checked: the table restarts and restores it" in said, said
        browser.save_screenshot(str(shots / "care.png"))  # docs/web.md shows it
        assert (state / INBOX / RESTORE).is_file()
        events = table.rig.app.events
        reasons = []
        while len(events):
            event = events.get(0)
            if isinstance(event, ShutdownEvent):
                reasons.append(event.reason)
        assert reasons == ["restore a backup"]
    finally:
        table.close()
    # the next start restores it, before the history is opened
    done = at_start(state, config)
    assert done is not None and done.startswith("restored the backup from the page"), done
    connection = sqlite3.connect(state / "history.sqlite3")
    try:
        uids = [r[0] for r in connection.execute("SELECT uid FROM records ORDER BY id")]
    finally:
        connection.close()
    assert uids == ["monday", "tuesday"]
