"""The companion page under slow clients: real sockets against the real server.

A slow-body attack (complete headers announcing 16 000 bytes, then one byte per round)
and a header drip (one header line per round, never the end), from one address as in
the reproduction and from several at once, while a phone's normal requests are made
and counted. Every normal request must be answered; how fast is not asserted. The
request time is short here (the server's default is 10 s) so that each connection is
timed out several times within the test.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("aiohttp")

from controller.events import EventQueue
from controller.testing.slow_clients import Attack, normal_request
from controller.web.connections import MAX_PER_CLIENT
from controller.web.publish import FramePublisher
from controller.web.server import WebServer

REQUEST_S = 1.5
GAP = 0.25
ROUNDS = 16
"""Drip rounds the normal requests are spread over: 4 s, over two request times."""


@pytest.fixture
def server() -> Iterator[WebServer]:
    started = WebServer(FramePublisher(16, 16), EventQueue(), 0, "127.0.0.1", request_s=REQUEST_S)
    started.start()
    yield started
    started.stop()


def during(attacks: list[Attack], port: int) -> list[int]:
    """Normal requests while ``attacks`` run: one per drip round, and at least 16."""
    for attack in attacks:
        attack.start()
    try:
        for attack in attacks:
            assert attack.wait_rounds(2), "the attack never got going"
        statuses: list[int] = []
        first = attacks[0].rounds
        while len(statuses) < ROUNDS or attacks[0].rounds < first + ROUNDS:
            statuses.append(normal_request(port))
            attacks[0].wait_rounds(attacks[0].rounds + 1)
        return statuses
    finally:
        for attack in attacks:
            attack.stop()


@pytest.mark.parametrize(
    ("name", "kinds", "sources"),
    [
        ("128 slow bodies from one address", (("body", 128),), ("127.0.0.2",)),
        ("150 header drips from one address", (("headers", 150),), ("127.0.0.2",)),
        (
            "both, 96 each, from six addresses",
            (("body", 96), ("headers", 96)),
            tuple(f"127.0.2.{i}" for i in range(1, 7)),
        ),
    ],
)
def test_normal_requests_are_answered_during_a_slow_attack(
    server: WebServer, name: str, kinds: tuple[tuple[str, int], ...], sources: tuple[str, ...]
) -> None:
    attacks = [Attack(server.port, kind, count, sources, GAP) for kind, count in kinds]
    statuses = during(attacks, server.port)
    counter = server.counter
    answered = statuses.count(200)
    print(
        f"{name}: {answered} of {len(statuses)} normal requests answered; the server dropped"
        f" {counter.too_slow} too slow, closed {counter.evicted} to make room, refused"
        f" {counter.refused}; the attack opened {sum(a.counts.connected for a in attacks)}"
    )
    assert statuses == [200] * len(statuses), statuses
    assert all(attack.counts.closed > 0 for attack in attacks)  # the pressure was real
    assert max(dict(counter.clients).values(), default=0) <= MAX_PER_CLIENT
    assert counter.most_per_client <= MAX_PER_CLIENT


def test_a_client_that_never_finishes_its_body_is_dropped(server: WebServer) -> None:
    """Complete headers, then a body that never ends: dropped after the request time,
    counted as too slow, as a client that never finishes its headers is."""
    attack = Attack(server.port, "body", 8, ("127.0.0.3",), GAP).start()
    try:
        assert attack.wait_rounds(2)
        rounds = attack.rounds
        attack.wait_rounds(rounds + int(3 * REQUEST_S / GAP))
    finally:
        attack.stop()
    assert server.counter.too_slow >= 8
    assert attack.counts.closed >= 8 and attack.counts.refused == 0


def test_a_keep_alive_connection_is_timed_again_for_its_next_request(server: WebServer) -> None:
    """One quick request, then the next one's body dripped on the same connection: the
    clock starts again after each answer, so the second request is dropped too."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200")
        sock.sendall(
            b"POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        closed = False
        for _ in range(int(20 * REQUEST_S / 0.1)):  # a bound on the wait, not a timing claim
            sock.settimeout(0.1)
            try:
                sock.sendall(b" ")
                closed = sock.recv(1024) == b""
            except TimeoutError:
                continue
            except OSError:
                closed = True
            if closed:
                break
    assert closed, "the slow second request was never dropped"
    assert server.counter.too_slow == 1


def test_a_client_that_never_reads_its_answers_is_dropped(server: WebServer) -> None:
    """Hundreds of requests sent at once on one connection whose answers are never read:
    once the unread answers fill the socket, the connection is dropped after the request
    time instead of holding its slot for ever."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", server.port))
        request = b"GET /static/app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            for _ in range(2000):
                sock.send(request)
        for _ in range(int(40 * REQUEST_S / 0.05)):  # a bound on the wait, not a timing claim
            if server.counter.too_slow:
                break
            time.sleep(0.05)
    assert server.counter.too_slow == 1
