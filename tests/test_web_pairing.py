"""Pairing on the companion page: who sees the code, where changes may come from, what
asking for a code costs, what the log keeps, and the list of paired phones. A real
server on a real port beside a table on mock pins, as in ``test_web.py``."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("aiohttp")

import aiohttp

from controller.events import NoticeEvent
from controller.session import Session
from controller.web.origin import same_origin
from controller.web.pairing import LOCKOUT_S, TRIES_PER_CLIENT, Pairing, PairingError
from hardware.interfaces import ButtonEvent
from tests.test_web import Clock, ServedTable, client_session, pair, run

PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)"
    " Chrome/131.0 Mobile Safari/537.36"
)


@pytest.fixture
def table() -> Iterator[ServedTable]:
    built = ServedTable()
    built.rig.start(Session.start("maedn", "classic", ["human", "bot"], seed=3, bot="random"))
    built.rig.app.loop.draw()
    yield built
    built.close()


def notices(table: ServedTable) -> list[NoticeEvent]:
    """The notices the server put on the table's queue (taken off it)."""
    found = []
    while len(table.rig.app.events):
        event = table.rig.app.events.get(0)
        if isinstance(event, NoticeEvent):
            found.append(event)
    return found


async def ask_code(client: aiohttp.ClientSession, table: ServedTable, **options: Any) -> int:
    options.setdefault("json", {})
    async with client.post(table.url + "/api/pair/code", **options) as response:
        await response.read()
        return response.status


