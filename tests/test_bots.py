"""Computer players: legal, deterministic, budgeted, and better than random.

Win-rate targets are measured with 2000 seeded games in ``benchmarks/bots.py``; these
tests use small samples and assert only what is robust at that size.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from rules.bots import BOT_KINDS, RandomBot, StrongBot, make_bot
from rules.budget import Budget
from rules.core import Pass, State
from rules.errors import UnknownGameError
from rules.playout import play_game
from rules.track.bot import TrackBot, hit_chances
from rules.track.engine import MaednState
from rules.track.kleiner_aerger_bot import KleinerAergerBot
from tests.helpers import position

ROOT = Path(__file__).resolve().parent.parent
GAMES = [(name, preset) for name in rules.game_names() for preset in rules.presets(name)]


def maedn(**fields: object) -> MaednState:
    state = position("maedn", "classic", **fields)
    assert isinstance(state, MaednState)
    return state


def test_bot_kinds_include_random_and_strong() -> None:
    assert {"random", "strong"} <= set(BOT_KINDS)
    with pytest.raises(UnknownGameError, match="unknown bot 'genius'"):
        make_bot("genius")


@pytest.mark.parametrize(("name", "preset"), GAMES, ids=[f"{n}-{p}" for n, p in GAMES])
def test_strong_bot_plays_legal_moves_in_every_game(name: str, preset: str) -> None:
    """'strong' must work for every registered game and preset."""
    game = rules.get_game(name, preset)
    strong = make_bot("strong", Budget(nodes=200))
    for seed in range(1):
        start = game.new_state()
        players = list(start.to_json().get("players", [])) or [start.current_player or ""]
        bots = {p: strong for p in players} | {"black": RandomBot()}
        state: State = start
        rng = random.Random(seed)
        checked = 0
        for _ in range(200_000):
            if state.is_terminal():
                break
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.roll(outcomes[rng.randrange(len(outcomes))][0])
                continue
            move = bots.get(state.current_player or "", strong).choose(state, rng)
            assert move in state.legal_moves()
            checked += 1
            state = state.apply(move)
        assert state.is_terminal() and checked > 0


@pytest.mark.parametrize("name", ["maedn", "kleiner_aerger"])
def test_same_seed_same_game_with_strong_bots(name: str) -> None:
    """Bots are pure: the caller's seeded RNG is the only source of chance."""
    start = rules.get_game(name).new_state(2)
    bots = {p: make_bot("strong") for p in start.to_json()["players"]}
    first = play_game(start, bots, random.Random(5), record_history=True)
    second = play_game(start, bots, random.Random(5), record_history=True)
    assert first.history == second.history


def test_strong_beats_random_in_four_player_maedn() -> None:
    """Baseline 25 %; the benchmark measures about 48 % over 2000 games."""
    game = rules.get_game("maedn", "classic")
    start = game.new_state(4)
    bots = {p: RandomBot() for p in start.players}
    bots["red"] = make_bot("strong")  # type: ignore[assignment]
    rng = random.Random(2024)
    games = 160
    wins = sum(play_game(start, bots, rng).winners[0] == "red" for _ in range(games))
    assert wins / games >= 0.35, wins


def test_strong_beats_random_in_kleiner_aerger() -> None:
    """Random vs random: the first player wins 51.5 %; the strong bot about 60 %."""
    game = rules.get_game("kleiner_aerger")
    start = game.new_state(2, first="red")
    rng = random.Random(77)
    games = 80
    bots = {"red": make_bot("strong"), "green": RandomBot()}
    wins = sum(play_game(start, bots, rng).winners[0] == "red" for _ in range(games))
    assert wins / games >= 0.53, wins


def test_budget_with_an_expired_clock_still_answers() -> None:
    """When the time is up the bot returns its best move so far."""
    ticks = itertools.count()
    budget = Budget(seconds=0.5, clock=lambda: float(next(ticks)))
    state = position(
        "kleiner_aerger",
        players=["red", "green"],
        turn="red",
        pieces={"red": [3, 10], "green": [5, 14]},
        dice=[2],
    )
    bot = TrackBot(budget, depth=6)
    move = bot.choose(state, random.Random(0))
    assert move in state.legal_moves()
    assert next(ticks) < 10, "the clock was consulted only a few times before stopping"


def test_budget_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="at least 1 node"):
        Budget(nodes=0)
    with pytest.raises(ValueError, match="must be positive"):
        Budget(seconds=0)


