"""Events on the loop's one queue, and the bounded queue itself.

Every input — GPIO callbacks, keyboard, serial, timers, signals — becomes an event here.
Producers run on their own threads and only call :meth:`EventQueue.put`; the loop thread
is the only consumer and the only one that touches the machine and the session.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from controller.players.person import Person
from hardware.interfaces import ButtonEvent
from rules.core import Move


@dataclass(frozen=True, slots=True)
class ShutdownEvent:
    """Stop the loop: SIGTERM (save and exit) or a poweroff request."""

    reason: str = "signal"
    poweroff: bool = False


@dataclass(frozen=True, slots=True)
class StatusEvent:
    """A device changed state, e.g. the serial panel went offline or came back."""

    device: str
    online: bool
    detail: str = ""


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """Ask for the move a bot seat plays. ``number`` counts the table's move requests,
    so the answer to an older one (the game has moved on) is recognised and ignored."""

    number: int


@dataclass(frozen=True, slots=True)
class HintRequest:
    """Ask for the best move to light for a human player (games with hints); counted
    apart from move requests, so a hint is never played as a bot's move."""

    number: int


BotRequest = MoveRequest | HintRequest


@dataclass(frozen=True, slots=True)
class BotMoveEvent:
    """A bot worker's answer to ``request`` (stale answers are ignored)."""

    request: BotRequest
    move: Move


@dataclass(frozen=True, slots=True)
class WakeEvent:
    """Nudge the loop (a test, or a producer that changed something it must redraw)."""


@dataclass(frozen=True, slots=True)
class NoticeEvent:
    """Show ``text`` on the panel for ``seconds`` (the companion page's pairing code)."""

    text: str
    seconds: float = 30.0
    qr: tuple[str, ...] = ()
    """A QR code to show beside (alternating with) the text on panels large enough
    (32×32): one string of "1" (dark) and "0" per row, made by the page's server."""


@dataclass(frozen=True, slots=True)
class StartGameEvent:
    """Start ``game`` (the companion page's Setup): ``seats`` holds one kind per seat
    (human, bot or empty; a phone seat is a human seat), ``people`` the named player
    at some human seats (seat index, player); the others are guests. The table starts
    it only while no game is being played, as its own menu would."""

    game: str
    preset: str
    seats: tuple[str, ...]
    bot: str = "strong"
    people: tuple[tuple[int, Person], ...] = ()


@dataclass(frozen=True, slots=True)
class SettingsEvent:
    """Settings the companion page's Setup saved that the running table takes at once:
    the move timer of rule sets that have one (seconds, 0 off), the panel's brightness
    (0 to 1) and the minutes without a press before it sleeps (0 never). The rest of
    a saved file (the menu's first game, the seats, the bots, the language) is read
    at the next start."""

    move_timer_s: float
    brightness: float
    sleep_after_min: float


@dataclass(frozen=True, slots=True)
class NamesEvent:
    """The Players page added or renamed a player: the voice renders the sentences that
    say ``names`` now, not when they are first due."""

    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReloadEvent:
    """SIGHUP: read the config file again (used while ``run`` waits for a fixed config)."""


Event = (
    ButtonEvent
    | ShutdownEvent
    | StatusEvent
    | BotMoveEvent
    | WakeEvent
    | ReloadEvent
    | NoticeEvent
    | StartGameEvent
    | SettingsEvent
    | NamesEvent
)


class EventQueue:
    """A bounded FIFO. When full, the oldest *button* event is dropped (and counted), so
    a table of mashing players can never block a producer thread nor push out a
    shutdown or status event."""

    def __init__(self, maxsize: int = 256) -> None:
        if maxsize < 1:
            raise ValueError("the event queue needs room for at least one event")
        self.maxsize = maxsize
        self._items: deque[Event] = deque()
        self._cond = threading.Condition()
        self.dropped = 0

    def put(self, event: Event) -> None:
        with self._cond:
            if len(self._items) >= self.maxsize:
                for index, old in enumerate(self._items):
                    if isinstance(old, ButtonEvent):
                        del self._items[index]
                        self.dropped += 1
                        break
                else:
                    if isinstance(event, ButtonEvent):
                        self.dropped += 1
                        return
                    self._items.popleft()
                    self.dropped += 1
            self._items.append(event)
            self._cond.notify()

    def get(self, timeout: float | None) -> Event | None:
        """The next event, or None after ``timeout`` seconds (None: wait for ever)."""
        with self._cond:
            if not self._items:
                self._cond.wait(timeout)
            return self._items.popleft() if self._items else None

    def __len__(self) -> int:
        with self._cond:
            return len(self._items)
