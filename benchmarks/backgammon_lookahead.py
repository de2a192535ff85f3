"""Backgammon's lookahead against a stronger judge: equity lost per checker decision.

Run by hand (never timed in tests):

    .venv/bin/python benchmarks/backgammon_lookahead.py [--decisions 1500] [--seed 23]
        [--seconds 0.0833] [--weights FILE] [--candidates 3,5] [--replies 6,10]
        [--no-every-reply] [--peer] [--judge-ply 2]

Why: win rates against pubeval need thousands of games to tell two settings of the
lookahead apart. Judging single decisions is far more sensitive: every legal play of a
decision is scored by GNU Backgammon's 1-ply evaluation (the ``gnubg-nn`` wheel, a test
dependency), and each setting of the bot loses the difference between the judge's best
play and its own choice. All settings answer the same decisions, so their difference to
the network ranking alone is paired and its standard error small.

The decisions come from seeded games of the network ranking against itself, a fifth of
its moves random for variety. Settings with a budget use this process's CPU time
(``--seconds``, a Pi's 0.5 s as 0.5 / 6 here); to measure the compiled rules, run this
file from a tree whose ``rules/`` was compiled with mypyc (it puts its tree first on
``sys.path``). ``--peer`` judges GNU Backgammon's own 0-ply play of the same decisions
too: the opponent of the match in ``bots.py --yardstick gnubg``, so the gap the bot has to
close is read off in the same unit. (The judge is its own 1-ply, built on the same
network, so the peer's figure is if anything flattered.) ``--judge-ply 2`` judges by GNU
Backgammon's 2-ply instead, about twenty times slower: a 1-ply judge scores every reply
at 0-ply, the very shape of the bot's one-roll lookahead, and so flatters the lookahead
too; two plies do not share that shape.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gnubg_nn
from arguments import counted, seconds_type
from bots import GnubgBot, load_network, timed_choice

import rules
from rules.backgammon.bot import REPLIES, BackgammonBot
from rules.backgammon.engine import MOVE, BackgammonState, Play, result_kind
from rules.backgammon.net import Network, equity
from rules.budget import Budget
from rules.build_info import is_compiled

UNLIMITED = 10**8
"""A node budget that never binds: only the clock, where there is one, stops a search."""


def judged(play: Play, ply: int = 1) -> float:
    """GNU Backgammon's cubeless equity of a play at ``ply`` (1 unless ``--judge-ply``),
    for the side that made it."""
    if sum(play.mover) == 0:
        return float(result_kind(play.other))
    return -equity(tuple(gnubg_nn.probabilities([list(play.mover), list(play.other)], ply)))


PEER = "GNU Backgammon 0-ply"
RANKING = "network ranking"
"""The setting the others are paired against: no lookahead."""


def settings(
    seconds: float,
    network: Network,
    candidates: list[int],
    every_reply: bool,
    replies: list[int] | None = None,
    blends: list[float] | None = None,
) -> dict[str, BackgammonBot]:
    budget = Budget(nodes=UNLIMITED, seconds=seconds, clock=time.process_time)
    free = Budget(nodes=UNLIMITED)
    bots = {RANKING: BackgammonBot(free, network, lookahead=False)}
    # The plain lookahead rows are unblended (``blend=0``), whatever the bot's default:
    # ``--blend`` adds the blended ones, so that both can be read off one run.
    if every_reply:
        bots["lookahead, every reply"] = BackgammonBot(
            free, network, lookahead=True, replies=0, blend=0.0
        )
        bots["lookahead, every reply, budget"] = BackgammonBot(
            budget, network, lookahead=True, replies=0, blend=0.0
        )
    for r in replies or [REPLIES]:
        for n in candidates:
            name = f"lookahead, {r} replies" + ("" if n == 3 else f", {n} candidates")
            bots[name] = BackgammonBot(
                free, network, lookahead=True, candidates=n, replies=r, blend=0.0
            )
            bots[f"{name}, budget"] = BackgammonBot(
                budget, network, lookahead=True, candidates=n, replies=r, blend=0.0
            )
    for w in blends or []:
        for n in candidates:
            name = f"lookahead, ranking blended {w:g}" + ("" if n == 3 else f", {n} candidates")
            bots[f"{name}, budget"] = BackgammonBot(
                budget, network, lookahead=True, candidates=n, blend=w
            )
    return bots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=counted(1), default=1500)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--seconds", type=seconds_type, default=0.5 / 6)
    parser.add_argument(
        "--weights",
        type=Path,
        help="judge the network in this file (train_backgammon_net.py --out)",
    )
    parser.add_argument(
        "--candidates", default="3", help="comma-separated plays the lookahead re-scores (3)"
    )
    parser.add_argument(
        "--replies",
        default=str(REPLIES),
        help=f"comma-separated replies per roll the lookahead scores ({REPLIES})",
    )
    parser.add_argument(
        "--blend",
        default="",
        help="comma-separated shares of the ranking in a re-scored play's value to judge "
        "too (e.g. 0.5: GNU Backgammon's 0+1-ply averaging against the odd-even effect)",
    )
    parser.add_argument(
        "--judge-ply",
        type=int,
        default=1,
        choices=(1, 2),
        help="the judge's depth: 1-ply (the default) or 2-ply, which a one-roll lookahead "
        "cannot flatter by sharing its shape (about 20 times slower)",
    )
    parser.add_argument(
        "--no-every-reply", action="store_true", help="leave out the settings scoring every reply"
    )
    parser.add_argument(
        "--peer",
        action="store_true",
        help="judge GNU Backgammon's 0-ply play too (the match's opponent), for scale",
    )
    args = parser.parse_args(argv)
    network = load_network(args.weights)
    candidates = [int(n) for n in args.candidates.split(",")]
    replies = [int(n) for n in args.replies.split(",")]
    blends = [float(w) for w in args.blend.split(",") if w]
    bots: dict[str, Any] = settings(
        args.seconds, network, candidates, not args.no_every_reply, replies, blends
    )
    if args.peer:
        bots[PEER] = GnubgBot()
    # The games come from the shipped network's ranking whatever ``--weights`` says, so
    # that two networks answer the same decisions.
    driver = BackgammonBot(Budget(nodes=UNLIMITED), lookahead=False)
    lost: dict[str, list[float]] = {name: [] for name in bots}
    took: dict[str, list[float]] = {name: [] for name in bots}
    # cubeless: with the cube a lost side offers a resignation instead of a play
    game = rules.get_game("backgammon", "single")
    rng = random.Random(args.seed)
    state = game.new_state()
    while len(lost[RANKING]) < args.decisions:
        if state.is_terminal():
            state = game.new_state()
            continue
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state = state.roll(outcomes[rng.randrange(len(outcomes))][0])
            continue
        assert isinstance(state, BackgammonState)
        moves = state.legal_moves()
        move = driver.choose(state, random.Random(0))
        if state.phase == MOVE and len(moves) > 1:
            values = {m: judged(m, args.judge_ply) for m in moves if isinstance(m, Play)}
            best = max(values.values())
            for name, bot in bots.items():
                chosen, seconds = timed_choice(bot, state, random.Random(0), time.process_time)
                took[name].append(seconds)
                assert isinstance(chosen, Play)
                lost[name].append(best - values[chosen])
            if rng.random() < 0.2:
                move = moves[rng.randrange(len(moves))]
        state = state.apply(move)
    print(
        f"{args.decisions} checker decisions (seed {args.seed}), judged by GNU Backgammon "
        f"{args.judge_ply}-ply; {'compiled' if is_compiled() else 'interpreted'} rules from "
        f"{Path(rules.__file__).resolve().parent.parent}; budget {args.seconds:.4f} s CPU"
    )
    base = lost[RANKING]
    for name in bots:
        paired = [a - b for a, b in zip(lost[name], base, strict=True)]
        spread = statistics.stdev(paired) / len(paired) ** 0.5 if any(paired) else 0.0
        print(
            f"  {name}: {statistics.mean(lost[name]) * 1000:.2f} milli-equity lost per "
            f"decision, {statistics.mean(paired) * 1000:+.2f} ± {spread * 1000:.2f} against "
            f"the ranking; median {statistics.median(took[name]) * 1000:.1f} ms, "
            f"max {max(took[name]) * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
