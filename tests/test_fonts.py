"""The panel fonts draw the German letters, each one its own readable glyph."""

from __future__ import annotations

import pytest
from luma.core.legacy import text as legacy_text
from PIL import Image, ImageDraw

from controller.views.fonts import GERMAN, LARGE, TINY, panel_text

PLAIN = {"ä": "a", "ö": "o", "ü": "u", "Ä": "A", "Ö": "O", "Ü": "U", "ß": "B"}


def _pixels(ch: str, font: object) -> bytes:
    image = Image.new("1", (10, 8))
    legacy_text(ImageDraw.Draw(image), (0, 0), ch, fill=1, font=font)
    return image.tobytes()


@pytest.mark.parametrize("font", [TINY, LARGE], ids=["3x5", "8-row"])
def test_every_german_letter_has_its_own_glyph(font: object) -> None:
    glyphs = {ch: _pixels(ch, font) for ch in GERMAN}
    blank = _pixels(" ", font)
    for ch, pixels in glyphs.items():
        assert pixels != blank, ch
        assert pixels != _pixels(PLAIN[ch], font), f"{ch} looks like {PLAIN[ch]}"
    assert len(set(glyphs.values())) >= len(GERMAN) - 1  # Ü and ü may share at 3×5
    assert glyphs["ä"] != glyphs["ö"] != glyphs["ü"]


def test_tiny_umlauts_keep_to_the_five_rows_the_panel_shows() -> None:
    for ch in GERMAN:
        for column in TINY[ord(ch)]:
            assert column & 0b11000001 == 0, ch  # rows 1-5 of the cell only


def test_panel_text_keeps_german_and_spells_the_rest() -> None:
    assert panel_text("Kleiner Ärger, Mensch ärgere dich nicht — Straße") == (
        "Kleiner Ärger, Mensch ärgere dich nicht - Straße"
    )
    assert panel_text("café → 5") == "cafe > 5"
    assert panel_text("雪") == "?"
