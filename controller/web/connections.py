"""The server's connections, counted, capped per client and timed as asyncio accepts them.

aiohttp's own protocol serves each connection; :class:`Gate` wraps it to keep a few
slow or greedy clients from holding every connection the table can afford:

- **Each request is timed as a whole.** A connection that is not being answered must
  deliver a complete request, headers *and* body, within :data:`REQUEST_TIMEOUT_S` of
  connecting or of its previous answer, or it is dropped. A "slowloris" that drips a
  header line, or a body byte, every few seconds would otherwise hold its connection for
  ever. The clock starts here; the body is read by the server's middleware before any
  handler runs, and only then does the clock stop (:meth:`Gate.answering`). While a
  request is answered (a WebSocket, for as long as it streams) nothing is timed: the
  stream has its heartbeat and its send timeout. An answer the client does not take
  within the request time (it stops reading) is dropped the same way.
- **Each client address gets at most** :data:`MAX_PER_CLIENT` **connections** (an IPv6
  client counts by its /64, which one machine can fill with addresses), so one machine
  cannot take the slots of the others.
- **When the slots run out, the slowest make room.** A new connection over the global
  or its client's limit closes the connection (of that client, if it is the client that
  is full) that has waited longest for its request, instead of being refused. An
  attacker's connections all wait for ever, while a well-behaved request is in within
  milliseconds of its connection and then waits no more; so even an attack from many
  addresses closes its own connections, or idle keep-alive ones, and never one that is
  being answered. Only when no connection is waiting is the newcomer refused with
  ``503``.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable
from typing import Any

REQUEST_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 128
MAX_PER_CLIENT = 32


def client_key(peer: Any) -> str:
    """Who a connection is from, for the per-client limit: the IPv4 address, or an
    IPv6 address's /64 (an IPv4-mapped one counts as its IPv4 address)."""
    host = peer[0] if isinstance(peer, tuple) and peer else str(peer)
    try:
        address = ipaddress.ip_address(str(host).split("%")[0])
    except ValueError:
        return str(host)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class Counter:
    """The open connections and what became of the ones that misbehaved."""

    def __init__(
        self,
        request_s: float = REQUEST_TIMEOUT_S,
        limit: int = MAX_CONNECTIONS,
        per_client: int = MAX_PER_CLIENT,
    ) -> None:
        self.request_s = request_s
        self.limit = limit
        self.per_client = per_client
        self.open = 0
        self.clients: dict[str, int] = {}
        self.waiting: dict[Gate, None] = {}
        """Connections waiting for (the rest of) a request, the longest-waiting first."""
        self.too_slow = 0
        """Connections dropped because their request did not come in time."""
        self.refused = 0
        """Connections answered ``503`` because no slot could be made free."""
        self.evicted = 0
        """Waiting connections closed to make room for a new one."""
        self.most_per_client = 0
        """The most connections one client address has held at once."""

    def make_room(self, client: str) -> bool:
        """Room for one more connection from ``client``: True if there is, or once the
        longest-waiting connection (of that client, if it is the client that is full)
        has been closed; False if no such connection is waiting."""
        full_client = self.clients.get(client, 0) >= self.per_client
        if not full_client and self.open < self.limit:
            return True
        for gate in self.waiting:
            if full_client and gate.client != client:
                continue
            self.evicted += 1
            gate.drop()
            return True
        return False


class Gate(asyncio.Protocol):
    """One connection: let in (or refused) when it is made, then aiohttp's protocol for
    it, counted while it is open and timed while it owes the server a request."""

    def __init__(self, handlers: Callable[[], Any], counter: Counter) -> None:
        self.handlers = handlers
        self.counter = counter
        self.inner: Any = None
        self.client = ""
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.counted = False
        """Counted among the open connections (from its start to its drop or its end)."""
        self.heard = False
        """Bytes came in since the connection began waiting (else it is only idle)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.client = client_key(transport.get_extra_info("peername"))
        counter = self.counter
        if not counter.make_room(self.client):
            counter.refused += 1
            transport.write(
                b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                b"Connection: close\r\n\r\n"
            )
            transport.close()
            return
        counter.open += 1
        held = counter.clients.get(self.client, 0) + 1
        counter.clients[self.client] = held
        counter.most_per_client = max(counter.most_per_client, held)
        self.counted = True
        self.inner = self.handlers()
        self.wait()
        self.inner.connection_made(transport)

    # -- the request clock ----------------------------------------------------------------

    def wait(self) -> None:
        """The connection owes a whole request: start its clock."""
        self.stop_clock()
        loop = asyncio.get_running_loop()
        self.heard = False
        self.counter.waiting[self] = None
        self.timer = loop.call_later(self.counter.request_s, self.too_slow)

    def answering(self) -> None:
        """The request is in, body and all: no clock while it is answered."""
        self.stop_clock()

    def answered(self) -> None:
        """The answer is handed to aiohttp: the next request (or the end of this
        answer's writing) is owed within the request time again."""
        if self.inner is not None and self.transport is not None:
            self.wait()

    def stop_clock(self) -> None:
        self.counter.waiting.pop(self, None)
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def too_slow(self) -> None:
        """The request did not come in time, or the client did not take its answer:
        drop the connection. An idle keep-alive connection that sent nothing and has
        its answer is only closed, not counted."""
        self.timer = None
        transport = self.transport
        if self.heard or (transport is not None and transport.get_write_buffer_size() > 0):
            self.counter.too_slow += 1
            self.drop()
        elif transport is not None:
            self.stop_clock()
            transport.close()

    def drop(self) -> None:
        """Abort the connection and give its slot back at once (asyncio tells the
        protocol only on its next turn, and a burst may need the slot before that)."""
        self.stop_clock()
        self.release()
        if self.transport is not None:
            self.transport.abort()

    def release(self) -> None:
        """No longer counted, in all or for its client (once)."""
        if self.counted:
            self.counted = False
            counter = self.counter
            counter.open -= 1
            left = counter.clients.get(self.client, 1) - 1
            if left > 0:
                counter.clients[self.client] = left
            else:
                counter.clients.pop(self.client, None)

    # -- aiohttp's protocol, passed through --------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if self.timer is not None:
            self.heard = True
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self.inner is None:
            return None
        result: bool | None = self.inner.eof_received()
        return result

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is None:
            return
        self.stop_clock()
        self.release()
        self.transport = None
        inner, self.inner = self.inner, None
        inner.connection_lost(exc)
