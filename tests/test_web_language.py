"""The companion pages in the table's language, and Setup's saved settings on the
running table.

The pages' words come from the table's own catalog (controller.web.page_words): the
table's language setting decides, the browser's Accept-Language only where the setting
is left open. A save from Setup reaches the running table through its event queue: the
move timer, the brightness and the sleep time change at once, measured here on the
table itself (its next move timer, the luma panel's brightness, the moment it sleeps).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from controller.events import SettingsEvent
from controller.i18n import LANGUAGES
from controller.machine import Mode
from controller.session import Session
from controller.web import page_words
from controller.web.page_words import browser_languages, page_language, render, words
from controller.web.server import STATIC, static_text
from hardware.interfaces import ButtonEvent
from tests.test_web import ServedTable, client_session, pair, run
from tests.test_web_pages import config_file, setup_post

STATIC_DIR = Path(__file__).parents[1] / "controller" / "web" / "static"
KEY = re.compile(r"[\"'](?:nav|title|live|pair|phone|setup|history|player|language)\.[a-z_.]+[\"']")


def test_the_setting_decides_and_the_browser_only_where_it_is_left_open() -> None:
    assert page_language("en", "de-DE,de;q=0.9", "en") == "en"
    assert page_language("de", "en-US", "en") == "de"
    assert page_language(None, "fr-FR, de-AT;q=0.8, en;q=0.5", "en") == "de"
    assert page_language(None, "de;q=0, en;q=0.2", "de") == "en"
    assert page_language(None, "fr, it", "de") == "de"  # none it speaks: the table's own
    assert page_language(None, None, "en") == "en"
    assert page_language(None, ";;,=q, de;q=abc, *", "en") == "en"  # malformed: skipped


def test_accept_language_is_ordered_by_quality_then_by_place() -> None:
    assert browser_languages("en;q=0.5, de-CH, fr;q=0.9") == ["de", "fr", "en"]


def test_every_page_renders_in_every_language_with_no_word_left_open() -> None:
    for path, (name, kind) in STATIC.items():
        if kind != "text/html":
            continue
        for language in LANGUAGES:
            text = render(static_text(name).decode("utf-8"), language).decode("utf-8")
            assert "{{" not in text and f'<html lang="{language}">' in text, (path, language)


def test_every_word_a_script_names_is_in_the_catalog_and_no_script_holds_a_label() -> None:
    german = words("de")
    english = words("en")
    for script in STATIC_DIR.glob("*.js"):
        source = script.read_text(encoding="utf-8")
        for found in KEY.findall(source):
            assert found[1:-1] in german, (script.name, found)
        # A label is a literal with a word, a space and a word; the scripts have none
        # but their own directive (class lists are not words).
        labels = re.findall(r'(?<!class: )"[A-Za-z]+ [A-Za-z ]+"', source)
        assert labels in ([], ['"use strict"']), (script.name, labels)
    translated = [key for key in page_words.WORDS if german[key] != english[key]]
    assert len(translated) > 0.9 * len(page_words.WORDS)  # a few stay: Live, Code, …


def get_page(table: ServedTable, path: str, accept: str | None) -> tuple[str, str]:
    async def fetch() -> tuple[str, str]:
        headers = {"Accept-Language": accept} if accept else {}
        async with (
            client_session() as client,
            client.get(table.url + path, headers=headers) as response,
        ):
            assert response.status == 200
            return await response.text(), response.headers.get("Vary", "")

    result: tuple[str, str] = run(fetch())
    return result


@pytest.fixture
def german_table(tmp_path: Path) -> Iterator[ServedTable]:
    table = ServedTable(config_path=config_file(tmp_path), language="de")
    table.rig.start()
    yield table
    table.close()


def test_a_german_table_serves_german_setup_and_history(german_table: ServedTable) -> None:
    setup, _vary = get_page(german_table, "/setup", "en-US,en")
    assert '<html lang="de">' in setup
    assert "Einstellungen speichern" in setup and "Helligkeit" in setup
    assert 'id="err-brightness"></span> <span class="hint when">sofort</span>' in setup
    history, _vary = get_page(german_table, "/history", None)
    assert "Statistik" in history and "Die Spieler und ihre Würfel" in history
    assert "Save settings" not in setup and "Players and their dice" not in history


def test_a_table_that_leaves_it_open_follows_the_browser(tmp_path: Path) -> None:
    table = ServedTable(config_path=config_file(tmp_path))  # no language setting
    try:
        table.rig.start()
        german, vary = get_page(table, "/setup", "de-DE,de;q=0.9,en;q=0.8")
        assert "Einstellungen speichern" in german and vary == "Accept-Language"
        english, _vary = get_page(table, "/setup", "fr-FR")
        assert "Save settings" in english  # neither: the table's own language (English)
    finally:
        table.close()


# -- a save reaches the running table --------------------------------------------------


def save(table: ServedTable, values: dict[str, Any]) -> Any:
    async def attempt() -> Any:
        async with client_session() as client:
            csrf = await pair(client, table)
            return await setup_post(client, table, csrf, {"action": "save", "values": values})

    return run(attempt())


def test_saved_brightness_and_sleep_apply_to_the_running_table(tmp_path: Path) -> None:
    table = ServedTable(config_path=config_file(tmp_path))
    try:
        table.rig.start()  # the menu: waiting for a person, so it may sleep
        table.rig.settle()
        assert table.rig.display.brightness != 0.3
        status, data = save(table, {"brightness": 0.3, "sleep_after_min": 1})
        assert status == 200 and data["live"] == ["move_timer_s", "brightness", "sleep_after_min"]
        events = table.rig.app.events
        queued = [e for _ in range(len(events)) if (e := events.get(0)) is not None]
        assert [e for e in queued if isinstance(e, SettingsEvent)] == [SettingsEvent(5.0, 0.3, 1.0)]
        for event in queued:
            table.rig.app.events.put(event)
        start = table.rig.clock.now
        table.rig.settle()
        assert table.rig.display.brightness == 0.3  # the luma panel's own level
        table.rig.clock.advance(59)
        table.rig.settle()
        assert not table.rig.app.table.time.asleep
        table.rig.advance()  # the next deadline is sleep, a minute after the last press
        assert table.rig.app.table.time.asleep
        assert table.rig.clock.now - start == pytest.approx(60, abs=1)  # not ten minutes
    finally:
        table.close()


def play_until_a_new_timer(table: ServedTable, old_end: float | None) -> None:
    """Roll for whoever is on turn and let the table run, until a move timer other than
    the one ending at ``old_end`` starts (the timer starts when a move is chosen)."""
    rig = table.rig
    for _ in range(400):
        clock = rig.app.table.time
        if clock.timer_end is not None and clock.timer_end != old_end:
            return
        if rig.app.table.state is Mode.AWAIT_ROLL:
            session = rig.app.table.require_session()
            assert session.player is not None
            seat = session.seats[session.player]
            for kind in ("down", "up"):
                rig.app.events.put(ButtonEvent(seat, "ok", kind, rig.clock.now))
                rig.clock.advance(0.05)
            rig.settle()
        else:
            rig.advance()
    raise AssertionError("no move timer started")


def test_a_saved_move_timer_is_the_next_turns_timer(tmp_path: Path) -> None:
    table = ServedTable(seats=("human", "human"), config_path=config_file(tmp_path))
    try:
        table.rig.start(Session.start("maedn", "lingo", ["human", "human"], seed=5))
        table.rig.settle()
        clock = table.rig.app.table.time
        play_until_a_new_timer(table, None)
        assert clock.timer_total == 5.0  # the config's length of Lingo's move timer
        first_end = clock.timer_end
        status, _data = save(table, {"move_timer_s": 8})
        assert status == 200
        table.rig.settle()
        assert clock.timer_end == first_end  # the timer counting down runs out as it began
        play_until_a_new_timer(table, first_end)
        assert clock.timer_total == 8.0
    finally:
        table.close()


def test_a_german_table_answers_in_german(german_table: ServedTable) -> None:
    async def attempt() -> tuple[int, Any, int, Any]:
        async with client_session() as client:
            async with client.post(german_table.url + "/api/pair", json={"code": "1"}) as r:
                pairing = (r.status, await r.json())
            async with client.post(german_table.url + "/api/press", json={}) as r:
                return (*pairing, r.status, await r.json())

    status, pairing, press_status, press = run(attempt())
    assert status == 403 and pairing["error"] == (
        "auf dem Tisch steht kein Code: lass dir erst einen zeigen"
    )
    assert press_status == 403 and press["error"] == "koppel dieses Handy erst mit dem Tisch"
