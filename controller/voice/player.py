"""Plays one prompt at a time through a command (``aplay``), on a thread of its own.

Why a worker thread and a single slot instead of a queue: the loop must never wait on
sound, and a prompt is only worth hearing while it is news. :meth:`Player.play` puts
the newest prompt in the slot and returns at once (it only takes a lock the worker
never holds while it renders, starts or stops a process). The worker takes whatever is
in the slot, stops the prompt still playing (SIGTERM, then SIGKILL if it will not go)
and starts the new one: "red, your turn" is not said after blue has already rolled.

A device that is missing or busy shows as the play command failing: the first failure
is one line in the log, and the voice goes quiet for the rest of the run rather than
repeat it at every prompt.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

STOP_WAIT_S = 0.5
"""How long a stopped player may take to go before it is killed."""


@dataclass(frozen=True, slots=True)
class Wanted:
    language: str
    text: str
    asked: float
    """When the loop asked (``time.monotonic``), to measure the way to the speaker."""


class Player:
    """Plays files with ``command + [file]`` (e.g. ``["aplay", "-q"]``).

    ``locate(language, text)`` gives the file of a sentence (rendering it if needed; an
    ``OSError`` leaves that prompt unsaid). ``started`` is called on the worker thread
    with the new process and the time the loop asked for it (the tests and the
    benchmark measure the way from event to process)."""

    def __init__(
        self,
        command: Sequence[str],
        locate: Callable[[str, str], Path],
        started: Callable[[subprocess.Popen[bytes], float], None] | None = None,
        stop_wait: float = STOP_WAIT_S,
    ) -> None:
        self.command = list(command)
        self.stop_wait = stop_wait
        self.locate = locate
        self.started = started
        self.cond = threading.Condition()
        self.wanted: Wanted | None = None
        self.closed = False
        self.failed = False
        self.playing: subprocess.Popen[bytes] | None = None
        self.stopped: set[int] = set()
        """Processes this player stopped: their exit status is not a failure."""
        self.thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self.thread.start()

    def play(self, language: str, text: str) -> None:
        """Say ``text`` as soon as possible, instead of whatever is said now."""
        with self.cond:
            if self.closed or self.failed:
                return
            self.wanted = Wanted(language, text, time.monotonic())
            self.cond.notify()

    def close(self) -> None:
        """Stop what is playing and the worker (waits for it briefly)."""
        with self.cond:
            self.closed = True
            self.cond.notify()
        self.thread.join(timeout=self.stop_wait * 2 + 1)

    def _run(self) -> None:
        while True:
            with self.cond:
                while self.wanted is None and not self.closed:
                    self.cond.wait()
                wanted, self.wanted = self.wanted, None
                closed = self.closed
            self._stop()
            if closed or wanted is None:
                return
            self._start(wanted)

    def _start(self, wanted: Wanted) -> None:
        if self.failed:
            return
        try:
            path = self.locate(wanted.language, wanted.text)
        except OSError as exc:
            log.warning("voice: %s", exc)
            return
        with self.cond:
            if self.wanted is not None or self.closed:
                return  # a newer prompt came while this one was rendered
        try:
            process = subprocess.Popen(
                [*self.command, str(path)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        except OSError as exc:
            self._give_up(f"{self.command[0]}: {exc}")
            return
        self.playing = process
        if self.started is not None:
            self.started(process, wanted.asked)

    def _stop(self) -> None:
        """Stop the prompt still playing, and see whether the last one failed."""
        process, self.playing = self.playing, None
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=self.stop_wait)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            self._close_pipe(process)
            return
        error = self._close_pipe(process)
        if process.returncode != 0:
            self._give_up(f"{self.command[0]} failed ({process.returncode}): {error}")

    @staticmethod
    def _close_pipe(process: subprocess.Popen[bytes]) -> str:
        if process.stderr is None:
            return ""
        try:
            text = process.stderr.read(400).decode(errors="replace").strip()
        finally:
            process.stderr.close()
        return text.splitlines()[0] if text else ""

    def _give_up(self, reason: str) -> None:
        """One line in the log, then silence: no sound device is not an error."""
        with self.cond:
            if self.failed:
                return
            self.failed = True
            self.cond.notify_all()
        log.warning("voice: no sound (%s); the table stays silent", reason)
