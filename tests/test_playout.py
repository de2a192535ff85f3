"""The generic driver's own pieces: the random draw and the step record.

Seeded games are reproducible only if ``randbelow`` draws exactly what
``random.Random.randrange`` would from the same generator state, on every Python the
package supports; this is checked against the standard library here rather than
assumed from its source.
"""

from __future__ import annotations

import random

import pytest

import rules
from rules.core import PASS
from rules.playout import PlayStep, randbelow


@pytest.mark.parametrize("seed", range(5))
def test_randbelow_draws_what_randrange_draws(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in [*range(1, 70), 100, 127, 128, 129, 1000, 2**31 - 1, 2**40 + 3]:
        for _ in range(20):
            assert randbelow(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()


class Biased(random.Random):
    """A generator whose own randrange must be used (it draws differently)."""

    def randrange(self, *args: object, **kwargs: object) -> int:
        return 0


def test_randbelow_defers_to_a_subclass() -> None:
    rng = Biased(1)
    assert {randbelow(rng, 6) for _ in range(50)} == {0}


def test_play_step_is_a_value_with_keywords() -> None:
    state = rules.get_game("maedn", "classic").new_state(4)
    after = state.roll((6,))
    step = PlayStep("red", state, after, dice=(6,))
    same = PlayStep("red", state, after, (6,), None)
    assert step == same and hash(step) == hash(same)
    assert step != PlayStep("red", state, after, move=PASS)
    assert (step.player, step.before, step.after, step.dice, step.move) == (
        "red",
        state,
        after,
        (6,),
        None,
    )
    assert repr(step).startswith("PlayStep(player='red', ")
