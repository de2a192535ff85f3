"""What the views draw: a frozen description of one moment of the table.

The loop builds a scene from the machine and the session; views turn it into a
``PIL.Image`` (``controller.views.render``). Keeping this a plain value makes views pure
functions of (state, UI cursor, time), and lets golden-image tests build any moment
directly.

Times. ``t`` is the moment drawn (the loop's clock). Everything that starts at a press
or an event carries its own start (``*_since``): a preview blinks from the NEXT press
that chose it, a label scrolls from the moment it was selected, a banner from the
moment it appeared. That is what makes the first frame after a press show its effect
(every blink starts in its visible phase) and lets every text start at its beginning.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.i18n import N_, _
from rules.core import Move, State


@dataclass(frozen=True)
class RollAnimation:
    """Dice tumbling for about 0.6 s; ``final`` is shown once ``progress`` reaches 1.

    ``roller`` is the player who threw. The state drawn with a roll is the one after it,
    and after an opening throw the turn has already passed to the next contender, so
    the state alone cannot say whose colour the tumbling dice take.
    ``started`` and ``length`` (seconds) let a view say when its next flip is due; a
    picture of one moment may leave them out.
    """

    final: tuple[int, ...]
    progress: float
    roller: str | None = None
    started: float = 0.0
    length: float = 0.0
    opening: bool = False
    """The throw decides who begins (the status line says how it came out)."""


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
    started: float = 0.0
    length: float = 0.0


@dataclass(frozen=True)
class Scene:
    """One frame's worth of game UI.

    * ``state``: the position to draw (while a move animates, the position before it);
    * ``t``: seconds since some fixed start, for blinking (views blink at ~2 Hz);
    * ``preview``: the legal move under the NEXT cursor: its piece blinks, its target
      lights up; the blink starts at ``preview_since`` in its visible phase;
    * ``entry``: a Backgammon play being entered checker by checker (its fixed steps
      are drawn as played, its next step as the preview);
    * ``dice``: the roll to show next to the board (``None``: no dice on display);
    * ``countdown``: seconds left on the move timer, if one runs;
    * ``winner``: set when the game is over, drives the winner animation;
    * ``result``: the game-over words, one :class:`Standing` per player in order;
    * ``banner``: short text to scroll over the board ("panel offline", "pass", ...),
      from ``banner_since``;
    * ``cue``: the player whose roll is awaited (a human): their die blinks.
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
    preview_since: float = 0.0
    banner_since: float = 0.0
    entry: CheckerEntryView | None = None
    result: tuple[Standing, ...] = ()
    result_since: float = 0.0
    cue: str | None = None


@dataclass(frozen=True)
class Standing:
    """One player's line on the game-over screen: ``text`` ("red wins", "2 blue",
    "you lost") drawn in the colour of ``player`` (a name the game's view knows)."""

    text: str
    player: str


@dataclass(frozen=True)
class CheckerEntryView:
    """A Backgammon play entered one checker step at a time.

    ``played``: the steps already fixed, in the rules' own step form (source index,
    destination index, hit) from the mover's view; ``step``: the step under the NEXT
    cursor. Every step tells its die (source minus destination, also for a bear-off),
    so the view knows which dice are used up and which one the preview takes.
    """

    played: tuple[tuple[int, int, bool], ...]
    step: tuple[int, int, bool] | None


@dataclass(frozen=True)
class MenuItem:
    game: str
    preset: str
    label: str
    translated: bool = False
    """``label`` is an English text of the catalog (not a game's own title)."""

    @property
    def words(self) -> str:
        """The label as the panel shows it, in the table's language."""
        return _(self.label) if self.translated else self.label


@dataclass(frozen=True)
class MenuScene:
    """The game menu: one icon per game, the selected one highlighted, its label scrolling."""

    items: tuple[MenuItem, ...]
    selected: int
    t: float = 0.0
    banner: str | None = None
    since: float = 0.0
    """When this entry was selected: its label scrolls from its beginning."""
    banner_since: float = 0.0


@dataclass(frozen=True)
class SetupScene:
    """Seat setup before a game: the rules (when the game has several presets), each
    seat human, bot or empty, then "start".

    ``cursor``: -1 the rules entry, 0.. a seat, ``len(seats)`` "start"; ``names``: how
    each seat's player is called on the panel (the colour it is drawn in); ``rules``:
    the chosen preset's name (None: the game has one preset); ``since``: when the
    cursor arrived (its text scrolls from the start, its underline starts lit);
    ``problem``: on "start", why the game cannot begin as set up.
    """

    item: MenuItem
    seats: tuple[str, ...]  # per seat colour: "human" | "bot" | "empty"
    colours: tuple[str, ...]
    cursor: int
    t: float = 0.0
    since: float = 0.0
    names: tuple[str, ...] = ()
    rules: str | None = None
    problem: str | None = None
    """Why the game cannot begin as set up (too few or too many players), said on
    "start" instead of beginning."""
    people: tuple[str | None, ...] = ()
    """The named player chosen at each seat (None: a guest, a bot, empty); empty
    where the family keeps no names."""
    naming: bool = False
    """The cursor is on the name row of seat ``cursor`` (after its human/bot row)."""


@dataclass(frozen=True)
class MessageScene:
    """Full-screen text (errors, "save moved aside", shutdown), scrolled."""

    text: str
    t: float = 0.0
    kind: str = "info"  # "info" | "error" | "shutdown"
    extra: dict[str, float] = field(default_factory=dict)
    since: float = 0.0


@dataclass(frozen=True)
class Leader:
    """One named player's line on a game's leaderboard."""

    name: str
    won: int
    games: int


@dataclass(frozen=True)
class StatisticsPage:
    """One game's chart: wins per seat colour over its last finished games; or, with
    ``leaders``, the same games' leaderboard of the named players, most wins first."""

    game: str
    games: int
    wins: tuple[tuple[str, int], ...]  # (colour, wins) in seat order
    leaders: tuple[Leader, ...] = ()


@dataclass(frozen=True)
class StatisticsScene:
    """Who wins: one page per game that has finished games; NEXT turns the page."""

    pages: tuple[StatisticsPage, ...]
    page: int
    t: float = 0.0
    since: float = 0.0
    """When the page was turned to: a leaderboard's long names scroll from there."""


STATISTICS_ITEM = MenuItem("statistics", "", N_("statistics"), translated=True)
"""The menu entry of the statistics screen (on tables that keep a history)."""


@dataclass(frozen=True)
class SleepScene:
    """The panel asleep after minutes without a press: ``inner`` frozen and dimmed.

    A static picture: nothing in it changes by itself, so the loop draws it once and
    then sleeps on its queue until a press wakes the table.
    """

    inner: Scene | MenuScene | SetupScene | MessageScene | StatisticsScene


AnyScene = Scene | MenuScene | SetupScene | MessageScene | StatisticsScene | SleepScene
