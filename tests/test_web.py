"""The companion page against a real table: a real aiohttp server on a real port, the
appliance on mock pins and luma's dummy panel, its loop stepped by the test."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")

import aiohttp

from controller.config import ConfigError, parse_config
from controller.events import EventQueue, NoticeEvent
from controller.session import Session
from controller.testing.rig import ApplianceRig
from controller.web.attach import mirrored, serve
from controller.web.pairing import TRIES_PER_CODE, Pairing, PairingError
from controller.web.publish import FramePublisher
from controller.web.server import MAX_BODY, WebServer
from hardware.interfaces import ButtonEvent

ROOT = Path(__file__).resolve().parent.parent


def client_session() -> aiohttp.ClientSession:
    """A browser-like client: it keeps cookies set by an address (127.0.0.1) too."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


# -- config --------------------------------------------------------------------------------


def test_web_section_defaults_on_at_8080_and_is_validated() -> None:
    base = {"display": {"type": "dummy"}}
    config = parse_config(base)
    assert (config.web.enabled, config.web.port) == (True, 8080)
    off = parse_config({**base, "web": {"enabled": False, "port": 9000}})
    assert (off.web.enabled, off.web.port) == (False, 9000)
    with pytest.raises(ConfigError) as error:
        parse_config({**base, "web": {"enabled": "yes", "port": 70000, "bind": "x"}})
    lines = error.value.errors
    assert any("web.enabled: expected true or false" in line for line in lines)
    assert any("web.port: 70000 is out of range" in line for line in lines)
    assert any("web.bind: unknown key" in line for line in lines)


def test_a_phone_seat_is_a_seat_kind_in_the_config() -> None:
    seats = [{"ok": 17, "next": 27, "player": "phone"}, {"ok": 22, "next": 23}]
    config = parse_config({"display": {"type": "dummy"}, "seats": seats})
    assert config.players == ("phone", "human")


