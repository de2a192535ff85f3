"""Mini-Maki's strong player: red's exact optimal policy, read from shipped tables.

Mini-Maki is a game against the dice, so "optimal" is exact: the policy that maximises
red's probability of reaching row 1. It is solved offline and shipped as package data
(:mod:`rules.minimaki.policy`); the table is read on this player's first decision, so
the bot and its hint play the optimum from the first second, wherever the program runs.

Every decision is looked up: red's king step, red's start column and, in the free
setup, the row of each black (to red's best advantage). Where several choices are
equally good the table holds the first in legal-move order, so the choice is
deterministic and always optimal. A missing or damaged table raises
:class:`~rules.minimaki.policy.PolicyDataError`; there is no weaker stand-in.

The two-player form plays each of its games with the same policy. It maximises the
chance to win the game, which is what the better-result rule rewards first: a win
always beats a loss. The rule's tie-breaks (fewer rounds to a win, more rounds survived
in a loss) are not optimised.
"""

from __future__ import annotations

import random

from rules.budget import Budget
from rules.core import PASS, Move, State
from rules.minimaki.engine import RED_BASE, MinimakiState, Place, Step
from rules.minimaki.policy import PolicyDataError, shipped_policy


def best_move(state: MinimakiState) -> Move:
    """The optimal decision in ``state`` (a decision node of any preset)."""
    moves = state.legal_moves()
    policy = shipped_policy(state.game.rules.diagonal_contact)
    move: Move
    if state.in_setup():
        placed = [row for row in state.black if row is not None]
        move = Place(policy.setup_row(placed), len(placed) + 1)
    elif state.red is None:
        move = Place(RED_BASE, policy.start_column(state.rows))
    else:
        target = policy.step_target(state.rows, state.red)
        move = PASS if target is None else Step(state.red, target)
    if move not in moves:
        raise PolicyDataError(
            f"the Mini-Maki table suggests {move}, which is not legal in {state.describe()}"
        )
    return move


class MinimakiBot:
    """Plays red (and, in the free setup, places the blacks) by the exact policy."""

    name = "strong"

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()
        """Unused: a table lookup needs no thinking time (kept for the bot interface)."""

    def choose(self, state: State, rng: random.Random) -> Move:
        if not isinstance(state, MinimakiState):
            raise TypeError(f"MinimakiBot plays Mini-Maki, not {state.game.name}")
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        return best_move(state)
