"""How much thinking a computer player may do for one move.

The rules never read a clock (they are pure, so every result can be reproduced), yet a bot
must keep to a time budget per move (0.5 s by default). The two are reconciled by
*injection*: a :class:`Budget` counts work in nodes (positions evaluated or playout
steps), which is deterministic and is what tests and seeded benchmarks use, and the
caller may add a ``clock`` (for example ``time.monotonic`` from the controller). With a
clock, :meth:`Budget.start` fixes a deadline ``seconds`` ahead and the search stops at
whichever limit comes first, returning its best move so far. Rules modules never import
``time``; they only call the function they were handed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_SECONDS = 0.5
"""Every bot keeps to this per-move budget unless configured otherwise."""


@dataclass(frozen=True)
class Budget:
    """Limits for one move: at most ``nodes`` units of work and, if a ``clock`` is
    given, at most ``seconds`` of that clock's time."""

    nodes: int = 20_000
    seconds: float = DEFAULT_SECONDS
    clock: Callable[[], float] | None = None

    def __post_init__(self) -> None:
        if self.nodes < 1:
            raise ValueError(f"a bot budget needs at least 1 node, got {self.nodes}")
        if not self.seconds > 0:
            raise ValueError(f"a bot time budget must be positive, got {self.seconds}")

    def start(self) -> Meter:
        """A fresh meter for one move."""
        deadline = None if self.clock is None else self.clock() + self.seconds
        return Meter(self.nodes, deadline, self.clock)


class Meter:
    """Counts the work of one search; ``spent()`` is cheap enough to call per node.

    The clock, when there is one, is consulted only every 64 nodes so that it cannot
    dominate the search's own cost.
    """

    __slots__ = (
        "_calls",
        "_clock",
        "_costliest",
        "_deadline",
        "_expired",
        "_step_began",
        "limit",
        "used",
    )

    def __init__(
        self, limit: int, deadline: float | None, clock: Callable[[], float] | None
    ) -> None:
        self.limit = limit
        self.used = 0
        self._deadline = deadline
        self._clock = clock
        self._expired = False
        self._calls = 0
        self._step_began: float | None = None
        self._costliest = 0.0

    def charge(self, units: int = 1) -> None:
        self.used += units

    def spent(self) -> bool:
        """True once either limit is reached; the search should then return."""
        if self._expired or self.used >= self.limit:
            return True
        self._calls += 1
        return self._calls % 64 == 1 and self.spent_now()

    def spent_now(self) -> bool:
        """Like :meth:`spent`, but reads the clock at once."""
        if not self._expired and self._clock is not None and self._deadline is not None:
            self._expired = self._clock() >= self._deadline
        return self._expired or self.used >= self.limit

    def next_step_fits(self) -> bool:
        """Whether one more step of a search fits before the deadline, judged by the
        costliest step so far; call it before each step. For a search whose steps each
        cost too much to begin one that cannot end in time: Backgammon's lookahead steps
        through the opponent's rolls, the replies to a double take milliseconds, and it
        had run 7 ms past an 83 ms budget when it only asked whether any time was left.
        The step ending now is the time since the previous call; the first call has none
        to time. Without a clock only the node count decides."""
        if self._expired or self.used >= self.limit:
            return False
        if self._clock is None or self._deadline is None:
            return True
        now = self._clock()
        if self._step_began is not None:
            self._costliest = max(self._costliest, now - self._step_began)
        self._step_began = now
        self._expired = now >= self._deadline
        return not self._expired and now + self._costliest < self._deadline


def deeper_search_fits(budget: Budget, compiled: bool | None = None) -> bool:
    """Whether a bot may use its deeper search (Backgammon's one-roll lookahead, MÄDN's
    expectimax through the opponents' turns) under ``budget``.

    Only when both hold:

    * the budget has a real clock. Only a deadline guarantees that a deeper search ends
      in time on any machine (a node count does not know how fast the machine is), and
      a budget without a clock is the reproducible play of tests, seeded games and
      hints, which must stay the same whatever the build; and
    * the rules run compiled (``compiled``; by default :func:`rules.build_info.
      is_compiled`). A Raspberry Pi runs the rules 4-15 times slower than a laptop; the
      deeper searches were measured to win more while keeping their median decision
      inside the Pi's 0.5 s with the compiled rules (on the development machine, as
      0.5 / 6 = 0.0833 s of CPU time; docs/bots.md). In plain Python they take 1.5
      (Backgammon) to 4 (MÄDN) times longer and would run into the deadline on the
      slower Pis.

    Otherwise every bot plays exactly as it does without this rule. Either way the
    deadline holds: a deeper search cut short falls back to the shallower answer.
    """
    if budget.clock is None:
        return False
    if compiled is None:
        from rules.build_info import is_compiled

        compiled = is_compiled()
    return compiled
