"""What the views draw: a frozen description of one moment of the table.

The loop builds a :class:`Scene` from the machine and the session; views turn it into a
``PIL.Image`` (``controller.views.render``). Keeping this a plain value makes views pure
functions of (state, UI cursor, time) as DESIGN §3 asks, and lets golden-image tests
build any moment directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.core import Move, State


@dataclass(frozen=True)
class RollAnimation:
    """Dice tumbling for about 0.6 s; ``final`` is shown once ``progress`` reaches 1.

    ``roller`` is the player who threw. The state drawn with a roll is the one after it,
    and after an opening throw the turn has already passed to the next contender, so
    the state alone cannot say whose colour the tumbling dice take.
    """

    final: tuple[int, ...]
    progress: float
    roller: str | None = None


@dataclass(frozen=True)
class MoveAnimation:
    """A piece stepping field by field from ``before`` to ``after``.

    ``progress`` runs 0..1 over the whole animation; views split it into the steps of the
    move and, for a capture, a final phase in which the captured piece flashes home.
    """

    move: Move
    before: State
    after: State
    progress: float


@dataclass(frozen=True)
class Scene:
    """One frame's worth of game UI.

    * ``state``: the position to draw (while a move animates, the position before it);
    * ``t``: seconds since some fixed start, for blinking (views blink at ~2 Hz);
    * ``preview``: the legal move under the NEXT cursor: its piece blinks, its target
      lights up;
    * ``dice``: the roll to show next to the board (``None``: no dice on display);
    * ``countdown``: seconds left on the move timer, if one runs;
    * ``winner``: set when the game is over, drives the winner animation;
    * ``banner``: short text to scroll over the board ("panel offline", "pass", ...).
    """

    state: State
    t: float = 0.0
    preview: Move | None = None
    dice: tuple[int, ...] | None = None
    roll: RollAnimation | None = None
    moving: MoveAnimation | None = None
    countdown: float | None = None
    countdown_total: float | None = None
    winner: str | None = None
    banner: str | None = None
    hint: Move | None = None


@dataclass(frozen=True)
class MenuItem:
    game: str
    preset: str
    label: str


@dataclass(frozen=True)
class MenuScene:
    """The game menu: one icon per game, the selected one highlighted, its label scrolling."""

    items: tuple[MenuItem, ...]
    selected: int
    t: float = 0.0
    banner: str | None = None


@dataclass(frozen=True)
class SetupScene:
    """Seat setup before a game: each seat human, bot or empty."""

    item: MenuItem
    seats: tuple[str, ...]  # per seat colour: "human" | "bot" | "empty"
    colours: tuple[str, ...]
    cursor: int
    t: float = 0.0


@dataclass(frozen=True)
class MessageScene:
    """Full-screen text (errors, "save moved aside", shutdown), scrolled."""

    text: str
    t: float = 0.0
    kind: str = "info"  # "info" | "error" | "shutdown"
    extra: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class StatisticsPage:
    """One game's chart: wins per seat colour over its last finished games."""

    game: str
    games: int
    wins: tuple[tuple[str, int], ...]  # (colour, wins) in seat order


@dataclass(frozen=True)
class StatisticsScene:
    """Who wins: one page per game that has finished games; NEXT turns the page."""

    pages: tuple[StatisticsPage, ...]
    page: int
    t: float = 0.0


STATISTICS_ITEM = MenuItem("statistics", "", "statistics")
"""The menu entry of the statistics screen (on tables that keep a history)."""

AnyScene = Scene | MenuScene | SetupScene | MessageScene | StatisticsScene
