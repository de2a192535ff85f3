"""Every message shows one whole pass before the table replaces it, in German too.

German words are longer than English ones: "gewinnt" for "wins", "Anfangswurf" for
"opening roll". The text scrolls at the same pace whatever the language (about 2.5
characters a second, :mod:`controller.views.text`), so a banner, a flash or the
game-over words must stay up longer, by exactly what their length asks: the table
derives each one's time from its text. These tests play whole German games with bots
in every seat (nobody presses, so whatever replaces a text is the table's own doing),
read every frame in words (:mod:`tests.panel_words`), and check that each text that
scrolls was on the panel from its first letter for at least one whole pass (hold,
slide, hold) before a frame without it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import rules
from controller.i18n import DEFAULT, use
from controller.session import Session
from controller.views import timing
from controller.views.text import DrawnText
from tests.panel_words import Drawn, WordWatch

SEED = 27
GAMES = [(game, rules.default_preset(game)) for game in rules.game_names()]
GAMES += [("backgammon", "match3"), ("maedn", "lingo")]


@pytest.fixture(autouse=True)
def german() -> Iterator[None]:
    use("de")
    yield
    use(DEFAULT)


def cut_short(frames: list[Drawn]) -> list[str]:
    """Texts replaced before one whole pass: (text, shown for, a pass takes)."""
    shown: dict[tuple[str, float, int, int], DrawnText] = {}
    found = []
    for frame in frames:
        now = {(d.text, d.since, d.width, d.height): d for d in frame.texts}
        for key, drawn in shown.items():
            if key in now:
                continue
            needed = drawn.pass_seconds()
            lasted = frame.at - drawn.since
            if needed and lasted < needed - timing.EPS:
                found.append(
                    f"{drawn.text!r} in a {drawn.width}-wide box: up {lasted:.2f} s, "
                    f"a pass takes {needed:.2f} s"
                )
        shown = now
    return found


@pytest.mark.parametrize(("game", "preset"), GAMES)
def test_every_german_message_passes_once_before_it_goes(
    tmp_path: Path, game: str, preset: str
) -> None:
    count = max(rules.get_game(game, preset).player_counts)
    kinds = ["bot"] * count + ["empty"] * (4 - count)
    watch = WordWatch(tmp_path)
    try:
        watch.start(Session.start(game, preset, kinds, seed=SEED, bot="random"))
        assert watch.play_out(over_s=120.0) >= 1
    finally:
        watch.close()
    scrolled = [d for f in watch.words.frames for d in f.texts if d.pass_seconds() > 0]
    assert scrolled, "no text scrolled: nothing was checked"
    found = cut_short(watch.words.frames)
    assert not found, "\n".join(dict.fromkeys(found))
