"""Independent check: our legal plays against GNU Backgammon's own move generator.

``gnubg-nn`` (PyPI) wraps GNU Backgammon's C move generator. Its board is two lists of
25 counts, ``[side not on roll, side on roll]``, each in its own numbering with the bar
last, and ``gnubg_nn.moves(board, d1, d2)`` returns one position key per distinct legal
play with the mover *not* swapped to the opponent. We compare the *sets of resulting
Position IDs* for thousands of positions from seeded random games, and report which
kinds of position were covered (entering from the bar, one-die-only rolls, doubles,
blocked rolls, bear-offs), asserting that each kind really occurred.

The package has wheels for Linux x86-64, macOS arm64 and Windows only; elsewhere (a
Raspberry Pi) the module is skipped.
"""

from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter
from typing import Any

import pytest

import rules
from controller.cli import main
from rules.backgammon.engine import BackgammonState, Play
from rules.backgammon.ids import decode_position
from rules.core import PASS
from rules.playout import sample_roll

gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel for this platform")

GAMES = 60  # about 100 decisions each: several thousand positions


def gnubg_results(pid: str, d1: int, d2: int) -> set[str]:
    """Position IDs after each play GNU Backgammon allows (mover not yet swapped)."""
    board = [list(side) for side in gnubg_nn.board_from_position_id(pid)]
    found = set()
    for key in gnubg_nn.moves(board, d1, d2):
        after = [list(side) for side in gnubg_nn.board_from_position_key(key)]
        found.add(gnubg_nn.position_id(after))
    return found


def our_results(state: BackgammonState) -> set[str]:
    return {
        state.apply(m).interchange()["position_id"] for m in state.legal_moves() if m is not PASS
    }


def kinds(state: BackgammonState) -> set[str]:
    """Which interesting kinds of position this decision is."""
    found = set()
    mover = state.boards[state.turn]
    moves = state.legal_moves()
    d1, d2 = state.dice
    if mover[24]:
        found.add("bar")
    if d1 == d2:
        found.add("double")
    if moves == (PASS,):
        found.add("blocked")
        return found
    steps = max(len(m.steps) for m in moves if isinstance(m, Play))
    if d1 != d2 and steps == 1:
        found.add("one_die")
    if d1 == d2 and steps < 4:
        found.add("double_partly")
    if any(s[1] < 0 for m in moves if isinstance(m, Play) for s in m.steps):
        found.add("bear_off")
    return found


def random_decisions(games: int, seed: int) -> list[BackgammonState]:
    """Decision nodes (checker plays) of seeded random single games."""
    game = rules.get_game("backgammon", "single")
    rng = random.Random(seed)
    found: list[BackgammonState] = []
    for _ in range(games):
        state: Any = game.new_state()
        while not state.is_terminal():
            if state.is_chance():
                state = state.roll(sample_roll(state.chance_outcomes(), rng))
                continue
            found.append(state)
            moves = state.legal_moves()
            state = state.apply(moves[rng.randrange(len(moves))])
    return found


def test_legal_plays_match_gnubg_on_random_games() -> None:
    decisions = random_decisions(GAMES, seed=2024)
    covered: Counter[str] = Counter()
    mismatches = []
    for state in decisions:
        d1, d2 = state.dice
        pid = state.position_id()
        theirs = gnubg_results(pid, d1, d2)
        ours = our_results(state)
        if ours != theirs:
            mismatches.append((pid, state.dice, sorted(ours ^ theirs)[:4]))
        covered.update(kinds(state))
    assert len(decisions) > 3000
    assert mismatches == []
    for kind in ("bar", "one_die", "double", "double_partly", "blocked", "bear_off"):
        assert covered[kind] >= 10, (kind, covered)


def test_hand_picked_positions_match_gnubg() -> None:
    """Corner cases: entering with a closed board, one die only, bear-offs with high
    dice, doubles that stop early, hits on intermediate stops."""
    cases = [
        ("4HPwATDgc/ABMA", (3, 1)),
        ("4HPwATDgc/ABMA", (6, 6)),
        ("4HPwATDgc/ABMA", (5, 2)),
    ]
    game = rules.get_game("backgammon")
    specials: list[tuple[list[int], list[int], int]] = [
        # (white points 1..24 + bar, black points 1..24 + bar) in own numbering
        ([0] * 5 + [13] + [0] * 18 + [2], [2, 2, 2, 2, 2, 2] + [0] * 19, 0),  # closed out
        ([14] + [0] * 22 + [1, 0], [0] * 11 + [2] + [0] * 13, 0),  # one die only
        ([0, 14, 0, 1] + [0] * 21, [2] + [0] * 24, 0),  # high dice bear off the highest
        ([14] + [0] * 22 + [1, 0], [0] * 6 + [2] + [0] * 4 + [2] + [0] * 13, 0),  # smaller
        ([0] * 12 + [1] + [0] * 11 + [0], [0] * 14 + [1] + [0] * 10, 0),  # hit in passing
    ]
    for white, black, _ in specials:
        state = game.state_from_json(
            {
                "points": {"white": white[:24], "black": black[:24]},
                "bar": {"white": white[24], "black": black[24]},
                "turn": "white",
            }
        )
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                cases.append((state.position_id(), (d1, d2)))
    for pid, (d1, d2) in cases:
        state = game.state_from_position_id(pid).roll([d1, d2])
        assert our_results(state) == gnubg_results(pid, d1, d2), (pid, d1, d2)


def test_rules_moves_jsonl_with_position_ids_matches_gnubg(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rules moves backgammon --jsonl`` reads ``{"position_id", "dice"}`` lines
    and lists every legal play with its notation and resulting Position ID."""
    decisions = random_decisions(8, seed=7)[::3]
    lines = [json.dumps({"position_id": s.position_id(), "dice": list(s.dice)}) for s in decisions]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["rules", "moves", "backgammon", "--jsonl"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(answers) == len(decisions)
    for state, answer in zip(decisions, answers, strict=True):
        d1, d2 = state.dice
        listed = {m["position_id"] for m in answer["moves"] if m["move"] != "pass"}
        assert listed == gnubg_results(state.position_id(), d1, d2)
        notations = [m["move"] for m in answer["moves"]]
        assert len(set(notations)) == len(notations)


def test_position_ids_agree_with_gnubg_both_ways() -> None:
    for state in random_decisions(3, seed=11)[::5]:
        pid = state.position_id()
        board = gnubg_nn.board_from_position_id(pid)
        not_on_roll, on_roll = decode_position(pid)
        assert [list(not_on_roll), list(on_roll)] == [list(side) for side in board]
        assert gnubg_nn.position_id([list(side) for side in board]) == pid
