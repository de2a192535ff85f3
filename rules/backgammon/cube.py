"""Cube decisions for the Backgammon bot, from the network's outcome probabilities.

Why heuristics and not a cubeful evaluation: a cubeful evaluation needs cubeful
training targets or rollouts, far beyond a few KB of weights and 0.5 s per move on a
Pi. The rules of thumb below are the textbook ones, stated over the five cubeless
probabilities (win, win gammon, win backgammon, lose gammon, lose backgammon) of the
side that is deciding:

* **Money.** Cubeless equity ``E`` (in units of the cube). Take while ``E >= -0.55``:
  a drop costs exactly 1, a take costs ``-2E``, and owning the cube is worth a little,
  so the take point sits just past the 25 % of a gammonless race. Double once
  ``E >= 0.45`` in contact (``0.60`` in a pure race, where there are fewer market
  losers and the cube is worth less to the taker), unless the position is *too good*:
  when ``E > 1`` playing on for a gammon wins more than the point a drop would give.
* **Match play.** Decisions compare match-winning chances. The match equity table is
  a "coin-flip" table: each later game is a fair game for one point, so
  ``M(a, b)`` (the chance of the side ``a`` points away to win against ``b`` away) is
  the chance of ``a`` heads before ``b`` tails, except that once a side is 1 away the
  Crawford game is played without the cube and after it the trailer doubles at once
  (each game then counts 2 for the trailer). It ignores gammons and the cube in
  future games but gets the big effects right: the trailer doubles at once after the
  Crawford game and the leader takes, a dead cube is never turned, and a take that
  loses the match only by a gammon is weighed as such. The deciding game's outcomes
  are weighed with the five probabilities. A double is given when it raises our match
  chances over playing on by ``MATCH_MARGIN`` and, while the taker could still use the
  cube it is handed, we are the favourite.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from rules.backgammon.net import Probabilities, equity

TAKE_POINT = -0.55
DOUBLE_CONTACT = 0.45
DOUBLE_RACE = 0.60
TOO_GOOD = 1.0
MATCH_MARGIN = 0.01


def money_take(p: Probabilities) -> bool:
    """Should the side with probabilities ``p`` take a double in a money game?"""
    return equity(p) >= TAKE_POINT


def money_double(p: Probabilities, contact: bool) -> bool:
    """Should the side on roll with probabilities ``p`` double in a money game?"""
    e = equity(p)
    return (DOUBLE_CONTACT if contact else DOUBLE_RACE) <= e <= TOO_GOOD


@cache
def match_equity(away: int, other_away: int, post_crawford: bool = False) -> float:
    """Chance that the side ``away`` points from winning wins the match (module doc).

    ``post_crawford``: a side already 1 away has had its Crawford game, so the trailer
    doubles every later game at once and each is worth 2 points to the trailer.
    """
    if away <= 0:
        return 1.0
    if other_away <= 0:
        return 0.0
    if away == 1 and other_away == 1:
        return 0.5
    if away == 1:
        return _leader(other_away, post_crawford)
    if other_away == 1:
        return 1.0 - _leader(away, post_crawford)
    # Neither is 1 away: whoever gets there next plays a Crawford game first.
    return 0.5 * match_equity(away - 1, other_away) + 0.5 * match_equity(away, other_away - 1)


@cache
def _leader(trailer_away: int, post_crawford: bool) -> float:
    """The 1-away leader's chance against a trailer ``trailer_away`` points away."""
    if trailer_away <= 0:
        return 0.0
    if post_crawford:
        return 0.5 + 0.5 * _leader(trailer_away - 2, True)
    return 0.5 + 0.5 * _leader(trailer_away - 1, True)  # the Crawford game: no cube


def outcomes(p: Probabilities) -> Sequence[tuple[float, int]]:
    """(probability, signed points per cube unit) of the game's six outcomes."""
    win, win_g, win_bg, lose_g, lose_bg = p
    return (
        (win - win_g, 1),
        (win_g - win_bg, 2),
        (win_bg, 3),
        (1 - win - lose_g, -1),
        (lose_g - lose_bg, -2),
        (lose_bg, -3),
    )


def match_value(p: Probabilities, away: int, other_away: int, cube: int) -> float:
    """Our match-winning chance if this game is played out for ``cube``."""
    # A cube in play with a side 1 away means the Crawford game is over.
    post = away == 1 or other_away == 1
    total = 0.0
    for prob, points in outcomes(p):
        if points > 0:
            total += prob * match_equity(away - points * cube, other_away, post)
        else:
            total += prob * match_equity(away, other_away + points * cube, post)
    return total


def match_take(p: Probabilities, away: int, other_away: int, cube: int) -> bool:
    """Take when playing on for twice the cube keeps more match chance than a drop."""
    post = away == 1 or other_away == 1
    dropped = match_equity(away, other_away - cube, post)
    return match_value(p, away, other_away, 2 * cube) >= dropped


def match_double(p: Probabilities, away: int, other_away: int, cube: int) -> bool:
    """Double when the opponent's best answer leaves us better off than playing on."""
    live_for_them = other_away > 2 * cube  # could they use the cube we hand over?
    if live_for_them and p[0] < 0.5:
        return False
    post = away == 1 or other_away == 1
    if_take = match_value(p, away, other_away, 2 * cube)
    if_drop = match_equity(away - cube, other_away, post)
    return min(if_take, if_drop) > match_value(p, away, other_away, cube) + MATCH_MARGIN
