"""Golden pictures in every language the table speaks.

``tests/golden/<stem>.png`` is the English picture. Where the German one differs (it
has words), it lives beside it as ``<stem>_de.png``; where it would be the same pixels
(a board without words, numbers only), there is no second file, and the check proves
that the German picture is the English one. So every screen has a golden in both
languages, and a screen that starts to show words in one language only gets its own
file at the next regeneration (``SPIELTISCH_REGEN_GOLDEN=1``; look at the pictures,
enlarged, before committing them).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from PIL import Image, ImageChops

from controller.i18n import DEFAULT, LANGUAGES, active_language, use

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("SPIELTISCH_REGEN_GOLDEN") == "1"
GOLDEN_LANGUAGES = tuple(sorted(LANGUAGES, key=lambda code: code != DEFAULT))
"""English first: the German check compares against the English picture."""


@contextmanager
def speaking(language: str) -> Iterator[None]:
    before = active_language()
    use(language)
    try:
        yield
    finally:
        use(before)


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def golden_path(stem: str, language: str) -> Path:
    return GOLDEN / (f"{stem}.png" if language == DEFAULT else f"{stem}_{language}.png")


def check_golden(draw: Callable[[], Image.Image], stem: str, language: str) -> Image.Image:
    """Draw in ``language`` and compare with its golden (module docstring)."""
    with speaking(language):
        image = draw()
    own = golden_path(stem, language)
    if language != DEFAULT:
        with speaking(DEFAULT):
            english = draw()
        if REGEN:
            if same(english, image):
                own.unlink(missing_ok=True)
            else:
                image.save(own)
        if not own.exists():
            own = golden_path(stem, DEFAULT)
            assert same(english, image), f"{stem}: the {language} picture differs, no golden"
    elif REGEN:
        GOLDEN.mkdir(exist_ok=True)
        image.save(own)
    assert own.exists(), f"no golden {own.name}; regenerate with SPIELTISCH_REGEN_GOLDEN=1"
    expected = Image.open(own)
    expected.load()
    assert expected.mode == image.mode
    assert same(expected, image), f"{own.name} differs from the picture drawn now"
    return image
