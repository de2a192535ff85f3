"""Slow clients against the companion page: the attacks its connection limits are for.

Shared by the load test and ``benchmarks/web_slow_clients.py``. An :class:`Attack`
keeps ``count`` raw sockets open from a few source addresses (on Linux every
``127.x.y.z`` is the machine's own, so one process can be many clients), each owing the
server a request it pays one byte or one header line at a time, and opens a new one
whenever the server drops or refuses one, as an attacker would:

- ``body``: complete headers announcing a 16 000-byte JSON body, then one body byte per
  round;
- ``headers``: a request line, then one more header line per round, never the empty
  line that ends them.

:func:`normal_request` is what a family's phone does meanwhile: a fresh connection, a
whole GET, the answer read to its end.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
from dataclasses import dataclass

OPENINGS = {
    "body": (
        b"POST /api/pair HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        b"Content-Length: 16000\r\n\r\n{"
    ),
    "headers": b"GET / HTTP/1.1\r\nHost: {host}\r\n",
}
DRIPS = {"body": b" ", "headers": b"X-Drip: 1\r\n"}


@dataclass
class AttackCount:
    connected: int = 0
    """Connections the attack opened."""
    closed: int = 0
    """Of them, closed by the server (dropped, made room for another, or refused)."""
    refused: int = 0
    """Of the closed, the ones answered 503."""
    failed: int = 0
    """Connections that could not even be opened."""


class Attack:
    """``count`` slow connections of ``kind`` from ``sources``, one drip per ``gap``
    seconds, on a thread of its own until :meth:`stop`."""

    def __init__(
        self,
        port: int,
        kind: str,
        count: int,
        sources: tuple[str, ...] = ("127.0.0.2",),
        gap: float = 3.0,
        host: str = "127.0.0.1",
    ) -> None:
        self.port = port
        self.opening = OPENINGS[kind].replace(b"{host}", host.encode())
        self.drip = DRIPS[kind]
        self.count = count
        self.sources = sources
        self.gap = gap
        self.host = host
        self.counts = AttackCount()
        self.rounds = 0
        self.round_done = threading.Condition()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"attack-{kind}", daemon=True)
        self.sockets: list[socket.socket] = []

    def start(self) -> Attack:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(30)

    def wait_rounds(self, rounds: int, timeout: float = 120.0) -> bool:
        """Wait until the attack has dripped ``rounds`` times in all."""
        with self.round_done:
            return self.round_done.wait_for(
                lambda: self.rounds >= rounds or not self.thread.is_alive(), timeout
            )

    def _open(self, index: int) -> socket.socket | None:
        source = self.sources[index % len(self.sources)]
        try:
            sock = socket.create_connection(
                (self.host, self.port), timeout=5, source_address=(source, 0)
            )
            sock.sendall(self.opening)
        except OSError:
            self.counts.failed += 1
            return None
        sock.setblocking(False)
        self.counts.connected += 1
        return sock

    def _close(self, sock: socket.socket, selector: selectors.BaseSelector) -> None:
        self.counts.closed += 1
        with contextlib.suppress(KeyError, ValueError):
            selector.unregister(sock)
        sock.close()
        self.sockets.remove(sock)

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        opened = 0
        try:
            while not self.stopping.is_set():
                while len(self.sockets) < self.count and not self.stopping.is_set():
                    sock = self._open(opened)
                    opened += 1
                    if sock is None:
                        break
                    self.sockets.append(sock)
                    selector.register(sock, selectors.EVENT_READ)
                for sock in list(self.sockets):
                    try:
                        sock.send(self.drip)
                    except OSError:
                        self._close(sock, selector)
                # the server's answers: a 503, or the end of a dropped connection
                for key, _events in selector.select(0):
                    answered = key.fileobj
                    assert isinstance(answered, socket.socket)
                    try:
                        data = answered.recv(4096)
                    except BlockingIOError:
                        continue
                    except OSError:
                        data = b""
                    if data.startswith(b"HTTP/1.1 503"):
                        self.counts.refused += 1
                    self._close(answered, selector)
                with self.round_done:
                    self.rounds += 1
                    self.round_done.notify_all()
                self.stopping.wait(self.gap)  # the attack's own pace: one drip per gap
        finally:
            for sock in list(self.sockets):
                sock.close()
            self.sockets.clear()
            selector.close()
            with self.round_done:
                self.round_done.notify_all()


def normal_request(port: int, path: str = "/api/state", host: str = "127.0.0.1") -> int:
    """One GET on a fresh connection, as a phone makes it: the answer's status, or 0 if
    the connection was refused, reset or never answered (within a generous minute)."""
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
    try:
        with socket.create_connection((host, port), timeout=60) as sock:
            sock.sendall(request)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    except OSError:
        return 0
    status_line = answer.split(b"\r\n", 1)[0].split()
    if len(status_line) < 2 or not status_line[1].isdigit():
        return 0
    return int(status_line[1])
