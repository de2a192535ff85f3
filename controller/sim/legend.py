"""The simulator's words: the key help, the terminal's legend and the window's labels.

The keys themselves (``DEFAULT_KEYS``) are read by :mod:`hardware.keyboard`; these are
what the command line prints and what the terminal display writes under the board.
"""

from __future__ import annotations

from controller.i18n import _, pgettext
from hardware.keyboard import DEFAULT_KEYS, Key


def key_help(keys: dict[str, Key] | None = None) -> str:
    """One line naming every key, for the simulator's banner."""
    parts = []
    for char, (seat, button) in (keys or DEFAULT_KEYS).items():
        who = system_word() if seat is None else f"{seat + 1}{button_word(button)}"
        parts.append(f"{char}={who}")
    return " ".join(parts) + _(" (Shift = long press in a terminal)")


def button_word(button: str) -> str:
    """A seat button's name as printed on it: OK, NEXT (in German OK, WEITER)."""
    words = {"ok": pgettext("button", "OK"), "next": pgettext("button", "NEXT")}
    return words.get(button, button.upper())


def system_word() -> str:
    return _("system")


def seat_label(seat: int, label: str) -> str:
    """The window's words over a seat's buttons: "seat 1 · red · you"."""
    number = _("seat {number}").format(number=seat + 1)
    return f"{number} · {label}" if label else number


def window_hint() -> str:
    """The window's footer: how its buttons are pressed."""
    return _(
        "click a button or press its key · hold for a long press · F12: screenshot · Esc: quit"
    )


def screenshot_notice(saved: object = None, problem: object = None) -> str:
    """What the window's footer says after F12: where the picture went, or why not."""
    if saved is None:
        return _("screenshot not saved: {reason}").format(reason=problem)
    return _("screenshot saved to {path}").format(path=saved)


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
    buttons = f"{button_word('ok')}/{button_word('next')}"
    parts = [_("keys {buttons}:").format(buttons=buttons) if wide else buttons]
    for seat in sorted(per_seat):
        keys_of_seat = f"{per_seat[seat].get('ok', '-')}/{per_seat[seat].get('next', '-')}"
        if wide:
            parts.append(_("seat {number} {keys}").format(number=seat + 1, keys=keys_of_seat))
        else:
            parts.append(f"{seat + 1}: {keys_of_seat}")
    if system:
        shown = _("system {key}") if wide else _("system: {key}")
        parts.append(shown.format(key=system))
    parts += [_("Shift+key: long press") if wide else _("Shift+key: hold"), _("Ctrl+C: quit")]
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
