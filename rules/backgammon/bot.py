"""Backgammon's strong computer player: a small trained network, plus cube heuristics.

Checker play: every legal play is scored by the network of :mod:`rules.backgammon.net`
(the position after the play, seen by the opponent now on roll, turned back to our side;
in a race by the race network, and once both sides bear off by the exact database of
:mod:`rules.backgammon.bearoff`: :mod:`rules.backgammon.evaluation`)
and the play with the highest cubeless money equity is chosen. The plays are scored in
pubeval's order, so that if the budget runs out first (a slow machine and the hundreds
of plays of some doubles) the best of the most promising ones is returned. A play that
bears off the last checker is scored exactly (1, 2 or 3 points).

Lookahead: the best ``CANDIDATES`` plays are re-scored one roll deeper: for each of the opponent's
21 rolls its best reply (the network's pick among pubeval's best ``REPLIES``), averaged.
It is on where it fits the budget (:func:`rules.budget.deeper_search_fits`: a real
clock and the compiled rules; figures in docs/bots.md) and off otherwise, unless
``lookahead`` says. It keeps to the same node and time budget as the ranking: when the
budget runs out in the middle of a candidate, that candidate is dropped and the best of
the candidates re-scored completely wins, or the network's ranking when none was.
``blend`` (``BLEND``) mixes a re-scored play's ranking value into its one-roll value (GNU
Backgammon's "0+1 ply" averages the two the same way): a one-roll search ends on
positions where the bot is on roll, its ranking on positions where the opponent is, and
the two err in opposite directions (the odd-even effect).

Full one-roll search: with the fast path (:mod:`rules.backgammon.native`, the C kernel, or
:mod:`rules.backgammon.batch`, numpy) the lookahead can score every legal reply of every
roll, for up to ``FULL_CANDIDATES`` plays within ``FULL_WINDOW`` of the ranking's best,
the replies scored in batches with the clock read before each. It is the lookahead's
default where the C kernel is built (``full``).

Cube: :mod:`rules.backgammon.cube` (money thresholds; match-winning chances in a match).
Resigning and beavers: :mod:`rules.backgammon.resign`. With the cube in play the bot
offers a resignation as its move at a double decision or a play when it is lost beyond
doubt (never in the cubeless ``single`` preset, where it plays every game out) (the offer is not
among the legal moves, see :mod:`rules.backgammon.engine`, and the table takes it as the
bot's move).

Its yardstick is Tesauro's linear *pubeval* (:mod:`rules.backgammon.pubeval`), played by
the separate implementation in ``benchmarks/pubeval.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.backgammon import bearoff, evaluation, native
from rules.backgammon.cube import match_double, match_take, money_double, money_take
from rules.backgammon.engine import (
    ACCEPT_ACTION,
    BEAVER,
    BEAVER_ACTION,
    DOUBLE,
    DOUBLE_ACTION,
    DROP_ACTION,
    MOVE,
    REJECT_ACTION,
    RESIGNATIONS,
    ROLL_ACTION,
    ROLL_OUTCOMES,
    TAKE,
    TAKE_ACTION,
    BackgammonState,
    Play,
    has_contact,
    result_kind,
)
from rules.backgammon.moves import legal_plays
from rules.backgammon.net import Network, Probabilities, equity, flip, shipped, shipped_race
from rules.backgammon.pubeval import pubeval
from rules.backgammon.resign import (
    match_accepts,
    money_accepts,
    money_beavers,
    offer_level,
    takes_beaver,
)
from rules.budget import Budget, Meter, deeper_search_fits
from rules.core import Move, State

CANDIDATES = 5
"""How many of the ranking's best plays the lookahead re-scores. Paired on the checker
decisions of two 1000-game matches against GNU Backgammon's 0-ply, judged by its
2-ply, five lost 0.08 ± 0.02 milli-equity per decision less than three (seed 4, 44 028
decisions; 0.03 ± 0.02 on seed 3's 43 369), at about 45 instead of 27 ms of CPU per
play (compiled). Eight gained no more (0.06 ± 0.02): the budget cuts them short."""

REPLIES = 10
"""The lookahead scores the opponent's replies to a roll with the network only for the
best ``REPLIES`` of them by pubeval (~20x cheaper than the network). Paired on the 43 369
checker decisions of a 1000-game match against GNU Backgammon's 0-ply and judged by its
2-ply, ten lost 0.04 ± 0.01 milli-equity per decision less than six (0.05 ± 0.01 per
contact decision), at a median of 28-31 instead of 21 ms of CPU per play (compiled): a
reply beyond pubeval's sixth is now and then the network's pick. Scoring every reply
is cut short by the budget too often (docs/bots.md); the earlier judge, a ply
shallower and over 1200 decisions, could not tell six from ten."""


BLEND = 0.25
"""The ranking's share in a re-scored play's value (module docstring). Judged by GNU
Backgammon's 2-ply over 800 decisions, a quarter cut the equity the lookahead loses by
0.6 milli-equity per decision against none (3.07 against 3.72, and with a network
fitted to 0+1-ply labels 3.10 against 3.69); half was no better than a quarter. By the
1-ply judge, which shares the lookahead's shape and so flatters it, any blend looked
worse."""


FULL_CANDIDATES = 8
"""How many plays the full one-roll search (module docstring) re-scores at most: GNU
Backgammon's move filter for its 1-ply keeps the same, up to eight..."""

FULL_WINDOW = 0.16
"""...within this much equity of the ranking's best."""

FULL_BATCH = 128
"""The full one-roll search scores the replies in batches of this many, reading the
clock before each (:meth:`BackgammonBot._full_reply_value`)."""

RANKING_CHUNK = 256
"""The fast path scores the plays of a roll in groups of this many, reading the clock
between two groups (a double may have a thousand plays)."""


class BackgammonBot:
    """Network ranking with an optional one-roll lookahead (module docstring)."""

    name = "strong"

    def __init__(
        self,
        budget: Budget | None = None,
        network: Network | None = None,
        lookahead: bool | None = None,
        candidates: int = CANDIDATES,
        replies: int = REPLIES,
        exact_bearoff: bool = True,
        blend: float = BLEND,
        race: Network | None = None,
        fast: bool | None = None,
        full: bool | None = None,
    ) -> None:
        if candidates < 0 or replies < 0 or not 0.0 <= blend <= 1.0:  # NaN fails too
            raise ValueError(
                f"lookahead settings out of range: candidates={candidates} (0 or more), "
                f"replies={replies} (0 or more), blend={blend} (0 to 1)"
            )
        self.budget = budget or Budget()
        self.network = network or shipped()
        # before the first choice, so that its clock does not pay for the packed rows
        self.network.warm()
        self.exact_bearoff = exact_bearoff
        """Bear-off positions from the database (:mod:`rules.backgammon.bearoff`)."""
        if exact_bearoff:
            bearoff.shipped()  # decoded now, likewise outside the first choice's clock
        self.race = race or shipped_race()
        """The network that answers races (:mod:`rules.backgammon.evaluation`); the main
        one to measure without a race network."""
        self.race.warm()
        use_fast = self.budget.clock is not None if fast is None else fast
        self.batch = (
            evaluation.batch_evaluator(self.network, self.race, exact_bearoff) if use_fast else None
        )
        """The fast path (the C kernel, else numpy; both optional): every play of a roll,
        every reply of a roll, scored in one batch. None without either, or where the
        play must be the reproducible one (a budget without a clock: tests, seeded games,
        hints), or when ``fast`` says; the pure path then scores one position at a time."""
        kernel = isinstance(self.batch, native.KernelEvaluator)
        self.full = self.batch is not None and (kernel if full is None else full)
        """The lookahead is the full one-roll search (module docstring). It needs the
        fast path, and is the default with the C kernel: there its decisions keep inside
        the budget (a median of about 5 ms of the 83), and paired on a match's decisions
        it loses no more equity than the five-candidate lookahead (docs/bots.md). With
        numpy alone it is asked for by name (``full=True``): its slowest decisions ran
        past the budget there."""
        self.lookahead = deeper_search_fits(self.budget) if lookahead is None else lookahead
        """The one-roll lookahead (module docstring); None decides by the budget."""
        self.candidates = candidates
        """How many of the ranking's best plays the lookahead re-scores (``CANDIDATES``;
        0: none)."""
        self.replies = replies
        """How many replies per roll the lookahead scores (``REPLIES``; 0: all)."""
        self.blend = blend
        """The ranking's share in a re-scored play's value (module docstring)."""

    def probabilities(self, on_roll: Sequence[int], other: Sequence[int]) -> Probabilities:
        """The side on roll's chances (:func:`rules.backgammon.evaluation.probabilities`)."""
        return evaluation.probabilities(on_roll, other, self.network, self.exact_bearoff, self.race)

    def value(self, mover: tuple[int, ...], other: tuple[int, ...]) -> float:
        """Cubeless equity for the side that has just moved to ``mover``."""
        if sum(mover) == 0:
            return float(result_kind(other))
        return -equity(self.probabilities(other, mover))

    def choose(self, state: State, rng: random.Random) -> Move:
        if not isinstance(state, BackgammonState):
            raise TypeError(f"BackgammonBot plays backgammon, not {state.game.name}")
        # The clock starts before anything else: the budget is the whole decision's,
        # and the plays of a double alone take milliseconds to generate and order.
        meter = self.budget.start()
        moves = state.legal_moves()
        if state.offer:
            return ACCEPT_ACTION if self._accepts(state) else REJECT_ACTION
        offer = self.resignation(state)
        if offer is not None:
            return offer
        if state.phase == DOUBLE:
            return DOUBLE_ACTION if DOUBLE_ACTION in moves and self._doubles(state) else ROLL_ACTION
        if state.phase == TAKE:
            if not self._takes(state):
                return DROP_ACTION
            return BEAVER_ACTION if BEAVER_ACTION in moves and self._beavers(state) else TAKE_ACTION
        if state.phase == BEAVER:
            p = self.probabilities(state.boards[state.turn], state.boards[1 - state.turn])
            return TAKE_ACTION if takes_beaver(p) else DROP_ACTION
        if len(moves) == 1 or state.phase != MOVE:
            return moves[0]
        # pubeval is ~20x cheaper than the network: it orders the candidates so that a
        # budget cut (a slow machine, hundreds of plays of a double) keeps the likeliest.
        plays = sorted(
            (m for m in moves if isinstance(m, Play)), key=lambda m: -pubeval(m.mover, m.other)
        )
        scored: list[tuple[float, Play]] = []
        if self.batch is not None:
            scored = self._rank_batched(plays, meter)
        for play in plays[len(scored) :] if self.batch is None else ():
            if scored and meter.spent():
                break
            scored.append((self.value(play.mover, play.other), play))
            meter.charge(1)
        scored.sort(key=lambda pair: -pair[0])
        if not self.lookahead:
            return scored[0][1]
        return self._deepen(scored, meter)

    def _values(self, pairs: Sequence[tuple[tuple[int, ...], tuple[int, ...]]]) -> list[float]:
        """:meth:`value` of each (mover, other) pair, in one batch (the fast path)."""
        assert self.batch is not None
        values = [float(result_kind(other)) if sum(mover) == 0 else 0.0 for mover, other in pairs]
        todo = [i for i, (mover, _) in enumerate(pairs) if sum(mover)]
        equities = self.batch.equities([(pairs[i][1], pairs[i][0]) for i in todo])
        for i, e in zip(todo, equities, strict=True):
            values[i] = -e
        return values

    def _rank_batched(self, plays: list[Play], meter: Meter) -> list[tuple[float, Play]]:
        """The ranking's scores of the fast path: the same plays as the loop of
        :meth:`choose` scores one by one (all, or as many as the node budget lets; at
        least one), a group of ``RANKING_CHUNK`` at a time while the clock allows."""
        scored: list[tuple[float, Play]] = []
        while len(scored) < len(plays):
            if scored and meter.spent_now():
                break
            room = max(meter.limit - meter.used, 0 if scored else 1)
            group = plays[len(scored) : len(scored) + min(room, RANKING_CHUNK)]
            values = self._values([(play.mover, play.other) for play in group])
            scored += zip(values, group, strict=True)
            meter.charge(len(group))
        return scored

    def _deepen(self, scored: list[tuple[float, Play]], meter: Meter) -> Play:
        """Re-score the best candidates one roll deeper while the budget lasts."""
        best_value, best = scored[0]
        if best_value >= 1.0 and sum(best.mover) == 0:
            return best
        best_value = float("-inf")
        candidates = scored[: self.candidates]
        if self.full:
            top = scored[0][0]
            candidates = [c for c in scored[:FULL_CANDIDATES] if c[0] >= top - FULL_WINDOW]
        for ranked, play in candidates:
            value = (
                self._full_reply_value(play, meter) if self.full else self._reply_value(play, meter)
            )
            if value is None:
                break
            value = (1.0 - self.blend) * value + self.blend * ranked
            if value > best_value:
                best, best_value = play, value
        return best

    def lookahead_value(self, play: Play, every_reply: bool = False) -> float:
        """The play's value one roll deeper, as the lookahead scores it, without a
        budget (for an analysis after the game, which judges a level deeper than the
        bot plays without a clock). ``every_reply``: as the full one-roll search scores
        it, every legal reply by the network (on the fast path where there is one, else
        one at a time: the same value, see :mod:`rules.backgammon.native`)."""
        meter = Budget(nodes=10**12).start()
        if every_reply and self.batch is not None:
            value = self._full_reply_value(play, meter)
        else:
            value = self._reply_value(play, meter, 0 if every_reply else self.replies)
        assert value is not None  # no clock and a node limit that cannot be reached
        return value

    def _reply_value(self, play: Play, meter: Meter, keep: int | None = None) -> float | None:
        """Our equity after the opponent's best reply, averaged over its 21 rolls, or
        None when the budget ran out first. ``keep`` overrides :attr:`replies` (how many
        replies per roll are scored; 0: all)."""
        keep = self.replies if keep is None else keep
        total = 0.0
        mine, theirs = play.mover, play.other
        for (d1, d2), p in ROLL_OUTCOMES:
            # once per roll the clock itself, and no roll that would end past the
            # deadline (Meter.next_step_fits): the replies to a double cost milliseconds
            if not meter.next_step_fits():
                return None
            replies = legal_plays(list(theirs), list(mine), d1, d2)
            meter.charge(1)
            if not replies:
                total += p * equity(self.probabilities(mine, theirs))
                continue
            if keep and len(replies) > keep:
                replies = sorted(replies, key=lambda r: -pubeval(r[0], r[1]))[:keep]
            if self.batch is not None:
                # the clock was read for this roll just above (next_step_fits), which
                # counts the costliest roll so far, batch included: only the nodes here
                if meter.used + len(replies) > meter.limit:
                    return None
                meter.charge(len(replies))
                total += p * min(-v for v in self._values([(r[0], r[1]) for r in replies]))
                continue
            worst = float("inf")
            for reply in replies:
                # spent() is per evaluation so that its clock is consulted often enough.
                if meter.spent():
                    return None
                meter.charge(1)
                worst = min(worst, -self.value(reply[0], reply[1]))
            total += p * worst
        return total

    def _full_reply_value(self, play: Play, meter: Meter) -> float | None:
        """Our equity after the opponent's best reply, averaged over its 21 rolls, every
        legal reply scored by the network (the fast path): the replies of all the rolls
        are generated first, a roll at a time with the clock read before each, and then
        scored in batches of ``FULL_BATCH``, the clock read before each. None when the
        budget ran out first."""
        assert self.batch is not None
        mine, theirs = play.mover, play.other
        positions: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        rolls: list[tuple[float, int, float]] = []
        """Per roll: its chance, where its replies end in ``positions``, and the best
        exact value among them (a reply that bears off the last checker)."""
        for (d1, d2), p in ROLL_OUTCOMES:
            if not meter.next_step_fits():
                return None
            replies = legal_plays(list(theirs), list(mine), d1, d2)
            meter.charge(1 + len(replies))
            worst = float("inf")
            if not replies:
                positions.append((mine, theirs))
            for mover, other, _ in replies:
                if sum(mover) == 0:
                    worst = min(worst, -float(result_kind(other)))
                else:
                    positions.append((other, mover))
            rolls.append((p, len(positions), worst))
        equities: list[float] = []
        while len(equities) < len(positions):
            # a batch of bounded size per step, so that the costliest step so far says
            # how long the next one takes (one batch of all of them, a thousand after a
            # double, had run 10 ms past the deadline in the pure build)
            if not meter.next_step_fits():
                return None
            equities += self.batch.equities(positions[len(equities) : len(equities) + FULL_BATCH])
        total = 0.0
        start = 0
        for p, end, worst in rolls:
            total += p * min(worst, min(equities[start:end], default=worst))
            start = end
        return total

    def resignation(self, state: BackgammonState) -> Move | None:
        """The resignation the bot offers now, or None (:mod:`rules.backgammon.resign`)."""
        offers = state.resign_offers()
        if not offers or not state.game.rules.cube:
            # Without the cube (the cubeless benchmarks against other programs) the bot
            # plays every game out: an opponent program may know no resignations.
            return None
        me = state.turn
        p = self.probabilities(state.boards[me], state.boards[1 - me])
        level = offer_level(p)
        if not level:
            return None
        offer = RESIGNATIONS[min(level, max(o.level for o in offers))]
        return offer if offer in offers else None

    def _accepts(self, state: BackgammonState) -> bool:
        resigner, me = state.turn, 1 - state.turn
        p = flip(self.probabilities(state.boards[resigner], state.boards[me]))
        if state.match_length:
            away = state.match_length - state.score[me]
            other_away = state.match_length - state.score[resigner]
            return match_accepts(p, state.offer, away, other_away, state.cube)
        return money_accepts(p, state.offer)

    def _beavers(self, state: BackgammonState) -> bool:
        doubler, me = state.turn, 1 - state.turn
        return money_beavers(flip(self.probabilities(state.boards[doubler], state.boards[me])))

    def _doubles(self, state: BackgammonState) -> bool:
        me, them = state.turn, 1 - state.turn
        p = self.probabilities(state.boards[me], state.boards[them])
        if state.match_length:
            away = state.match_length - state.score[me]
            other_away = state.match_length - state.score[them]
            return match_double(p, away, other_away, state.cube)
        return money_double(p, has_contact(state.boards[me], state.boards[them]))

    def _takes(self, state: BackgammonState) -> bool:
        doubler, me = state.turn, 1 - state.turn
        p = flip(self.probabilities(state.boards[doubler], state.boards[me]))
        if state.match_length:
            away = state.match_length - state.score[me]
            other_away = state.match_length - state.score[doubler]
            return match_take(p, away, other_away, state.cube)
        return money_take(p)