def test_with_the_page_off_nothing_of_it_is_imported(tmp_path: Path) -> None:
    """A table with ``[web] enabled = false`` plays without importing the page or aiohttp."""
    script = """
import sys, tomllib
from controller.config import parse_config
from controller.testing.files import config_text
from controller import cli, app
from controller.cli import run
from controller.testing.rig import ApplianceRig
rig = ApplianceRig(None, buttons=False)
rig.start()
for _ in range(5):
    rig.advance()
rig.close()
loaded = sorted(m for m in sys.modules if m.startswith(("controller.web", "aiohttp", "segno")))
print(loaded)
"""
    env = {"GPIOZERO_PIN_FACTORY": "mock", "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# -- pairing rules -------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_pairing_needs_the_shown_code_and_limits_guesses() -> None:
    clock = Clock()
    pairing = Pairing(clock)
    with pytest.raises(PairingError, match="no code"):
        pairing.pair("123456", "a")
    code = pairing.new_code()
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _ in range(2):
        with pytest.raises(PairingError, match="wrong code"):
            pairing.pair(wrong, "a")
    with pytest.raises(PairingError, match="wrong code"):
        pairing.pair(wrong, "a")  # the third: this client is locked out now
    with pytest.raises(PairingError, match="wait"):
        pairing.pair(code, "a")
    session = pairing.pair(code, "b")  # another phone with the right code
    assert pairing.allowed(session.token, session.csrf)
    assert not pairing.allowed(session.token, None)
    assert not pairing.allowed(session.token, "forged")
    with pytest.raises(PairingError):
        pairing.pair(code, "c")  # a code pairs once


def test_a_code_is_void_after_too_many_wrong_tries() -> None:
    clock = Clock()
    pairing = Pairing(clock)
    code = pairing.new_code()
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for client in range(TRIES_PER_CODE):
        with pytest.raises(PairingError):
            pairing.pair(wrong, str(client))
    with pytest.raises(PairingError, match="no code"):
        pairing.pair(code, "right")


# -- the server against a table ---------------------------------------------------------------


class ServedTable:
    """A rig whose panel is mirrored to a running server."""

    def __init__(
        self,
        seats: tuple[str, ...] = ("human", "bot"),
        state_dir: Path | None = None,
        config_path: Path | None = None,
        size: int = 16,
        language: str | None = None,
    ) -> None:
        self.rig = ApplianceRig(state_dir, seats=seats, buttons=False, size=size)
        tee, self.publisher = mirrored(self.rig.app.loop.display)
        self.rig.app.loop.display = tee
        phones = [0]
        self.server = serve(self.rig.app, self.publisher, 0, phones, config_path, language)
        assert self.server is not None
        self.url = f"http://127.0.0.1:{self.server.port}"

    def close(self) -> None:
        assert self.server is not None
        self.server.stop()
        self.rig.close()


@pytest.fixture
def table() -> Iterator[ServedTable]:
    built = ServedTable()
    built.rig.start(Session.start("maedn", "classic", ["human", "bot"], seed=3, bot="random"))
    yield built
    built.close()


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def pair(client: aiohttp.ClientSession, table: ServedTable) -> str:
    async with client.post(table.url + "/api/pair/code", json={}) as response:
        assert response.status == 200
    events = []
    while len(table.rig.app.events):
        events.append(table.rig.app.events.get(0))
    notice = [e for e in events if isinstance(e, NoticeEvent)]
    assert notice, events
    code = notice[0].text.split()[-1]
    async with client.post(table.url + "/api/pair", json={"code": code}) as response:
        assert response.status == 200
        data = await response.json()
    csrf: str = data["csrf"]
    return csrf


def test_the_live_stream_sends_the_panels_own_frame(table: ServedTable) -> None:
    async def watch() -> tuple[bytes, dict[str, Any]]:
        async with client_session() as client, client.ws_connect(table.url + "/ws") as ws:
            status = json.loads((await ws.receive(5)).data)
            frame = (await ws.receive(5)).data
            return frame, status

    table.rig.app.loop.draw()
    frame, status = run(watch())
    panel = table.rig.frame()
    assert frame[:2] == bytes((16, 16))
    assert frame[2:] == panel.tobytes()
    assert "red" in status["text"]
    assert any(seat["on_turn"] for seat in status["seats"])


def test_pages_and_state_are_open_to_watchers(table: ServedTable) -> None:
    async def look() -> tuple[int, str, dict[str, Any], int]:
        async with client_session() as client:
            async with client.get(table.url + "/") as page:
                html = await page.text()
                status = page.status
            async with client.get(table.url + "/api/state") as state:
                data = await state.json()
            async with client.get(table.url + "/static/../pyproject.toml") as other:
                missing = other.status
            return status, html, data, missing

    table.rig.app.loop.draw()
    status, html, data, missing = run(look())
    assert status == 200 and "<canvas" in html
    assert data["paired"] is False and data["csrf"] is None
    assert data["phone_seats"] == [0]
    assert missing == 404


def test_changes_without_pairing_with_a_forged_origin_or_without_csrf_are_refused(
    table: ServedTable,
) -> None:
    press = {"seat": 0, "button": "ok", "kind": "down"}

    async def attempts() -> list[int]:
        codes = []
        async with client_session() as client:
            async with client.post(table.url + "/api/press", json=press) as response:
                codes.append(response.status)  # not paired
            csrf = await pair(client, table)
            async with client.post(table.url + "/api/press", json=press) as response:
                codes.append(response.status)  # paired, but no CSRF token
            headers = {"X-CSRF-Token": csrf, "Origin": "http://evil.example"}
            async with client.post(table.url + "/api/press", json=press, headers=headers) as r:
                codes.append(r.status)  # a cross-site form
            async with client.post(table.url + "/api/pair", json={"code": "000000"}) as r:
                codes.append(r.status)  # a wrong code
        return codes

    assert run(attempts()) == [403, 403, 403, 403]
    assert not any(isinstance(table.rig.app.events.get(0), ButtonEvent) for _ in range(3))


def test_a_phone_seat_plays_through_the_event_queue(table: ServedTable) -> None:
    """OK from the phone rolls for seat 1 exactly as its GPIO button would."""

    async def roll() -> list[int]:
        codes = []
        async with client_session() as client:
            csrf = await pair(client, table)
            headers = {"X-CSRF-Token": csrf}
            for kind in ("down", "up"):
                body = {"seat": 0, "button": "ok", "kind": kind}
                async with client.post(table.url + "/api/press", json=body, headers=headers) as r:
                    codes.append(r.status)
            body = {"seat": 1, "button": "ok", "kind": "down"}  # not a phone seat
            async with client.post(table.url + "/api/press", json=body, headers=headers) as r:
                codes.append(r.status)
        return codes

    before = len(table.rig.app.table.require_session().history)
    assert run(roll()) == [200, 200, 400]
    table.rig.settle()
    assert len(table.rig.app.table.require_session().history) == before + 1  # the roll


def test_bad_requests_get_one_line_answers_and_the_table_plays_on(table: ServedTable) -> None:
    """A fuzz over every endpoint: random methods, paths, bodies and headers; every
    answer is a status below 500, and the table still draws afterwards."""
    paths = ["/", "/api/state", "/ws", "/api/pair/code", "/api/pair", "/api/press", "/x"]
    rng = random.Random(28)

    async def fuzz() -> list[int]:
        statuses = []
        async with client_session() as client:
            for _ in range(150):
                method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH"])
                path = rng.choice(paths) + rng.choice(["", "?a=1", "/..", "%00"])
                body = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
                if rng.random() < 0.3:
                    body = json.dumps(rng.choice([[], {"code": 5}, {"seat": "0"}, "x"])).encode()
                async with client.request(method, table.url + path, data=body) as response:
                    statuses.append(response.status)
            big = b"{" + b" " * (MAX_BODY + 10) + b"}"
            async with client.post(table.url + "/api/pair", data=big) as response:
                statuses.append(response.status)
                assert response.status == 413
        return statuses

    statuses = run(fuzz())
    assert all(status < 500 for status in statuses), sorted(set(statuses))
    table.rig.advance()
    assert table.rig.app.loop.frames > 0


def test_a_client_that_disconnects_mid_stream_costs_nothing(table: ServedTable) -> None:
    """Twenty raw sockets upgrade to the stream, read a little and vanish without a
    close handshake; the server forgets each of them, and a slow reader that never reads
    holds at most one frame."""
    assert table.server is not None and table.server.web is not None
    table.rig.app.loop.draw()
    request = (
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", table.server.port), timeout=5) as sock:
            sock.sendall(request)
            assert sock.recv(64).startswith(b"HTTP/1.1 101")
    # The server notices each vanished reader by itself, on its own thread: wait for it
    # (a bound on the wait, not a timing claim; a loaded machine may need seconds).
    for _ in range(1000):
        table.rig.settle()
        if not table.server.web.streams:
            break
        time.sleep(0.01)
    assert len(table.server.web.streams) == 0


def test_a_publisher_never_raises_into_the_loop() -> None:
    publisher = FramePublisher(16, 16)

    def broken() -> Any:
        raise RuntimeError("a bug on the page side")

    publisher.status_source = broken
    from PIL import Image

    publisher.show(Image.new("RGB", (16, 16)))  # nothing raised
    assert publisher.latest() is None


def test_a_port_in_use_leaves_the_table_without_its_page() -> None:
    first = ServedTable()
    try:
        rig = ApplianceRig(None, buttons=False)
        _tee, publisher = mirrored(rig.app.loop.display)
        assert first.server is not None
        assert serve(rig.app, publisher, first.server.port) is None
        rig.close()
    finally:
        first.close()


def test_the_appliance_starts_its_page_beside_the_table_and_stops_it() -> None:
    """``run`` starts the page on its own thread, so READY (the first frame) does not wait
    for aiohttp and mDNS; the page still serves the table, and closing it stops the
    server and frees its port."""
    from controller.web.beside import PageBeside

    rig = ApplianceRig(None, buttons=False)
    tee, publisher = mirrored(rig.app.loop.display)
    rig.app.loop.display = tee
    page = PageBeside(rig.app, publisher, 0).start()
    try:
        page._thread.join(30)
        assert page.server is not None
        port = page.server.port

        async def state() -> int:
            url = f"http://127.0.0.1:{port}/api/state"
            async with aiohttp.ClientSession() as client, client.get(url) as response:
                return response.status

        assert run(state()) == 200
    finally:
        page.close()
        rig.close()
    assert page.server.thread is not None and not page.server.thread.is_alive()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))


