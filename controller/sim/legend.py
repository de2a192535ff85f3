"""The simulator's words for its keys: the one-line key help and the terminal's legend.

The keys themselves (``DEFAULT_KEYS``) are read by :mod:`hardware.keyboard`; these are
what the command line prints and what the terminal display writes under the board.
"""

from __future__ import annotations

from hardware.keyboard import DEFAULT_KEYS, Key


def key_help(keys: dict[str, Key] | None = None) -> str:
    """One line naming every key, for the simulator's banner."""
    parts = []
    for char, (seat, button) in (keys or DEFAULT_KEYS).items():
        who = "system" if seat is None else f"{seat + 1}{button.upper()}"
        parts.append(f"{char}={who}")
    return " ".join(parts) + " (Shift = long press in a terminal)"


def legend_lines(columns: int, keys: dict[str, Key] | None = None) -> list[str]:
    """The terminal's key legend, wrapped to ``columns``: as few lines as fit.

    Narrow terminals (< 80 columns) get the short wording, so the legend of a 40-column
    terminal takes two lines and the board keeps the rest.
    """
    per_seat: dict[int, dict[str, str]] = {}
    system = ""
    for char, (seat, button) in (keys or DEFAULT_KEYS).items():
        if seat is None:
            system = char
        else:
            per_seat.setdefault(seat, {})[button] = char
    wide = columns >= 80
    seat_word = "seat " if wide else ""
    separator = " " if wide else ": "
    parts = ["keys OK/NEXT:" if wide else "OK/NEXT"]
    for seat in sorted(per_seat):
        ok, next_ = per_seat[seat].get("ok", "-"), per_seat[seat].get("next", "-")
        parts.append(f"{seat_word}{seat + 1}{separator}{ok}/{next_}")
    if system:
        parts.append(f"system {system}" if wide else f"system: {system}")
    parts += ["Shift+key: long press" if wide else "Shift+key: hold", "Ctrl+C: quit"]
    return wrap_parts(parts, columns)


def wrap_parts(parts: list[str], columns: int, gap: str = "  ") -> list[str]:
    """Greedy wrapping that never breaks inside a part (a part longer than a line is cut)."""
    lines: list[str] = []
    line = ""
    for part in parts:
        candidate = f"{line}{gap}{part}" if line else part
        if len(candidate) <= columns or not line:
            line = candidate
        else:
            lines.append(line)
            line = part
    if line:
        lines.append(line)
    return [text[:columns] for text in lines]
