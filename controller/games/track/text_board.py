"""The track games' text board: the geometry's grid with the pieces on it.

Pieces are capital letters of their colour (R B G Y), empty track fields ``.``, start
fields the colour's small letter, empty home circles ``o`` and empty goal fields ``-``.
"""

from __future__ import annotations

from controller.text.paint import paint
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
        lines.append("waiting off the board: " + ", ".join(f"{c} {n}" for c, n in waiting.items()))
    lines.append(status_line(state))
    return "\n".join(lines)


def status_line(state: State) -> str:
    data = state.to_json()
    if state.is_terminal():
        order = ", ".join(state.winners())
        return f"game over: {state.winners()[0]} wins (finishing order: {order})"
    who = state.current_player
    phase = data.get("phase")
    if phase == "opening":
        opening = data.get("opening") or {}
        thrown = zip(opening.get("contenders", ()), opening.get("rolls", ()), strict=False)
        so_far = ", ".join(f"{player} {value}" for player, value in thrown)
        return f"opening roll: {so_far + '; ' if so_far else ''}{who} throws"
    if phase == "move":
        return f"{who} rolled {data['dice'][0]}"
    tries = data.get("tries", 0)
    extra = f" (try {tries + 1})" if tries else ""
    return f"{who} to roll{extra}"


def track_legend(home_circles: bool) -> str:
    homes = "o empty home circle, " if home_circles else ""
    return (
        "R B G Y pieces (red blue green yellow), r b g y their start fields, . track, "
        f"{homes}- empty goal field, centre: the die rolled (* before the roll)"
    )