def test_a_page_that_cannot_listen_leaves_the_appliance_playing() -> None:
    from controller.web.beside import PageBeside

    first = ServedTable()
    try:
        rig = ApplianceRig(None, buttons=False)
        _tee, publisher = mirrored(rig.app.loop.display)
        assert first.server is not None
        page = PageBeside(rig.app, publisher, first.server.port).start()
        page.close()
        assert page.server is None and page.announcement is None
        rig.close()
    finally:
        first.close()


def test_server_stops_cleanly() -> None:
    server = WebServer(FramePublisher(16, 16), EventQueue(), 0)
    server.start()
    server.stop()
    assert server.thread is not None and not server.thread.is_alive()


def test_the_table_is_announced_as_spieltisch_local() -> None:
    """A second zeroconf instance resolves the service and its host name."""
    zeroconf = pytest.importorskip("zeroconf")
    from controller.web.mdns import announce

    announcement = announce(8080)
    if announcement is None:
        pytest.skip("no multicast network here")
    browser = zeroconf.Zeroconf()
    try:
        info = browser.get_service_info(
            "_http._tcp.local.", "spieltisch._http._tcp.local.", timeout=3000
        )
    finally:
        browser.close()
        announcement.close()
    assert info is not None and info.server == "spieltisch.local." and info.port == 8080


