"""What the table shows of a track-game move and acts on in a preset: the words of the
JSON position vocabulary, how many fields a piece walks, the move timer."""

from __future__ import annotations

from typing import cast

from rules.core import Game, Move, MoveFacts, PresetFacts, notation_facts
from rules.track.engine import MaednGame, TrackMove


def move_facts(move: Move) -> MoveFacts:
    """A piece walks from its old to its new progress (entering from home walks one
    field onto the start); the pass is its notation."""
    if not isinstance(move, TrackMove):
        return notation_facts(move)
    words = f"{field_words(move.src, start=True)} → {field_words(move.dst, start=False)}"
    return MoveFacts(
        words + (", captures" if move.capture else ""),
        max(1, move.to_progress - max(move.from_progress, 0)),
        move.capture,
    )


def field_words(field: int | str, *, start: bool) -> str:
    """A position in words: the piece on it when it starts a move, else the place."""
    if isinstance(field, int):
        return f"piece on {field}" if start else str(field)
    if field in ("home", "out"):
        return "piece from home"
    if field.startswith("goal"):
        return f"piece in goal {field[4:]}" if start else f"goal {field[4:]}"
    return f"piece on {field}" if start else field


def preset_facts(game: Game) -> PresetFacts:
    return PresetFacts(move_timer_s=cast(MaednGame, game).rules.move_timer_s)
