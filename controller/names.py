"""What the panel calls games, rule sets and players.

Why: the rules name things for programs ("kleiner_aerger", "match5", "white"); the
table speaks to people, some of them children. A game is called by its real title (as
its rules registered it), a rule set by a short word, and a player by the colour it is
*drawn* in: Backgammon's "white" is drawn orange (a white LED would read as the
preview's target), so the panel calls it "orange", never "white". Against a bot the
human side is simply "you". Each game family declares its words in its presentation
(:mod:`controller.games`).
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games import colour_name, preset_name, title
from controller.players.person import Person
from controller.words import seat_word

__all__ = ["colour_name", "player_name", "preset_name", "seat_role", "title"]


def player_name(
    game: str,
    player: str,
    kinds: Mapping[str, str],
    people: Mapping[str, Person] | None = None,
) -> str:
    """How the panel calls ``player``: by name where a named player sits there (chosen
    at setup, ``people``), else "you" and "bot" when one human plays one bot, otherwise
    the colour it is drawn in."""
    person = (people or {}).get(player)
    if person is not None:
        return person.name
    role = seat_role(player, kinds)
    return seat_word(role) if role is not None else colour_name(game, player)


def seat_role(player: str, kinds: Mapping[str, str]) -> str | None:
    """The seat word, "you" or "bot", when one human plays one bot; else None (players
    go by colour).
    Callers that must know whether ``player`` is the lone human ask this, not the
    translated word, which another language may spell like a colour."""
    humans = [p for p, kind in kinds.items() if kind == "human"]
    bots = [p for p, kind in kinds.items() if kind == "bot"]
    if len(kinds) == 2 and len(humans) == 1 and len(bots) == 1:
        return "you" if player in humans else "bot"
    return None
