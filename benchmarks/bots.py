"""Every computer-player target of issue 9 with its measured value, in one run.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/bots.py [--games 2000] [--seed 1] [--jobs 2]

Each game ``i`` is played with ``random.Random(seed * 1_000_003 + i)``, so the result
does not depend on ``--jobs``, and other seeds re-measure the same targets. The strong
bot thinks within its default budget plus a real clock (0.5 s per move), exactly as the
appliance runs it; per-move times are measured here, outside the rules.

Targets (issue 9):

* MÄDN classic, 4 players, strong vs 3 random: >= 48 % wins (baseline 25 %);
* Kleiner Ärger, 2 players, strong as first player vs random: >= 58 % (optimum ~61 %);
* median time per strong move <= 0.5 s.

* Mini-Maki: the exact win probability under optimal play (value iteration, cached in
  ``--state-dir``), its Bellman residual re-checked through the engine's own API on
  random positions, and the measured win rate of the bot over ``--minimaki-games``.

* Backgammon: strong vs the separate pubeval yardstick (``benchmarks/pubeval.py``) over
  ``--bg-games`` money games, colours alternating: target >= 60 % wins, median time per
  decision <= 0.5 s. Also reported: net points per game (cube and gammons counted) and
  the median over checker plays alone. ``--yardstick gnubg-pubeval`` plays GNU
  Backgammon's own pubeval (``gnubg-nn``) instead, an opponent sharing no code with us.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import rules
from rules.bots import Bot, RandomBot, make_bot
from rules.budget import Budget
from rules.core import Move, State
from rules.minimaki import bot as bot_minimaki
from rules.playout import play_game


class TimedBot:
    """Wraps a bot and records the wall time of every choice with several options."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []
        self.moves: list[Move] = []

    def choose(self, state: State, rng: random.Random) -> Move:
        if len(state.legal_moves()) == 1:
            return self.inner.choose(state, rng)
        start = time.perf_counter()
        move = self.inner.choose(state, rng)
        self.times.append(time.perf_counter() - start)
        self.moves.append(move)
        return move


@dataclass(frozen=True)
class Case:
    label: str
    game: str
    players: int
    first: str | None
    target: float
    baseline: str


CASES = [
    Case("MÄDN classic, 4 players, strong vs 3 random", "maedn", 4, None, 0.48, "25 %"),
    Case(
        "Kleiner Ärger, 2 players, strong first vs random",
        "kleiner_aerger",
        2,
        "red",
        0.58,
        "51.5 % (random vs random, measured)",
    ),
]


def play_range(case: Case, seed: int, lo: int, hi: int) -> tuple[int, list[float]]:
    """Games ``lo``..``hi - 1`` of a case: wins of the strong seat and its move times."""
    game = rules.get_game(case.game)
    kwargs = {"first": case.first} if case.first else {}
    start = game.new_state(case.players, **kwargs)
    players = list(start.to_json()["players"])
    strong = TimedBot(make_bot("strong", Budget(clock=time.perf_counter)))
    bots: dict[str, Bot] = {p: RandomBot() for p in players}
    bots[players[0]] = strong
    wins = 0
    for i in range(lo, hi):
        record = play_game(start, bots, random.Random(seed * 1_000_003 + i))
        wins += record.winners[0] == players[0]
    return wins, strong.times


