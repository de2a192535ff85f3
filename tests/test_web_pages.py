"""The companion page's Setup and History against a real table: a real server on a real
port, the appliance on mock pins and luma's dummy panel, a real config file and a real
history database in a temp directory."""

from __future__ import annotations

import io
import json
import math
import os
import random
import socket
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from PIL import Image

import rules
from controller import config as config_module
from controller.config import load_config
from controller.events import EventQueue, NoticeEvent, StartGameEvent
from controller.history.export import match_text, replay
from controller.history.record import record_of
from controller.history.store import HistoryStore
from controller.scene import Scene
from controller.session import Session
from controller.testing.files import config_text
from controller.views import render
from controller.web import qr
from controller.web.dice_stats import chi_square_p, from_counts, gamma_q
from controller.web.history_data import STEADY_T
from controller.web.publish import FramePublisher
from controller.web.server import WebServer
from controller.web.toml_out import dumps
from tests.history_games import played
from tests.test_web import ServedTable, client_session, pair, run

ROOT = Path(__file__).resolve().parent.parent

# -- the pure parts --------------------------------------------------------------------


def test_the_chi_square_p_value_matches_known_values() -> None:
    # critical values of chi-square with 5 degrees of freedom (any table)
    for statistic, p in ((1.145476, 0.95), (11.0705, 0.05), (15.0863, 0.01), (20.515, 0.001)):
        assert chi_square_p(statistic, 5) == pytest.approx(p, rel=1e-4)
    for x in (0.1, 1.0, 3.0, 10.0, 40.0):  # closed forms: Q(1, x) = e^-x, Q(1/2, x) = erfc(√x)
        assert gamma_q(1.0, x) == pytest.approx(math.exp(-x), rel=1e-10)
        assert gamma_q(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)), rel=1e-9)
    assert chi_square_p(0.0, 5) == 1.0
    fair = from_counts([100] * 6)
    assert (fair.chi2, fair.p, fair.enough) == (0.0, 1.0, True)
    loaded = from_counts([50, 50, 50, 50, 50, 150])
    assert loaded.chi2 == pytest.approx(125.0) and loaded.p is not None and loaded.p < 1e-15
    assert from_counts([1, 0, 0, 0, 0, 1]).enough is False
    assert from_counts([0] * 6).p is None


def test_the_toml_writer_round_trips_the_config() -> None:
    document = tomllib.loads((ROOT / "config.example.toml").read_text(encoding="utf-8"))
    document["game"] = {"name": "maedn", "preset": 'a "quoted"\nline\t\x7f ü', "move_timer_s": 2.5}
    assert tomllib.loads(dumps(document)) == document


def test_a_qr_code_of_the_pairing_address_fits_a_32_panel() -> None:
    url = qr.pairing_url("192.168.100.200", 8080, "123456")
    assert url == "HTTP://192.168.100.200:8080/P/123456"
    rows = qr.rows(url)
    assert len(rows) == 25 and all(len(row) == 25 for row in rows)  # version 2
    # an IPv6 address needs byte mode ("[", "]"): too large, the panel shows the digits only
    assert qr.rows(qr.pairing_url("fe80::1234:5678:9abc:def0", 8080, "123456")) == ()


# -- a table with a config file and a history ------------------------------------------


def config_file(directory: Path) -> Path:
    path = directory / "config.toml"
    path.write_text(
        "# the builder's comment\n" + config_text(("human", "bot", "empty", "empty")),
        encoding="utf-8",
    )
    os.chmod(path, 0o640)
    return path


@pytest.fixture
def setup_table(tmp_path: Path) -> Iterator[tuple[ServedTable, Path]]:
    path = config_file(tmp_path)
    table = ServedTable(config_path=path)
    table.rig.start()  # the menu
    table.rig.app.loop.draw()
    yield table, path
    table.close()


async def setup_post(client: Any, table: ServedTable, csrf: str | None, body: Any) -> Any:
    headers = {"X-CSRF-Token": csrf} if csrf else {}
    async with client.post(table.url + "/api/setup", json=body, headers=headers) as response:
        return response.status, await response.json()


