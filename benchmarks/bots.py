"""Every computer-player target with its measured value, in one run.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/bots.py [--games 2000] [--seed 1] [--jobs 2]

Each game ``i`` is played with ``random.Random(seed * 1_000_003 + i)``, so the result
does not depend on ``--jobs``, and other seeds re-measure the same targets. The strong
bot thinks within its default budget plus a real clock (0.5 s per move), exactly as the
appliance runs it; per-move times are measured here, outside the rules.

A Raspberry Pi runs the rules 4-15 times slower than a laptop: ``--seconds 0.0833``
(0.5 s / 6) stands for the Pi's budget, and ``--clock cpu`` gives the bots this
process's CPU time instead of the wall clock, so that other work on a shared machine
neither starves them nor inflates their times. Whether the deeper searches run is the
bots' own decision (:func:`rules.budget.deeper_search_fits`: a clock and the compiled
rules); ``--lookahead on|off`` and ``--deeper on|off`` override it. To measure the
compiled rules, run this file from a tree whose ``rules/`` was compiled with mypyc: it
puts its own tree first on ``sys.path``, and every line names the rules it ran.

Targets:

* MÄDN classic, 4 players, strong vs 3 random: >= 48 % wins (baseline 25 %);
* Kleiner Ärger, 2 players, strong as first player vs random: >= 58 % (optimum ~61 %);
* Kleiner Ärger, 4 players, strong vs 3 random: >= 27 % (baseline 25 %);
* median time per strong move within the budget (``--seconds``, 0.5 s).

* Mini-Maki: ``spieltisch rules play minimaki --bots strong`` in a fresh process with an
  empty HOME, per preset over ``--minimaki-games``, against the exact P(win) of the
  shipped policy (``rules/minimaki/policy.json``): within two standard errors; the first
  hint in a fresh process (against ``rules moves`` as its peer); the table's load time
  and memory; and the wheel's size before and after the tables
  (``--wheel-baseline REV``, built from ``git archive``).

* Backgammon: strong vs the separate pubeval yardstick (``benchmarks/pubeval.py``) over
  ``--bg-games`` money games, colours alternating: target >= 60 % wins, median time per
  decision within the budget. Also reported: net points per game (cube and gammons counted) and
  the median over checker plays alone. ``--yardstick gnubg-pubeval`` plays GNU
  Backgammon's own pubeval (``gnubg-nn``) instead, an opponent sharing no code with us.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted, seconds_type, share_type

if TYPE_CHECKING:
    from rules.backgammon.bot import BackgammonBot

import rules
from controller.collector import collector_paused
from rules.bots import Bot, RandomBot, make_bot
from rules.budget import DEFAULT_SECONDS, Budget
from rules.core import Move, State
from rules.playout import play_game

ROOT = Path(__file__).resolve().parent.parent


SWITCH: dict[str, bool | None] = {"on": True, "off": False, "auto": None}
"""``--lookahead`` and ``--deeper``: None lets the bot apply
:func:`rules.budget.deeper_search_fits`, exactly as the appliance does."""

CLOCKS: dict[str, Callable[[], float]] = {
    "wall": time.perf_counter,
    "cpu": time.process_time,
}
"""``--clock``: the bots' budget and the reported move times use the same clock. ``cpu``
is this process's CPU time, so other work on a shared machine neither starves the bot
of its budget nor inflates its times; the appliance itself uses a wall clock."""


def timed_choice(
    bot: Bot, state: State, rng: random.Random, clock: Callable[[], float]
) -> tuple[Move, float]:
    """One decision as the appliance's bot worker lets a bot decide, with the garbage
    collector paused until it is over (``controller.collector``), and its time by
    ``clock``: every benchmark that times a bot times it so."""
    with collector_paused():
        start = clock()
        move = bot.choose(state, rng)
        return move, clock() - start


class TimedBot:
    """Wraps a bot and records the time of every choice with several options."""

    def __init__(self, inner: Bot, clock: Callable[[], float] = time.perf_counter) -> None:
        self.inner = inner
        self.name = inner.name
        self.clock = clock
        self.times: list[float] = []
        self.moves: list[Move] = []

    def choose(self, state: State, rng: random.Random) -> Move:
        if len(state.legal_moves()) == 1:
            return self.inner.choose(state, rng)
        move, took = timed_choice(self.inner, state, rng, self.clock)
        self.times.append(took)
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
    Case(
        "Kleiner Ärger, 4 players, strong vs 3 random",
        "kleiner_aerger",
        4,
        None,
        0.27,
        "25 %",
    ),
]


def strong_track_bot(game: str, budget: Budget, deeper: bool | None) -> Bot:
    """The strong player of a track game; ``deeper`` None lets it decide by
    :func:`rules.budget.deeper_search_fits`, as the appliance does."""
    if deeper is None:
        return make_bot("strong", budget)
    if game == "maedn":
        from rules.track.bot import maedn_bot

        return maedn_bot(budget, deeper)
    from rules.track.kleiner_aerger_bot import KleinerAergerBot

    return KleinerAergerBot(budget, deeper=deeper)


def play_range(
    case: Case,
    seed: int,
    lo: int,
    hi: int,
    deeper: bool | None = None,
    seconds: float = DEFAULT_SECONDS,
    clock: str = "wall",
) -> tuple[int, list[float]]:
    """Games ``lo``..``hi - 1`` of a case: wins of the strong seat and its move times."""
    game = rules.get_game(case.game)
    kwargs = {"first": case.first} if case.first else {}
    start = game.new_state(case.players, **kwargs)
    players = list(start.to_json()["players"])
    budget = Budget(seconds=seconds, clock=CLOCKS[clock])
    strong = TimedBot(strong_track_bot(case.game, budget, deeper), CLOCKS[clock])
    bots: dict[str, Bot] = {p: RandomBot() for p in players}
    bots[players[0]] = strong
    wins = 0
    for i in range(lo, hi):
        record = play_game(start, bots, random.Random(seed * 1_000_003 + i))
        wins += record.winners[0] == players[0]
    return wins, strong.times


def measure(case: Case, args: argparse.Namespace) -> tuple[float, list[float]]:
    games, jobs = args.games, args.jobs
    chunks = [(games * k // jobs, games * (k + 1) // jobs) for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(
                play_range,
                case,
                args.seed,
                lo,
                hi,
                SWITCH[args.deeper],
                args.seconds,
                args.clock,
            )
            for lo, hi in chunks
        ]
        parts = [f.result() for f in futures]
    wins = sum(w for w, _ in parts)
    times = [t for _, ts in parts for t in ts]
    return wins / games, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=counted(1), default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=counted(1), default=2)
    parser.add_argument("--minimaki-games", type=counted(1), default=10_000)
    parser.add_argument("--bg-games", type=counted(1), default=2000)
    parser.add_argument(
        "--yardstick",
        choices=["pubeval", "gnubg-pubeval", "gnubg", "gnubg1"],
        default="pubeval",
        help="Backgammon opponent: benchmarks/pubeval.py, GNU Backgammon's own pubeval, "
        "or GNU Backgammon's 0-ply move choice (gnubg), or its 1-ply (gnubg1)",
    )
    parser.add_argument(
        "--bg-full",
        choices=sorted(SWITCH),
        default="auto",
        help="Backgammon: the full one-roll search on, off, or the bot's default (auto)",
    )
    parser.add_argument(
        "--lookahead",
        choices=sorted(SWITCH),
        nargs="?",
        const="on",
        default="auto",
        help="Backgammon: the one-roll lookahead on, off, or as the strong player decides "
        "(auto: rules.budget.deeper_search_fits); bare --lookahead means on",
    )
    parser.add_argument(
        "--deeper",
        choices=sorted(SWITCH),
        default="auto",
        help="MÄDN and Kleiner Ärger: the deeper expectimax on, off, or as the strong "
        "player decides (auto: rules.budget.deeper_search_fits)",
    )
    parser.add_argument(
        "--seconds",
        type=seconds_type,
        default=DEFAULT_SECONDS,
        help="the strong bots' time budget per move (0.5 s; a Raspberry Pi is 4-15x "
        "slower than a laptop, so 0.5 / 6 = 0.0833 s here stands for 0.5 s there)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="the clock of the budget and of the reported times: wall (as the appliance) "
        "or cpu (this process's CPU time, for a shared machine)",
    )
    parser.add_argument(
        "--bg-candidates",
        type=counted(0),
        default=None,
        help="Backgammon: plays the lookahead re-scores (default the bot's)",
    )
    parser.add_argument(
        "--bg-replies",
        type=counted(0),
        default=None,
        help="Backgammon: replies per roll the lookahead scores (default the bot's; 0 all)",
    )
    parser.add_argument(
        "--bg-blend",
        type=share_type,
        default=None,
        help="Backgammon: the ranking's share in a re-scored play's value (default the bot's)",
    )
    parser.add_argument(
        "--duplicate-dice",
        action="store_true",
        help="Backgammon: each pair of games shares its dice, the sides swapped (less luck)",
    )
    parser.add_argument(
        "--bg-weights",
        type=Path,
        help="Backgammon: measure the network in this weights file (train_backgammon_net.py --out)",
    )
    parser.add_argument(
        "--bg-race-weights",
        help="Backgammon: the race network in this weights file (train_backgammon_net.py "
        "--race --out), or 'main' for the main network in races too (default the shipped)",
    )
    parser.add_argument(
        "--only",
        choices=["track", "maedn", "kleiner_aerger", "minimaki", "backgammon"],
        help="run one part only (maedn, kleiner_aerger: that track game's cases)",
    )
    parser.add_argument(
        "--wheel-baseline",
        help="Mini-Maki: git revision whose wheel is the 'before' (default: the last one "
        "with the run-time solver)",
    )
    parser.add_argument("--no-wheel", action="store_true", help="Mini-Maki: skip the wheels")
    args = parser.parse_args(argv)
    report: Callable[[str], None] = print
    all_met = True
    for case in [c for c in CASES if args.only in (None, "track", c.game)]:
        began = time.perf_counter()
        rate, times = measure(case, args)
        took = time.perf_counter() - began
        se = (rate * (1 - rate) / args.games) ** 0.5
        low, high = wilson_interval(rate, args.games)
        met = rate >= case.target
        all_met &= met
        median = statistics.median(times) if times else 0.0
        worst = max(times) if times else 0.0
        report(
            f"{case.label} (deeper search {switch_label('deeper', args)}, "
            f"{build_label()}, {args.seconds:g} s {args.clock} "
            f"budget): {rate:.1%} ± {se:.1%} (95 %: {low:.1%}–{high:.1%}) of {args.games} "
            f"games (target >= {case.target:.0%}, baseline {case.baseline}) "
            f"{'MET' if met else 'MISSED'}; strong move median {median * 1000:.1f} ms, "
            f"max {worst * 1000:.0f} ms over {len(times)} choices; {took:.0f} s"
        )
        all_met &= median <= args.seconds
    if args.only in (None, "minimaki"):
        all_met &= minimaki_report(args, report)
    if args.only in (None, "backgammon"):
        all_met &= backgammon_report(args, report)
    return 0 if all_met else 1


@dataclass
class BackgammonTally:
    """What one chunk of strong-vs-yardstick money games produced."""

    wins: int = 0
    points: int = 0
    """The strong side's net points (cube and gammons included)."""
    game_points: list[int] = field(default_factory=list)
    """The same per game, for the interval of points per game."""
    game_wins: list[int] = field(default_factory=list)
    """1 for each game the strong side won, else 0 (per game, for paired intervals)."""
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


