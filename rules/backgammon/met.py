"""The match equity table the cube decisions of a match weigh: Kazaross-XG2.

Why a published table rather than a formula: a side's chance to win a match from a
score depends on gammons and the cube of every later game; the tables that players and
programs use were rolled out by the strongest programs. This one (Neil Kazaross, rolled
out with eXtreme Gammon to 9 points and with GNU Backgammon to 15, extended to 25) is
GNU Backgammon's and eXtreme Gammon's default. It ships as ``met.json`` with its
provenance (``benchmarks/make_met.py`` wrote it from GNU Backgammon's XML copy).
"""

from __future__ import annotations

import json
from functools import cache

from rules.data import read_checked

MET_FILE = "met.json"
LENGTH = 25
"""The longest match the table covers; farther scores are read as 25 away."""


@cache
def _table() -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...], str]:
    data = json.loads(read_checked(__package__ or "rules.backgammon", MET_FILE))
    pre = tuple(tuple(float(x) for x in row) for row in data["pre_crawford"])
    post = tuple(float(x) for x in data["post_crawford_trailer"])
    return pre, post, str(data["name"])


def table_name() -> str:
    """The name of the shipped table (for reports and docs)."""
    return _table()[2]


def match_equity(away: int, other_away: int, post_crawford: bool = False) -> float:
    """The chance that the side ``away`` points from winning wins the match against a
    side ``other_away`` away, at the start of a game with a centred cube.

    ``post_crawford``: a side 1 away has had its Crawford game (otherwise a side first
    reaching 1 away plays it now, without the cube: the pre-Crawford table).
    """
    if away <= 0:
        return 1.0
    if other_away <= 0:
        return 0.0
    pre, post, _ = _table()
    a, b = min(away, LENGTH), min(other_away, LENGTH)
    if post_crawford and a == 1 and b > 1:
        return 1.0 - post[b - 1]
    if post_crawford and b == 1 and a > 1:
        return post[a - 1]
    return pre[a - 1][b - 1]
