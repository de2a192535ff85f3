"""What a Backgammon hint says beyond the move: the best plays with their equity and
their win and gammon chances, and the position's IDs.

Why a separate evaluation from the bot's choice: the bot may pick its move one roll
deeper, within a budget, and never keeps its numbers. The hint ranks every play by the
shipped network (the bot's own ranking, one ply), which is what the chances shown are
of (exact in the bear-off, like the bot's); the move the hint recommends stays the
bot's. Equity is cubeless money equity for
the side to play, the scale GNU Backgammon and eXtreme Gammon print.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.backgammon.engine import (
    BACKGAMMON,
    BEAVER,
    DOUBLE,
    GAMMON,
    MOVE,
    TAKE,
    BackgammonState,
    Play,
    result_kind,
)
from rules.backgammon.evaluation import probabilities
from rules.backgammon.net import Probabilities, equity, flip
from rules.core import Move, State

SHOWN = 3
"""How many plays a hint lists."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One play (or cube decision) with the deciding side's chances."""

    move: str
    equity: float
    probabilities: Probabilities

    def to_json(self) -> dict[str, object]:
        win, win_g, win_bg, lose_g, lose_bg = self.probabilities
        return {
            "move": self.move,
            "equity": round(self.equity, 3),
            "win": round(win, 3),
            "win_gammon": round(win_g, 3),
            "win_backgammon": round(win_bg, 3),
            "lose_gammon": round(lose_g, 3),
            "lose_backgammon": round(lose_bg, 3),
        }


def _after_play(play: Play) -> Probabilities:
    """The mover's chances after ``play`` (exact when it bears off the last checker)."""
    mover, other = play.mover, play.other
    if sum(mover) == 0:
        kind = result_kind(other)
        return (1.0, float(kind >= GAMMON), float(kind == BACKGAMMON), 0.0, 0.0)
    return flip(probabilities(other, mover))


@lru_cache(maxsize=64)
def ranked(state: BackgammonState, top: int = SHOWN) -> tuple[Evaluation, ...]:
    """The best ``top`` plays of a ``move`` decision by the network, best first; at a
    cube decision the position's cubeless chances for the side deciding."""
    if state.offer:  # a resignation to answer: the bot's answer is the hint, no figures
        return ()
    if state.phase == MOVE:
        found = []
        for move in state.legal_moves():
            if isinstance(move, Play):
                p = _after_play(move)
                found.append(Evaluation(move.notation, equity(p), p))
        found.sort(key=lambda e: -e.equity)
        return tuple(found[:top])
    if state.phase in (DOUBLE, TAKE, BEAVER):  # beaver: the doubler decides again
        doubler = state.turn
        p = probabilities(state.boards[doubler], state.boards[1 - doubler])
        if state.phase == TAKE:
            p = flip(p)
        return (Evaluation("cube decision", equity(p), p),)
    return ()


def hint_details(state: State, move: Move) -> dict[str, object]:
    """The JSON a hint adds: the position's IDs and the best plays with their chances."""
    if not isinstance(state, BackgammonState):
        return {}
    return {
        "position": {
            "position_id": state.position_id(),
            "match_id": state.match_id(),
            "xgid": state.xgid(),
        },
        "best": [e.to_json() for e in ranked(state)],
    }


def hint_evaluation(state: State, move: Move) -> Evaluation | None:
    """The figures of the hinted ``move`` (equity and chances): at a cube decision the
    position's; None if none apply. The table words them."""
    if not isinstance(state, BackgammonState):
        return None
    for evaluation in ranked(state):
        if evaluation.move == move.notation or state.phase != MOVE:
            return evaluation
    if isinstance(move, Play):  # the bot's deeper pick is not in the network's top few
        p = _after_play(move)
        return Evaluation(move.notation, equity(p), p)
    return None
