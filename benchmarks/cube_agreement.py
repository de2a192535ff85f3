"""The bot's cube decisions against GNU Backgammon's on positions from real games.

Run by hand (niced; it plays its own games, then asks the real ``gnubg``):

    nice -n 10 .venv/bin/python benchmarks/cube_agreement.py [--positions 400] [--seed 2]
        [--plies 0] [--presets money match5 match7]

Positions: seeded self-play games of the strong bot (no clock, no lookahead: its cube
decisions do not use the lookahead), on the ``money`` preset (cube, no Jacoby) and on
5- and 7-point matches; every position in which the side on roll may double is
collected, until ``--positions`` per preset. Different ``--seed`` values give disjoint
games: tune on one seed, report on another.

Judge: Debian's GNU Backgammon (``gnubg -t``), which is given each position by its
Match ID and Position ID and asked for a ``hint`` before the roll; its "Proper cube
action" (cubeful, ``--plies``) gives both decisions, the doubler's and the taker's.
(``gnubg-nn``'s ``evaluate_cube_decision`` refuses money play, so one judge serves all.)
Our side: the bot's answer in the same position (double or roll) and, with the double
offered, the opponent bot's take or drop.

Figures per preset: agreement on double/no double and on take/pass over all positions,
and over the *contested* ones, where at least one of the two would double (or gnubg
calls it too good): there the decision matters, the rest mostly are no-double/take
positions that any rule gets right. The target is >= 90 %.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arguments import counted

import rules
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.engine import DOUBLE, DOUBLE_ACTION, TAKE_ACTION, BackgammonState
from rules.playout import steps

GNUBG = "/usr/games/gnubg"
BATCH = 150
"""Positions per ``gnubg`` process (one start-up, bounded output)."""


@dataclass(frozen=True)
class Verdict:
    """A cube decision in one position: does the side on roll double, does the other take."""

    double: bool
    take: bool
    too_good: bool = False


def collect(preset: str, seed: int, wanted: int) -> list[BackgammonState]:
    """Positions where the side on roll may double, from seeded bot self-play."""
    game = rules.get_game("backgammon", preset)
    bot = BackgammonBot(lookahead=False)
    bots = {"white": bot, "black": bot}
    found: list[BackgammonState] = []
    number = 0
    while len(found) < wanted:
        rng = random.Random(seed * 1_000_003 + number)
        number += 1
        for step in steps(game.new_state(), bots, rng):
            state = step.before
            if (
                isinstance(state, BackgammonState)
                and state.phase == DOUBLE
                and not state.offer  # a resignation to answer: no cube decision
                and not step.dice
                and not dead_cube(state)
            ):
                found.append(state)
                if len(found) == wanted:
                    break
    return found


def dead_cube(state: BackgammonState) -> bool:
    """A match cube that already wins the match for the side on roll: GNU Backgammon
    forbids turning it ("You cannot double"); our engine still offers the choice, so
    such positions are left out (the bot's match rule never doubles them)."""
    length = state.match_length
    return bool(length) and state.cube >= length - state.score[state.turn]


def ours(state: BackgammonState, bot: BackgammonBot, rng: random.Random) -> Verdict:
    """The bot's double (as the side on roll) and take (as the other side)."""
    double = bot.choose(state, rng) == DOUBLE_ACTION
    take = bot.choose(state.apply(DOUBLE_ACTION), rng) == TAKE_ACTION
    return Verdict(double, take)


def parse_action(text: str) -> Verdict:
    """GNU Backgammon's "Proper cube action" text as a verdict.

    Its wordings: "No double, take", "No redouble, beaver", "Double, take",
    "Redouble, pass", "Too good to double, pass", "Too good to redouble, take", and at
    some match scores "Never double, take"/"No double, take (dead cube)"."""
    action = text.strip().lower()
    too_good = action.startswith("too good")
    double = action.startswith(("double", "redouble"))
    take = "take" in action or "beaver" in action
    if not (take or "pass" in action):
        raise ValueError(f"unknown cube action {text!r}")
    return Verdict(double, take, too_good)


def gnubg_verdicts(
    states: Sequence[BackgammonState], plies: int, gnubg: str = GNUBG
) -> list[Verdict]:
    """GNU Backgammon's proper cube action for each position (batched processes)."""
    verdicts: list[Verdict] = []
    for lo in range(0, len(states), BATCH):
        verdicts += _gnubg_batch(states[lo : lo + BATCH], plies, gnubg)
    return verdicts


def _gnubg_batch(states: Sequence[BackgammonState], plies: int, gnubg: str) -> list[Verdict]:
    script = [
        "set player 0 human",
        "set player 1 human",
        f"set evaluation cubedecision evaluation plies {plies}",
        "set jacoby off",
    ]
    for state in states:
        length = state.match_length
        script += [
            f"new match {length}" if length else "new session",
            f"set matchid {state.match_id()}",
            f"set board {state.position_id()}",
            "hint",
        ]
    with tempfile.NamedTemporaryFile("w", suffix=".gnubg", delete=False) as f:
        f.write("\n".join(script) + "\n")
    try:
        done = subprocess.run(
            [gnubg, "-t", "-q", "-r", "-c", f.name], capture_output=True, text=True, check=True
        )
    finally:
        Path(f.name).unlink()
    actions = [
        line.split(":", 1)[1]
        for line in done.stdout.splitlines()
        if line.strip().startswith("Proper cube action:")
    ]
    if len(actions) != len(states):
        raise RuntimeError(f"gnubg gave {len(actions)} cube actions for {len(states)} positions")
    return [parse_action(a) for a in actions]


@dataclass
class Tally:
    """Agreement counts for one preset."""

    positions: int = 0
    double_agree: int = 0
    take_agree: int = 0
    contested: int = 0
    contested_double_agree: int = 0
    contested_take_agree: int = 0
    we_double_they_not: int = 0
    they_double_we_not: int = 0
    we_take_they_pass: int = 0
    we_pass_they_take: int = 0

    def add(self, us: Verdict, them: Verdict) -> None:
        self.positions += 1
        self.double_agree += us.double == them.double
        self.take_agree += us.take == them.take
        self.we_double_they_not += us.double and not them.double
        self.they_double_we_not += them.double and not us.double
        self.we_take_they_pass += us.take and not them.take
        self.we_pass_they_take += them.take and not us.take
        if us.double or them.double or them.too_good:
            self.contested += 1
            self.contested_double_agree += us.double == them.double
            self.contested_take_agree += us.take == them.take


def share(part: int, whole: int) -> str:
    return f"{part / whole:.1%} ({part}/{whole})" if whole else "n/a (0)"


def compare(
    preset: str, seed: int, positions: int, plies: int
) -> Iterator[tuple[BackgammonState, Verdict, Verdict]]:
    states = collect(preset, seed, positions)
    theirs = gnubg_verdicts(states, plies)
    bot = BackgammonBot(lookahead=False)
    rng = random.Random(seed)
    for state, them in zip(states, theirs, strict=True):
        yield state, ours(state, bot, rng), them


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=counted(1), default=400, help="per preset")
    parser.add_argument("--seed", type=int, default=2, help="1: tuning set; 2: held out")
    parser.add_argument(
        "--plies", type=int, choices=range(5), default=2, help="GNU Backgammon's cube depth"
    )
    parser.add_argument("--presets", nargs="+", default=["money", "match5", "match7"])
    parser.add_argument("--show", action="store_true", help="print every disagreement")
    args = parser.parse_args(argv)
    total = Tally()
    met = True
    for preset in args.presets:
        tally = Tally()
        for state, us, them in compare(preset, args.seed, args.positions, args.plies):
            tally.add(us, them)
            total.add(us, them)
            if args.show and us != Verdict(them.double, them.take):
                print(
                    f"  {preset} {state.position_id()}:{state.match_id()} score {state.score} "
                    f"cube {state.cube}: ours {us}, gnubg {them}"
                )
        print(describe(preset, tally))
        met = met and tally.double_agree >= 0.9 * tally.positions
        met = met and tally.take_agree >= 0.9 * tally.positions
    print(describe(f"all (seed {args.seed}, gnubg {args.plies}-ply)", total))
    print("target >= 90 % on double and on take per preset:", "MET" if met else "MISSED")
    return 0 if met else 1


def describe(label: str, t: Tally) -> str:
    return (
        f"{label}: {t.positions} positions; double/no double agree "
        f"{share(t.double_agree, t.positions)}, take/pass agree "
        f"{share(t.take_agree, t.positions)}; contested {t.contested}: double "
        f"{share(t.contested_double_agree, t.contested)}, take "
        f"{share(t.contested_take_agree, t.contested)}; we double/they not "
        f"{t.we_double_they_not}, they double/we not {t.they_double_we_not}, we take/they "
        f"pass {t.we_take_they_pass}, we pass/they take {t.we_pass_they_take}"
    )


if __name__ == "__main__":
    sys.exit(main())
