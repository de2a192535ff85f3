"""How the track games (Mensch ärgere dich nicht, Kleiner Ärger) present themselves.

TrackWhy here: the finishing order by how far the pieces got, and whose piece a capture
sends home, are facts of a track state; the generic table only asks for them. The
words are in :mod:`controller.games.track.words`.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.presentation import (
    BoardView,
    CatalogWords,
    Presentation,
    register_presentation,
)
from controller.games.track import why_not_words
from controller.games.track.text_board import render_track_game, track_legend
from controller.games.track.words import (
    move_words,
    opening_rethrow,
    opening_tie,
    reaches_goal,
    roll_try,
    victim,
)
from controller.i18n import N_
from rules.core import State
from rules.track.engine import MaednState


def places(state: State, players: Sequence[str]) -> list[str]:
    """The rules' winners first, then the others by how far their pieces got (a game
    that ends at its first finisher)."""
    ranked = [p for p in state.winners() if p in players]
    rest = [p for p in players if p not in ranked]
    if isinstance(state, MaednState):
        rest.sort(key=lambda p: -sum(max(-1, x) + 1 for x in state.progress(p)))
    return ranked + rest


# MÄDN: the cross-shaped track with a home circle in each seat's corner.
MAEDN_ICON = (
    "BB.##.GG",
    "BB.##.GG",
    "...##...",
    "########",
    "########",
    "...##...",
    "RR.##.YY",
    "RR.##.YY",
)

# Kleiner Ärger: the peg-solitaire cross.
KLEINER_AERGER_ICON = (
    "..###...",
    "..#B#...",
    "###.###.",
    "#R...G#.",
    "###.###.",
    "..#Y#...",
    "..###...",
    "........",
)


def board_view(game: str) -> BoardView:
    """The track view, laid out by the game's geometry."""
    from controller.games.track import view

    return BoardView(
        sizes=lambda: view.sizes(game),
        render=view.render,
        cell_box=lambda w, h, mode, cell: view.cell_box(game, w, h, cell),
    )


register_presentation(
    "maedn",
    Presentation(
        view=board_view,
        icon=MAEDN_ICON,
        text_board=render_track_game,
        text_legend=track_legend(home_circles=True),
        places=places,
        move_words=move_words,
        opening_tie=opening_tie,
        opening_rethrow=opening_rethrow,
        roll_try=roll_try,
        capture_victim=victim,
        reaches_goal=reaches_goal,
        why_not=why_not_words.why_not,
        reason_words=why_not_words.reason_words,
        reasons=why_not_words.REASONS,
        routine_reasons=why_not_words.ROUTINE,
        preset_names=CatalogWords(
            {
                "classic": N_("classic"),
                "lingo": N_("Ärgern (house rules)"),
                "schmidt": N_("Schmidt (the box's rules)"),
            }
        ),
        menu_place=1,
    ),
)
register_presentation(
    "kleiner_aerger",
    Presentation(
        view=board_view,
        icon=KLEINER_AERGER_ICON,
        text_board=render_track_game,
        text_legend=track_legend(home_circles=False),
        places=places,
        move_words=move_words,
        preset_names=CatalogWords({"standard": N_("standard")}),
        opening_rethrow=opening_rethrow,
        roll_try=roll_try,
        capture_victim=victim,
        reaches_goal=reaches_goal,
        why_not=why_not_words.why_not,
        reason_words=why_not_words.reason_words,
        reasons=why_not_words.REASONS,
        routine_reasons=why_not_words.ROUTINE,
        menu_place=2,
    ),
)
