"""Short sound cues on a passive piezo buzzer (gpiozero ``TonalBuzzer``), or silence.

``play(cue)`` never blocks the controller's loop: cues are queued to one player
thread, which plays their notes with a short gap between notes (a piezo sounds
clearer staccato, and the gaps keep repeated notes distinct). When cues arrive faster
than they can be played, the newest ones beyond ``MAX_PENDING`` are dropped: a late
beep is worse than none.

The buzzer is centred on A5 with two octaves either side (220 Hz to 3.5 kHz), the
range where small piezos are loud. Cues (name: notes, each (note, seconds)):
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, get_args

from hardware.interfaces import Cue, HardwareError

CUES: dict[str, tuple[tuple[str, float], ...]] = {
    "dice": (("C6", 0.03), ("E6", 0.03), ("C6", 0.03), ("E6", 0.03), ("G6", 0.05)),
    "move": (("A5", 0.04),),
    "capture": (("E6", 0.06), ("C6", 0.06), ("A5", 0.06), ("E5", 0.12)),
    "win": (("C5", 0.12), ("E5", 0.12), ("G5", 0.12), ("C6", 0.35)),
    "error": (("A3", 0.2), ("A3", 0.2)),
}
GAP_S = 0.015
MAX_PENDING = 4

__doc__ += "".join(
    f"\n* ``{name}``: {' '.join(n for n, _ in notes)}" for name, notes in CUES.items()
)


def check_cue(cue: str) -> None:
    if cue not in get_args(Cue):
        raise ValueError(f"unknown sound cue {cue!r}; allowed: {', '.join(get_args(Cue))}")


class NullSound:
    """No buzzer: cues are checked and ignored."""

    def play(self, cue: Cue) -> None:
        check_cue(cue)

    def close(self) -> None:
        pass


class BuzzerSound:
    """Cues on a ``TonalBuzzer`` at BCM ``pin``.

    ``tempo`` multiplies every duration (tests use 0 so cues finish at once);
    ``pin_factory`` is gpiozero's (``MockFactory(pin_class=MockPWMPin)`` in tests).
    """

    def __init__(self, pin: int, *, pin_factory: Any = None, tempo: float = 1.0) -> None:
        from gpiozero import TonalBuzzer
        from gpiozero.exc import GPIOZeroError
        from gpiozero.tones import Tone

        try:
            self._buzzer = TonalBuzzer(pin, mid_tone=Tone("A5"), octaves=2, pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            raise HardwareError(f"cannot open the buzzer on GPIO{pin}: {exc}") from None
        self._tempo = tempo
        self._pending: deque[str] = deque()
        self._cond = threading.Condition()
        self._playing = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    def play(self, cue: Cue) -> None:
        check_cue(cue)
        with self._cond:
            if self._closed or len(self._pending) >= MAX_PENDING:
                return
            self._pending.append(cue)
            self._cond.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every queued cue has been played; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._playing, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._closed)
                if self._closed:
                    return
                cue = self._pending.popleft()
                self._playing = True
            try:
                self._play_notes(cue)
            finally:
                with self._cond:
                    self._playing = False
                    self._cond.notify_all()

    def _play_notes(self, cue: str) -> None:
        for note, seconds in CUES[cue]:
            self._buzzer.play(note)
            if self._pause(seconds):
                break
            self._buzzer.stop()
            if self._pause(GAP_S):
                return
        self._buzzer.stop()

    def _pause(self, seconds: float) -> bool:
        """Sleep ``seconds`` scaled by tempo; True if closing meanwhile."""
        with self._cond:
            return self._cond.wait_for(lambda: self._closed, seconds * self._tempo)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=2)
        self._buzzer.close()
