"""The companion page as a family reads it, against a real table and server: the
History names the sides by the colours the panel draws, shows the opening roll as both
sides' and draws its frames as bright as the panel; the words the scripts build their
lines from exist in German for every id the server sends; Setup's errors read as a
family's words beside their fields, the seat count together with the rest; a press
for a seat that is no phone's any more is refused in the page's language; the pages
have an icon and a manifest."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from PIL import Image

import rules
from controller import i18n
from controller.views.palette import SEAT
from controller.web.page_words import words
from controller.web.server import STATIC
from tests.test_web import ServedTable, client_session, pair, run
from tests.test_web_pages import GAMES, add_games, config_file, get, get_json, setup_post


@pytest.fixture(scope="module")
def history_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("state")
    add_games(directory, GAMES)
    return directory


@pytest.fixture
def history_table(history_dir: Path) -> Iterator[ServedTable]:
    table = ServedTable(state_dir=history_dir)
    table.rig.start()
    yield table
    table.close()


def backgammon_id(table: ServedTable) -> int:
    listing = get_json(table, "/api/history?game=backgammon")[1]
    found: int = listing["games"][0]["id"]
    return found


def test_the_history_names_backgammons_sides_by_the_colours_the_panel_draws(
    history_table: ServedTable,
) -> None:
    """Backgammon's white is drawn orange and black blue, and the Live page and the
    panel say so: the History says the same, in the list, the winner, the moves and the
    statistics."""
    listing = get_json(history_table, "/api/history?game=backgammon")[1]
    game = listing["games"][0]
    assert sorted(game["players"].values()) == ["blue human", "orange bot (random)"]
    assert game["winner_colour"] in ("orange", "blue")
    data = get_json(history_table, f"/api/history/{game['id']}")[1]
    assert {move["player"] for move in data["moves"]} == {"orange", "blue"}
    stats = get_json(history_table, "/api/stats?game=backgammon")[1]
    assert set(stats["games"]["backgammon"]["colours"]) == {"orange", "blue"}
    assert "blue human" in stats["players"]


def test_the_opening_roll_is_both_sides_throw_not_the_first_sides(
    history_table: ServedTable,
) -> None:
    data = get_json(history_table, f"/api/history/{backgammon_id(history_table)}")[1]
    first = data["moves"][0]
    white, black = first["dice"]
    assert first["opening"] == [["orange", white], ["blue", black]]
    assert "opening" not in data["moves"][2]  # later rolls are one side's


def test_replay_frames_are_as_bright_as_the_live_panel(history_table: ServedTable) -> None:
    """The panel shows each piece at full colour except in its short identification
    dips; a replay frame is drawn outside them, so its orange is the panel's orange
    (it was a fifth of it, drawn in the first dip)."""
    record_id = backgammon_id(history_table)
    status, body, _headers = run(get(history_table, f"/api/history/{record_id}/frame/0.png"))
    assert status == 200
    image = Image.open(io.BytesIO(body)).convert("RGB")
    colours = set(image.tobytes()[i : i + 3] for i in range(0, 16 * 16 * 3, 3))
    assert bytes(SEAT["orange"]) in colours
    assert bytes(SEAT["sky"]) in colours  # black's checkers, drawn sky blue


def test_every_id_the_server_sends_has_a_german_word() -> None:
    german = words("de")
    for game in rules.game_names():
        assert german[f"game.{game}"] == rules.game_info(game).title
        for preset in rules.presets(game):
            assert german[f"preset.{game}.{preset}"] != preset or preset == "diagonal"
    assert german["preset.maedn.classic"] == "klassisch"
    assert german["preset.backgammon.match5"] == "Match auf 5"
    assert german["preset.kleiner_aerger.standard"] == "Standard"
    assert (german["bot.random"], german["bot.strong"]) == ("leicht", "stark")
    assert (german["colour.orange"], german["colour.blue"]) == ("orange", "blau")
    for notation in ("roll", "double", "take", "drop", "accept", "beaver"):
        key = f"move.backgammon.{notation}"
        assert german[key] != words("en")[key], notation
    assert german["move.pass"] == "kann nicht ziehen"
    assert german["live.live"] == "verbunden"


@pytest.fixture
def german_setup(tmp_path: Path) -> Iterator[ServedTable]:
    """A table set to German: it speaks German itself (as the appliance does from its
    start), so the config's checks answer in German too."""
    i18n.use("de")
    table = ServedTable(config_path=config_file(tmp_path), language="de")
    try:
        table.rig.start()
        table.rig.app.loop.draw()
        yield table
    finally:
        table.close()
        i18n.use("en")


def setup_answer(table: ServedTable, action: str, values: dict[str, Any]) -> Any:
    async def attempt() -> Any:
        async with client_session() as client:
            csrf = await pair(client, table)
            return await setup_post(client, table, csrf, {"action": action, "values": values})

    return run(attempt())


def test_setup_errors_name_no_config_key_and_write_german_decimals(
    german_setup: ServedTable,
) -> None:
    status, data = setup_answer(german_setup, "save", {"move_timer_s": -4, "brightness": 1.5})
    assert status == 422
    timer, brightness = data["errors"]["move_timer_s"][0], data["errors"]["brightness"][0]
    assert timer.startswith("-4 liegt außerhalb; erlaubt: 0 bis "), timer
    assert brightness.startswith("1,5 liegt außerhalb; erlaubt: 0 bis 1"), brightness
    assert "game." not in timer and "display." not in brightness


def test_the_seat_count_is_said_together_with_every_other_error(
    german_setup: ServedTable,
) -> None:
    values = {"game": "backgammon", "seats": ["human", "empty", "empty", "empty"]}
    status, data = setup_answer(german_setup, "start", {**values, "move_timer_s": -4})
    assert status == 422
    assert set(data["errors"]) == {"move_timer_s", "seats"}, data
    assert data["errors"]["seats"] == ["Backgammon ist für 2 Spieler, 1 gewählt"]
    status, data = setup_answer(german_setup, "start", values)  # and alone, as before
    assert (status, set(data["errors"])) == (422, {"seats"})


def test_a_press_for_a_seat_no_phone_plays_is_refused_in_the_pages_words(
    german_setup: ServedTable,
) -> None:
    async def attempt() -> tuple[int, dict[str, Any]]:
        async with client_session() as client:
            csrf = await pair(client, german_setup)
            body = {"seat": 2, "button": "ok", "kind": "down"}
            headers = {"X-CSRF-Token": csrf}
            async with client.post(
                german_setup.url + "/api/press", json=body, headers=headers
            ) as response:
                return response.status, await response.json()

    status, data = run(attempt())
    assert status == 400
    assert data["error"] == "dieser Platz wird in diesem Spiel nicht vom Handy aus gespielt"


def test_every_page_has_an_icon_and_a_manifest(german_setup: ServedTable) -> None:
    status, body, headers = run(get(german_setup, "/manifest.webmanifest"))
    assert status == 200 and headers["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["start_url"] == "/" and manifest["icons"][0]["src"] == "/static/icon.svg"
    status, body, headers = run(get(german_setup, "/static/icon.svg"))
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
    assert body.startswith(b"<svg")
    for path, (_name, kind) in STATIC.items():
        if kind == "text/html":
            page = run(get(german_setup, path))[1].decode("utf-8")
            assert '<link rel="icon" href="/static/icon.svg"' in page, path
            assert '<link rel="manifest" href="/manifest.webmanifest">' in page, path
