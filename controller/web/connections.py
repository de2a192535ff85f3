"""The server's connections, counted and timed as asyncio accepts them.

aiohttp's own protocol serves each connection; :class:`Counted` wraps it to count the
open connections (a burst is accepted all at once, before aiohttp registers any) and to
drop a client that has not finished its request headers :data:`HEADER_TIMEOUT_S` after
it connected: a "slowloris" that sends a header line every few seconds would otherwise
hold its connection, one of :data:`~controller.web.server.MAX_CONNECTIONS`, for ever.
Only the first request's headers are timed: after them aiohttp's keep-alive timeout
closes an idle connection, and a WebSocket has its heartbeat.
"""

from __future__ import annotations

import asyncio
from typing import Any

HEADER_TIMEOUT_S = 10.0
END_OF_HEADERS = b"\r\n\r\n"


class Counter:
    open = 0
    too_slow = 0
    """Connections dropped because their headers did not come in time."""


class Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, counted while it is open."""

    def __init__(self, inner: Any, counter: Counter, header_s: float = HEADER_TIMEOUT_S) -> None:
        self.inner = inner
        self.counter = counter
        self.header_s = header_s
        self.transport: asyncio.BaseTransport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.tail = b""
        counter.open += 1

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.timer = asyncio.get_running_loop().call_later(self.header_s, self.too_slow)
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.timer is not None:
            seen = self.tail + data
            if END_OF_HEADERS in seen:
                self.timer.cancel()
                self.timer = None
            else:
                self.tail = seen[-(len(END_OF_HEADERS) - 1) :]
        self.inner.data_received(data)

    def too_slow(self) -> None:
        """The headers did not come in time: drop the connection."""
        self.timer = None
        self.counter.too_slow += 1
        if isinstance(self.transport, asyncio.Transport):
            self.transport.abort()

    def eof_received(self) -> bool | None:
        result: bool | None = self.inner.eof_received()
        return result

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.counter.open -= 1
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.inner.connection_lost(exc)


class Refuse(asyncio.Protocol):
    """A connection over the limit: one short answer, then closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        transport.close()
