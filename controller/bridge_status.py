"""The serial bridge's link state, told to the loop and to systemd.

The bridge's supervisor thread keeps reconnecting by itself, so a Pico that is
unplugged, silent or answering with the wrong firmware never ends the process, and
the watchdog keeps being fed. That is right for play, but then systemd sees a healthy
unit: so the unit's ``STATUS=`` (``systemctl status spieltisch``) says that the panel is
not connected, and why, for as long as it is not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.events import EventQueue, StatusEvent

if TYPE_CHECKING:
    from controller.sdnotify import Notifier
    from hardware.bridge import SerialBridge

PLAYING = "playing"


def not_connected(problem: str) -> str:
    """The STATUS= text while the Pico does not answer as it should."""
    return f"{PLAYING}; panel not connected: {problem or 'no answer yet'}"


class BridgeStatus:
    """``on_status`` and ``on_problem`` for :func:`hardware.bridge.open_bridge`: called
    on the bridge's supervisor thread, they only enqueue and send a datagram."""

    def __init__(self, events: EventQueue, notifier: Notifier | None) -> None:
        self.events = events
        self.notifier = notifier
        self.bridge: SerialBridge | None = None

    def watch(self, bridge: SerialBridge) -> None:
        """Start from the bridge's state now: one that never came online at start-up
        reports no change, yet the unit must say the panel is missing."""
        self.bridge = bridge
        self._tell(bridge.online)

    def __call__(self, online: bool) -> None:
        self.events.put(StatusEvent("display", online, "serial bridge"))
        self._tell(online)

    def problem(self, words: str) -> None:
        """``on_problem``: a new reason the link is down; STATUS= names it."""
        if self.notifier is not None and not (self.bridge is not None and self.bridge.online):
            self.notifier.set_status(not_connected(words))

    def _tell(self, online: bool) -> None:
        if self.notifier is None:
            return
        problem = self.bridge.problem if self.bridge is not None else ""
        self.notifier.set_status(PLAYING if online else not_connected(problem))