async def next_status(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """The next status of the stream (its frame, which follows, read too)."""
    message = await ws.receive(10)
    assert message.type == aiohttp.WSMsgType.TEXT, message
    frame = await ws.receive(10)
    assert frame.type == aiohttp.WSMsgType.BINARY, frame
    status: dict[str, Any] = json.loads(message.data)
    return status


# -- a code on the panel: hidden from watchers, not from paired pages ------------------------


def test_a_code_hides_from_watchers_but_paired_pages_play_on(table: ServedTable) -> None:
    """While a code is on the panel a watcher keeps the frame before it and is told that a
    code is up; a paired page's stream goes on, code and all, and so does its play."""

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
        async with client_session() as phone, client_session() as watcher:
            csrf = await pair(phone, table)
            async with (
                phone.ws_connect(table.url + "/ws") as paired_ws,
                watcher.ws_connect(table.url + "/ws") as watcher_ws,
            ):
                before = await next_status(watcher_ws)
                await next_status(paired_ws)
                assert await ask_code(phone, table) == 200
                (notice,) = notices(table)
                code = notice.text.split()[-1]
                told = await next_status(watcher_ws)  # woken by the code alone
                table.rig.app.events.put(notice)  # the table shows it
                table.rig.settle()
                headers = {"X-CSRF-Token": csrf}
                for kind in ("down", "up"):  # and the phone seat rolls meanwhile
                    body = {"seat": 0, "button": "ok", "kind": kind}
                    async with phone.post(
                        table.url + "/api/press", json=body, headers=headers
                    ) as r:
                        assert r.status == 200
                table.rig.settle()
                paired_seen = [await next_status(paired_ws)]
                while code not in paired_seen[-1]["text"] or not paired_seen[-1]["dice"]:
                    paired_seen.append(await next_status(paired_ws))
                async with watcher.get(table.url + "/api/state") as r:
                    state = (await r.json())["table"]
                return [before, told, state], paired_seen, code

    watched, paired_seen, code = run(scenario())
    before, told, state = watched
    assert told["code_shown"] and state["code_shown"]
    assert told["frame"] == before["frame"] == state["frame"]  # the frame before the code
    assert code not in json.dumps(watched)
    assert paired_seen[-1]["frame"] > before["frame"] and paired_seen[-1]["code_shown"]
    assert table.server is not None and table.server.publisher.held_back > 0


def test_the_code_used_shows_watchers_the_table_again(table: ServedTable) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with (
            client_session() as phone,
            client_session() as watcher,
            watcher.ws_connect(table.url + "/ws") as ws,
        ):
            first = await next_status(ws)
            await pair(phone, table)  # asks for a code, then types it
            table.rig.app.events.put(ButtonEvent(0, "ok", "down"))  # seat 1 rolls
            table.rig.settle()
            status = await next_status(ws)
            while status["frame"] == first["frame"] or status["code_shown"]:
                status = await next_status(ws)
            return first, status

    first, after = run(scenario())
    assert not first["code_shown"] and after["dice"]


# -- where a change may come from ----------------------------------------------------------


def test_an_origin_is_ours_only_if_it_names_this_server() -> None:
    here = ("192.168.1.23", 8080)
    assert same_origin("http://192.168.1.23:8080", here)
    assert same_origin("http://spieltisch.local:8080", here)
    assert same_origin("http://SPIELTISCH.local.:8080", here)
    assert not same_origin("http://192.168.1.23:9090", here)  # another port: another site
    assert not same_origin("https://192.168.1.23:8080", here)
    assert not same_origin("http://192.168.1.24:8080", here)
    assert not same_origin("http://evil.example:8080", here)
    assert not same_origin("http://localhost:8080", here)  # not on a loopback connection
    assert not same_origin("null", here)
    assert not same_origin("http://192.168.1.23:8080", None)
    assert same_origin("http://localhost:8080", ("127.0.0.1", 8080))
    assert same_origin("http://[::1]:8080", ("::1", 8080, 0, 0))
    assert same_origin("http://192.168.1.23:8080", ("::ffff:192.168.1.23", 8080, 0, 0))
    assert same_origin("http://my-pi.local:80", ("10.0.0.2", 80), names=["my-pi.local"])


def test_a_forged_host_does_not_make_a_forged_origin_ours(table: ServedTable) -> None:
    """A paired phone's cookie and token, sent with an ``Origin`` and a ``Host`` that both
    name another site: refused, and nothing reaches the table. The same press from this
    server's own address, or its announced name, is taken."""
    assert table.server is not None
    port = table.server.port
    press = {"seat": 0, "button": "ok", "kind": "down"}

    async def presses() -> list[int]:
        statuses = []
        async with client_session() as phone:
            csrf = await pair(phone, table)
            for origin, host in (
                ("http://evil.example", "evil.example"),
                (f"http://evil.example:{port}", f"evil.example:{port}"),
                (f"http://127.0.0.1:{port + 1}", f"127.0.0.1:{port + 1}"),
                (f"http://127.0.0.1:{port}", f"127.0.0.1:{port}"),
                (f"http://spieltisch.local:{port}", f"spieltisch.local:{port}"),
            ):
                headers = {"X-CSRF-Token": csrf, "Origin": origin, "Host": host}
                async with phone.post(table.url + "/api/press", json=press, headers=headers) as r:
                    statuses.append(r.status)
        return statuses

    assert run(presses()) == [403, 403, 403, 200, 200]
    pressed = []
    while len(table.rig.app.events):
        event = table.rig.app.events.get(0)
        if isinstance(event, ButtonEvent) and event.kind == "down":
            pressed.append(event)
    assert len(pressed) == 2


def test_asking_for_a_code_is_a_change_like_any_other(table: ServedTable) -> None:
    """Another site's Origin, a form's body, no body, and 2.4 MB are each refused, and no
    code goes to the panel; the page's own request shows one."""
    assert table.server is not None
    big = b"{" + b" " * 2_400_000 + b"}"

    async def attempts() -> list[int]:
        async with client_session() as client:
            return [
                await ask_code(client, table, headers={"Origin": "http://evil.example"}),
                await ask_code(client, table, json=None, data=b"a=1"),
                await ask_code(client, table, json=None),
                await ask_code(
                    client, table, json=None, data=big, headers={"Content-Type": "application/json"}
                ),
                await ask_code(
                    client,
                    table,
                    json=None,
                    data=iter_chunks(big),  # chunked: no Content-Length to refuse it by
                    headers={"Content-Type": "application/json"},
                ),
            ]

    statuses = run(attempts())
    assert statuses == [403, 415, 415, 413, 413]
    assert notices(table) == []
    assert not table.server.publisher.code_shown()

    async def the_page() -> int:
        async with client_session() as client:
            origin = {"Origin": table.url}
            return await ask_code(client, table, headers=origin)

    assert run(the_page()) == 200
    assert len(notices(table)) == 1


async def iter_chunks(data: bytes) -> Any:
    for start in range(0, len(data), 65536):
        yield data[start : start + 65536]


def test_the_code_is_never_written_to_the_log(
    table: ServedTable, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    async def ask() -> None:
        async with client_session() as client:
            assert await ask_code(client, table) == 200

    run(ask())
    (notice,) = notices(table)
    code = notice.text.split()[-1]
    assert code.isdigit() and len(code) == 6
    logged = [record.getMessage() for record in caplog.records]
    assert any("pairing code is on the panel" in line for line in logged), logged
    assert not any(code in line for line in logged), logged


# -- a locked phone is told so ---------------------------------------------------------------


def test_the_try_that_locks_says_so_and_for_how_long() -> None:
    pairing = Pairing(Clock())
    code = pairing.new_code()
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    answers = []
    for _ in range(TRIES_PER_CLIENT):
        with pytest.raises(PairingError) as refused:
            pairing.pair(wrong, "a")
        answers.append((refused.value.status, str(refused.value)))
    assert answers[0] == (403, "wrong code")
    status, words = answers[-1]
    assert status == 429
    assert "locked" in words and f"{int(LOCKOUT_S)} s" in words, words
    assert refused.value.words("de") == (
        f"falscher Code, {TRIES_PER_CLIENT} hintereinander:"
        f" dieses Handy ist für {int(LOCKOUT_S)} s gesperrt"
    )


def test_the_page_tells_a_locked_phone_how_long_it_waits(table: ServedTable) -> None:
    async def tries() -> list[tuple[int, str]]:
        answers = []
        async with client_session() as client:
            assert await ask_code(client, table) == 200
            for _ in range(TRIES_PER_CLIENT + 1):
                async with client.post(table.url + "/api/pair", json={"code": "x"}) as r:
                    answers.append((r.status, (await r.json())["error"]))
        return answers

    answers = run(tries())
    assert answers[0] == (403, "wrong code")
    assert answers[TRIES_PER_CLIENT - 1][0] == 429
    assert f"locked for {int(LOCKOUT_S)} s" in answers[TRIES_PER_CLIENT - 1][1]
    assert answers[-1][0] == 429 and "wait" in answers[-1][1]


# -- the paired phones: listed, forgotten one by one or all at once --------------------------


async def phones(client: aiohttp.ClientSession, table: ServedTable) -> tuple[int, Any]:
    async with client.get(table.url + "/api/phones") as response:
        return response.status, await response.json()


def test_paired_phones_are_listed_and_forgotten_one_by_one(table: ServedTable) -> None:
    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with (
            client_session() as first,
            client_session() as second,
            client_session() as watcher,
        ):
            first.headers["User-Agent"] = PHONE_UA
            csrf = await pair(first, table)
            other = await pair(second, table)
            seen["watcher"] = (await phones(watcher, table))[0]
            status, listed = await phones(first, table)
            seen["list"] = (status, listed["phones"])
            mine = next(p for p in listed["phones"] if p["this"])
            theirs = next(p for p in listed["phones"] if not p["this"])
            headers = {"X-CSRF-Token": csrf}
            async with first.post(
                table.url + "/api/phones/forget", json={"id": theirs["id"]}, headers=headers
            ) as r:
                seen["forget"] = r.status
            async with first.post(
                table.url + "/api/phones/forget", json={"id": theirs["id"]}, headers=headers
            ) as r:
                seen["again"] = r.status
            async with second.get(table.url + "/api/state") as r:
                seen["second paired"] = (await r.json())["paired"]
            press = {"seat": 0, "button": "ok", "kind": "down"}
            async with second.post(
                table.url + "/api/press", json=press, headers={"X-CSRF-Token": other}
            ) as r:
                seen["second press"] = r.status
            seen["after"] = [p["id"] for p in (await phones(first, table))[1]["phones"]]
            seen["mine"] = mine
        return seen

    seen = run(scenario())
    assert seen["watcher"] == 403
    status, listed = seen["list"]
    assert status == 200 and len(listed) == 2
    assert seen["mine"]["label"] == "Android · Chrome"
    assert all("token" not in p and len(p["id"]) == 8 for p in listed)
    assert (seen["forget"], seen["again"]) == (200, 404)
    assert seen["second paired"] is False and seen["second press"] == 403
    assert seen["after"] == [seen["mine"]["id"]]


def test_every_phone_is_forgotten_by_whoever_reads_a_fresh_code(table: ServedTable) -> None:
    """ "Forget every phone" needs the code on the panel, not a pairing: a wrong code
    forgets nothing, the right one forgets every phone, the asking one too."""

    async def scenario() -> list[Any]:
        results: list[Any] = []
        async with client_session() as first, client_session() as second, client_session() as owner:
            await pair(first, table)
            await pair(second, table)
            async with owner.post(
                table.url + "/api/phones/forget-all", json={"code": "000000"}
            ) as r:
                results.append(r.status)  # no code is shown
            assert await ask_code(owner, table) == 200
            (notice,) = notices(table)
            code = notice.text.split()[-1]
            wrong = f"{(int(code) + 1) % 10**6:06d}"
            async with owner.post(table.url + "/api/phones/forget-all", json={"code": wrong}) as r:
                results.append(r.status)
            results.append(len(table.server.web.pairing.sessions))  # type: ignore[union-attr]
            async with owner.post(table.url + "/api/phones/forget-all", json={"code": code}) as r:
                results.append((r.status, await r.json()))
            for phone in (first, second):
                async with phone.get(table.url + "/api/state") as r:
                    results.append((await r.json())["paired"])
        return results

    results = run(scenario())
    assert results == [403, 403, 2, (200, {"forgotten": 2}), False, False]


def test_the_setup_page_carries_the_list_and_its_words(table: ServedTable) -> None:
    async def page() -> str:
        async with client_session() as client, client.get(table.url + "/setup") as r:
            return await r.text()

    html = run(page())
    for needed in ('id="phone-list"', 'id="forget-all-form"', "/static/phones.js"):
        assert needed in html
    assert "Forget every phone" in html
