"""A named player as the table carries it: in a game's save, in its history record.

Apart from the book (:mod:`controller.players.book`, the file) so that the session and
the history can name a person without importing what writes the file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

ID = re.compile(r"p[1-9][0-9]{0,8}")
"""A player's id as the book gives it out: never reused, so it is the person."""


@dataclass(frozen=True)
class Person:
    """A named player: ``id`` stays with the person through renames."""

    id: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name}

    @classmethod
    def from_json(cls, data: Any) -> Person:
        """A player from a save; ValueError if it is not one the table wrote."""
        if not isinstance(data, dict):
            raise ValueError("a named player must be an object")
        ident, name = data.get("id"), data.get("name")
        if not isinstance(ident, str) or not ID.fullmatch(ident):
            raise ValueError("a named player's id is not one the table gives")
        if not isinstance(name, str) or not name or len(name) > 64:
            raise ValueError("a named player's name is not text")
        return cls(ident, name)
