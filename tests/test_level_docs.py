"""The levels' noise as docs/bots.md states it is the noise the rules play with.

The calibration tables in docs/bots.md are only true of the noise they were measured
with; a noise changed in the code (or in the docs) without the other leaves the
tables describing players that do not exist.
"""

from __future__ import annotations

from pathlib import Path

import rules

DOCS = Path(__file__).resolve().parent.parent / "docs" / "bots.md"
ROWS = {
    "MÄDN (steps of progress)": "maedn",
    "Kleiner Ärger (steps of progress)": "kleiner_aerger",
    "Backgammon (cubeless equity)": "backgammon",
}


def documented() -> dict[str, tuple[float, ...]]:
    found: dict[str, tuple[float, ...]] = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells and cells[0] in ROWS:
            found[ROWS[cells[0]]] = tuple(float(cell) for cell in cells[1:])
    return found


def test_the_documented_noise_is_the_noise_played() -> None:
    table = documented()
    assert set(table) == set(ROWS.values())
    for game, noise in table.items():
        assert rules.capabilities(game).level_noise == noise, game
