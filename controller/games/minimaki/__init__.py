"""How Mini-Maki presents itself: the dice are the blacks' (they roll by themselves, for
one player and for two), the strong bot's exact policy gives a hint, and a solitaire
ends in "you won!" or "you lost"."""

from __future__ import annotations

from controller.games.minimaki.text_board import MINIMAKI_LEGEND, render_minimaki
from controller.games.minimaki.words import (
    dice_words,
    game_end_banner,
    move_words,
    result_words,
)
from controller.games.presentation import (
    BoardView,
    CatalogWords,
    Presentation,
    register_presentation,
)
from controller.i18n import N_

# Mini-Maki: six black pieces on row 1, the red Maki at the bottom.
MINIMAKI_ICON = (
    "KKKKKK..",
    "........",
    "........",
    "........",
    "........",
    "...R....",
    "........",
    "........",
)


def board_view(game: str) -> BoardView:
    from controller.games.minimaki import view

    return BoardView(view.sizes, view.render, view.cell_box)


register_presentation(
    "minimaki",
    Presentation(
        view=board_view,
        icon=MINIMAKI_ICON,
        text_board=render_minimaki,
        text_legend=MINIMAKI_LEGEND,
        side_colours={"black": "blue", "player1": "orange", "player2": "blue"},
        side_inks={"black": "sky"},  # as the view draws the black pieces
        preset_names=CatalogWords(
            {
                "standard": N_("standard"),
                "diagonal": N_("diagonal"),
                "free_setup": N_("free start"),
                "two_player": N_("2 players"),
            }
        ),
        move_words=move_words,
        dice_words=dice_words,
        result_words=result_words,
        game_end_banner=game_end_banner,
        hint=True,
        dice_roll_themselves=True,
        solo_standing="black",
        fewest_players_first=True,
        menu_place=4,
    ),
)
