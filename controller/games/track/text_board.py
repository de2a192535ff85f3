"""The track games' text board: the geometry's grid with the pieces on it.

Pieces are capital letters of their colour (R B G Y), empty track fields ``.``, start
fields the colour's small letter, empty home circles ``o`` and empty goal fields ``-``.
"""

from __future__ import annotations

from controller.i18n import N_, _
from controller.text.paint import paint
from controller.words import colour_word
from rules.core import State
from rules.track.engine import MOVE, MaednState


def render_track_game(state: State, colour: bool = False) -> str:
    """MÄDN and Kleiner Ärger: the geometry's grid with pieces on it."""
    if not isinstance(state, MaednState):
        raise TypeError("render_track_game needs a MÄDN-family state")
    game = state.game
    geo = game.geometry
    grid: dict[tuple[int, int], tuple[str, str | None]] = {}
    for index, cell in enumerate(geo.ring_cells):
        grid[cell] = (".", None)
        for c, start in zip(geo.colours, geo.starts, strict=True):
            if index == start:
                grid[cell] = (c[0], c)
    for c in geo.colours:
        for cell in geo.goal_cells[c]:
            grid[cell] = ("-", c)
        for cell in geo.home_cells[c]:
            grid[cell] = ("o", c)
    waiting: dict[str, int] = {}
    tables = game.tables(state.players)
    for seat, c in enumerate(state.players):
        homes = list(geo.home_cells[c])
        for p in state.pieces[seat]:
            letter = (c[0].upper(), c)
            if p < 0:
                if homes:
                    grid[homes.pop(0)] = letter
                else:
                    waiting[c] = waiting.get(c, 0) + 1
            elif p < geo.track_steps:
                grid[geo.ring_cells[tables[seat][p]]] = letter
            else:
                grid[geo.goal_cells[c][p - geo.track_steps]] = letter
    if geo.centre is not None:
        centre = str(state.die) if state.phase == MOVE else "*"
        grid[geo.centre] = (centre, None)
    lines = []
    for r in range(geo.size):
        row = []
        for col in range(geo.size):
            text, owner = grid.get((r, col), (" ", None))
            row.append(paint(text, owner, colour and text.isupper()))
        lines.append(" ".join(row).rstrip())
    if waiting:
        counts = ", ".join(f"{colour_word(c)} {n}" for c, n in waiting.items())
        lines.append(_("waiting off the board: {counts}").format(counts=counts))
    lines.append(status_line(state))
    return "\n".join(lines)


def status_line(state: State) -> str:
    data = state.to_json()
    if state.is_terminal():
        order = ", ".join(colour_word(p) for p in state.winners())
        return _("game over: {name} wins (finishing order: {order})").format(
            name=colour_word(state.winners()[0]), order=order
        )
    who = colour_word(state.current_player or "")
    phase = data.get("phase")
    if phase == "opening":
        opening = data.get("opening") or {}
        thrown = zip(opening.get("contenders", ()), opening.get("rolls", ()), strict=False)
        so_far = ", ".join(f"{colour_word(player)} {value}" for player, value in thrown)
        throws = _("{who} throws").format(who=who)
        return _("opening roll: {throws}").format(
            throws=f"{so_far}; {throws}" if so_far else throws
        )
    if phase == "move":
        return _("{who} rolled {dice}").format(who=who, dice=data["dice"][0])
    tries = data.get("tries", 0)
    if tries:
        return _("{who} to roll (try {number})").format(who=who, number=tries + 1)
    return _("{player} to roll").format(player=who)


def track_legend(home_circles: bool) -> str:
    """The legend, marked for the catalog (it is translated where it is shown)."""
    if home_circles:
        return N_(
            "R B G Y pieces (red blue green yellow), r b g y their start fields, . track, "
            "o empty home circle, - empty goal field, centre: the die rolled (* before the roll)"
        )
    return N_(
        "R B G Y pieces (red blue green yellow), r b g y their start fields, . track, "
        "- empty goal field, centre: the die rolled (* before the roll)"
    )
