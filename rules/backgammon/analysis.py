"""An analysis of a played Backgammon game or match: error rate, luck, worst decisions.

What serious players expect after a game (GNU Backgammon's and eXtreme Gammon's
"analyse match"): for each side the equity it gave away by its checker plays, on the
usual error-rate scale, how lucky its dice were, and the decisions that cost most.

* **The judge** is the strong bot's own evaluation at the depth of its full one-roll
  search, one level deeper than it plays without a clock: the network ranks every
  legal play, then the best :data:`CANDIDATES` plays and the play made are re-scored
  one roll deeper (every opponent roll, its best reply among *every* legal reply by
  the network, as the bot's full one-roll search scores them). The equity lost by a
  decision is the best re-scored equity minus the played one (never negative: the
  played move is always re-scored). Equity is cubeless money equity for the side that
  moved, also in a match. The fast path (the C kernel, else numpy) scores the replies
  where it is installed; without it the pure path gives the same values, slower.
* **PR** (error rate): 500 × equity lost ÷ non-forced decisions, where a decision is
  non-forced when it had at least two distinct legal plays. Cube decisions are not
  judged (the cube is a separate, heuristic part of the bot).
* **Luck**: for every roll of a side (not the opening roll, which only decides who
  starts), the value of the best play for the dice thrown (network ranking) minus the
  average of that value over all 21 rolls, summed. Positive is lucky.
* **The three worst decisions** of the record (either side): the position before, the
  dice, the play made and the best play, each with its equity.

Pure: the caller hands the replayed steps (:class:`rules.playout.PlayStep` or anything
alike), nothing here reads a file or a clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.backgammon.bot import BackgammonBot
from rules.backgammon.engine import (
    MOVE,
    PLAYERS,
    ROLL,
    ROLL_OUTCOMES,
    BackgammonState,
    Play,
)
from rules.backgammon.mat import StepLike
from rules.backgammon.moves import legal_plays
from rules.backgammon.pubeval import pubeval
from rules.budget import Budget

CANDIDATES = 4
"""How many of the network's best plays the judge re-scores one roll deeper (besides
the play made)."""

LUCK_PLAYS = 3
"""Per roll the luck figure scores pubeval's best few plays with the network (pubeval is
~20x cheaper); the best of them stands for the roll's value."""

WORST = 3
"""How many of the costliest decisions an analysis names."""

PR_SCALE = 500
"""The error-rate scale: equity lost per non-forced decision times 500."""


@dataclass(frozen=True)
class Decision:
    """One judged checker play."""

    step: int
    """Its 1-based event number in the record (rolls and moves counted)."""
    player: str
    position_id: str
    """GNU Backgammon's Position ID of the position before the play, mover on roll."""
    state: dict[str, Any]
    """The position before the play (``rules`` JSON), so it can be shown again."""
    dice: tuple[int, int]
    played: str
    played_equity: float
    best: str
    best_equity: float

    @property
    def lost(self) -> float:
        return self.best_equity - self.played_equity

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "player": self.player,
            "position_id": self.position_id,
            "dice": list(self.dice),
            "played": self.played,
            "played_equity": round(self.played_equity, 4),
            "best": self.best,
            "best_equity": round(self.best_equity, 4),
            "equity_lost": round(self.lost, 4),
            "state": self.state,
        }


@dataclass(frozen=True)
class SideFigures:
    """One side's figures."""

    player: str
    decisions: int
    """Non-forced checker decisions."""
    equity_lost: float
    luck: float

    @property
    def pr(self) -> float:
        """Error rate: 500 × equity lost ÷ non-forced decisions (0 without any)."""
        return PR_SCALE * self.equity_lost / self.decisions if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "decisions": self.decisions,
            "equity_lost": round(self.equity_lost, 4),
            "pr": round(self.pr, 2),
            "luck": round(self.luck, 4),
        }


