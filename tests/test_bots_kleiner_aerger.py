"""Kleiner Ärger's strong player: the exact policy table and how it is read.

The table itself comes from ``benchmarks/kleiner_aerger_optimum.py`` (value iteration
over every reachable 2-player state, optimum P(win) 0.61096 for the first player against
the random bot); ``benchmarks/bots.py`` measures the bot's win rate. Here: the slot
layout is a bijection, the table answers every two-move decision of real games from
either seat, the two seats really are mirror images (which is why one table serves
both), a winning move is taken, and anything outside the table falls back to the
expectimax player.
"""

from __future__ import annotations

import random

import rules
from rules.bots import RandomBot, StrongBot, make_bot
from rules.core import State
from rules.playout import play_game
from rules.track.bot import TrackBot
from rules.track.engine import MaednState, TrackMove
from rules.track.kleiner_aerger_bot import (
    PAIRS,
    UNKNOWN,
    VALUES,
    KleinerAergerBot,
    lookup,
    pair_index,
    policy_index,
    slots,
)

START_FIELD = {"red": 0, "green": 12}
"""Ring fields of the two starts (opposite each other on the 24-field ring)."""


def field(colour: str, progress: int) -> object:
    """The JSON token of a piece ``progress`` steps along from its colour's start."""
    if progress < 0:
        return "out"
    if progress < 24:
        return (START_FIELD[colour] + progress) % 24
    return "lap" if progress == 24 else f"goal{progress - 24}"


def position(progress: dict[str, list[int]], turn: str, die: int) -> MaednState:
    """A decision position given in each colour's own progress values."""
    pieces = {c: [field(c, p) for p in ps] for c, ps in progress.items()}
    state = rules.get_game("kleiner_aerger").state_from_json(
        {
            "game": "kleiner_aerger",
            "players": ["red", "green"],
            "turn": turn,
            "phase": "move",
            "dice": [die],
            "pieces": pieces,
        }
    )
    assert isinstance(state, MaednState)
    assert state.pieces == tuple(tuple(sorted(progress[c])) for c in ("red", "green"))
    return state


def steps(state: MaednState) -> set[tuple[int, int, bool]]:
    """The legal moves in the mover's own progress values."""
    moves = [m for m in state.legal_moves() if isinstance(m, TrackMove)]
    return {(m.from_progress, m.to_progress, m.capture) for m in moves}


def test_slots_are_a_bijection() -> None:
    pairs = {pair_index((a, b)) for a in range(-1, VALUES - 1) for b in range(a, VALUES - 1)}
    assert pairs == set(range(PAIRS))
    assert pair_index((5, 3)) == pair_index((3, 5))
    assert policy_index((26, 26), (26, 26), 6, 3) == slots() - 1


def test_the_table_answers_every_two_move_decision_of_real_games() -> None:
    """Seeded 2-player games from either first player, both seats deciding."""
    game = rules.get_game("kleiner_aerger")
    rng = random.Random(11)
    asked = answered = 0
    for first in ("red", "green") * 40:
        state: State = game.new_state(2, first=first)
        while not state.is_terminal():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.roll(outcomes[rng.randrange(len(outcomes))][0])
                continue
            moves = state.legal_moves()
            if len(moves) == 2:
                assert isinstance(state, MaednState)
                asked += 1
                answered += lookup(state) != UNKNOWN
            state = state.apply(moves[rng.randrange(len(moves))])
    assert asked > 500
    assert answered == asked


def test_the_seats_are_mirror_images() -> None:
    """Progress is counted from each colour's own start and the starts sit opposite, so
    swapping colours gives the same legal moves (listed in another order, which is why
    the table names a move by its piece's progress): one table serves both seats."""
    red = position({"red": [3, 14], "green": [9, -1]}, "red", 4)
    green = position({"green": [3, 14], "red": [9, -1]}, "green", 4)
    assert steps(red) == steps(green)
    assert lookup(red) == lookup(green) != UNKNOWN
    bot = KleinerAergerBot()
    chosen = [bot.choose(s, random.Random(0)) for s in (red, green)]
    picks = {(m.from_progress, m.to_progress) for m in chosen if isinstance(m, TrackMove)}
    assert len(picks) == 1 and len(chosen) == 2, chosen


def test_green_takes_the_exposed_piece_into_the_goal_like_red() -> None:
    """The mirror of ``test_bots.py``'s red case, read from the same table: with a 4
    the piece just ahead of an opponent goes into the goal."""
    # test_bots.py's red case on the ring: red on 22 and 5, green on 20 and out.
    state = position({"green": [22, 5], "red": [(20 - 12) % 24, -1]}, "green", 4)
    assert {m.notation for m in state.legal_moves()} == {"10-goal2", "17-21"}
    assert lookup(state) != UNKNOWN
    assert make_bot("strong").choose(state, random.Random(0)).notation == "10-goal2"


def test_outside_the_table_the_expectimax_player_answers() -> None:
    """Three players are not in the table (it is the 2-player game)."""
    game = rules.get_game("kleiner_aerger")
    start = game.new_state(3, first="red")
    bots = {p: RandomBot() for p in start.to_json()["players"]}
    bots["red"] = KleinerAergerBot()  # type: ignore[assignment]
    record = play_game(start, bots, random.Random(3))
    assert record.final.is_terminal()
    assert isinstance(KleinerAergerBot().fallback, TrackBot)


def test_strong_dispatches_to_the_exact_player() -> None:
    assert isinstance(StrongBot().player_for("kleiner_aerger"), KleinerAergerBot)