def test_setup_shows_the_config_files_values(setup_table: tuple[ServedTable, Path]) -> None:
    table, _path = setup_table

    async def read() -> Any:
        async with client_session() as client, client.get(table.url + "/api/setup") as response:
            assert response.status == 200
            return await response.json()

    data = run(read())
    assert data["values"]["seats"] == ["human", "bot", "empty", "empty"]
    assert data["values"]["move_timer_s"] == 5.0
    assert "maedn" in data["choices"]["games"]
    assert data["choices"]["titles"]["maedn"] == "Mensch ärgere dich nicht"
    # a seat may also be a bot of a level of its own, weakest first
    levels = ["random", "beginner", "casual", "advanced", "expert", "strong"]
    assert data["choices"]["players"] == ["human", "bot", "phone", "empty", "coached", *levels]
    assert data["choices"]["bots"] == levels


def test_setup_changes_need_pairing_and_csrf(setup_table: tuple[ServedTable, Path]) -> None:
    table, path = setup_table
    before = path.read_bytes()
    body = {"action": "save", "values": {"move_timer_s": 9}}

    async def attempt() -> list[int]:
        async with client_session() as client:
            unpaired = (await setup_post(client, table, None, body))[0]
            csrf = await pair(client, table)
            no_csrf = (await setup_post(client, table, None, body))[0]
            forged = (await setup_post(client, table, "forged", body))[0]
            async with client.post(
                table.url + "/api/setup",
                json=body,
                headers={"X-CSRF-Token": csrf, "Origin": "http://evil.example"},
            ) as response:
                cross_site = response.status
        return [unpaired, no_csrf, forged, cross_site]

    assert run(attempt()) == [403, 403, 403, 403]
    assert path.read_bytes() == before


def test_setup_errors_come_from_the_config_check_beside_their_field(
    setup_table: tuple[ServedTable, Path],
) -> None:
    table, path = setup_table
    before = path.read_bytes()
    values = {
        "game": "maedn",
        "preset": "nonsense",
        "seats": ["human", "robot", "empty", "empty"],
        "bot": "strong",
        "move_timer_s": -3,
        "brightness": "bright",
        "sleep_after_min": 10,
    }

    async def attempt() -> Any:
        async with client_session() as client:
            csrf = await pair(client, table)
            return await setup_post(client, table, csrf, {"action": "save", "values": values})

    status, data = run(attempt())
    assert status == 422
    errors = data["errors"]
    assert set(errors) == {"preset", "seat1", "move_timer_s", "brightness"}, errors
    # beside its field, an error names no config key, and its numbers are as typed
    assert errors["move_timer_s"][0].startswith("-3 is out of range"), errors
    assert errors["brightness"][0].startswith("expected a number"), errors
    assert errors["seat1"][0].startswith("'robot' is not allowed"), errors
    assert path.read_bytes() == before  # nothing written


def test_setup_saves_atomically_to_the_config_the_appliance_reads(
    setup_table: tuple[ServedTable, Path],
) -> None:
    table, path = setup_table
    values = {
        "game": "backgammon",
        "preset": "",
        "seats": ["phone", "bot", "empty", "human"],
        "bot": "random",
        "move_timer_s": 12,
        "brightness": 0.25,
        "sleep_after_min": 3,
    }

    async def attempt() -> Any:
        async with client_session() as client:
            csrf = await pair(client, table)
            return await setup_post(client, table, csrf, {"action": "save", "values": values})

    status, data = run(attempt())
    assert (status, data["saved"]) == (200, str(path)), data
    config = load_config(path)  # what the appliance reads at its next start
    assert config.game.name == "backgammon" and config.game.preset is None
    assert config.players == ("phone", "bot", "empty", "human")
    assert (config.game.bot, config.game.move_timer_s) == ("random", 12.0)
    assert (config.display.brightness, config.sleep_after_min) == (0.25, 3.0)
    assert config.display.type == "dummy" and config.buttons.seats[0].ok == 17  # kept
    assert (path.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in path.parent.iterdir()) == ["config.toml"]  # no temp file


