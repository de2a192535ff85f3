"""The hotspot's setup page: a real server on a real socket, a real HTTP client, and
the real supervisor on its own thread over a NetworkManager in memory."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
from aiohttp import web

from controller.appliance.network import FakeNetwork
from controller.appliance.portal import Portal, page_language
from controller.appliance.status import HOTSPOT, JOINING, ONLINE
from controller.appliance.supervisor import Supervisor


@asynccontextmanager
async def hotspot(
    net: FakeNetwork, language: str | None = None
) -> AsyncIterator[tuple[str, Supervisor]]:
    """The supervisor in its hotspot (no known network, no wait) and the page on a free
    port of 127.0.0.1."""
    sup = Supervisor(net, "spieltisch-3f9a", wait_s=0.0, make_password=lambda: "k7m2p9qx")
    stop = threading.Event()
    thread = threading.Thread(target=sup.run, args=(stop, 0.05))
    thread.start()
    runner = web.AppRunner(Portal(sup, language=language).app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        await until(lambda: sup.status.state == HOTSPOT)
        yield f"http://127.0.0.1:{port}", sup
    finally:
        await runner.cleanup()
        stop.set()
        sup.wake.set()
        thread.join(30)


async def until(done: Callable[[], bool]) -> None:
    for _ in range(3000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not reached in 30 s")


def run(test: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    return asyncio.run(test())


def test_the_page_lists_the_networks_and_a_join_puts_the_table_online() -> None:
    net = FakeNetwork(reach={"Home": "secret-pass", "Nachbar <b>": ""})
    gate = net.join_gate = threading.Event()

    async def test() -> None:
        async with hotspot(net) as (base, sup), aiohttp.ClientSession() as client:
            async with client.get(base + "/") as reply:
                page = await reply.text()
            assert reply.status == 200 and "Set up the table&#x27;s Wi-Fi" in page
            assert '<option value="Home">Home (70 %)</option>' in page
            assert "(70 %, open, no password)" in page
            assert "Nachbar &lt;b&gt;" in page and "<b>" not in page.split("<h1>")[1]
            form = {"ssid": "Home", "password": "secret-pass", "other": ""}
            async with client.post(base + "/join", data=form) as reply:
                answer = await reply.text()
            assert "The table is joining Home" in answer and "spieltisch.local:8080" in answer
            await until(lambda: sup.status.state == JOINING)
            async with client.get(base + "/") as reply:
                assert 'http-equiv="refresh"' in await reply.text()  # while it joins
            gate.set()
            await until(lambda: sup.status.state == ONLINE)
            async with client.get(base + "/status.json") as reply:
                state = await reply.json()
            assert state["state"] == "online" and state["address"] == "192.168.1.23"
            async with client.get(base + "/") as reply:
                assert "http://192.168.1.23:8080" in await reply.text()

    run(test)
    assert net.known == {"Home": "secret-pass"}


def test_a_wrong_password_leads_back_with_the_reason_in_words() -> None:
    net = FakeNetwork(reach={"Home": "secret-pass"})

    async def test() -> None:
        async with hotspot(net) as (base, sup), aiohttp.ClientSession() as client:
            form = {"ssid": "Home", "password": "wrong-pass"}
            async with client.post(base + "/join", data=form) as reply:
                assert reply.status == 200
            await until(lambda: sup.status.reason != "")
            headers = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
            async with client.get(base + "/", headers=headers) as reply:
                german = await reply.text()
            async with client.get(base + "/") as reply:
                english = await reply.text()
            assert "the password for Home was not accepted" in english
            assert "Try again" in english and sup.status.state == HOTSPOT
            assert 'lang="de"' in german and "Home" in german
            assert "was not accepted" not in german  # the German words, not the English

    run(test)


def test_a_network_typed_by_hand_and_bad_forms() -> None:
    net = FakeNetwork(reach={"Home": "secret-pass"})

    async def test() -> None:
        async with hotspot(net) as (base, sup), aiohttp.ClientSession() as client:
            for form, problem in (
                ({"ssid": "", "other": ""}, "Choose a network"),
                ({"other": "x" * 33}, "Choose a network"),
                ({"ssid": "Home", "password": "short"}, "8 to 63 characters"),
                ({"ssid": "Home", "password": "ä" * 10}, "8 to 63 characters"),
            ):
                async with client.post(base + "/join", data=form) as reply:
                    assert problem in await reply.text()
            assert sup.status.state == HOTSPOT and "join" not in " ".join(net.log)
            form = {"ssid": "Home", "other": "Hidden", "password": "whatever-1"}
            async with client.post(base + "/join", data=form) as reply:
                assert "joining Hidden" in await reply.text()
            await until(lambda: sup.status.reason != "")
            assert sup.status.network == "Hidden" and "not in reach" in sup.status.reason

    run(test)


def test_a_phones_online_check_is_sent_to_the_page() -> None:
    net = FakeNetwork()

    async def test() -> None:
        async with hotspot(net) as (base, _sup), aiohttp.ClientSession() as client:
            for path, host in (
                ("/generate_204", "connectivitycheck.gstatic.com"),
                ("/hotspot-detect.html", "captive.apple.com"),
                ("/", "example.org"),
            ):
                headers = {"Host": host}
                async with client.get(base + path, headers=headers, allow_redirects=False) as r:
                    assert r.status == 302 and r.headers["Location"] == base + "/"
            async with client.get(base + "/", allow_redirects=False) as reply:
                assert reply.status == 200 and "type the name" in await reply.text()

    run(test)


def test_the_pages_language() -> None:
    assert page_language("de", "en") == "de"
    assert page_language(None, "fr-FR, de;q=0.8") == "de"
    assert page_language(None, "") == "en"


def test_the_page_listens_in_the_hotspot_and_a_while_after_a_join_only() -> None:
    from controller.cli.appliance import PageSchedule

    schedule = PageSchedule(grace_s=600.0)
    assert not schedule.wanted("starting", 0.0)  # waiting for a known network
    assert not schedule.wanted("online", 1.0)  # simply online: only the companion page
    assert schedule.wanted("hotspot", 60.0) and schedule.wanted("joining", 90.0)
    assert schedule.wanted("online", 100.0) and schedule.wanted("online", 699.0)
    assert not schedule.wanted("online", 700.0)
    assert not schedule.wanted("starting", 800.0) and not schedule.wanted("online", 801.0)
