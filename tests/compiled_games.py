"""Games that the pure-Python and the compiled rules must play identically.

tests/test_compiled.py runs this file as a script, once with the pure rules and once with
the compiled ones, and compares the JSON it prints key by key. It imports only the rules
and the standard library, so that it runs in a venv that has nothing but the installed
wheel. Every game and preset takes part, with no names listed here:

* ``conformance/...``: seeded random games as the conformance suite plays them, every
  state's JSON, every decision's legal moves and every chance node's outcomes with their
  probabilities, folded into one SHA-256 per game and preset;
* ``fast/...``: the games' fast random playouts, where a game has one;
* ``strong/...``: seeded games between the strong players, move by move, and the final
  position (the Backgammon player ranks by its network: floating point all the way);
* ``network``: the Backgammon network's probabilities and pubeval's scores, printed
  exactly (JSON floats round-trip bit for bit), on the positions of a played game.

The first key, ``build``, says which rules ran, so the test can check it compared two
different builds.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import rules
from rules.backgammon.engine import BackgammonState
from rules.backgammon.net import shipped
from rules.backgammon.pubeval import pubeval
from rules.bots import RandomBot, StrongBot
from rules.budget import Budget
from rules.build_info import build_variant, compiled_modules
from rules.playout import PlayStep, play_game, sample_roll

CONFORMANCE_GAMES = 100
"""Random games per preset, hashed step by step (the suite itself plays 1000)."""
FAST_GAMES = 200
STRONG_GAMES = 3
STRONG_BUDGET = Budget(nodes=2000)
"""Small, so that the strong games stay quick in pure Python, yet the searches still
stop on the node budget (a clock would make the games irreproducible)."""


def cases() -> list[tuple[str, str]]:
    return [(name, preset) for name in rules.game_names() for preset in rules.presets(name)]


def conformance_digest(name: str, preset: str) -> str:
    game = rules.get_game(name, preset)
    bot = RandomBot()
    digest = hashlib.sha256()

    def fold(value: object) -> None:
        digest.update(json.dumps(value, sort_keys=True).encode())

    for seed in range(CONFORMANCE_GAMES):
        rng = random.Random(seed)
        state = game.new_state(game.player_counts[seed % len(game.player_counts)])
        while not state.is_terminal():
            fold(state.to_json())
            if state.is_chance():
                outcomes = state.chance_outcomes()
                fold([[list(dice), p] for dice, p in outcomes])
                state = state.roll(sample_roll(outcomes, rng))
            else:
                fold([move.notation for move in state.legal_moves()])
                state = state.apply(bot.choose(state, rng))
        fold([state.to_json(), list(state.winners())])
    return digest.hexdigest()


def fast_playouts(name: str, preset: str) -> list[Any] | None:
    fast = rules.capabilities(name).fast_playout
    if fast is None:
        return None
    start = rules.get_game(name, preset).new_state()
    rng = random.Random(1)
    results = []
    for _ in range(FAST_GAMES):
        winners, throws, moves, passes = fast(start, rng)
        results.append([list(winners), throws, moves, passes])
    return results


def strong_games(name: str, preset: str) -> list[Any]:
    start = rules.get_game(name, preset).new_state()
    played = []
    for seed in range(STRONG_GAMES):
        bot = StrongBot(STRONG_BUDGET)
        seats = start.to_json().get("players", ["a", "b"])
        record = play_game(start, dict.fromkeys(seats, bot), random.Random(seed), True)
        played.append(
            {
                "history": record.history,
                "final": record.final.to_json(),
                "counts": [list(record.winners), record.throws, record.moves, record.passes],
            }
        )
    return played


def network_values() -> list[Any]:
    """The network and pubeval on every position of one strong Backgammon game."""
    network = shipped()
    values: list[Any] = []

    def evaluate(step: PlayStep) -> None:
        state = step.before
        if isinstance(state, BackgammonState):
            mover, other = state.boards[state.turn], state.boards[1 - state.turn]
            values.append(
                [
                    list(network.probabilities(mover, other)),
                    list(network.reference_probabilities(mover, other)),
                    pubeval(mover, other),
                ]
            )

    start = rules.get_game("backgammon", "single").new_state()
    bot = StrongBot(STRONG_BUDGET)
    play_game(start, {"white": bot, "black": bot}, random.Random(3), on_step=evaluate)
    return values


def main() -> None:
    out: dict[str, Any] = {"build": build_variant(), "compiled": compiled_modules()}
    for name, preset in cases():
        out[f"conformance/{name}/{preset}"] = conformance_digest(name, preset)
        out[f"fast/{name}/{preset}"] = fast_playouts(name, preset)
        out[f"strong/{name}/{preset}"] = strong_games(name, preset)
    out["network"] = network_values()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
