"""Checks every command shares on what a person typed or a file held.

Kept in one place so that ``config check``, ``run`` and each ``sim`` mode reject the
same input with the same line, and so that an error line never repeats a huge input:
a 100 KB argument or a 4 000-digit number is quoted by its first few dozen characters.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any

from rules.errors import SHOWN_LIMIT, shown

QUOTE_LIMIT = SHOWN_LIMIT
"""At most this many characters of an input appear in an error line."""

BOM = "\ufeff"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters with a note of the full length (the
    rules' own messages quote with the same function)."""
    return shown(value, limit)


def clip(text: str, limit: int = 300) -> str:
    """The first line of ``text``, never longer than about ``limit``: a safety net for
    messages built below the command line that hold a long input (a path, a library's
    own words). The start and the end stay, since the end usually says what is wrong."""
    line = text.splitlines()[0] if text else ""
    if len(line) <= limit:
        return line
    half = limit // 2
    return f"{line[:half]}…({len(line) - 2 * half} characters)…{line[-half:]}"


def is_finite_number(value: Any) -> bool:
    """True for an int or a finite float (NaN and infinity fail every range check
    silently, so they are refused by name)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or math.isfinite(value)  # a huge int overflows isfinite


class TomlError(ValueError):
    """A file that is not TOML this program can read; the message is one line."""


def read_toml(path: Path) -> dict[str, Any]:
    """Parse ``path``: a leading UTF-8 byte order mark (as Windows editors write) is
    skipped; nesting too deep for the parser is one line, not a crash."""
    text = path.read_bytes().decode("utf-8")
    if text.startswith(BOM):
        text = text[len(BOM) :]
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(f"TOML syntax error: {exc}") from None
    except RecursionError:
        raise TomlError("TOML syntax error: values nested too deeply") from None