def test_two_hundred_connections_at_once_never_stop_the_table(table: ServedTable) -> None:
    """200 sockets open at once from ten addresses and say nothing: the server keeps at
    most its limit, each newcomer closing the connection that waited longest; from one
    address it keeps that address's share. The table goes on drawing, and the page
    answers again once they are gone."""
    from controller.web.connections import MAX_PER_CLIENT
    from controller.web.server import MAX_CONNECTIONS

    assert table.server is not None and table.server.web is not None
    counter = table.server.counter
    port = table.server.port

    def silent(count: int, addresses: int) -> list[socket.socket]:
        return [
            socket.create_connection(
                ("127.0.0.1", port), timeout=5, source_address=(f"127.0.1.{i % addresses + 1}", 0)
            )
            for i in range(count)
        ]

    def settled(open_: int, evicted: int) -> None:
        for _ in range(3000):  # each connection let in, on the server's thread
            if (counter.open, counter.evicted) == (open_, evicted):
                return
            time.sleep(0.01)
        raise AssertionError((counter.open, counter.evicted), (open_, evicted))

    sockets = silent(200, 10)
    try:
        settled(MAX_CONNECTIONS, 200 - MAX_CONNECTIONS)
        assert counter.refused == 0  # nobody is refused while somebody only waits
        frames = table.rig.app.loop.frames
        table.rig.app.events.put(ButtonEvent(0, "ok", "down"))  # seat 1 rolls
        table.rig.settle()
        assert table.rig.app.loop.frames > frames
    finally:
        for sock in sockets:
            sock.close()
    settled(0, 200 - MAX_CONNECTIONS)
    sockets = silent(100, 1)
    try:
        settled(MAX_PER_CLIENT, 200 - MAX_CONNECTIONS + 100 - MAX_PER_CLIENT)
    finally:
        for sock in sockets:
            sock.close()

    async def page() -> int:
        async with client_session() as client, client.get(table.url + "/api/state") as r:
            return r.status

    assert run(page()) == 200