GNUBG = ("gnubg", "gnubg1")
"""The yardsticks that are GNU Backgammon's own checker play: cubeless games."""


class GnubgBot:
    """GNU Backgammon's 0-ply checker play (``gnubg_nn.best_move``: its neural network,
    cubeless money equity), the strong yardstick; it never doubles and always takes, so
    the games are cubeless money games when the strong side does not double either.
    ``plies=1``: its 1-ply, each play scored one roll deeper."""

    name = "gnubg"

    def __init__(self, plies: int = 0) -> None:
        self.plies = plies

    def choose(self, state: State, rng: random.Random) -> Move:
        import gnubg_nn

        from rules.backgammon.engine import DOUBLE, TAKE, BackgammonState, Play

        assert isinstance(state, BackgammonState)
        moves = state.legal_moves()
        if state.phase in (DOUBLE, TAKE):
            return state.parse_move("roll" if state.phase == DOUBLE else "take")
        plays = [m for m in moves if isinstance(m, Play)]
        if len(plays) < 2:
            return moves[0]
        mover, other = state.boards[state.turn], state.boards[1 - state.turn]
        _, key = gnubg_nn.best_move([list(other), list(mover)], *state.dice, n=self.plies, b=1)
        # The key's board is the mover's side first, then the opponent's, unswapped.
        after_mover, after_other = (tuple(side) for side in gnubg_nn.board_from_position_key(key))
        for play in plays:
            if play.mover == after_mover and play.other == after_other:
                return play
        raise AssertionError(f"gnubg's {self.plies}-ply play {key} is not among ours")


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
    try:
        return from_bytes(path.read_bytes())
    except (OSError, ValueError) as err:  # a directory, a missing or a foreign file
        raise SystemExit(f"{path}: not a weights file the trainer wrote ({err})") from None


