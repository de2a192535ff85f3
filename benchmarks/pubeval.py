"""The yardstick for Backgammon: a pubeval player, written separately from the bot.

pubeval is the linear evaluation G. Tesauro released in 1993 as a public benchmark
player (GNU Backgammon ships it as ``pub_eval.c``). This module follows Tesauro's own
formulation: the position becomes the 28-entry ``pos`` array of his C code (from the
side that just moved: ``pos[1..24]`` its points, positive for own checkers, negative
for the opponent's; ``pos[0]`` the opponent's bar as a negative count; ``pos[26]`` own
checkers off) and the 122 inputs of his ``setx``. It shares no code with
``rules/backgammon/pubeval.py``, only the published weights (read from that module, since
they are data; a test checks the two evaluations agree on random positions).

The player never doubles and takes every double; it picks the legal play with the
highest score, over the rules engine's own move generator.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.backgammon.engine import DOUBLE, TAKE, BackgammonState, Play
from rules.backgammon.pubeval import CONTACT_WEIGHTS, RACE_WEIGHTS
from rules.core import Move, State


def pos_array(own: tuple[int, ...], opp: tuple[int, ...]) -> list[int]:
    """Tesauro's ``pos[28]`` for the side ``own`` (both boards in their own views)."""
    pos = [0] * 28
    for j in range(1, 25):
        mine = own[j - 1]
        theirs = opp[24 - j]  # our point j is the opponent's point 25 - j
        pos[j] = mine if mine else -theirs
    pos[0] = -opp[24]
    pos[25] = own[24]
    pos[26] = 15 - sum(own)
    pos[27] = -(15 - sum(opp))
    return pos


def race(pos: list[int]) -> bool:
    """Tesauro's test: contact while an opposing checker sits beyond our rearmost one."""
    rear = max((j for j in range(1, 26) if pos[j] > 0), default=0)
    return not any(pos[j] < 0 for j in range(0, rear))


def setx(pos: list[int]) -> list[float]:
    x = [0.0] * 122
    for j in range(1, 25):
        n = pos[25 - j]
        k = 5 * (j - 1)
        if n == -1:
            x[k] = 1.0
        elif n == 1:
            x[k + 1] = 1.0
        elif n >= 2:
            x[k + 2] = 1.0
            if n == 3:
                x[k + 3] = 1.0
            elif n >= 4:
                x[k + 4] = (n - 3) / 2.0
    x[120] = -pos[0] / 2.0
    x[121] = pos[26] / 15.0
    return x


def score(own: tuple[int, ...], opp: tuple[int, ...]) -> float:
    pos = pos_array(own, opp)
    if pos[26] == 15:
        return 99_999_999.0
    weights = RACE_WEIGHTS if race(pos) else CONTACT_WEIGHTS
    return sum(w * v for w, v in zip(weights, setx(pos), strict=True))


class PubevalBot:
    name = "pubeval"

    def choose(self, state: State, rng: random.Random) -> Move:
        assert isinstance(state, BackgammonState)
        moves = state.legal_moves()
        if state.offer:
            # pubeval judges plays only; the strong bot offers a resignation when it is
            # lost beyond doubt, so taking it is what playing on would bring anyway
            return next(m for m in moves if m.notation == "accept")
        if state.phase == DOUBLE:
            return next(m for m in moves if m.notation == "roll")
        if state.phase == TAKE:
            return next(m for m in moves if m.notation == "take")
        plays = [m for m in moves if isinstance(m, Play)]
        if not plays:
            return moves[0]
        return max(plays, key=lambda m: score(m.mover, m.other))
