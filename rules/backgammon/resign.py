"""Resigning and beavers for the Backgammon bot, from the network's outcome probabilities.

Why cubeless equity and not a cubeful value: the bot has no cubeful evaluation (see
:mod:`rules.backgammon.cube`); for the positions where these questions come up (one
side all but lost, or a double that was a clear mistake) the cube's value changes the
answer only at the margins.

* **Answering a resignation.** In money play the offered points (the level, in units of
  the cube) are accepted when they are at least what playing on is expected to bring:
  the cubeless equity of the side answering, less ``ACCEPT_MARGIN`` (owning or facing
  the cube is worth a little, and a position nearly won is worth finishing only when
  the extra is real). In a match, match-winning chances decide: the chance after
  winning the offered points against the chance of playing the game out.
* **Offering one.** The bot resigns only when its winning chance is below
  ``RESIGN_WIN_CHANCE`` and then offers the lowest level that is no worse for it than
  playing on by more than ``OFFER_MARGIN`` of the cube (a single while the gammon
  chance is small, a gammon when a gammon is all but certain). Rejected, it plays on.
* **Beavers.** The doubled side beavers when it is the favourite (cubeless equity at
  least ``BEAVER_POINT``): then the double was a mistake and the higher cube pays; the
  doubler answering a beaver takes by the usual take point.
"""

from __future__ import annotations

from rules.backgammon.cube import TAKE_POINT, match_value
from rules.backgammon.met import match_equity
from rules.backgammon.net import Probabilities, equity

ACCEPT_MARGIN = 0.02
RESIGN_WIN_CHANCE = 0.01
OFFER_MARGIN = 0.05
BEAVER_POINT = 0.05


def money_accepts(p: Probabilities, level: int) -> bool:
    """Accept a resignation of ``level`` points per cube, ``p`` being the answering
    side's chances?"""
    return level >= equity(p) - ACCEPT_MARGIN


def match_accepts(p: Probabilities, level: int, away: int, other_away: int, cube: int) -> bool:
    """Accept in a match: the match chance after winning ``level`` times the cube at
    least that of playing on (``away``: the answering side's points to go)."""
    post = away == 1 or other_away == 1
    won = match_equity(away - level * cube, other_away, post)
    return won >= match_value(p, away, other_away, cube)


def offer_level(p: Probabilities) -> int:
    """The level the side with chances ``p`` offers (0: none): lost beyond doubt, the
    lowest level the opponent's equity does not exceed by more than ``OFFER_MARGIN``."""
    if p[0] >= RESIGN_WIN_CHANCE:
        return 0
    loss = -equity(p)
    for level in (1, 2, 3):
        if level + OFFER_MARGIN >= loss:
            return level
    return 3


def money_beavers(p: Probabilities) -> bool:
    """Beaver a double, ``p`` being the doubled side's chances?"""
    return equity(p) >= BEAVER_POINT


def takes_beaver(p: Probabilities) -> bool:
    """The doubler answers a beaver: take by the usual take point (``p`` its chances)."""
    return equity(p) >= TAKE_POINT
