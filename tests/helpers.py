"""Small helpers for building positions in rule tests."""

from __future__ import annotations

from typing import Any

import rules
from rules.core import State


def position(game: str, preset: str | None = None, **fields: Any) -> State:
    """A state from JSON fields, e.g. position("maedn", "classic", players=[...], ...)."""
    data: dict[str, Any] = {"game": game}
    if preset is not None:
        data["preset"] = preset
    data.update(fields)
    return rules.state_from_json(data)


def notations(state: State) -> set[str]:
    return {m.notation for m in state.legal_moves()}
