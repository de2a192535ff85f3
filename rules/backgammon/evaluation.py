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

from collections.abc import Sequence

from rules.backgammon import bearoff
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