def test_node_budget_returns_the_shallow_answer() -> None:
    """A budget too small for the deeper pass keeps the best move found so far: the
    answer of the one-move search."""
    state = position(
        "kleiner_aerger",
        players=["red", "green"],
        turn="red",
        pieces={"red": [3, 10], "green": [5, 14]},
        dice=[6],
    )
    tiny = TrackBot(Budget(nodes=3), depth=6).choose(state, random.Random(0))
    shallow = TrackBot(Budget(), depth=1).choose(state, random.Random(0))
    assert tiny == shallow


def test_piece_in_front_of_an_opponent_is_exposed() -> None:
    """An opponent 3 fields behind hits with a 3 (1/6; captures are forced, rule 10),
    one 8 behind needs a 6 and a 2 (1/36); a goal piece is never captured."""
    state = maedn(
        players=["red", "green"],
        turn="red",
        pieces={"red": [33, 5, "goal4", "home"], "green": [30, 37, "home", "home"]},
    )
    red_chances = dict(zip(state.progress("red"), hit_chances(state)[0], strict=True))
    assert red_chances[33] == pytest.approx(1 / 6)
    assert red_chances[5] == pytest.approx(1 / 36)
    assert red_chances[43] == 0.0  # goal4 is progress 43


def test_piece_on_an_opponents_start_is_exposed_to_entering() -> None:
    """Rule 4: a waiting opponent enters on a 6 and captures on its start field; with
    no piece that can advance it has 3 tries (rule 2)."""
    state = maedn(
        players=["red", "green"],
        turn="red",
        pieces={"red": [20, "home", "home", "home"], "green": ["home"] * 4},
    )
    red_chances = dict(zip(state.progress("red"), hit_chances(state)[0], strict=True))
    assert red_chances[20] == pytest.approx(1 - (5 / 6) ** 3)


def test_strong_bot_takes_an_exposed_piece_into_the_goal() -> None:
    """Kleiner Ärger: with a 4 the piece two fields ahead of an opponent goes into the
    goal ("Häuschen") instead of staying exposed while the other piece walks."""
    state = position(
        "kleiner_aerger",
        players=["red", "green"],
        turn="red",
        pieces={"red": [22, 5], "green": [20, "out"]},
        dice=[4],
    )
    assert {m.notation for m in state.legal_moves()} == {"22-goal2", "5-9"}
    assert make_bot("strong").choose(state, random.Random(0)).notation == "22-goal2"


def test_strong_bot_captures_when_it_pays() -> None:
    """Kleiner Ärger (no "Schlagzwang"): capturing a far-advanced opponent is chosen."""
    state = position(
        "kleiner_aerger",
        players=["red", "green"],
        turn="red",
        pieces={"red": [6, 2], "green": [9, "out"]},
        dice=[3],
    )
    moves = {m.notation for m in state.legal_moves()}
    assert "6-9x" in moves
    assert make_bot("strong").choose(state, random.Random(1)).notation == "6-9x"


def test_strong_dispatches_per_game() -> None:
    bot = StrongBot()
    assert isinstance(bot.player_for("maedn"), TrackBot)
    assert isinstance(bot.player_for("kleiner_aerger"), KleinerAergerBot)
    assert bot.player_for("maedn") is bot.player_for("maedn")


def test_random_bot_never_passes_with_a_real_move() -> None:
    state = position(
        "maedn",
        "lingo",
        players=["red", "green"],
        turn="red",
        pieces={"red": [3, "home", "home", "home"], "green": ["home"] * 4},
        dice=[2],
    )
    assert any(isinstance(m, Pass) for m in state.legal_moves())
    for seed in range(20):
        assert not isinstance(RandomBot().choose(state, random.Random(seed)), Pass)


def test_hint_jsonl_answers_each_line_as_it_is_read() -> None:
    """Another program can play against the bot through a pipe: the
    second question is only written after the first answer has arrived."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", "rules", "hint", "kleiner_aerger", "--jsonl"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    question = {
        "state": {
            "players": ["red", "green"],
            "turn": "red",
            "pieces": {"red": [3, "out"], "green": [8, "out"]},
        },
        "dice": [5],
    }
    try:
        for _ in range(2):
            proc.stdin.write(json.dumps(question) + "\n")
            proc.stdin.flush()
            answer = json.loads(proc.stdout.readline())
            assert answer["move"] in {"3-8x", "3-8"}
            assert answer["state"]["turn"] == "green"
        proc.stdin.write("{broken\n")
        proc.stdin.flush()
        assert "error" in json.loads(proc.stdout.readline())
    finally:
        proc.stdin.close()
        code = proc.wait(timeout=120)
    assert code == 2
