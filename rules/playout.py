"""Play whole games between bots with a caller-supplied RNG (statistics, tests, demos).

The RNG stands in for the physical dice: the same seed gives the same game, which is
what the conformance suite and ``spieltisch rules play`` rely on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import final

from rules.core import Bot, Dice, Move, Pass, State


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``: the same number, drawn the same way.

    ``Random.randrange`` is interpreted Python (argument checks, then ``_randbelow``),
    and a random game calls it for nearly every roll and move; this is its path for a
    plain ``random.Random`` written out (bits of ``n``'s length, redrawn while too
    large), which costs a fraction. Other generators, whose subclass may draw
    differently, get their own ``randrange``. A test checks both agree.
    """
    if type(rng) is not random.Random:
        return rng.randrange(n)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def sample_roll(outcomes: Sequence[tuple[Dice, float]], rng: random.Random) -> Dice:
    """Draw one outcome of a chance node (uniform fast path, else inverse CDF).

    The uniformity check is a plain loop rather than ``all()`` over a generator: it
    runs once per roll of every game, and the generator cost more than the draw."""
    first = outcomes[0][1]
    for _, p in outcomes:
        if p != first:
            break
    else:
        return outcomes[randbelow(rng, len(outcomes))][0]
    x = rng.random()
    for dice, p in outcomes:
        x -= p
        if x < 0:
            return dice
    return outcomes[-1][0]


@dataclass
class GameRecord:
    """What happened in one game: finishing order and counters for statistics."""

    final: State
    winners: tuple[str, ...]
    throws: int = 0
    moves: int = 0
    passes: int = 0
    history: list[tuple[str, str]] = field(default_factory=list)


@final
class PlayStep:
    """One event of a game: a roll (``dice``) or a move (``move``) by ``player``.

    A read-only record with value equality, like a frozen dataclass, but written out:
    one is made per roll and per move of every game, and a dataclass's generated
    ``__init__`` (``object.__setattr__`` per field when frozen; interpreted code even
    in a compiled build) made it the costliest part of a step.
    """

    __slots__ = ("after", "before", "dice", "move", "player")

    def __init__(
        self,
        player: str,
        before: State,
        after: State,
        dice: Dice | None = None,
        move: Move | None = None,
    ) -> None:
        self.player = player
        self.before = before
        self.after = after
        self.dice = dice
        self.move = move

    def _fields(self) -> tuple[object, ...]:
        return (self.player, self.before, self.after, self.dice, self.move)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayStep) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"PlayStep(player={self.player!r}, before={self.before!r}, after={self.after!r}, "
            f"dice={self.dice!r}, move={self.move!r})"
        )


def steps(
    state: State,
    bots: Mapping[str, Bot],
    rng: random.Random,
    max_steps: int = 1_000_000,
) -> Iterator[PlayStep]:
    """Yield every roll and move until the game ends (or ``max_steps`` is reached)."""
    for _ in range(max_steps):
        if state.is_terminal():
            return
        player = state.current_player or ""
        if state.is_chance():
            dice = sample_roll(state.chance_outcomes(), rng)
            after = state.roll(dice)
            yield PlayStep(player, state, after, dice, None)
        else:
            move = bots[player].choose(state, rng)
            after = state.apply(move)
            yield PlayStep(player, state, after, None, move)
        state = after


def play_game(
    state: State,
    bots: Mapping[str, Bot],
    rng: random.Random,
    record_history: bool = False,
    on_step: Callable[[PlayStep], None] | None = None,
) -> GameRecord:
    """Play to the end and count throws (every die thrown, the opening roll and failed
    tries included), moves (passes excluded) and passes."""
    throws = moves = passes = 0
    history: list[tuple[str, str]] = []
    final = state
    for step in steps(state, bots, rng):
        final = step.after
        if on_step is not None:
            on_step(step)
        if step.dice is not None:
            throws += len(step.dice)
            if record_history:
                history.append((step.player, ",".join(map(str, step.dice))))
        elif step.move is not None:
            if isinstance(step.move, Pass):
                passes += 1
            else:
                moves += 1
            if record_history:
                history.append((step.player, step.move.notation))
    if not final.is_terminal():
        raise RuntimeError("game did not end within the step limit")
    return GameRecord(final, final.winners(), throws, moves, passes, history)
