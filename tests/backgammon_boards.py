"""Backgammon boards the fast evaluation paths are checked on against the pure one:
the edge cases written out, then positions of seeded random games.

Why a module of its own: the numpy path's tests and the C kernel's tests check the
same boards, and the numpy ones skip where numpy is missing, so neither imports the
other's.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rules.backgammon.engine import START

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from backgammon_network_speed import positions

EDGES = [
    (START, START),
    # both on the bar, and checkers borne off
    ((0, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3), START),
    # a race, and a bear-off (the database answers it)
    ((3, 3, 3, 3, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),) * 2,
    ((3, 3, 3, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),) * 2,
    # blots everywhere, a checker on the bar hitting from there
    (
        (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        (2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4),
    ),
    # a full prime and an anchor deep in the other's home
    (
        (0, 0, 0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0),
        (0, 2, 2, 0, 0, 3, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0),
    ),
    # fifteen on the bar against fifteen on the 24-point: the largest counts
    (
        (0,) * 24 + (15,),
        (0,) * 23 + (15, 0),
    ),
]


def boards() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [(tuple(a), tuple(b)) for a, b in EDGES] + positions(1500, seed=11)
