"""How each game presents itself at the table: one registration per game family.

Each family's package here (mirroring ``rules/<family>/``) registers its presentation
(:mod:`controller.games.presentation`) when imported, as ``rules`` registers the rules.
The generic controller modules ask :func:`presentation` for a game's views, words, side
names and habits, and never name a game themselves. The registry imports the families
the first time it is asked, not this package face: a family's views draw with
:mod:`controller.views`, whose dispatcher asks this package.
"""

from __future__ import annotations

from controller.games.presentation import (
    DEFAULT,
    BoardView,
    Presentation,
    checker_steps,
    colour_name,
    first_game,
    load_families,
    move_words,
    notation_words,
    presentation,
    preset_name,
    preset_name_in,
    register_presentation,
    title,
    unregister_presentation,
)

__all__ = [
    "DEFAULT",
    "BoardView",
    "Presentation",
    "checker_steps",
    "colour_name",
    "first_game",
    "load_families",
    "move_words",
    "notation_words",
    "presentation",
    "preset_name",
    "preset_name_in",
    "register_presentation",
    "title",
    "unregister_presentation",
]