def test_the_language_goes_through_the_same_check(setup_table: tuple[ServedTable, Path]) -> None:
    table, _path = setup_table

    async def attempt(language: str) -> Any:
        async with client_session() as client:
            csrf = await pair(client, table)
            body = {"action": "check", "values": {"language": language}}
            return await setup_post(client, table, csrf, body)

    status, data = run(attempt("xx"))
    assert status == 422 and list(data["errors"]) == ["language"], data
    if "table" in config_module.SECTIONS:
        assert run(attempt("de"))[0] == 200


def test_start_a_game_from_setup_goes_through_the_event_queue(
    setup_table: tuple[ServedTable, Path],
) -> None:
    table, path = setup_table
    before = path.read_bytes()
    values = {"game": "kleiner_aerger", "seats": ["phone", "bot", "empty", "empty"]}

    async def start(body_values: dict[str, Any]) -> Any:
        async with client_session() as client:
            csrf = await pair(client, table)
            return await setup_post(client, table, csrf, {"action": "start", "values": body_values})

    status, data = run(start({**values, "seats": ["human", "empty", "empty", "empty"]}))
    assert status == 422 and "players" in data["errors"]["seats"][0]
    status, data = run(start(values))
    assert status == 200, data
    queued = []
    while len(table.rig.app.events):
        queued.append(table.rig.app.events.get(0))
    starts = [e for e in queued if isinstance(e, StartGameEvent)]
    bot = load_config(path).game.bot
    seats = ("human", "bot", "empty", "empty")
    assert starts == [StartGameEvent("kleiner_aerger", data["preset"], seats, bot)]
    table.rig.app.events.put(starts[0])
    table.rig.settle()
    session = table.rig.app.table.require_session()
    assert session.game == "kleiner_aerger" and sorted(session.kinds.values()) == ["bot", "human"]
    assert table.server is not None and table.server.web is not None
    assert table.server.web.phone_seats == (0,)
    assert path.read_bytes() == before  # starting saves nothing
    table.rig.app.loop.draw()
    status, data = run(start(values))  # a game is on now
    assert status == 409 and "end it at the table" in data["error"]


def test_the_table_refuses_a_start_in_the_middle_of_a_game() -> None:
    table = ServedTable()
    try:
        table.rig.start(Session.start("maedn", "classic", ["human", "bot"], seed=3))
        table.rig.app.events.put(StartGameEvent("backgammon", "single", ("human", "bot")))
        table.rig.settle()
        assert table.rig.app.table.require_session().game == "maedn"
        assert table.rig.app.table.banner.text == "game on: end it first"
    finally:
        table.close()


# -- the history ---------------------------------------------------------------------


GAMES = (
    ("maedn", "classic", ["bot", "bot", "empty", "empty"], 5, "2026-10-01T18:00:00+00:00"),
    ("backgammon", None, ["bot", "human", "empty", "empty"], 7, "2026-10-02T18:00:00+00:00"),
    ("kleiner_aerger", None, ["human", "bot", "bot", "empty"], 9, "2026-11-20T18:00:00+00:00"),
)


def add_games(directory: Path, games: Any) -> None:
    """Games played to their end by random bots, recorded in ``directory``'s history."""
    store = HistoryStore(directory)
    store.open()
    for game, preset, kinds, seed, ended in games:
        session = played(game, preset or rules.default_preset(game), kinds, seed)
        store.add(record_of(session, "finished", ended, 4, "random"))
    store.close()


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


async def get(table: ServedTable, path: str) -> tuple[int, bytes, Any]:
    async with client_session() as client, client.get(table.url + path) as response:
        return response.status, await response.read(), response.headers


def get_json(table: ServedTable, path: str) -> tuple[int, Any]:
    status, body, _headers = run(get(table, path))
    return status, json.loads(body)


