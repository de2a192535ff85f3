"""A small standard-library sd_notify: READY, WATCHDOG and STATUS for systemd.

Errors are not swallowed silently: a broken NOTIFY_SOCKET is logged once, because a
unit with ``Type=notify`` that never hears READY is restarted by systemd, and the log is
how a builder finds out why.

A notification never waits. The loop thread itself sends the watchdog pings, and a
receiver that does not read (a stuck or busy systemd, a socket someone else bound)
fills its queue after a few datagrams (``net.unix.max_dgram_qlen``, often 10): a
blocking send would then stop the game until the socket is read. So each datagram is
sent without blocking, and one that does not fit is dropped (counted, and logged once
per run of drops): a missed ping costs at most a restart by the watchdog, a blocked
loop costs the game.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.address = env.get("NOTIFY_SOCKET") or None
        usec = env.get("WATCHDOG_USEC", "")
        self.watchdog_interval: float | None = None
        # sd_watchdog_enabled(3): WATCHDOG_PID, when set, names the process that must
        # ping; a child that inherited the environment must not ping for its parent.
        pid = env.get("WATCHDOG_PID", "")
        for_us = not pid or (pid.isdigit() and int(pid) == os.getpid())
        if for_us and usec.isdigit() and int(usec) > 0:
            # ping at half the timeout, as sd_watchdog_enabled(3) recommends
            self.watchdog_interval = int(usec) / 1_000_000 / 2
        self.failed = False
        self.sent: list[str] = []
        self.dropped = 0
        """Notifications dropped because the receiver's queue was full."""
        self._dropping = False
        self.status = "playing"
        """What ``systemctl status`` shows after READY (e.g. that the panel is not
        connected); sent with READY, and again whenever it changes afterwards."""
        self.is_ready = False
        self.standing = ""
        """A notice said before every STATUS= until the table stops, whatever else the
        status says (a panel not chosen, a config error, playing): that games are not
        saved on this card (controller.appliance.ram_data). Set before READY."""

    def with_standing(self, message: str) -> str:
        """``message`` with :attr:`standing` put before its STATUS= text, if any."""
        if not self.standing:
            return message
        lines = message.split("\n")
        return "\n".join(
            f"STATUS={self.standing}; {line[7:]}" if line.startswith("STATUS=") else line
            for line in lines
        )

    def notify(self, message: str) -> bool:
        if self.address is None:
            return False
        message = self.with_standing(message)
        address = self.address
        if address.startswith("@"):
            address = "\0" + address[1:]
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.setblocking(False)
                sock.connect(address)
                sock.send(message.encode())
        except BlockingIOError:
            self.dropped += 1
            if not self._dropping:
                log.warning(
                    "sd_notify to %s: the receiver reads nothing; dropped %s",
                    self.address,
                    message.split("\n")[0],
                )
            self._dropping = True
            return False
        except OSError as exc:
            if not self.failed:
                log.error("sd_notify to %s failed: %s", self.address, exc)
            self.failed = True
            return False
        if self._dropping:
            log.info(
                "sd_notify to %s: delivered again after %d dropped", self.address, self.dropped
            )
        self._dropping = False
        self.sent.append(message)
        return True

    def ready(self) -> bool:
        self.is_ready = True
        return self.notify(f"READY=1\nSTATUS={self.status}")

    def set_status(self, status: str) -> None:
        """Say ``status`` in the unit's STATUS= (before READY: together with it). Any
        thread may call this: each message is one datagram on its own socket."""
        if status == self.status:
            return
        self.status = status
        if self.is_ready:
            self.notify(f"STATUS={status}")

    def watchdog(self) -> None:
        self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")
