"""systemd's end of sd_notify(3), so READY and WATCHDOG are observed as systemd sees
them: an AF_UNIX datagram socket whose path a process finds in ``NOTIFY_SOCKET``."""

from __future__ import annotations

import shutil
import socket
import tempfile
import time
from pathlib import Path


class NotifySocket:
    """Collects what the service sends, each message with its arrival time
    (``time.monotonic``)."""

    def __init__(self) -> None:
        # AF_UNIX paths are limited to ~108 bytes, so not under pytest's long tmp_path.
        self.directory = Path(tempfile.mkdtemp(prefix="st-notify-"))
        self.path = self.directory / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.messages: list[tuple[float, str]] = []

    def wait_for(self, field: str, timeout: float = 30.0) -> float | None:
        """Block until a message containing ``field`` (e.g. "READY=1") arrives; returns
        its arrival time (time.monotonic), or None after ``timeout`` seconds."""
        for stamp, message in self.messages:
            if field in message.split("\n"):
                return stamp
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                return None
            stamp = time.monotonic()
            message = data.decode()
            self.messages.append((stamp, message))
            if field in message.split("\n"):
                return stamp
        return None

    def count(self, field: str) -> int:
        """How many of the messages received so far contain ``field``."""
        return sum(field in message.split("\n") for _, message in self.messages)

    def close(self) -> None:
        self.sock.close()
        shutil.rmtree(self.directory, ignore_errors=True)
