"""What the panel calls games, rule sets and players.

Why: the rules name things for programs ("kleiner_aerger", "match5", "white"); the
table speaks to people, some of them children. A game is called by its real title, a
rule set by a short word, and a player by the colour it is *drawn* in: Backgammon's
"white" is drawn orange (a white LED would read as the preview's target), so the panel
calls it "orange", never "white". Against a bot the human side is simply "you".
"""

from __future__ import annotations

from collections.abc import Mapping

TITLES: dict[str, str] = {
    "maedn": "Mensch ärgere dich nicht",
    "kleiner_aerger": "Kleiner Ärger",
    "backgammon": "Backgammon",
    "minimaki": "Mini-Maki",
}

PRESETS: dict[tuple[str, str], str] = {
    ("maedn", "classic"): "classic",
    ("maedn", "lingo"): "Lingo",
    ("maedn", "schmidt"): "Schmidt",
    ("backgammon", "single"): "one game",
    ("backgammon", "money"): "with cube",
    ("backgammon", "money-jacoby"): "with cube, Jacoby rule",
    ("backgammon", "money-automatic"): "with cube, Jacoby, 2 automatic doubles",
    ("backgammon", "match1"): "match to 1",
    ("backgammon", "match3"): "match to 3",
    ("backgammon", "match5"): "match to 5",
    ("backgammon", "match7"): "match to 7",
    ("backgammon", "match11"): "match to 11",
    ("minimaki", "standard"): "standard",
    ("minimaki", "diagonal"): "diagonal",
    ("minimaki", "free_setup"): "free start",
    ("minimaki", "two_player"): "2 players",
}

DRAWN_AS: dict[str, dict[str, str]] = {
    "backgammon": {"white": "orange", "black": "blue"},
    "minimaki": {"black": "blue", "player1": "orange", "player2": "blue"},
}
"""Players whose colour on the panel differs from their name in the rules."""


def title(game: str) -> str:
    return TITLES.get(game, game.replace("_", " "))


def preset_name(game: str, preset: str) -> str:
    return PRESETS.get((game, preset), preset.replace("_", " "))


def colour_name(game: str, player: str) -> str:
    """The colour ``player`` is drawn in, as a word."""
    return DRAWN_AS.get(game, {}).get(player, player)


def player_name(game: str, player: str, kinds: Mapping[str, str]) -> str:
    """How the panel calls ``player``: "you" and "bot" when one human plays one bot,
    otherwise the colour it is drawn in."""
    humans = [p for p, kind in kinds.items() if kind == "human"]
    bots = [p for p, kind in kinds.items() if kind == "bot"]
    if len(kinds) == 2 and len(humans) == 1 and len(bots) == 1:
        return "you" if player in humans else "bot"
    return colour_name(game, player)
