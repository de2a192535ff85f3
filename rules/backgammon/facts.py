"""What the table shows of a Backgammon move and acts on in a preset: a play's checker
steps (animated and ordered checker by checker), the cube decisions in words, the
Crawford rule of a match."""

from __future__ import annotations

from typing import cast

from rules.backgammon.engine import BackgammonGame, CubeAction, Play
from rules.core import Game, Move, MoveFacts, PresetFacts, notation_facts

CUBE_WORDS = {
    "roll": "roll the dice",
    "double": "offer a double",
    "take": "take the double",
    "drop": "drop (give up the game)",
}


def move_facts(move: Move) -> MoveFacts:
    if isinstance(move, Play):
        return MoveFacts(
            f"checkers {move.notation}",
            max(1, len(move.steps)),
            any(hit for _, _, hit in move.steps),
            tuple((src, dst) for src, dst, _ in move.steps),
        )
    if isinstance(move, CubeAction) and move.notation in CUBE_WORDS:
        return MoveFacts(CUBE_WORDS[move.notation])
    return notation_facts(move)


def preset_facts(game: Game) -> PresetFacts:
    return PresetFacts(crawford=cast(BackgammonGame, game).rules.crawford)