def race_network(choice: str | None, network: Any) -> Any:
    """The race network ``--bg-race-weights`` names: None for the shipped one, ``main``
    for the main network in races too, else a weights file."""
    if choice is None:
        return None
    return network if choice == "main" else load_network(Path(choice))


def strong_backgammon_bot(
    budget: Budget,
    network: Any,
    lookahead: bool | None,
    race: Any,
    search: dict[str, float | None],
) -> BackgammonBot:
    """The bot measured: the lookahead settings in ``search`` that are given (not None)
    and the bot's own defaults for the rest, which are not copied here."""
    from rules.backgammon.bot import BackgammonBot

    given = {key: value for key, value in search.items() if value is not None}
    # switches given as 0 or 1 (backgammon_match_errors.py --variant-search)
    if "lookahead" in given:
        lookahead = bool(given.pop("lookahead"))
    if "full" in given:
        given["full"] = bool(given["full"])
    return BackgammonBot(budget, network, lookahead, race=race, **given)  # type: ignore[arg-type]


def play_backgammon(
    seed: int,
    lo: int,
    hi: int,
    yardstick_name: str,
    lookahead: bool | None,
    weights: Path | None,
    seconds: float = DEFAULT_SECONDS,
    clock: str = "wall",
    candidates: int | None = None,
    replies: int | None = None,
    duplicate: bool = False,
    blend: float | None = None,
    race: str | None = None,
    full: bool | None = None,
) -> BackgammonTally:
    """Money games ``lo``..``hi - 1``: strong takes white in even games, black in odd.

    ``duplicate``: games 2k and 2k + 1 share one stream of dice (neither bot draws from
    it), so each side plays the other's rolls once, and much of the luck cancels in the
    pair (duplicate backgammon); ``lo`` must then be even."""
    from pubeval import PubevalBot

    from rules.backgammon.engine import BackgammonState, CubeAction

    # Against GNU Backgammon's 0-ply the games are cubeless (the single preset: no cube,
    # gammons and backgammons count), as its published figures are.
    game = rules.get_game("backgammon", "single" if yardstick_name in GNUBG else "money")
    network = load_network(weights)
    inner = strong_backgammon_bot(
        Budget(seconds=seconds, clock=CLOCKS[clock]),
        network,
        lookahead,
        race_network(race, network),
        {"candidates": candidates, "replies": replies, "blend": blend, "full": full},
    )
    timed = TimedBot(inner, CLOCKS[clock])
    yardstick: Bot = {
        "pubeval": PubevalBot,
        "gnubg-pubeval": GnubgPubevalBot,
        "gnubg": GnubgBot,
        "gnubg1": lambda: GnubgBot(plies=1),
    }[yardstick_name]()
    tally = BackgammonTally()
    for i in range(lo, hi):
        seat = i % 2  # 0 white, 1 black
        seats: dict[str, Bot] = (
            {"white": timed, "black": yardstick}
            if seat == 0
            else {"white": yardstick, "black": timed}
        )
        before = len(timed.times)
        record = play_game(game.new_state(), seats, random.Random(dice_seed(seed, i, duplicate)))
        final = record.final
        assert isinstance(final, BackgammonState)
        won = record.winners[0] == ("white", "black")[seat]
        tally.wins += won
        tally.game_wins.append(int(won))
        winner, points, _ = final.results[-1]
        tally.points += points if winner == seat else -points
        tally.game_points.append(points if winner == seat else -points)
        for took, move in zip(timed.times[before:], timed.moves[before:], strict=True):
            (tally.cube_times if isinstance(move, CubeAction) else tally.play_times).append(took)
    return tally


