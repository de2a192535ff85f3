"""The table's voice: spoken prompts for the players who cannot read the panel yet.

Why a package of its own: speech has four small jobs that change for different
reasons. :mod:`~controller.voice.catalog` says *what* is said (the fixed sentences,
through the catalog, so a family hears German); :mod:`~controller.voice.prompts` says
*when* (the table's facts turned into prompts, pure); :mod:`~controller.voice.render`
turns a sentence into a wav file ahead of time with espeak-ng, into a cache keyed by
language and text; :mod:`~controller.voice.player` plays one file at a time through
ALSA's ``aplay`` on a worker thread, a newer prompt cutting off a stale one. The
:class:`~controller.voice.speaker.Speaker` ties them together behind the
:class:`~controller.voice.speaker.Voice` interface the loop talks to, with a
:class:`~controller.voice.speaker.FakeVoice` beside it for tests.
"""
