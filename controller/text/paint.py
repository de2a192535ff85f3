"""ANSI colour for the text boards: one place, shared by every game's text board."""

from __future__ import annotations

ANSI = {"red": "31", "blue": "34", "green": "32", "yellow": "33"}


def paint(text: str, name: str | None, colour: bool) -> str:
    """``text`` in the bold ANSI colour of ``name`` when ``colour`` is on."""
    if not colour or name is None:
        return text
    return f"\x1b[1;{ANSI[name]}m{text}\x1b[0m"