def measure(case: Case, games: int, seed: int, jobs: int) -> tuple[float, list[float]]:
    chunks = [(games * k // jobs, games * (k + 1) // jobs) for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(play_range, case, seed, lo, hi) for lo, hi in chunks]
        parts = [f.result() for f in futures]
    wins = sum(w for w, _ in parts)
    times = [t for _, ts in parts for t in ts]
    return wins / games, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--minimaki-games", type=int, default=10_000)
    parser.add_argument("--bg-games", type=int, default=2000)
    parser.add_argument(
        "--yardstick",
        choices=["pubeval", "gnubg-pubeval"],
        default="pubeval",
        help="Backgammon opponent: benchmarks/pubeval.py, or GNU Backgammon's own pubeval",
    )
    parser.add_argument(
        "--lookahead", action="store_true", help="Backgammon: the one-roll lookahead on"
    )
    parser.add_argument(
        "--bg-weights",
        type=Path,
        help="Backgammon: measure the network in this weights file (train_backgammon_net.py --out)",
    )
    parser.add_argument(
        "--only", choices=["track", "minimaki", "backgammon"], help="run one part only"
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=Path.home() / ".cache" / "spieltisch",
        help="where the Mini-Maki solution is cached",
    )
    args = parser.parse_args(argv)
    report: Callable[[str], None] = print
    all_met = True
    for case in CASES if args.only in (None, "track") else []:
        began = time.perf_counter()
        rate, times = measure(case, args.games, args.seed, args.jobs)
        took = time.perf_counter() - began
        se = (rate * (1 - rate) / args.games) ** 0.5
        met = rate >= case.target
        all_met &= met
        median = statistics.median(times) if times else 0.0
        worst = max(times) if times else 0.0
        report(
            f"{case.label}: {rate:.1%} ± {se:.1%} of {args.games} games "
            f"(target >= {case.target:.0%}, baseline {case.baseline}) "
            f"{'MET' if met else 'MISSED'}; strong move median {median * 1000:.1f} ms, "
            f"max {worst * 1000:.0f} ms over {len(times)} choices; {took:.0f} s"
        )
        all_met &= median <= 0.5
    if args.only in (None, "minimaki"):
        minimaki_report(args, report)
    if args.only in (None, "backgammon"):
        all_met &= backgammon_report(args, report)
    return 0 if all_met else 1


@dataclass
class BackgammonTally:
    """What one chunk of strong-vs-yardstick money games produced."""

    wins: int = 0
    points: int = 0
    """The strong side's net points (cube and gammons included)."""
    play_times: list[float] = field(default_factory=list)
    """Seconds per checker play that had a choice (cube decisions are separate)."""
    cube_times: list[float] = field(default_factory=list)


class GnubgPubevalBot:
    """GNU Backgammon's own pubeval player (``gnubg_nn.pub_best_move``), a yardstick
    that shares no code with this project; it never doubles and always takes."""

    name = "gnubg-pubeval"

    def choose(self, state: State, rng: random.Random) -> Move:
        import gnubg_nn

        from rules.backgammon.engine import DOUBLE, TAKE, BackgammonState, Play

        assert isinstance(state, BackgammonState)
        moves = state.legal_moves()
        if state.phase in (DOUBLE, TAKE):
            return state.parse_move("roll" if state.phase == DOUBLE else "take")
        plays = [m for m in moves if isinstance(m, Play)]
        if not plays:
            return moves[0]
        mover, other = state.boards[state.turn], state.boards[1 - state.turn]
        board = [list(other), list(mover)]
        chosen = gnubg_nn.pub_best_move(board, *state.dice)
        if isinstance(chosen, tuple) and chosen and isinstance(chosen[0], tuple | list):
            chosen = chosen[0]
        after = _apply_gnubg_steps(mover, other, chosen)
        for play in plays:
            if (play.mover, play.other) == after:
                return play
        raise AssertionError(f"gnubg's pubeval play {chosen} is not among ours")


def _apply_gnubg_steps(
    mover: tuple[int, ...], other: tuple[int, ...], steps: Any
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Apply gnubg's (from, to) pairs (0-based points, 24 = bar, -1 = off) to our boards."""
    own, opp = list(mover), list(other)
    flat = list(steps)
    for k in range(0, len(flat), 2):
        src, dst = flat[k], flat[k + 1]
        if src < 0:
            break
        own[src] -= 1
        if dst >= 0:
            own[dst] += 1
            hit = 23 - dst  # our index dst is the opponent's index 23 - dst
            if opp[hit] == 1:
                opp[hit] = 0
                opp[24] += 1
    return tuple(own), tuple(opp)


def load_network(path: Path | None) -> Any:
    """The shipped network, or the weights file written by the trainer's ``--out``."""
    from rules.backgammon.net import from_bytes, shipped

    if path is None:
        return shipped()
    return from_bytes(path.read_bytes())


def play_backgammon(
    seed: int, lo: int, hi: int, yardstick_name: str, lookahead: bool, weights: Path | None
) -> BackgammonTally:
    """Money games ``lo``..``hi - 1``: strong takes white in even games, black in odd."""
    from pubeval import PubevalBot

    from rules.backgammon.bot import BackgammonBot
    from rules.backgammon.engine import BackgammonState, CubeAction

    game = rules.get_game("backgammon", "money")
    inner = BackgammonBot(
        Budget(clock=time.perf_counter), network=load_network(weights), lookahead=lookahead
    )
    timed = TimedBot(inner)
    yardstick: Bot = PubevalBot() if yardstick_name == "pubeval" else GnubgPubevalBot()
    tally = BackgammonTally()
    for i in range(lo, hi):
        seat = i % 2  # 0 white, 1 black
        seats: dict[str, Bot] = (
            {"white": timed, "black": yardstick}
            if seat == 0
            else {"white": yardstick, "black": timed}
        )
        before = len(timed.times)
        record = play_game(game.new_state(), seats, random.Random(seed * 1_000_003 + i))
        final = record.final
        assert isinstance(final, BackgammonState)
        tally.wins += record.winners[0] == ("white", "black")[seat]
        winner, points, _ = final.results[-1]
        tally.points += points if winner == seat else -points
        for took, move in zip(timed.times[before:], timed.moves[before:], strict=True):
            (tally.cube_times if isinstance(move, CubeAction) else tally.play_times).append(took)
    return tally


def backgammon_report(args: argparse.Namespace, report: Callable[[str], None]) -> bool:
    games, jobs = args.bg_games, args.jobs
    chunks = [(games * k // jobs, games * (k + 1) // jobs) for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(
                play_backgammon, args.seed, lo, hi, args.yardstick, args.lookahead, args.bg_weights
            )
            for lo, hi in chunks
        ]
        parts = [f.result() for f in futures]
    rate = sum(p.wins for p in parts) / games
    ppg = sum(p.points for p in parts) / games
    plays = [t for p in parts for t in p.play_times]
    cubes = [t for p in parts for t in p.cube_times]
    everything = plays + cubes
    se = (rate * (1 - rate) / games) ** 0.5
    median = statistics.median(everything) * 1000 if everything else 0.0
    play_median = statistics.median(plays) * 1000 if plays else 0.0
    worst = max(everything) * 1000 if everything else 0.0
    met = rate >= 0.60 and median <= 500
    report(
        f"Backgammon, strong{' +lookahead' if args.lookahead else ''} vs {args.yardstick}, "
        f"money games: {rate:.1%} ± {se:.1%} of {games} "
        f"(target >= 60 %) {'MET' if met else 'MISSED'}; {ppg:+.3f} points per game; "
        f"decision median {median:.1f} ms over {len(everything)} (checker plays only: "
        f"median {play_median:.1f} ms over {len(plays)}), max {worst:.0f} ms"
    )
    return met


def load_or_solve(state_dir: Path, report: Callable[[str], None]) -> bot_minimaki.MinimakiSolution:
    """The cached solution of the standard rules, solving (minutes) if there is none."""
    cache = state_dir / "minimaki-standard.bin"
    if cache.exists():
        return bot_minimaki.MinimakiSolution.from_bytes(cache.read_bytes())
    began = time.perf_counter()
    solution = bot_minimaki.solve(diagonal=False)
    report(f"Mini-Maki solved in {time.perf_counter() - began:.0f} s; cached in {cache}")
    state_dir.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(".tmp")
    tmp.write_bytes(solution.to_bytes())
    tmp.replace(cache)
    return solution


def bellman_residual(solution: bot_minimaki.MinimakiSolution, samples: int, seed: int) -> float:
    """Largest |V(s) - sum_roll p * V(after roll)| over random positions, with the rolls
    played by the engine's API (``state.roll``), not by the solver's transitions."""
    game = rules.get_game("minimaki")
    rng = random.Random(seed)
    worst = 0.0
    for _ in range(samples):
        rows = [rng.randint(1, 5) for _ in range(6)]
        col = rng.randint(1, 6)
        row = rng.choice([r for r in range(2, 7) if rows[col - 1] != r])
        state = game.state_from_json(
            {"game": "minimaki", "black": rows, "red": [row, col], "to_move": "black"}
        )
        expected = 0.0
        for dice, p in state.chance_outcomes():
            after = state.roll(dice)
            if after.is_terminal():
                continue
            value = bot_minimaki.win_probability(after)
            assert value is not None
            expected += p * value
        worst = max(worst, abs(expected - solution.value_at_roll(rows, (row, col))))
    return worst


def minimaki_report(args: argparse.Namespace, report: Callable[[str], None]) -> None:
    solution = load_or_solve(args.state_dir, report)
    bot_minimaki.install_solution(solution)
    start = rules.get_game("minimaki").new_state()
    fields = [solution.value_at_roll((1,) * 6, (6, c)) for c in range(1, 7)]
    best = max(fields)
    report(
        f"Mini-Maki exact P(win) under optimal play (standard rules): {best:.6f} "
        f"(start fields c1..c6: {', '.join(f'{v:.4f}' for v in fields)})"
    )
    report(
        f"Mini-Maki Bellman residual via the engine on 2000 random positions: "
        f"{bellman_residual(solution, 2000, args.seed):.1e}"
    )
    bot = TimedBot(make_bot("strong", Budget(clock=time.perf_counter)))
    wins = 0
    for i in range(args.minimaki_games):
        record = play_game(start, {"red": bot}, random.Random(args.seed * 1_000_003 + i))
        wins += record.winners[0] == "red"
    rate = wins / args.minimaki_games
    se = (rate * (1 - rate) / args.minimaki_games) ** 0.5
    median = statistics.median(bot.times) * 1000 if bot.times else 0.0
    report(
        f"Mini-Maki measured: {rate:.2%} ± {se:.2%} of {args.minimaki_games} games "
        f"(exact {best:.2%}); move median {median:.2f} ms"
    )


if __name__ == "__main__":
    sys.exit(main())
