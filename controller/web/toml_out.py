"""Write a config document back as TOML: the subset the config uses, nothing more.

The standard library reads TOML (``tomllib``) but does not write it. The config holds
only tables of strings, integers, floats and booleans, ``[[seats]]`` (an array of such
tables) and arrays of those scalars, so this writer covers exactly that and refuses
anything else, rather than guessing. Comments in the file are not kept (tomllib drops
them on reading); the Setup page says so before it saves.
"""

from __future__ import annotations

import json
import math
from typing import Any


class TomlWriteError(ValueError):
    """A value the config's TOML subset has no form for."""


def scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TomlWriteError(f"{value!r} is not a finite number")
        return repr(value)
    if isinstance(value, str):
        # A JSON string is a valid TOML basic string for every character but DEL and
        # the controls JSON leaves alone; json.dumps escapes the controls below 0x20.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list) and not any(isinstance(v, (dict, list)) for v in value):
        return "[" + ", ".join(scalar(v) for v in value) + "]"
    raise TomlWriteError(f"cannot write {type(value).__name__} values")


def key(name: str) -> str:
    bare = name and all(c.isascii() and (c.isalnum() or c in "_-") for c in name)
    return name if bare else scalar(name)


def dumps(document: dict[str, Any]) -> str:
    """``document`` as TOML: top-level keys first, then one table per section."""
    lines: list[str] = []
    tables: list[tuple[str, Any]] = []
    for name, value in document.items():
        if isinstance(value, dict) or (
            isinstance(value, list) and value and all(isinstance(v, dict) for v in value)
        ):
            tables.append((name, value))
        else:
            lines.append(f"{key(name)} = {scalar(value)}")
    for name, value in tables:
        for table in value if isinstance(value, list) else [value]:
            if lines:
                lines.append("")
            lines.append(f"[[{key(name)}]]" if isinstance(value, list) else f"[{key(name)}]")
            for inner, item in table.items():
                if isinstance(item, dict):
                    raise TomlWriteError(f"[{name}.{inner}]: nested tables are not used")
                lines.append(f"{key(inner)} = {scalar(item)}")
    return "\n".join(lines) + "\n"
