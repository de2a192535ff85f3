"""The save file's text: the session's JSON, written compactly and as UTF-8.

Why a module of its own: the text is made once, when the table queues a save
(:mod:`controller.table.effects`), and written as it is by the store
(:mod:`controller.persistence`); both must make it the same way, and neither the table
nor the store should hold the other's code to do it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping


def encode(content: Mapping[str, object]) -> str:
    """``content`` as the save file's text."""
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"))


def with_key(text: str, key: str, value: object) -> str:
    """``text`` (an object :func:`encode` made) with ``key`` added last: the very text
    :func:`encode` makes of the object with that key added, without encoding the
    object again."""
    added = encode({key: value})
    if text == "{}":
        return added
    return text[:-1] + "," + added[1:]
