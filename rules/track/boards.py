"""Board geometries of the MÄDN family (race games on a ring with private goal lanes).

A geometry is pure data: how long the shared ring is, where each colour starts, how
many steps a piece travels before its goal lane, and grid coordinates (row, col; row 0
at the top) for every field so that views and the text board can draw it. Keeping the
geometry a parameter is what lets Mensch ärgere dich nicht and Kleiner Ärger share one
engine: a variant is a preset of that engine, never a fork of its code.
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass(frozen=True)
class TrackGeometry:
    """Everything about a board that the rules and the views need.

    Progress of a piece counts steps from its own start field: ``0`` is the start
    field, ``track_steps - 1`` the last ring step, then ``track_steps ..
    track_steps + goal_len - 1`` are goal 1 (outermost) to goal N.
    """

    name: str
    ring: int
    track_steps: int
    goal_len: int
    pieces: int
    colours: tuple[str, ...]
    starts: tuple[int, ...]
    seatings: dict[int, tuple[str, ...]]
    home_token: str
    lap_token: str | None
    size: int
    ring_cells: tuple[Cell, ...]
    goal_cells: dict[str, tuple[Cell, ...]]
    home_cells: dict[str, tuple[Cell, ...]]
    centre: Cell | None

    def start_of(self, colour: str) -> int:
        return self.starts[self.colours.index(colour)]


def _rotate(cell: Cell, size: int) -> Cell:
    """Quarter turn clockwise on a size×size grid: (r, c) -> (c, size-1-r)."""
    r, c = cell
    return (c, size - 1 - r)


def _maedn() -> TrackGeometry:
    first = ((10, 4), (9, 4), (8, 4), (7, 4), (6, 4), (6, 3), (6, 2), (6, 1), (6, 0), (5, 0))
    ring: list[Cell] = list(first)
    segment = list(first)
    for _ in range(3):
        segment = [_rotate(cell, 11) for cell in segment]
        ring.extend(segment)
    colours = ("red", "blue", "green", "yellow")
    red_goal: tuple[Cell, ...] = ((9, 5), (8, 5), (7, 5), (6, 5))
    red_home: tuple[Cell, ...] = ((9, 0), (9, 1), (10, 0), (10, 1))
    goals: dict[str, tuple[Cell, ...]] = {}
    homes: dict[str, tuple[Cell, ...]] = {}
    goal, home = red_goal, red_home
    for colour in colours:
        goals[colour] = goal
        homes[colour] = home
        goal = tuple(_rotate(cell, 11) for cell in goal)
        home = tuple(_rotate(cell, 11) for cell in home)
    return TrackGeometry(
        name="maedn",
        ring=40,
        track_steps=40,
        goal_len=4,
        pieces=4,
        colours=colours,
        starts=(0, 10, 20, 30),
        seatings={
            2: ("red", "green"),
            3: ("red", "blue", "green"),
            4: colours,
        },
        home_token="home",
        lap_token=None,
        size=11,
        ring_cells=tuple(ring),
        goal_cells=goals,
        home_cells=homes,
        centre=(5, 5),
    )


def _square(name: str) -> Cell:
    """Kleiner Ärger field name (column a–g, row 1–7, row 7 on top) to (row, col)."""
    return (7 - int(name[1]), ord(name[0]) - ord("a"))


def _kleiner_aerger() -> TrackGeometry:
    ring_names = [
        "a4",
        "a5",
        "b5",
        "c5",
        "c6",
        "c7",
        "d7",
        "e7",
        "e6",
        "e5",
        "f5",
        "g5",
        "g4",
        "g3",
        "f3",
        "e3",
        "e2",
        "e1",
        "d1",
        "c1",
        "c2",
        "c3",
        "b3",
        "a3",
    ]
    colours = ("red", "blue", "green", "yellow")
    goal_names = {
        "red": ("b4", "c4"),
        "blue": ("d6", "d5"),
        "green": ("f4", "e4"),
        "yellow": ("d2", "d3"),
    }
    # Pieces wait off the board; the views draw them beside the start field.
    home_cells: dict[str, tuple[Cell, ...]] = {colour: () for colour in colours}
    return TrackGeometry(
        name="kleiner_aerger",
        ring=24,
        # 24 ring steps bring a piece back to its own start field ("lap", step 24).
        track_steps=25,
        goal_len=2,
        pieces=2,
        colours=colours,
        starts=(0, 6, 12, 18),
        seatings={
            2: ("red", "green"),
            3: ("red", "blue", "green"),
            4: colours,
        },
        home_token="out",
        lap_token="lap",
        size=7,
        ring_cells=tuple(_square(n) for n in ring_names),
        goal_cells={c: tuple(_square(n) for n in names) for c, names in goal_names.items()},
        home_cells=home_cells,
        centre=_square("d4"),
    )


MAEDN_BOARD = _maedn()
KLEINER_AERGER_BOARD = _kleiner_aerger()
