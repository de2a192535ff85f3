"""One conformance suite over every registered game and preset.

Thousands of seeded random games, checking at every step:

* the legal-move list of a decision node is never empty, holds distinct notations, and
  every listed move applies; ``parse_move`` reads each notation back;
* chance outcomes are valid rolls whose probabilities sum to 1;
* JSON round-trips losslessly, and parsing re-validates the position, which checks that
  the piece count is conserved and no two pieces share a field where the game forbids
  it (the parsers reject exactly those positions);
* equal states hash equally; states are never mutated by ``apply``/``roll``;
* every game ends.

New games join by registering; nothing here names a game.
"""

from __future__ import annotations

import json
import math
import os
import random

import pytest

import rules
from rules.bots import RandomBot
from rules.core import Pass, State
from rules.playout import sample_roll

GAMES = [(name, preset) for name in rules.game_names() for preset in rules.presets(name)]
IDS = [f"{name}-{preset}" for name, preset in GAMES]
# CI runs the full count; a quick local run can lower it with SPIELTISCH_CONFORMANCE_GAMES.
GAMES_PER_PRESET = int(os.environ.get("SPIELTISCH_CONFORMANCE_GAMES", "1000"))
# A random Backgammon game is ~10x longer than a MÄDN one in steps and checks; 100 games
# per preset (nine presets, 900 games in all) keep the suite within its time budget (the
# gnubg cross-check in tests/test_backgammon*.py covers move generation on thousands
# more positions).
SCALE = {"backgammon": 0.1}
MAX_STEPS = 200_000


def roundtrip(state: State) -> None:
    data = state.to_json()
    text = json.dumps(data)
    again = rules.state_from_json(json.loads(text))
    assert again == state, (data, again.to_json())
    assert hash(again) == hash(state)
    assert again.to_json() == data


def check_decision(state: State) -> None:
    moves = state.legal_moves()
    assert moves, f"empty legal-move list at {state.to_json()}"
    notes = [m.notation for m in moves]
    assert len(set(notes)) == len(notes), notes
    before = state.to_json()
    for move in moves:
        assert state.parse_move(move.notation) == move
        after = state.apply(move)
        assert after != state or isinstance(move, Pass) or after.to_json() != before
    assert state.to_json() == before, "apply mutated the state"


def check_chance(state: State) -> None:
    outcomes = state.chance_outcomes()
    assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
    assert all(p > 0 for _, p in outcomes)
    rolls = [dice for dice, _ in outcomes]
    assert len(set(rolls)) == len(rolls)


@pytest.mark.parametrize(("name", "preset"), GAMES, ids=IDS)
def test_random_games_keep_invariants(name: str, preset: str) -> None:
    game = rules.get_game(name, preset)
    bot = RandomBot()
    deep_every = 7  # full per-move checks on a sample of steps keep the suite quick
    for seed in range(max(1, int(GAMES_PER_PRESET * SCALE.get(name, 1.0)))):
        rng = random.Random(seed)
        players = game.player_counts[seed % len(game.player_counts)]
        state = game.new_state(players)
        roundtrip(state)
        for step in range(MAX_STEPS):
            if state.is_terminal():
                break
            deep = step % deep_every == seed % deep_every
            if deep:
                roundtrip(state)
            if state.is_chance():
                if deep:
                    check_chance(state)
                state = state.roll(sample_roll(state.chance_outcomes(), rng))
            else:
                if deep:
                    check_decision(state)
                state = state.apply(bot.choose(state, rng))
        else:
            pytest.fail(f"{name}/{preset} seed {seed} did not end in {MAX_STEPS} steps")
        roundtrip(state)
        assert state.winners(), f"seed {seed}: a finished game has a winner"


@pytest.mark.parametrize(("name", "preset"), GAMES, ids=IDS)
def test_same_seed_same_game(name: str, preset: str) -> None:
    """Reproducibility: the caller's RNG is the only source of chance."""
    from rules.playout import play_game

    game = rules.get_game(name, preset)
    start = game.new_state()
    bots = {p: RandomBot() for p in start.to_json().get("players", ["a", "b"])}
    first = play_game(start, bots, random.Random(42), record_history=True)
    second = play_game(start, bots, random.Random(42), record_history=True)
    assert first.history == second.history
    assert first.final == second.final


@pytest.mark.parametrize(("name", "preset"), GAMES, ids=IDS)
def test_fast_random_playout_matches_generic_driver(name: str, preset: str) -> None:
    """Games that declare a fast random playout must replay the generic driver exactly."""
    from rules.playout import play_game

    game = rules.get_game(name, preset)
    start = game.new_state()
    fast_playout = rules.capabilities(name).fast_playout
    if fast_playout is None:
        pytest.skip(f"{name} declares no fast playout")
    bots = {p: RandomBot() for p in start.to_json()["players"]}
    for seed in range(300):
        record = play_game(start, bots, random.Random(seed))
        fast = fast_playout(start, random.Random(seed))
        assert fast == (record.winners, record.throws, record.moves, record.passes), seed


@pytest.mark.parametrize(("name", "preset"), GAMES, ids=IDS)
def test_typed_facts_say_what_the_json_says(name: str, preset: str) -> None:
    """The facts the table reads of every state (its players, whether it is an opening
    throw, the dice on show) agree with the state's JSON at every step, for every
    player count: the table asks the state instead of reading its JSON by key."""
    game = rules.get_game(name, preset)
    bot = RandomBot()
    for seed in range(max(4, int(40 * SCALE.get(name, 1.0)))):
        rng = random.Random(seed)
        state = game.new_state(game.player_counts[seed % len(game.player_counts)])
        for _step in range(MAX_STEPS):
            data = state.to_json()
            assert state.players == tuple(data["players"]), data
            assert state.is_opening() is (data.get("phase") == "opening"), data
            assert state.dice_shown() == tuple(data.get("dice", ())), data
            if state.is_terminal():
                break
            if state.is_chance():
                state = state.roll(sample_roll(state.chance_outcomes(), rng))
            else:
                state = state.apply(bot.choose(state, rng))