def wilson_interval(rate: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win share (sound near 0 and 1 too)."""
    centre = rate + z * z / (2 * games)
    spread = z * (rate * (1 - rate) / games + z * z / (4 * games * games)) ** 0.5
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def switch_label(name: str, args: argparse.Namespace) -> str:
    """``--lookahead``/``--deeper`` as given and, for auto, what the rule decided."""
    from rules.budget import deeper_search_fits

    given = getattr(args, name)
    if given != "auto":
        return given
    budget = Budget(seconds=args.seconds, clock=CLOCKS[args.clock])
    return f"auto: {'on' if deeper_search_fits(budget) else 'off'}"


def build_label() -> str:
    """Which rules ran: the compiled build or plain Python (and from where)."""
    from rules.build_info import is_compiled

    where = Path(rules.__file__).resolve().parent.parent
    return f"{'compiled' if is_compiled() else 'interpreted'} rules from {where}"


def game_chunks(games: int, jobs: int, unit: int = 1) -> list[tuple[int, int]]:
    """Games 0..``games`` - 1 split over ``jobs`` processes as (lo, hi) ranges whose
    bounds are multiples of ``unit`` (2 with duplicated dice: a pair never straddles two
    processes); the last range takes what is left."""
    bounds = [games * k // jobs // unit * unit for k in range(jobs)] + [games]
    return [(bounds[k], bounds[k + 1]) for k in range(jobs)]


def dice_seed(seed: int, game: int, duplicate: bool) -> int:
    """The seed of game ``game``'s dice: its own, or with ``duplicate`` its pair's."""
    return seed * 1_000_003 + (game // 2 if duplicate else game)


def backgammon_report(args: argparse.Namespace, report: Callable[[str], None]) -> bool:
    games, jobs = args.bg_games, args.jobs
    chunks = game_chunks(games, jobs, 2 if args.duplicate_dice else 1)
    with ProcessPoolExecutor(jobs) as pool:
        futures = [
            pool.submit(
                play_backgammon,
                args.seed,
                lo,
                hi,
                args.yardstick,
                SWITCH[args.lookahead],
                args.bg_weights,
                args.seconds,
                args.clock,
                args.bg_candidates,
                args.bg_replies,
                args.duplicate_dice,
                args.bg_blend,
                args.bg_race_weights,
                SWITCH[args.bg_full],
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
    low, high = wilson_interval(rate, games)
    median = statistics.median(everything) * 1000 if everything else 0.0
    play_median = statistics.median(plays) * 1000 if plays else 0.0
    worst = max(everything) * 1000 if everything else 0.0
    # Against GNU Backgammon's 0-ply: >= 50 % and >= 0 points per cubeless game.
    strong = args.yardstick in GNUBG
    target = 0.50 if strong else 0.60
    points = [x for p in parts for x in p.game_points]
    ppg_se = statistics.stdev(points) / games**0.5 if games > 1 else 0.0
    paired = ""
    if args.duplicate_dice and games >= 4:
        unpaired = ppg_se
        # the pairs are the independent draws: the intervals come from their means
        won = [x for p in parts for x in p.game_wins]
        pairs = games // 2
        se = (
            statistics.stdev([(won[2 * k] + won[2 * k + 1]) / 2 for k in range(pairs)]) / pairs**0.5
        )
        low, high = rate - 1.96 * se, rate + 1.96 * se
        ppg_se = (
            statistics.stdev([(points[2 * k] + points[2 * k + 1]) / 2 for k in range(pairs)])
            / pairs**0.5
        )
        paired = (
            f", {pairs} pairs with duplicated dice (standard error of the points per game "
            f"{ppg_se:.3f}; counted as unpaired games {unpaired:.3f})"
        )
    met = rate >= target and median <= args.seconds * 1000 and (not strong or ppg >= 0)
    report(
        f"Backgammon, strong (lookahead {switch_label('lookahead', args)}"
        f"{'' if args.bg_blend is None else f', ranking blended {args.bg_blend:g}'}"
        f"{'' if args.bg_race_weights is None else f', race network {args.bg_race_weights}'}"
        f"{'' if args.bg_full == 'auto' else f', full one-roll search {args.bg_full}'}) "
        f"vs {args.yardstick}, "
        f"{build_label()}, {args.seconds:g} s {args.clock} budget, "
        f"{'cubeless ' if strong else ''}money games: {rate:.1%} ± {se:.1%} "
        f"(95 %: {low:.1%}–{high:.1%}) of {games}{paired} (target >= {target:.0%}"
        f"{', >= 0 points per game' if strong else ''}) {'MET' if met else 'MISSED'}; "
        f"{ppg:+.3f} points per game (95 %: {ppg - 1.96 * ppg_se:+.3f} to "
        f"{ppg + 1.96 * ppg_se:+.3f}); "
        f"decision median {median:.1f} ms over {len(everything)} (checker plays only: "
        f"median {play_median:.1f} ms over {len(plays)}), max {worst:.0f} ms"
    )
    return met


def spieltisch(*args: str, stdin: str = "", home: Path) -> tuple[str, float]:
    """Run the installed command line in a fresh process with an empty HOME (no state
    directory, no cache): its stdout and its wall time."""
    command = [sys.executable, "-m", "controller", *args]
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    began = time.perf_counter()
    done = subprocess.run(
        command, input=stdin, capture_output=True, text=True, env=env, cwd=ROOT, check=True
    )
    return done.stdout, time.perf_counter() - began


def minimaki_win_shares(
    args: argparse.Namespace, home: Path, report: Callable[[str], None]
) -> bool:
    """``rules play minimaki --bots strong`` per preset against the exact P(win) of the
    shipped policy: met when within two standard errors."""
    from rules.minimaki.policy import read_provenance

    tables = read_provenance(resources.files("rules.minimaki"))["tables"]
    games = args.minimaki_games
    met = True
    for preset, exact in [
        ("standard", tables["standard"]["p_win"]),
        ("free_setup", tables["standard"]["p_win_best_free_setup"]),
        ("diagonal", tables["diagonal"]["p_win"]),
    ]:
        out, took = spieltisch(
            "rules", "play", "minimaki", "--preset", preset, "--bots", "strong",
            "--games", str(games), "--seed", str(args.seed), home=home,
        )  # fmt: skip
        rate = json.loads(out)["red_wins"] / games
        se = (exact * (1 - exact) / games) ** 0.5
        within = abs(rate - exact) <= 2 * se
        met &= within
        report(
            f"Mini-Maki {preset}: `rules play minimaki --preset {preset} --bots strong "
            f"--games {games}` won {rate:.2%}; exact {exact:.2%} ± {se:.2%} (1 SE): "
            f"{(rate - exact) / se:+.1f} SE, {'MET' if within else 'MISSED'} (within 2 SE); "
            f"{took:.1f} s"
        )
    return met


def minimaki_first_hint(home: Path, report: Callable[[str], None], repeats: int = 9) -> None:
    """First hint in a fresh process, against the same command line answering ``rules
    moves`` for the same position (no bot, no table): the difference is the table."""
    start, _ = spieltisch("rules", "new", "minimaki", home=home)
    hint_times, moves_times = [], []
    hint = ""
    for _ in range(repeats):
        out, took = spieltisch("rules", "hint", "minimaki", "--state", "-", stdin=start, home=home)
        hint = json.loads(out)["move"]
        hint_times.append(took)
        _, took = spieltisch("rules", "moves", "minimaki", "--state", "-", stdin=start, home=home)
        moves_times.append(took)
    hint_s, moves_s = statistics.median(hint_times), statistics.median(moves_times)
    report(
        f"Mini-Maki first hint in a fresh process: {hint} in {hint_s * 1000:.0f} ms (median of "
        f"{repeats}); `rules moves` on the same state {moves_s * 1000:.0f} ms; "
        f"ratio {hint_s / moves_s:.2f}"
    )
    out, _ = spieltisch_python(LOAD_PROBE, home=home)
    probe = json.loads(out)
    report(
        f"Mini-Maki table load in a fresh process (read, sha256, unpack): "
        f"{probe['seconds'] * 1000:.1f} ms; resident memory +{probe['rss_kib'] / 1024:.1f} MiB "
        f"(peak +{probe['peak_kib'] / 1024:.1f} MiB)"
    )


LOAD_PROBE = """
import json, time
import rules.minimaki.policy as mp


def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])


