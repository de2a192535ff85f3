"""Writes every prompt the voice says to a numbered wav file, in order, instead of
playing it: the simulator's ``--voice-to DIR``.

Why: a game's voice must be checkable without a loudspeaker or someone listening, by
a person with any audio player or by a script with ``sox``. Each prompt becomes
``0001.wav``, ``0002.wav``, ..., the very file the table would play (rendered ahead,
or now if the cache lacks it), and ``prompts.txt`` lists each file with the seconds
since the game began when it was asked for, its length in seconds, and its words.

Unlike the table's :class:`~controller.voice.player.Player`, nothing is dropped: the
table cuts a prompt short when a newer one comes, and the sink keeps both, so the list
says what was asked, and the times and lengths say what the table would have cut
(a prompt whose next one was asked before its length had passed).
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import threading
import time
import wave
from collections import deque
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

LIST = "prompts.txt"
DRAIN_S = 120.0
"""How long closing waits for prompts still being rendered (one sentence takes well
under a second on a laptop)."""


class FileSink:
    """Plays by writing files: ``locate(language, text)`` gives a sentence's wav."""

    def __init__(self, directory: Path, locate: Callable[[str, str], Path]) -> None:
        self.directory = directory
        self.locate = locate
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.glob("[0-9][0-9][0-9][0-9].wav"):
            old.unlink()  # an earlier run's prompts: the list below starts afresh
        self.list = (directory / LIST).open("w", encoding="utf-8")
        self.began = time.monotonic()
        self.count = 0
        self.failed = 0
        self.reason = ""
        """Why the last prompt that failed was not written: only a new reason is logged."""
        self.cond = threading.Condition()
        self.waiting: deque[tuple[str, str, float]] = deque()
        self.closed = False
        self.thread = threading.Thread(target=self._run, name="voice-sink", daemon=True)
        self.thread.start()

    def play(self, language: str, text: str) -> None:
        with self.cond:
            if not self.closed:
                self.waiting.append((language, text, time.monotonic() - self.began))
                self.cond.notify()

    def close(self) -> None:
        """Write what is still waiting, then stop."""
        with self.cond:
            self.closed = True
            self.cond.notify()
        self.thread.join(DRAIN_S)
        with contextlib.suppress(OSError):
            self.list.close()
        if self.failed:
            log.warning(
                "voice: %d of %d prompts not written to %s", self.failed, self.count, self.directory
            )

    def _run(self) -> None:
        while True:
            with self.cond:
                while not self.waiting and not self.closed:
                    self.cond.wait()
                if not self.waiting:
                    return
                language, text, asked = self.waiting.popleft()
            self._write(language, text, asked)

    def _write(self, language: str, text: str, asked: float) -> None:
        self.count += 1
        name = f"{self.count:04d}.wav"
        try:
            shutil.copyfile(self.locate(language, text), self.directory / name)
            length = seconds(self.directory / name)
            self.list.write(f"{name}\t{asked:8.2f}\t{length:5.2f}\t{text}\n")
            self.list.flush()
        except OSError as exc:
            with contextlib.suppress(OSError):
                (self.directory / name).unlink(missing_ok=True)  # no file the list lacks
            self.failed += 1
            reason = exc.strerror or str(exc)
            if reason != self.reason:  # a full disk refuses every prompt: said once
                self.reason = reason
                log.warning("voice: %s and later prompts not written: %s", name, exc)


def seconds(path: Path) -> float:
    """The length of a wav file."""
    try:
        with wave.open(str(path), "rb") as audio:
            return audio.getnframes() / float(audio.getframerate())
    except (wave.Error, EOFError):
        return 0.0
