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


def track_position(
    preset: str, pieces: dict[str, list[Any]], turn: str = "red", **extra: Any
) -> State:
    """A MÄDN position from the pieces of the colours that play (in seat order)."""
    players = [c for c in ("red", "blue", "green", "yellow") if c in pieces]
    return position("maedn", preset, players=players, turn=turn, pieces=pieces, **extra)


def notations(state: State) -> set[str]:
    return {m.notation for m in state.legal_moves()}