rss, peak = status("VmRSS"), status("VmHWM")
began = time.perf_counter()
mp.shipped_policy(False)
took = time.perf_counter() - began
print(json.dumps({"seconds": took, "rss_kib": status("VmRSS") - rss,
                  "peak_kib": status("VmHWM") - peak}))
"""
"""Linux's /proc/self/status: resident memory now (VmRSS) and at its peak (VmHWM), KiB."""


def spieltisch_python(code: str, home: Path) -> tuple[str, float]:
    """Run ``code`` in a fresh interpreter beside the installed package."""
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    )
    return done.stdout, time.perf_counter() - began


def wheel_size(source: Path, out: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("*.whl")
    return wheel


def minimaki_wheel(baseline: str, report: Callable[[str], None]) -> None:
    """The wheel of this tree and of ``baseline`` (default: the last revision with the
    run-time solver), built from clean git exports; and the tables inside it."""
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        sizes = {}
        for label, rev in [("before", baseline), ("after", "HEAD")]:
            tree = base / label / "src"
            tree.mkdir(parents=True)
            archive = subprocess.run(
                ["git", "archive", rev], cwd=ROOT, check=True, capture_output=True
            ).stdout
            with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
                tar.extractall(tree, filter="data")
            wheel = wheel_size(tree, base / label / "wheel")
            sizes[label] = wheel.stat().st_size
            if label == "after":
                with zipfile.ZipFile(wheel) as zf:
                    tables = [i for i in zf.infolist() if i.filename.startswith("rules/minimaki_")]
                    table_bytes = sum(i.compress_size for i in tables)
                    names = ", ".join(
                        i.filename.removeprefix("rules/")
                        for i in tables
                        if not i.filename.endswith(".py")
                    )
        rev = subprocess.run(
            ["git", "rev-parse", "--short", baseline], cwd=ROOT, check=True,
            capture_output=True, text=True,
        ).stdout.strip()  # fmt: skip
        report(
            f"wheel: {sizes['before'] / 1000:.0f} kB before ({rev}), "
            f"{sizes['after'] / 1000:.0f} kB after (HEAD); the Mini-Maki policy module and "
            f"tables take {table_bytes / 1000:.0f} kB of it ({names})"
        )


def solver_baseline() -> str:
    """The revision before the run-time solver was removed."""
    last = subprocess.run(
        ["git", "rev-list", "-1", "HEAD", "--", "controller/solutions.py"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    return f"{last}^"


def minimaki_report(args: argparse.Namespace, report: Callable[[str], None]) -> bool:
    with tempfile.TemporaryDirectory() as home:
        met = minimaki_win_shares(args, Path(home), report)
        minimaki_first_hint(Path(home), report)
        if any(Path(home).iterdir()):
            report("Mini-Maki: the command line wrote into the fresh HOME")
            met = False
    if not args.no_wheel:
        minimaki_wheel(args.wheel_baseline or solver_baseline(), report)
    return met


if __name__ == "__main__":
    sys.exit(main())