@dataclass(frozen=True)
class Analysis:
    sides: tuple[SideFigures, SideFigures]
    worst: tuple[Decision, ...]
    """The costliest decisions, costliest first (at most :data:`WORST`; only those that
    lost equity)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "judge": f"strong bot, full one-roll search over its best {CANDIDATES} plays",
            "sides": [s.to_json() for s in self.sides],
            "worst": [d.to_json() for d in self.worst],
        }


class Judge:
    """The evaluations an analysis needs, on the strong bot's network."""

    def __init__(self, bot: BackgammonBot | None = None) -> None:
        # fast=True: the batch evaluator where one is installed, although the budget has
        # no clock (the bot plays the pure path's moves then; an analysis has no move to
        # make, and its values are the pure path's: the kernel's to the last bit, numpy's
        # to rounding)
        self.bot = bot or BackgammonBot(Budget(nodes=10**9), lookahead=False, fast=True)

    def ranked(self, plays: Sequence[Play]) -> list[tuple[float, Play]]:
        """Every play with its network value, best first (ties in the given order)."""
        scored = [(self.bot.value(p.mover, p.other), p) for p in plays]
        scored.sort(key=lambda pair: -pair[0])
        return scored

    def deep(self, play: Play) -> float:
        """The play's value one roll deeper, every reply scored (a bear-off of the last
        checker is exact)."""
        if sum(play.mover) == 0:
            return self.bot.value(play.mover, play.other)
        return self.bot.lookahead_value(play, every_reply=True)

    def roll_value(
        self, mover: tuple[int, ...], other: tuple[int, ...], dice: tuple[int, int]
    ) -> float:
        """What the dice are worth to the side about to play them: the network value of
        the best of pubeval's :data:`LUCK_PLAYS` best plays (or of staying put)."""
        plays = legal_plays(list(mover), list(other), dice[0], dice[1])
        if not plays:
            return self.bot.value(mover, other)
        if len(plays) > LUCK_PLAYS:
            plays = sorted(plays, key=lambda r: -pubeval(r[0], r[1]))[:LUCK_PLAYS]
        return max(self.bot.value(r[0], r[1]) for r in plays)


def analyse(steps: Iterable[StepLike], judge: Judge | None = None) -> Analysis:
    """The analysis of a replayed record (module docstring)."""
    judge = judge or Judge()
    lost = [0.0, 0.0]
    decisions = [0, 0]
    luck = [0.0, 0.0]
    judged: list[Decision] = []
    for number, step in enumerate(steps, start=1):
        state = step.before
        if not isinstance(state, BackgammonState):
            raise TypeError(f"a backgammon analysis needs backgammon steps, not {state.game.name}")
        if step.dice is not None and state.phase == ROLL:
            seat = state.turn
            mover, other = state.boards[seat], state.boards[1 - seat]
            d1, d2 = max(step.dice), min(step.dice)
            mean = 0.0
            for (r1, r2), p in ROLL_OUTCOMES:
                mean += p * judge.roll_value(mover, other, (r1, r2))
            luck[seat] += judge.roll_value(mover, other, (d1, d2)) - mean
            continue
        move = step.move
        if state.phase != MOVE or not isinstance(move, Play):
            continue
        plays = [m for m in state.legal_moves() if isinstance(m, Play)]
        if len(plays) < 2:
            continue
        seat = state.turn
        ranked = judge.ranked(plays)
        finalists = [p for _, p in ranked[:CANDIDATES]]
        if move not in finalists:
            finalists.append(move)
        values = {p: judge.deep(p) for p in finalists}
        best = max(finalists, key=lambda p: values[p])
        decisions[seat] += 1
        lost[seat] += values[best] - values[move]
        d1, d2 = state.dice
        judged.append(
            Decision(
                step=number,
                player=PLAYERS[seat],
                position_id=state.position_id(),
                state=state.to_json(),
                dice=(d1, d2),
                played=move.notation,
                played_equity=values[move],
                best=best.notation,
                best_equity=values[best],
            )
        )
    sides = tuple(
        SideFigures(PLAYERS[seat], decisions[seat], lost[seat], luck[seat]) for seat in (0, 1)
    )
    costly = sorted((d for d in judged if d.lost > 0), key=lambda d: -d.lost)[:WORST]
    return Analysis((sides[0], sides[1]), tuple(costly))
