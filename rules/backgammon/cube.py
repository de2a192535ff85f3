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
* **Match play.** Decisions compare match-winning chances, read from the published
  Kazaross-XG2 match equity table (:mod:`rules.backgammon.met`, shipped as data with
  its provenance): the trailer doubles at once after the Crawford game and the leader
  takes, a dead cube is never turned, and a take that loses the match only by a gammon
  is weighed as such. The deciding game's outcomes are weighed with the five
  probabilities. Owning the cube is worth ``OWNERSHIP`` of the swing between a single
  win and a single loss, while a redouble could still help its owner: the taker gets it
  when weighing a take, and the doubler weighs it both as the cube it hands over and as
  the cube it keeps by not doubling (cubeless match chances alone doubled far too
  early). Past the taker's drop point the doubler cashes unless playing on for a gammon
  pays more. While the taker could still use the cube it is handed, we must be the
  favourite. ``OWNERSHIP`` was fitted to GNU Backgammon's cube actions on one set of
  self-play positions and checked on another (``benchmarks/cube_agreement.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.backgammon.met import match_equity
from rules.backgammon.net import Probabilities, equity

TAKE_POINT = -0.55
DOUBLE_CONTACT = 0.45
DOUBLE_RACE = 0.60
TOO_GOOD = 1.0
MATCH_MARGIN = 0.0
OWNERSHIP = 0.08
"""Share of the swing (:func:`swing`) that owning the cube is worth."""
ACCESS = 1.0
"""Share of :data:`OWNERSHIP` a centred (or our own) cube is worth to us before doubling."""

__all__ = ["match_double", "match_equity", "match_take", "money_double", "money_take"]


def money_take(p: Probabilities) -> bool:
    """Should the side with probabilities ``p`` take a double in a money game?"""
    return equity(p) >= TAKE_POINT


def money_double(p: Probabilities, contact: bool) -> bool:
    """Should the side on roll with probabilities ``p`` double in a money game?"""
    e = equity(p)
    return (DOUBLE_CONTACT if contact else DOUBLE_RACE) <= e <= TOO_GOOD


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


def swing(away: int, other_away: int, cube: int) -> float:
    """Match chances between a single win and a single loss for ``cube``: the scale on
    which owning the cube is worth a share (the money take point's 25 % → ~21 %)."""
    post = away == 1 or other_away == 1
    return match_equity(away - cube, other_away, post) - match_equity(away, other_away - cube, post)


def ownership(away: int, other_away: int, cube: int) -> float:
    """What owning a ``cube`` is worth to the side ``away``: a share of the swing, while a
    redouble could still help it (it needs more than ``cube`` points)."""
    return OWNERSHIP * swing(away, other_away, cube) if away > cube else 0.0


def match_take(p: Probabilities, away: int, other_away: int, cube: int) -> bool:
    """Take when playing on for twice the cube, owning it, keeps more match chance than
    a drop."""
    post = away == 1 or other_away == 1
    dropped = match_equity(away, other_away - cube, post)
    taken = match_value(p, away, other_away, 2 * cube) + ownership(away, other_away, 2 * cube)
    return taken >= dropped


def match_double(p: Probabilities, away: int, other_away: int, cube: int) -> bool:
    """Double when the opponent's best answer leaves us better off than playing on.

    Cubeless match chances alone double far too early: they ignore that a taker owns the
    cube (and can redouble) and that a centred cube, or one we own, is ours to use later.
    Both are charged as :func:`ownership`; a cube that already wins us the match is dead
    (GNU Backgammon does not let it be turned)."""
    if cube >= away:
        return False
    live_for_them = other_away > 2 * cube  # could they use the cube we hand over?
    if live_for_them and p[0] < 0.5:
        return False
    post = away == 1 or other_away == 1
    if_take = match_value(p, away, other_away, 2 * cube)
    # Their ownership, seen from our side: the cube-owning taker's gain is our loss.
    if_take -= ownership(other_away, away, 2 * cube)
    if_drop = match_equity(away - cube, other_away, post)
    play_on = match_value(p, away, other_away, cube)
    if if_take >= if_drop:  # past their take point: cash, unless playing on for more pays
        return if_drop >= play_on + MATCH_MARGIN  # a sure win: cashing costs nothing
    # They take: the cube we keep by not doubling is worth something to us, too.
    return if_take > play_on + ACCESS * ownership(away, other_away, cube) + MATCH_MARGIN
