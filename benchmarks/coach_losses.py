"""How much a random player's moves lose against the strong player's, by the coach's
figures: the distribution the coach's threshold (``Capabilities.coach_threshold``) is
set from.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/coach_losses.py --game maedn --games 20
    .venv/bin/python benchmarks/coach_losses.py --game backgammon --games 8

Seeded games in which every non-forced decision is a random legal move; at each, the
loss of that move is the strong player's value of its own move minus its value of the
random one (``rules.coach``: the strong player without a clock, ``move_values``). The
percentiles of the losses and the share above the threshold are printed.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

import rules
from rules.coach import _valuer
from rules.playout import sample_roll

GAMES = {"maedn": "classic", "kleiner_aerger": "standard", "backgammon": "single"}


def losses(game: str, games: int, seed: int, players: int) -> list[float]:
    engine = rules.get_game(game, GAMES[game])
    player = _valuer(game)
    values = rules.capabilities(game).move_values
    assert values is not None
    found: list[float] = []
    for number in range(games):
        rng = random.Random(seed * 1_000_003 + number)
        state = engine.new_state(None if game == "backgammon" else players)
        while not state.is_terminal():
            if state.is_chance():
                state = state.roll(sample_roll(state.chance_outcomes(), rng))
                continue
            moves = state.legal_moves()
            valued = values(player, state) if len(moves) > 1 else None
            if not valued:
                state = state.apply(player.choose(state, rng))
                continue
            table = dict(valued)
            best = player.choose(state, random.Random(0))
            chosen = moves[rng.randrange(len(moves))]
            if best in table and chosen in table:
                found.append(table[best] - table[chosen])
            state = state.apply(chosen)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="maedn")
    parser.add_argument("--games", type=counted(1), default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=counted(2, 4), default=4)
    args = parser.parse_args(argv)
    found = sorted(losses(args.game, args.games, args.seed, args.players))
    threshold = rules.capabilities(args.game).coach_threshold
    assert threshold is not None and found

    def at(share: float) -> float:
        return found[int(share * (len(found) - 1))]

    above = sum(loss > threshold for loss in found) / len(found)
    cuts = ", ".join(f"{at(p / 100):.3f}" for p in (10, 25, 50, 75, 90))
    print(
        f"{args.game}: {len(found)} random non-forced moves in {args.games} games; loss "
        f"percentiles 10/25/50/75/90: {cuts}; above the threshold {threshold}: "
        f"{100 * above:.1f} %"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