def test_the_history_lists_the_kept_games_with_filters(history_table: ServedTable) -> None:
    status, data = get_json(history_table, "/api/history")
    assert status == 200 and data["matched"] == 3
    assert [g["game"] for g in data["games"]] == ["kleiner_aerger", "backgammon", "maedn"]
    assert "red bot (random)" in data["players"]
    assert get_json(history_table, "/api/history?game=backgammon")[1]["matched"] == 1
    since = get_json(history_table, "/api/history?from=2026-10-02&to=2026-10-31")[1]
    assert [g["game"] for g in since["games"]] == ["backgammon"]
    human = get_json(history_table, "/api/history?player=" + "red%20human")[1]
    assert [g["game"] for g in human["games"]] == ["kleiner_aerger"]
    for bad in ("game=chess", "from=yesterday", "to=2026-1-1", "player=" + "x" * 61):
        status, data = get_json(history_table, "/api/history?" + bad)
        assert status == 400 and data["error"]


def test_a_games_replay_is_the_panels_frames_stepped_by_move(
    history_table: ServedTable, history_dir: Path
) -> None:
    status, listing = get_json(history_table, "/api/history?game=maedn")
    record_id = listing["games"][0]["id"]
    status, data = get_json(history_table, f"/api/history/{record_id}")
    assert status == 200
    store = HistoryStore(history_dir)
    store.open(create=False)
    record = store.get(record_id)
    store.close()
    steps = replay(record)
    assert data["frames"] == len(steps) + 1 and len(data["moves"]) == len(steps)
    assert data["moves"][0] == {"n": 1, "player": steps[0].player, "dice": list(steps[0].dice)}
    for number in (0, 1, len(steps) // 2, len(steps)):
        frame = f"/api/history/{record_id}/frame/{number}.png"
        status, body, headers = run(get(history_table, frame))
        assert status == 200 and headers["Content-Type"] == "image/png"
        shown = Image.open(io.BytesIO(body)).convert("RGB")
        state = steps[number - 1].after if number else steps[0].before
        dice = next((s.dice for s in reversed(steps[:number]) if s.dice is not None), None)
        scene = Scene(state=state, dice=dice, t=STEADY_T)
        expected = render(scene, 16, 16, "RGB").convert("RGB")
        assert shown.tobytes() == expected.tobytes(), number
    beyond = f"/api/history/{record_id}/frame/{len(steps) + 1}.png"
    status, _body, _h = run(get(history_table, beyond))
    assert status == 404
    assert get_json(history_table, "/api/history/999999")[0] == 404


def test_downloads_mat_for_backgammon_and_json_for_every_game(
    history_table: ServedTable, history_dir: Path
) -> None:
    games = {g["game"]: g for g in get_json(history_table, "/api/history")[1]["games"]}
    backgammon = games["backgammon"]["id"]
    status, body, headers = run(get(history_table, f"/api/history/{backgammon}/game.mat"))
    assert status == 200
    assert headers["Content-Disposition"] == f'attachment; filename="game-{backgammon}.mat"'
    store = HistoryStore(history_dir)
    store.open(create=False)
    assert body.decode() == match_text(store.get(backgammon))
    store.close()
    status, _body, _h = run(get(history_table, f"/api/history/{games['maedn']['id']}/game.mat"))
    assert status == 404
    for game in games.values():
        status, body, _h = run(get(history_table, f"/api/history/{game['id']}/game.json"))
        lines = json.loads(body)
        assert status == 200 and lines[0]["format"] == "spieltisch-history"
        assert len(lines) == 1 + game["rolls"] + game["moves"] or len(lines) > 1


def test_statistics_count_each_players_dice_with_a_chi_square_test(
    history_table: ServedTable, history_dir: Path
) -> None:
    status, data = get_json(history_table, "/api/stats")
    assert status == 200 and set(data["games"]) == {"maedn", "backgammon", "kleiner_aerger"}
    store = HistoryStore(history_dir)
    store.open(create=False)
    counts = [0] * 6
    for summary in store.summaries():
        record = store.get(summary.id or 0)
        for event in record.history:
            if event.get("player") == "red" and "dice" in event and summary.game == "maedn":
                for die in event["dice"]:
                    counts[die - 1] += 1
    store.close()
    assert data["players"]["red bot (random)"]["games"] == 1  # MÄDN
    assert data["players"]["red human"]["games"] == 1  # Kleiner Ärger
    maedn_only = get_json(history_table, "/api/stats?game=maedn")[1]["players"]["red bot (random)"]
    assert maedn_only["dice"]["counts"] == counts
    expected = from_counts(counts)
    assert maedn_only["dice"]["p"] == pytest.approx(expected.p)
    assert get_json(history_table, "/api/stats?game=go")[0] == 400


def test_a_table_without_a_history_says_so(setup_table: tuple[ServedTable, Path]) -> None:
    table, _path = setup_table
    status, data = get_json(table, "/api/history")
    assert status == 404 and "no state directory" in data["error"]


# -- the QR code on the panel ------------------------------------------------------------


def test_the_pairing_notice_alternates_a_qr_code_with_the_digits_on_32x32() -> None:
    table = ServedTable(size=32)
    try:
        table.rig.start()

        async def ask() -> None:
            async with client_session() as client:
                async with client.post(table.url + "/api/pair/code", json={}) as response:
                    assert response.status == 200
                async with client.get(table.url + "/P/123456", allow_redirects=False) as response:
                    assert (response.status, response.headers["Location"]) == (
                        302,
                        "/?code=123456",
                    )

        run(ask())
        notices = []
        while len(table.rig.app.events):
            event = table.rig.app.events.get(0)
            if isinstance(event, NoticeEvent):
                notices.append(event)
        (notice,) = notices
        code = notice.text.split()[-1]
        assert notice.qr == qr.rows(f"HTTP://127.0.0.1:{table.server.port}/P/{code}")  # type: ignore[union-attr]
        table.rig.app.events.put(notice)
        table.rig.settle()
        frame = table.rig.frame()
        size = len(notice.qr)
        x0 = (32 - size) // 2
        for y, row in enumerate(notice.qr):
            for x, bit in enumerate(row):
                lit = frame.getpixel((x0 + x, x0 + y)) != (0, 0, 0)
                assert lit == (bit == "0"), (x, y)
        assert frame.getpixel((0, 0)) != (0, 0, 0)  # the quiet zone is lit
        for _ in range(50):  # on to the banner phase: the board and the digits again
            table.rig.advance()
            if table.rig.frame().getpixel((0, 0)) == (0, 0, 0):
                break
        else:
            raise AssertionError("the QR code never gave way to the digits")
        zxingcpp = pytest.importorskip("zxingcpp", reason="the QR decoder (pip zxing-cpp)")
        camera = frame.resize((320, 320), Image.Resampling.NEAREST)  # a phone sees it large
        decoded = [found.text for found in zxingcpp.read_barcodes(camera)]
        assert decoded == [f"HTTP://127.0.0.1:{table.server.port}/P/{code}"]  # type: ignore[union-attr]
        if os.environ.get("SPIELTISCH_SCREENSHOTS"):
            camera.save(Path(os.environ["SPIELTISCH_SCREENSHOTS"]) / "qr-panel.png")
    finally:
        table.close()


# -- a client that never finishes its headers ------------------------------------------


def test_a_client_that_never_finishes_its_headers_is_dropped() -> None:
    """A slowloris: a raw socket sends one header line at a time, never the empty line
    that ends them. The server drops it after its header timeout, while a well-behaved
    stream that has finished its headers stays open past that time."""
    publisher = FramePublisher(16, 16)
    server = WebServer(publisher, EventQueue(), 0, host="127.0.0.1", request_s=1.0).start()
    try:
        slow = socket.create_connection(("127.0.0.1", server.port))
        watcher = socket.create_connection(("127.0.0.1", server.port))
        watcher.sendall(
            b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        assert b"101 Switching Protocols" in watcher.recv(4096)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow.settimeout(0.2)
        closed = False
        end = time.monotonic() + 30
        while time.monotonic() < end and not closed:
            try:
                slow.sendall(b"X-Drip: " + str(random.random()).encode() + b"\r\n")
                closed = slow.recv(1024) == b""
            except TimeoutError:
                continue
            except (ConnectionResetError, BrokenPipeError):
                closed = True
        assert closed, "the slow client was never dropped"
        assert server.counter.too_slow == 1
        watcher.setblocking(False)
        with pytest.raises(BlockingIOError):
            watcher.recv(1)  # still open, nothing to read: not dropped
        slow.close()
        watcher.close()
    finally:
        server.stop()


# -- fuzz ------------------------------------------------------------------------------


def test_a_fuzz_of_the_setup_and_history_endpoints(tmp_path: Path, history_dir: Path) -> None:
    """Random methods, paths, queries and bodies on the new endpoints, paired (with
    the CSRF token) and not: every answer is below 500, the config file is either
    unchanged or still a config the appliance accepts, and the table still draws."""
    path = config_file(tmp_path)
    table = ServedTable(state_dir=history_dir, config_path=path)
    table.rig.start()
    table.rig.app.loop.draw()
    rng = random.Random(2828)
    paths = [
        "/setup",
        "/history",
        "/api/setup",
        "/api/history",
        "/api/stats",
        "/api/history/1",
        "/api/history/2/frame/3.png",
        "/api/history/3/game.mat",
        "/api/history/1/game.json",
        "/api/history/999999999/frame/999999.png",
        "/P/123456",
        "/P/../../etc/passwd",
    ]
    queries = ["", "?game=maedn", "?player=%00", "?from=2026-13-45", "?to=2026-10-01&game=", "?x"]
    values = [None, "", "x" * 300, -1, 1e309, True, [], {}, "human", 0.5, "maedn", 9999]
    fields = ["game", "preset", "seats", "bot", "move_timer_s", "brightness", "language", "z"]

    def form() -> Any:
        chosen = {f: rng.choice(values) for f in rng.sample(fields, rng.randrange(len(fields)))}
        if rng.random() < 0.3:
            chosen["seats"] = [rng.choice(["human", "bot", "phone", "empty", 3]) for _ in range(4)]
        return rng.choice(
            [
                chosen,
                {"action": "save"},
                {"action": rng.choice(["save", "start", "check", "x"]), "values": chosen},
            ]
        )

    async def fuzz() -> list[int]:
        statuses = []
        async with client_session() as client:
            csrf = await pair(client, table)
            for _ in range(200):
                method = rng.choice(["GET", "POST", "POST", "PUT", "HEAD"])
                target = table.url + rng.choice(paths) + rng.choice(queries)
                headers = {"X-CSRF-Token": csrf} if rng.random() < 0.7 else {}
                if rng.random() < 0.6:
                    data = json.dumps(form()).encode()
                else:
                    data = bytes(rng.randrange(256) for _ in range(rng.randrange(80)))
                async with client.request(method, target, data=data, headers=headers) as response:
                    await response.read()
                    statuses.append(response.status)
            for _ in range(60):  # the setup's validation itself, paired
                data = json.dumps(form()).encode()
                headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
                async with client.post(
                    table.url + "/api/setup", data=data, headers=headers
                ) as response:
                    await response.read()
                    statuses.append(response.status)
        return statuses

    try:
        statuses = run(fuzz())
        assert all(status < 500 for status in statuses), sorted(set(statuses))
        assert 200 in statuses and 422 in statuses
        load_config(path)  # whatever was saved is a config the appliance starts with
        table.rig.advance()
        assert table.rig.app.loop.frames > 0
    finally:
        table.close()


def test_a_table_that_recorded_nothing_yet_lists_no_games(tmp_path: Path) -> None:
    table = ServedTable(state_dir=tmp_path / "state")
    try:
        status, data = get_json(table, "/api/history")
        assert (status, data["matched"], data["games"]) == (200, 0, [])
        status, data = get_json(table, "/api/stats")
        assert (status, data["players"]) == (200, {})
    finally:
        table.close()
