"""The Backgammon position evaluation every player of the table uses: exact in the
bear-off, the network everywhere else.

Why one function: the bot's checker play, its lookahead, its cube and resignation
decisions, the hint and the analysis must all see the same chances, or the hint would
recommend a bear-off play by the network that the bot itself would not make.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.backgammon import bearoff
from rules.backgammon.net import Network, Probabilities, shipped


def probabilities(
    on_roll: Sequence[int],
    other: Sequence[int],
    network: Network | None = None,
    exact_bearoff: bool = True,
) -> Probabilities:
    """The five outcome chances for the side on roll: from the bear-off database when
    both sides have every checker home (:mod:`rules.backgammon.bearoff`), otherwise from
    ``network`` (the shipped one by default). ``exact_bearoff=False`` asks the network
    everywhere (for measuring what the database is worth)."""
    if exact_bearoff:
        exact = bearoff.probabilities(on_roll, other)
        if exact is not None:
            return exact
    return (network or shipped()).probabilities(on_roll, other)
