"""The facts each game family declares about its moves and presets (rules.move_facts,
rules.preset_facts and the families' own facts modules): what the table animates and
cues, read from typed move classes instead of probing moves for attributes. The rules
keep typed facts only; the words are the table's (tests/test_status_line.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from rules.backgammon.facts import CubeDecision, checker_steps, crawford_rule, cube_decision
from rules.core import MoveFacts, PresetFacts
from rules.minimaki.engine import Place
from rules.minimaki.facts import Placed, placed
from rules.track.facts import Area, Spot, spot
from tests.helpers import position, track_position

GAMES = [(name, preset) for name in rules.game_names() for preset in rules.presets(name)]


def backgammon(white: dict[int, int], black: dict[int, int], dice: tuple[int, int]) -> Any:
    def counts(spec: dict[int, int]) -> list[int]:
        return [spec.get(point, 0) for point in range(1, 25)]

    return position(
        "backgammon",
        "single",
        turn="white",
        points={"white": counts(white), "black": counts(black)},
        bar={"white": 0, "black": 0},
        dice=list(dice),
    )


def test_a_track_move_walks_its_fields_and_flags_its_capture() -> None:
    state = track_position(
        "classic",
        {"red": [3, "home", "home", "home"], "green": [5, "home", "home", "home"]},
        dice=[2],
    )
    (move,) = state.legal_moves()
    assert rules.move_facts("maedn", move) == MoveFacts(2, True)
    entering = track_position("classic", {"red": ["home"] * 4, "green": ["home"] * 4}, dice=[6])
    (enter,) = entering.legal_moves()
    assert rules.move_facts("maedn", enter) == MoveFacts(1, False)


def test_a_track_position_reads_as_an_area_and_a_field() -> None:
    assert spot(12) == Spot(Area.TRACK, 12)
    assert spot("home") == spot("out") == Spot(Area.HOME)
    assert spot("goal2") == Spot(Area.GOAL, "2")
    assert spot("a3") == Spot(Area.TRACK, "a3")


def test_a_mini_maki_piece_put_on_row_6_is_reds_start() -> None:
    assert placed(Place(6, 3)) is Placed.RED_START
    assert placed(Place(2, 4)) is Placed.BLACK


def test_a_backgammon_play_names_its_checker_steps_and_hits() -> None:
    state = backgammon({13: 1, 6: 14}, {15: 1, 6: 14}, dice=(3, 1))
    hit = rules.move_facts("backgammon", state.parse_move("13/10*/9"))
    assert hit == MoveFacts(2, True)
    assert checker_steps(state.parse_move("13/10*/9")) == ((12, 9), (9, 8))
    quiet = rules.move_facts("backgammon", state.parse_move("13/9"))
    assert quiet.capture is False and quiet.steps == 2
    assert checker_steps(state.parse_move("13/9"))[0][0] == 12
    assert cube_decision(state.parse_move("13/9")) is None


def test_the_cube_decisions_are_typed_not_checker_plays() -> None:
    opening = rules.get_game("backgammon", "money").new_state().roll((5, 2))
    state = opening.apply(opening.legal_moves()[0])  # the other side may double now
    moves = state.legal_moves()
    assert {rules.move_facts("backgammon", m) for m in moves} == {MoveFacts()}
    assert {cube_decision(m) for m in moves} == {CubeDecision.ROLL, CubeDecision.DOUBLE}
    assert all(checker_steps(m) == () for m in moves)


def test_the_presets_declare_their_move_timer_and_crawford_rule() -> None:
    assert rules.preset_facts(rules.get_game("maedn", "lingo")) == PresetFacts(move_timer_s=5.0)
    assert rules.preset_facts(rules.get_game("maedn", "classic")) == PresetFacts()
    assert rules.preset_facts(rules.get_game("backgammon", "match5")) == PresetFacts()
    assert crawford_rule(rules.get_game("backgammon", "match5")) is True
    assert rules.preset_facts(rules.get_game("minimaki")) == PresetFacts()


def test_the_shared_facts_hold_no_words() -> None:
    """Player words are the table's, in the players' language: the shared fact types
    carry numbers and flags only."""
    for kind in (MoveFacts, PresetFacts):
        fields = kind.__dataclass_fields__.values()
        assert all(f.type not in ("str", str) for f in fields), kind


@pytest.mark.parametrize(("name", "preset"), GAMES)
def test_every_move_of_a_random_game_has_facts(name: str, preset: str) -> None:
    """Each game's facts function takes every move of its game, the pass included."""
    rng = random.Random(5)
    state = rules.get_game(name, preset).new_state()
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance():
            state = state.roll(rng.choice(state.chance_outcomes())[0])
            continue
        for move in state.legal_moves():
            facts = rules.move_facts(name, move)
            assert facts.steps >= 1
            assert facts.capture == ("*" in move.notation or move.notation.endswith("x"))
        state = state.apply(rng.choice(list(state.legal_moves())))
