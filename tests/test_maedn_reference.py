"""The engine against an independent implementation (tests/reference_maedn.py).

Legal-move sets are compared on thousands of random positions, and whole random games
are replayed move for move: the reference consumes the RNG exactly like the engine's
random bot, so any rule difference shows up as a different game.
"""

from __future__ import annotations

import io
import json
import random
import sys

import pytest

import rules
from controller.cli import main
from rules.bots import RandomBot
from rules.playout import play_game
from tests import reference_maedn as ref

PRESETS = ["classic", "lingo", "schmidt"]


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_moves_match_reference_on_random_positions(preset: str) -> None:
    game = rules.get_game("maedn", preset)
    rng = random.Random(f"positions-{preset}")
    for _ in range(3000):
        players = rng.choice([2, 3, 4])
        pieces = ref.random_position(rng, players)
        turn = rng.choice(ref.SEATING[players])
        die = rng.randrange(1, 7)
        state = game.state_from_json(
            {"players": list(ref.SEATING[players]), "turn": turn, "pieces": pieces, "dice": [die]}
        )
        engine = [m.notation for m in state.legal_moves()]
        expected = ref.moves(ref.PRESETS[preset], turn, pieces, die)
        assert engine == expected, (pieces, turn, die)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_random_games_match_reference(preset: str, players: int) -> None:
    game = rules.get_game("maedn", preset)
    start = game.new_state(players)
    bots = {c: RandomBot() for c in ref.SEATING[players]}
    for seed in range(60):
        record = play_game(start, bots, random.Random(seed))
        expected = ref.play(preset, players, random.Random(seed))
        assert (record.winners[0], record.throws, record.moves) == expected, seed


def test_cli_jsonl_matches_reference(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same comparison through `spieltisch rules moves --jsonl`, as a script would."""
    rng = random.Random(5)
    lines, expected = [], []
    for _ in range(300):
        preset = rng.choice(PRESETS)
        players = rng.choice([2, 3, 4])
        pieces = ref.random_position(rng, players)
        turn = rng.choice(ref.SEATING[players])
        die = rng.randrange(1, 7)
        state = {
            "preset": preset,
            "players": list(ref.SEATING[players]),
            "turn": turn,
            "pieces": pieces,
        }
        lines.append(json.dumps({"state": state, "dice": [die]}))
        expected.append(ref.moves(ref.PRESETS[preset], turn, pieces, die))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["rules", "moves", "maedn", "--jsonl"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [[m["move"] for m in a["moves"]] for a in answers] == expected
