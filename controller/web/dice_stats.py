"""Are the dice fair? Each player's faces counted against the expected share, with
Pearson's χ² test.

A fair die shows every face with probability 1/6 on every throw, whatever came before
and whatever the game does with it (rolling again after a six, three tries to come
out): such rules decide *whether* a die is thrown, never what it shows, so the count
of each face among a player's ``n`` dice is expected to be ``n/6``. The statistic
``Σ (observed − expected)² / expected`` has 5 degrees of freedom, and its p-value is
the upper regularized incomplete gamma function ``Q(5/2, χ²/2)``, computed here by its
power series or its continued fraction (Numerical Recipes' ``gammq``), with
``math.lgamma``: no numeric library is needed on the Pi. The test needs about five
expected throws per face to mean much; below that the page says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

FACES = 6
MIN_EXPECTED = 5.0
"""Below this many expected throws per face the χ² approximation is too rough."""
_EPS = 1e-15
_ITERATIONS = 10_000


def gamma_q(a: float, x: float) -> float:
    """The upper regularized incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a)."""
    if a <= 0 or x < 0:
        raise ValueError(f"gamma_q needs a > 0 and x >= 0, got a={a}, x={x}")
    if x == 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its series, which converges fast for x < a + 1."""
    term = total = 1.0 / a
    n = a
    for _ in range(_ITERATIONS):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by Lentz's continued fraction, for x >= a + 1."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, _ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi_square_p(statistic: float, freedom: int) -> float:
    """P(χ²_freedom >= statistic)."""
    return gamma_q(freedom / 2, statistic / 2)


@dataclass(frozen=True)
class DiceTest:
    counts: tuple[int, ...]
    """How often each face 1..6 came up."""
    dice: int
    expected: float
    chi2: float
    p: float | None
    """None with no dice at all."""
    enough: bool
    """At least :data:`MIN_EXPECTED` expected throws per face."""

    def to_json(self) -> dict[str, object]:
        return {
            "counts": list(self.counts),
            "dice": self.dice,
            "expected": self.expected,
            "chi2": self.chi2,
            "p": self.p,
            "enough": self.enough,
        }


def test_faces(faces: Iterable[int]) -> DiceTest:
    counts = [0] * FACES
    for face in faces:
        if 1 <= face <= FACES:
            counts[face - 1] += 1
    return from_counts(counts)


def from_counts(counts: Sequence[int]) -> DiceTest:
    dice = sum(counts)
    expected = dice / FACES
    if dice == 0:
        return DiceTest(tuple(counts), 0, 0.0, 0.0, None, False)
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    return DiceTest(
        tuple(counts), dice, expected, chi2, chi_square_p(chi2, FACES - 1), expected >= MIN_EXPECTED
    )
