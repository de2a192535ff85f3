"""Readable text boards for a terminal (``rules show`` and the text simulator).

A view, not a rule: it only reads a state. Each game family's presentation brings its
own board (:mod:`controller.games`); a game without one is listed field by field. With
``colour=True`` ANSI colours are added, but letters alone always tell the players apart
(colour-blind friendly).
"""

from __future__ import annotations

from collections.abc import Callable

from controller.games import presentation
from controller.i18n import _
from controller.text.paint import ANSI, paint
from rules.core import State

TextRenderer = Callable[[State, bool], str]
RENDERERS: dict[str, TextRenderer] = {}
"""Game name -> a text board registered here, before the game's presentation's own."""
LEGENDS: dict[str, str] = {}
"""Game name -> one line saying what the symbols of its board mean."""


def register(game: str, renderer: TextRenderer, legend: str = "") -> None:
    """Add the text board of a game that is not built in; ``legend`` says what its
    symbols mean, for whoever watches it first."""
    RENDERERS[game] = renderer
    LEGENDS[game] = legend


def legend(game: str) -> str:
    """One line explaining the symbols of ``game``'s text board ("" if it has none), in
    the table's language (a family's legend is a catalog text, marked where it is kept)."""
    if game in LEGENDS:
        return LEGENDS[game]
    text = presentation(game).text_legend
    return _(text) if text else ""


def render_board(state: State, colour: bool = False) -> str:
    """The board of any registered game as text, plus a status line."""
    name = state.game.name
    renderer = RENDERERS.get(name) or presentation(name).text_board or render_any_game
    return renderer(state, colour)


def render_any_game(state: State, colour: bool = False) -> str:
    """A game without a board of its own: its JSON fields one per line, then who acts."""
    lines = [f"{state.game.name} ({state.game.preset})"]
    for key, value in state.to_json().items():
        if key not in ("game", "preset"):
            lines.append(f"  {key}: {value}")
    if state.is_terminal():
        winners = state.winners()
        lines.append(_("{name} wins").format(name=winners[0]) if winners else _("game over"))
    else:
        player = state.current_player or "?"
        painted = paint(player, player if player in ANSI else None, colour)
        if state.is_chance():
            lines.append(_("{player} to roll").format(player=painted))
        else:
            lines.append(_("{player} to move").format(player=painted))
    return "\n".join(lines) + "\n"
