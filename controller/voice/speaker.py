"""The voice the loop talks to: :class:`Voice`, the real :class:`Speaker`, and fakes.

Why an interface with a fake beside it, like the hardware drivers: the table and the
loop decide which prompts are said; a test plays a seeded game against a
:class:`FakeVoice` and reads the prompts in order, with no sound and no synthesiser.
"""

from __future__ import annotations

import logging
import shutil
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from controller import i18n
from controller.voice.catalog import Prompt, named_prompts, sentence
from controller.voice.player import Player
from controller.voice.render import DEFAULT_CACHE, ESPEAK, Renderer, missing

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class VoiceSettings:
    """The config's ``[voice]`` section."""

    enabled: bool = True
    volume: int = 80
    """Loudness in percent, 0 to 100: espeak-ng's amplitude, rendered into the files."""
    only_important: bool = False
    """Say only what a player must act on and who won (:data:`catalog.IMPORTANT`)."""
    cache: Path = DEFAULT_CACHE


class Voice(Protocol):
    def say(self, prompt: Prompt) -> None:
        """Say ``prompt`` soon, instead of what is said now; never blocks."""

    def learn(self, names: Sequence[str]) -> None:
        """Render the sentences that say ``names`` (a player just added or renamed on the
        page) in the background, so they are ready before they are first said."""

    def close(self) -> None: ...


class Plays(Protocol):
    """What a :class:`Speaker` hands its sentences to: the :class:`Player` (the sound
    device), or :class:`~controller.voice.sink.FileSink` (files, to check them)."""

    def play(self, language: str, text: str) -> None: ...

    def close(self) -> None: ...


class NullVoice:
    """No voice: switched off, or nothing to speak with."""

    def say(self, prompt: Prompt) -> None:
        pass

    def learn(self, names: Sequence[str]) -> None:
        pass

    def close(self) -> None:
        pass


class FakeVoice:
    """Keeps what it was asked to say, and its words, for the tests."""

    def __init__(self) -> None:
        self.prompts: list[Prompt] = []
        self.sentences: list[str] = []
        self.learned: list[str] = []

    def say(self, prompt: Prompt) -> None:
        self.prompts.append(prompt)
        self.sentences.append(sentence(prompt))

    def learn(self, names: Sequence[str]) -> None:
        self.learned += names

    def kinds(self) -> list[str]:
        return [prompt.kind for prompt in self.prompts]

    def close(self) -> None:
        pass


class Speaker:
    """Says prompts through a :class:`~controller.voice.player.Player`: the words in the
    table's language now (the loop thread's only work: a catalog look-up and a lock),
    the file found, rendered if need be, and played on the player's thread."""

    def __init__(
        self, settings: VoiceSettings, player: Plays, renderer: Renderer | None = None
    ) -> None:
        self.settings = settings
        self.player = player
        self.renderer = renderer
        """Renders a new name's sentences (None: only what the cache holds is said)."""

    def say(self, prompt: Prompt) -> None:
        if self.settings.only_important and not prompt.important:
            return
        self.player.play(i18n.active_language(), sentence(prompt))

    def learn(self, names: Sequence[str]) -> None:
        if self.renderer is not None and shutil.which(ESPEAK) is not None:
            warm_up(self.renderer, names, fixed=False)

    def close(self) -> None:
        self.player.close()


def play_command(simulator: bool) -> list[str] | None:
    """How to play a wav file here: ALSA's aplay on the table; in the simulator the
    laptop's sound server first (paplay), then aplay. None: nothing to play with."""
    names = ("paplay", "aplay") if simulator else ("aplay",)
    for name in names:
        path = shutil.which(name)
        if path is not None:
            return [path] if name == "paplay" else [path, "-q"]
    return None


def build_voice(
    settings: VoiceSettings,
    simulator: bool = False,
    warm: bool = True,
    names: Sequence[str] = (),
    sink: Path | None = None,
) -> Voice:
    """The table's voice, or a silent one with one line in the log saying why. ``warm``:
    render the sentences the cache lacks in the background (:func:`warm_up`), those
    that say one of ``names`` (the family's named players) too. ``sink``: write every
    prompt to a numbered file in that directory instead of playing it
    (:class:`~controller.voice.sink.FileSink`, the simulator's ``--voice-to``)."""
    if not settings.enabled:
        return NullVoice()
    command = play_command(simulator)
    if command is None and sink is None:
        log.warning("voice: no aplay%s found; the table stays silent", "/paplay" * simulator)
        return NullVoice()
    renderer = Renderer(settings.cache, settings.volume)
    if shutil.which(ESPEAK) is None:
        if not any(settings.cache.glob("*.wav")):
            log.warning("voice: no %s and no rendered prompts; the table stays silent", ESPEAK)
            return NullVoice()
    elif warm:
        warm_up(renderer, names)
    if sink is not None:
        from controller.voice.sink import FileSink

        return Speaker(settings, FileSink(sink, renderer.path), renderer)
    assert command is not None
    return Speaker(settings, Player(command, renderer.path), renderer)


def warm_up(
    renderer: Renderer, names: Sequence[str] = (), fixed: bool = True
) -> threading.Thread | None:
    """Render, on a thread of its own and at the lowest priority, the fixed sentences
    the cache lacks in the table's language (a new volume, words changed by an update
    without ``spieltisch voice render``; not without ``fixed``), and those that say a
    named player, so that they are ready before they are due. A name added on the page
    while the table runs is rendered when it is added (:meth:`Speaker.learn`)."""
    language = i18n.active_language()
    texts = missing(renderer, language) if fixed else []
    for text in dict.fromkeys(sentence(prompt) for prompt in named_prompts(names)):
        if renderer.cached(language, text) is None:
            texts.append(text)
    if not texts:
        return None
    log.info("voice: rendering %d sentences missing from %s", len(texts), renderer.cache)
    background = Renderer(renderer.cache, renderer.volume, niceness=19, spare=renderer.spare)

    def render() -> None:
        for text in texts:
            try:
                background.path(language, text)
            except OSError as exc:
                log.warning("voice: %s", exc)
                return

    thread = threading.Thread(target=render, name="voice-warm-up", daemon=True)
    thread.start()
    return thread
