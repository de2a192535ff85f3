"""The Backgammon position evaluation every player of the table uses: exact in the
bear-off, the race network in a race, the main network everywhere else.

Why one function: the bot's checker play, its lookahead, its cube and resignation
decisions, the hint and the analysis must all see the same chances, or the hint would
recommend a bear-off play by the network that the bot itself would not make.

Why a race network: once the armies have passed each other, only the pips and how the
checkers sit for the bear-in matter, and the plays of a race differ by a few hundredths.
A network that must also weigh blots, primes and anchors ranks them worse than one
fitted to races alone (GNU Backgammon keeps a race network beside its contact one too).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Protocol

from rules.backgammon import bearoff, native
from rules.backgammon.engine import has_contact
from rules.backgammon.net import Network, Probabilities, shipped, shipped_race


def probabilities(
    on_roll: Sequence[int],
    other: Sequence[int],
    network: Network | None = None,
    exact_bearoff: bool = True,
    race: Network | None = None,
) -> Probabilities:
    """The five outcome chances for the side on roll: from the bear-off database when
    both sides have every checker home (:mod:`rules.backgammon.bearoff`), from ``race``
    (the shipped race network by default) when the sides cannot hit each other any more,
    otherwise from ``network`` (the shipped one by default). ``exact_bearoff=False`` and
    ``race=network`` ask ``network`` there instead (for measuring what each is worth)."""
    if exact_bearoff:
        exact = bearoff.probabilities(on_roll, other)
        if exact is not None:
            return exact
    if not has_contact(on_roll, other):
        return (race or shipped_race()).probabilities(on_roll, other)
    return (network or shipped()).probabilities(on_roll, other)


Position = tuple[Sequence[int], Sequence[int]]


class BatchEvaluator(Protocol):
    """:func:`probabilities` for many positions at once (:mod:`rules.backgammon.batch`)."""

    def probabilities(self, positions: Sequence[Position]) -> list[Probabilities]: ...

    def equities(self, positions: Sequence[Position]) -> list[float]: ...


def batch_evaluator(
    network: Network | None = None, race: Network | None = None, exact_bearoff: bool = True
) -> BatchEvaluator | None:
    """The fast evaluation of many positions at once: the C kernel where it was built
    (:mod:`rules.backgammon.native`; the same equities as the pure path to the last bit,
    and faster), else numpy where it is installed (:mod:`rules.backgammon.batch`; the
    same up to rounding), else None. Both are optional. numpy is imported by name, so
    that neither the pure path nor the compiled build (whose compiler follows plain
    imports) needs it."""
    network, race = network or shipped(), race or shipped_race()
    for (known, known_race, known_exact), evaluator in _EVALUATORS:
        if known is network and known_race is race and known_exact == exact_bearoff:
            return evaluator
    made: BatchEvaluator | None = native.evaluator(network, race, exact_bearoff)
    if made is None:
        try:
            module = importlib.import_module("rules.backgammon.batch")
        except ImportError:
            return None
        made = module.NumpyEvaluator.of(network, race, exact_bearoff)
    _EVALUATORS.append(((network, race, exact_bearoff), made))
    return made


_EVALUATORS: list[tuple[tuple[Network, Network, bool], BatchEvaluator]] = []
"""The evaluators made so far (the weights as arrays, built once per network; a bot is
made for every decision)."""
