"""The panel's two bitmap fonts, with the German letters ä ö ü Ä Ö Ü ß.

luma's legacy fonts are tables of 256 glyphs indexed by ``ord(ch)``, meant for ASCII:
index 228 (``ä`` in Unicode) holds CP437's Σ, and the 3×5 font has no letters above 127
at all. The table speaks German, so both fonts are rebuilt here as Latin-1 tables:

* the 8-row font takes its German letters from CP437 itself, which has all seven, only
  at other indices (ä is 0x84 there);
* the 3×5 font gets seven glyphs drawn here. Five rows leave no room above a capital,
  so the dots sit in the top row, a blank row keeps them apart, and the letter below is
  three rows tall: dots resting right on a pointed top (A, O) merged with it into an X
  when looked at enlarged (tests/golden/letters_*), so Ä is a small peaked A and Ö a
  box, while ö stays round like the font's own o.

Glyphs are lists of column bytes, bit 0 the top row, as luma draws them. Characters
neither font has are spelled out or replaced (:func:`panel_text`).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from luma.core.legacy.font import CP437_FONT, TINY_FONT, proportional

GERMAN = "äöüÄÖÜß"
"""The letters beyond ASCII that both panel fonts draw."""

_CP437_INDEX = {"ä": 0x84, "ö": 0x94, "ü": 0x81, "Ä": 0x8E, "Ö": 0x99, "Ü": 0x9A, "ß": 0xE1}


def _columns(rows: tuple[str, ...]) -> list[int]:
    """Column bytes of a glyph drawn as rows of '#' and '.', its top row in bit 1 (the
    3×5 font uses rows 1–5 of its 8-row cell), plus the blank column after it."""
    width = len(rows[0])
    columns = [
        sum(1 << (row + 1) for row, line in enumerate(rows) if line[x] == "#") for x in range(width)
    ]
    return [*columns, 0]


_TINY_GERMAN: dict[str, tuple[str, ...]] = {
    "ä": ("#.#", "...", ".##", "#.#", ".##"),
    "ö": ("#.#", "...", ".#.", "#.#", ".#."),
    "ü": ("#.#", "...", "#.#", "#.#", "###"),
    "Ä": ("#.#", "...", ".#.", "###", "#.#"),
    "Ö": ("#.#", "...", "###", "#.#", "###"),
    "Ü": ("#.#", "...", "#.#", "#.#", "###"),
    "ß": (".#.", "#.#", "##.", "#.#", "##."),
}


def _latin1(base: Any, german: dict[str, list[int]]) -> list[list[int]]:
    table = [list(base[code]) for code in range(256)]
    for ch, glyph in german.items():
        table[ord(ch)] = glyph
    return table


TINY = proportional(_latin1(TINY_FONT, {ch: _columns(rows) for ch, rows in _TINY_GERMAN.items()}))
"""3×5 glyphs (rows 1–5 of the 8-row cell): for panels under 32 rows."""
LARGE = proportional(
    _latin1(CP437_FONT, {ch: list(CP437_FONT[index]) for ch, index in _CP437_INDEX.items()})
)
"""8-row glyphs: for 8-row strips and 32×32."""


def panel_text(text: str) -> str:
    """``text`` as the fonts can draw it: ASCII and the German letters stay, other
    accents are dropped (é -> e), and anything else becomes '?'. A dash or an arrow
    from a translation is spelled the way the fonts have it."""
    spelled = text.replace("—", "-").replace("–", "-").replace("→", ">").replace("·", "-")
    out = []
    for ch in spelled:
        if ch in GERMAN or 32 <= ord(ch) < 127:
            out.append(ch)
            continue
        plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
        out.append(plain if plain else "?")
    return "".join(out)
