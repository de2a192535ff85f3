"""Where the strong bot and GNU Backgammon's 0-ply lose equity in their own match, judged
by GNU Backgammon's 2-ply, decision by decision, by phase.

Run by hand (never timed in tests; needs the test extra, ``gnubg-nn``):

    .venv/bin/python benchmarks/backgammon_match_errors.py [--games 200] [--seed 1]
        [--jobs 2] [--seconds 0.0833] [--weights FILE] [--worst 5] [--variant FILE]
        [--variant-race FILE] [--variant-search candidates=5,replies=10,blend=0.5 ...]
        [--gnubg-ply 1 ...]

Why: a 2000-game match tells the two sides apart only to about a point, and the
per-decision judge of ``backgammon_lookahead.py`` samples decisions from the bot's own
games, which may not be the positions GNU Backgammon steers into. This script plays
the match itself (cubeless money games, the bot with a Pi-sized budget of this
process's CPU time as in ``bots.py --yardstick gnubg``) and at every checker decision
with more than one play asks *both* engines for their pick: the side on roll plays
its own, the other's is the counterfactual. Where the picks differ, both are judged
by the 2-ply evaluation against the best of them and of the 0-ply's five best plays.
So every decision of the match is paired, whoever made it, and the difference says
which engine errs more in the positions the match really reaches, and in which phase:
*contact*, *race* (no contact, not all home) or *bear-off* (both all home, where the bot
plays from its database).

``--variant FILE`` asks a third engine at every decision too, the same bot with another
network, which never plays: its losses are paired with the bot's on the very positions
of the match, so two networks are compared far more tightly than two matches (or two
runs of this script) could, where the games part after the first different play. Its
pick joins the plays judged, so where it finds a better play than all the others every
engine is charged against that one: the losses can grow a little, their differences
do not. ``--variant-race FILE`` gives the variant another race network (with the
bot's main network unless ``--variant`` also gives one); a race network decides only
the race decisions and the race positions a lookahead reaches, so a variant with both
is still read phase by phase. ``--variant-search SPEC`` (repeatable) asks the bot with
another search instead, the shipped networks with other lookahead settings (``candidates``,
``replies``, ``blend``, and ``lookahead=1``, ``full=1`` for the full one-roll search:
:class:`rules.backgammon.bot.BackgammonBot`), each paired with the
bot in one run, so that settings are told apart on the same decisions. ``--gnubg-ply N``
(repeatable) asks GNU Backgammon at another depth too (its 1-ply: each play scored one
roll deeper), which never plays either, so that the bot's losses can be set beside a
stronger peer's on the very same decisions. To measure the
compiled rules, run this file from a tree whose ``rules/`` was compiled with mypyc (it
puts its tree first on ``sys.path``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import add_match_options, counted, share_type
from backgammon_lookahead import judged
from bots import GnubgBot, dice_seed, game_chunks, load_network, race_network, strong_backgammon_bot

import rules
from controller.collector import collector_paused
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.engine import MOVE, BackgammonState, Play, has_contact
from rules.backgammon.ids import encode_position
from rules.budget import Budget
from rules.build_info import is_compiled
from rules.core import Move, State
from rules.playout import steps

ENGINES = ("bot", "gnubg")
"""The two engines that play the match."""
VARIANT = "variant"
"""The engine that is only asked (``--variant``)."""
SEARCH_KEYS = {
    "candidates": counted(0, 999),
    "replies": counted(0, 999),
    "blend": share_type,
    "lookahead": counted(0, 1),
    "full": counted(0, 1),
}
"""What ``--variant-search`` may set, and how each setting is read (``arguments.py``)."""
PHASES = ("contact", "race", "bear-off")


def phase(mover: tuple[int, ...], other: tuple[int, ...]) -> str:
    """The phase of a position before the play, from the board alone."""
    if has_contact(mover, other):
        return "contact"
    home = all(c == 0 for c in mover[6:]) and all(c == 0 for c in other[6:])
    return "bear-off" if home else "race"


@dataclass
class Tally:
    """What one process saw: per (whose decision, phase) the paired losses."""

    decisions: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    lost: dict[tuple[str, str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    worst: list[tuple[float, str, str, str, str, str]] = field(default_factory=list)
    """(the bot's loss against GNU Backgammon's pick, phase, Position ID, roll, the bot's
    play, GNU Backgammon's play) of every decision where the two differ."""
    wins: int = 0
    points: int = 0
    games: int = 0


class Recorder:
    """Plays one engine's pick, and remembers the other engine's pick of the same
    decision for the judge."""

    def __init__(self, own: str, engines: dict[str, object]) -> None:
        self.own = own
        self.engines = engines
        self.pending: list[tuple[BackgammonState, dict[str, Play]]] = []

    def choose(self, state: State, rng: random.Random) -> Move:
        assert isinstance(state, BackgammonState)
        # the engines decide as the appliance's bot worker lets a bot decide, with the
        # garbage collector paused until they are done (controller.collector)
        with collector_paused():
            mine = self.engines[self.own].choose(state, rng)  # type: ignore[attr-defined]
            plays = [m for m in state.legal_moves() if isinstance(m, Play)]
            if state.phase == MOVE and len(plays) > 1:
                picks = {
                    name: mine if name == self.own else engine.choose(state, rng)  # type: ignore[attr-defined]
                    for name, engine in self.engines.items()
                }
                self.pending.append((state, picks))
        return mine  # type: ignore[no-any-return]


def judge(
    tally: Tally, whose: str, state: BackgammonState, picks: dict[str, Play], ply: int
) -> None:
    """Charge each engine its loss on one decision (nothing when they agree)."""
    mover, other = state.boards[state.turn], state.boards[1 - state.turn]
    where = phase(mover, other)
    tally.decisions[whose, where] += 1
    if len(set(picks.values())) == 1:
        for name in picks:
            tally.lost[whose, where, name].append(0.0)
        return
    plays = [m for m in state.legal_moves() if isinstance(m, Play)]
    top = sorted(plays, key=lambda p: -judged(p, 0))[:5]
    values = {p: judged(p, ply) for p in {*top, *picks.values()}}
    best = max(values.values())
    for name in picks:
        tally.lost[whose, where, name].append(best - values[picks[name]])
    gap = values[picks["gnubg"]] - values[picks["bot"]]
    if not gap:
        return
    position = encode_position(other, mover)
    dice = f"{state.dice[0]}{state.dice[1]}"
    mine, theirs = picks["bot"].notation, picks["gnubg"].notation
    tally.worst.append((gap, where, position, dice, mine, theirs))


Search = tuple[tuple[str, float], ...]
"""One ``--variant-search``: its settings, in the order given."""


def parse_search(spec: str) -> Search:
    """``candidates=5,blend=0.5`` as settings; a clear error for anything else."""
    settings = []
    for item in spec.split(","):
        key, sep, text = item.partition("=")
        key = key.strip()
        kind = SEARCH_KEYS.get(key)
        if not sep or kind is None:
            raise argparse.ArgumentTypeError(
                f"{item!r}: expected KEY=VALUE with KEY one of {', '.join(SEARCH_KEYS)}"
            )
        try:
            settings.append((key, kind(text)))
        except argparse.ArgumentTypeError as err:
            raise argparse.ArgumentTypeError(f"{item!r}: {err}") from None
    return tuple(settings)


def search_name(search: Search) -> str:
    return ",".join(f"{key}={value:g}" for key, value in search)


Job = tuple[
    int,
    int,
    int,
    float,
    Path | None,
    int,
    str | None,
    Path | None,
    str | None,
    tuple[Search, ...],
    Search,
    tuple[int, ...],
]
"""seed, first game, end, seconds, weights, judge's ply, race weights, variant weights,
variant race weights, variant searches, the bot's own search settings, GNU Backgammon's
other plies asked"""


def gnubg_name(plies: int) -> str:
    """The name a ``--gnubg-ply`` engine is reported under."""
    return f"gnubg {plies}-ply"


def play_chunk(job: Job) -> Tally:
    """Games ``lo``..``hi - 1`` of the match (the bot white in even games), judged."""
    seed, lo, hi, seconds, weights, ply, race, variant, variant_race, searches, own, peers = job
    game = rules.get_game("backgammon", "single")

    def bot(weights: Path | None, race: str | None, search: Search = ()) -> BackgammonBot:
        network = load_network(weights)
        budget = Budget(seconds=seconds, clock=time.process_time)
        return strong_backgammon_bot(
            budget, network, None, race_network(race, network), dict(search)
        )

    engines: dict[str, object] = {"bot": bot(weights, race, own), "gnubg": GnubgBot()}
    if variant or variant_race:
        engines[VARIANT] = bot(variant or weights, variant_race or race)
    for search in searches:
        engines[search_name(search)] = bot(weights, race, search)
    for plies in peers:
        engines[gnubg_name(plies)] = GnubgBot(plies)
    tally = Tally()
    for i in range(lo, hi):
        bot_seat = i % 2
        recorders = {name: Recorder(name, engines) for name in ENGINES}
        seats = (
            {"white": recorders["bot"], "black": recorders["gnubg"]}
            if bot_seat == 0
            else {"white": recorders["gnubg"], "black": recorders["bot"]}
        )
        final: State | None = None
        for step in steps(game.new_state(), seats, random.Random(dice_seed(seed, i, False))):
            final = step.after
        assert isinstance(final, BackgammonState) and final.is_terminal()
        winner, points, _ = final.results[-1]
        tally.games += 1
        tally.wins += winner == bot_seat
        tally.points += points if winner == bot_seat else -points
        for name, recorder in recorders.items():
            for state, picks in recorder.pending:
                judge(tally, name, state, picks, ply)
    return tally


def merge(parts: list[Tally]) -> Tally:
    total = Tally()
    for part in parts:
        for key, n in part.decisions.items():
            total.decisions[key] += n
        for key3, values in part.lost.items():
            total.lost[key3].extend(values)
        total.worst.extend(part.worst)
        total.wins += part.wins
        total.points += part.points
        total.games += part.games
    return total


def paired(
    bot: list[float], gnubg: list[float], names: tuple[str, str] = ("bot", "GNU Backgammon")
) -> str:
    """Mean losses and their paired difference, in milli-equity per decision."""
    if not bot:
        return "no decisions"
    diff = [a - b for a, b in zip(bot, gnubg, strict=True)]
    spread = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
    mine, theirs = statistics.mean(bot) * 1000, statistics.mean(gnubg) * 1000
    first, second = names
    return (
        f"{first} {mine:.2f}, {second} {theirs:.2f}, {first} - {second} "
        f"{statistics.mean(diff) * 1000:+.2f} ± {spread * 1000:.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_match_options(parser)
    parser.add_argument("--judge-ply", type=int, default=2, choices=(1, 2))
    parser.add_argument(
        "--worst", type=counted(0), default=5, help="the bot's worst decisions to list, per phase"
    )
    parser.add_argument(
        "--weights", type=Path, help="the bot plays this network (train_backgammon_net.py --out)"
    )
    parser.add_argument(
        "--race-weights",
        help="the bot's race network from this file, or 'main' (default the shipped one)",
    )
    parser.add_argument(
        "--variant",
        type=Path,
        help="also ask the bot with this network at every decision, and pair its losses "
        "with the bot's (it never plays)",
    )
    parser.add_argument(
        "--variant-race",
        help="the variant's race network from this file, or 'main' (alone: the bot's main "
        "network with this race network)",
    )
    parser.add_argument(
        "--variant-search",
        type=parse_search,
        action="append",
        default=[],
        metavar="SPEC",
        help="also ask the bot with these lookahead settings (candidates=N,replies=N,"
        "blend=X) at every decision, paired with the bot's losses; repeatable",
    )
    parser.add_argument(
        "--bot-search",
        type=parse_search,
        default=(),
        metavar="SPEC",
        help="the bot that plays with these settings (as --variant-search; e.g. lookahead=1 "
        "where the rules run interpreted and the lookahead would be off)",
    )
    parser.add_argument(
        "--gnubg-ply",
        type=int,
        choices=(1, 2),
        action="append",
        default=[],
        help="also ask GNU Backgammon at this ply at every decision (it never plays), paired "
        "with the bot's losses; repeatable",
    )
    args = parser.parse_args(argv)
    jobs = [
        (
            args.seed,
            lo,
            hi,
            args.seconds,
            args.weights,
            args.judge_ply,
            args.race_weights,
            args.variant,
            args.variant_race,
            tuple(args.variant_search),
            args.bot_search,
            tuple(args.gnubg_ply),
        )
        for lo, hi in game_chunks(args.games, args.jobs, 2)
    ]
    if args.jobs == 1:
        parts = [play_chunk(job) for job in jobs]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            parts = list(pool.map(play_chunk, jobs))
    tally = merge(parts)
    print(
        f"{tally.games} cubeless money games (seed {args.seed}), the bot "
        f"({'compiled' if is_compiled() else 'interpreted'} rules, {args.seconds:.4f} s CPU"
        f"{', ' + search_name(args.bot_search) if args.bot_search else ''}) "
        f"against GNU Backgammon 0-ply: {tally.wins / tally.games:.1%} wins, "
        f"{tally.points / tally.games:+.3f} points per game"
    )
    print(
        f"milli-equity lost per checker decision, judged by GNU Backgammon {args.judge_ply}-ply,"
        " both engines on every decision:"
    )
    asked_variant = bool(args.variant or args.variant_race)
    variants = (
        ((VARIANT,) if asked_variant else ())
        + tuple(search_name(search) for search in args.variant_search)
        + tuple(gnubg_name(plies) for plies in args.gnubg_ply)
    )
    asked = (*ENGINES, *variants)
    for whose in (*ENGINES, "all"):
        owners = ENGINES if whose == "all" else (whose,)
        label = "all decisions" if whose == "all" else f"on {whose}'s decisions"
        for where in (*PHASES, "all"):
            places = PHASES if where == "all" else (where,)
            losses = {
                name: [v for o in owners for p in places for v in tally.lost[o, p, name]]
                for name in asked
            }
            n = len(losses["bot"])
            print(f"  {label}, {where} ({n}): {paired(losses['bot'], losses['gnubg'])}")
            for name in variants:
                print(f"    {paired(losses[name], losses['bot'], (name, 'bot'))}")
    for where in PHASES:
        lost = (w for w in tally.worst if w[1] == where and w[0] > 0)
        worst = sorted(lost, reverse=True)[: args.worst]
        if worst:
            print(f"the bot's {len(worst)} worst {where} decisions against GNU Backgammon's:")
        for gap, _, position, dice, mine, theirs in worst:
            print(
                f"  {position} roll {dice}: bot {mine}, GNU Backgammon {theirs} "
                f"(the bot loses {gap * 1000:.1f} milli-equity)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
