"""Sentences to wav files with espeak-ng, into a cache keyed by language and text.

Why ahead of time: synthesis on a Pi takes a noticeable moment and competes with the
loop for the CPU; a prompt must start within a fraction of a second of its event. So
every fixed sentence is rendered once, at install (``spieltisch voice render``), and
the table only plays files. A sentence missing from the cache (a new translation, a
cache wiped) is rendered when first asked for, on the player's thread, never the loop's.

The file name is the language and a hash of the voice and the text: a changed
translation or voice gets a new file, and an old one is never played for new words.
German uses the MBROLA voice ``mb-de6`` when both ``mbrola`` and its ``de6`` database
are installed (Debian's ``mbrola`` and ``mbrola-de6``, in contrib), else espeak-ng's own.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path

from controller import i18n
from controller.voice.catalog import fixed_sentences

log = logging.getLogger(__name__)

DEFAULT_CACHE = Path(__file__).with_name("cache")
"""Beside the program: ``spieltisch voice render`` fills it at install."""

ESPEAK = "espeak-ng"
SPEED_WPM = 150
"""Words per minute: a little slower than espeak-ng's 175, for children."""
MBROLA_DE6 = Path("/usr/share/mbrola/de6")
RENDER_TIMEOUT_S = 120
"""A hung espeak-ng is given up on after this (the prompt stays unsaid); generous,
since a Pi busy with something else may take long for one sentence."""


class RenderError(OSError):
    """espeak-ng is missing or failed: the sentence stays unsaid, the game goes on."""


def voice_for(language: str) -> str:
    """The espeak-ng voice for ``language``: MBROLA's de6 for German where installed."""
    if language == "de" and shutil.which("mbrola") and MBROLA_DE6.exists():
        return "mb-de6"
    return {"de": "de", "en": "en-gb"}.get(language, "en-gb")


def cache_name(language: str, voice: str, volume: int, text: str) -> str:
    key = f"{voice}\0{SPEED_WPM}\0{volume}\0{text}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return f"{language}-{digest}.wav"


class Renderer:
    """Renders sentences into ``cache`` at ``volume`` percent (espeak-ng's amplitude:
    the loudness is part of the file, so playing costs nothing and needs no mixer); a
    cache that cannot be written (the program's directory on a read-only install) is
    read, and new files go to a private one."""

    def __init__(
        self,
        cache: Path = DEFAULT_CACHE,
        volume: int = 80,
        niceness: int = 0,
        spare: Path | None = None,
    ) -> None:
        self.cache = cache
        self.volume = volume
        self.niceness = niceness
        """Run espeak-ng this much nicer: a background render gives way to the loop; a
        sentence wanted now, or an install, does not wait behind every other process."""
        self.spare = spare or Path(tempfile.gettempdir()) / f"spieltisch-voice-{os.getuid()}"
        """Where sentences go when ``cache`` cannot be written. Always looked in: what
        one renderer (the background warm-up) put there, another (the player's) finds."""
        self.voices: dict[str, str] = {}

    def voice(self, language: str) -> str:
        if language not in self.voices:
            self.voices[language] = voice_for(language)
        return self.voices[language]

    def cached(self, language: str, text: str) -> Path | None:
        """The file of ``text`` if it was rendered already."""
        name = cache_name(language, self.voice(language), self.volume, text)
        for folder in (self.cache, self.spare):
            if (folder / name).is_file():
                return folder / name
        return None

    def path(self, language: str, text: str) -> Path:
        """The wav file of ``text`` in ``language``, rendered now if it is missing.
        Raises :class:`RenderError` when it cannot be."""
        found = self.cached(language, text)
        if found is not None:
            return found
        name = cache_name(language, self.voice(language), self.volume, text)
        try:
            self.cache.mkdir(parents=True, exist_ok=True)
            writable = os.access(self.cache, os.W_OK)
        except OSError:
            writable = False
        if writable:
            return self._render(language, text, self.cache / name)
        self.spare.mkdir(parents=True, exist_ok=True)
        return self._render(language, text, self.spare / name)

    def _render(self, language: str, text: str, target: Path) -> Path:
        command = [ESPEAK, "-v", self.voice(language), "-s", str(SPEED_WPM)]
        command += ["-a", str(self.volume)]
        if self.niceness and shutil.which("nice"):
            command = ["nice", "-n", str(self.niceness), *command]
        partial = target.with_suffix(f".{os.getpid()}-{threading.get_ident()}.part")
        try:
            done = subprocess.run(
                [*command, "-w", str(partial), "--", as_text(text)],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=RENDER_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise RenderError(f"{ESPEAK}: {exc}") from None
        if done.returncode != 0 or not partial.is_file() or partial.stat().st_size <= 44:
            partial.unlink(missing_ok=True)
            reason = done.stderr.decode(errors="replace").strip().splitlines()
            raise RenderError(f"{ESPEAK} could not say {text!r}: {reason[:1]}")
        os.replace(partial, target)  # a half-written file is never played
        return target


def as_text(text: str) -> str:
    """``text`` as words espeak-ng can only say, never obey: a sentence holds a
    player's name, which anyone with the page may choose. Passed after ``--`` a name
    such as "-w/data/x" is no option (it would have written the wav over any file), and
    espeak-ng reads no markup unless told to (``-m``); only its phoneme input, ``[[``
    to ``]]``, is on by default, and a space between the brackets turns it off."""
    while "[[" in text:
        text = text.replace("[[", "[ [")
    return text


def missing(renderer: Renderer, language: str) -> list[str]:
    """The fixed sentences of ``language`` not yet in the cache (the table's language
    must be ``language``: the words are looked up now)."""
    return [text for text in fixed_sentences() if renderer.cached(language, text) is None]


def render_all(renderer: Renderer, languages: Iterable[str] = i18n.LANGUAGES) -> list[Path]:
    """Render every fixed sentence in every language (those already there are kept);
    the files, in order. The table's language is put back afterwards."""
    before = i18n.active_language()
    files: list[Path] = []
    try:
        for language in languages:
            i18n.use(language)
            files += [renderer.path(language, text) for text in fixed_sentences()]
    finally:
        i18n.use(before)
    return files
