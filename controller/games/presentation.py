"""The presentation registry: how each game presents itself at the table.

Why: the rules register what a game *is* (``rules.registry.GameInfo``); the table also
needs to know how a game *looks and speaks*: its views, its menu icon, its text board,
how its sides are named, its words for a move, whether it offers a hint, whether its
dice roll by themselves, what it says when one game of a match ends. Each family
declares that once, in its own package beside this one (mirroring ``rules/<family>/``),
and the generic controller modules ask :func:`presentation` instead of naming games.
Every field has a default, so a game that registers only its rules (the toy game in
the tests) plays with the generic view, its notation as words and its title from
``GameInfo``.

The families are found, not listed: every package beside this module is one, and the
first question to the registry imports them all (:func:`load_families`). Importing them
earlier, when ``controller.games`` is imported, would tie the generic views to every
family's views in a cycle: the dispatcher needs the registry, and a family's view draws
with the views' helpers.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import rules
from controller.i18n import _
from controller.words import colour_word
from rules.core import Dice, Move, Pass, State
from rules.registry import RecordAnalysis

if TYPE_CHECKING:
    from PIL import Image

    from controller.games.record_extras import RecordedGame, RecordExtras
    from controller.scene import Scene

Sizes = Callable[[], list[tuple[int, int, str]]]
RenderGame = Callable[["Scene", int, int, str], "Image.Image"]
"""(game scene, width, height, mode) -> PIL image: a game's own board view."""
CellBox = Callable[[int, int, str, tuple[int, int]], tuple[int, int, int, int]]
"""(width, height, mode, cell) -> the pixels (x0, y0, x1, y1 inclusive) the cell covers
(the views' ``Box``)."""


@dataclass(frozen=True)
class AnalysisFrame:
    """One picture of the replay an analysis offers at game over: a position, the
    move shown in it (drawn as the preview) and what is said of it."""

    state: State
    move: Move
    words: str


@dataclass(frozen=True)
class SetupRow:
    """One rule row of setup (:mod:`controller.setup_rows`): which option it sets
    (``key``), its words with the value now chosen, and the preset OK switches to."""

    key: str
    words: str
    next_preset: str


@dataclass(frozen=True)
class BoardView:
    """A game's own LED view: its layouts, how it draws, where a board cell lies."""

    sizes: Sizes
    render: RenderGame
    cell_box: CellBox


def notation_words(move: Move) -> str:
    """The default words of a move: its notation (the rules keep no words)."""
    return _("pass (no move)") if isinstance(move, Pass) else move.notation


@dataclass(frozen=True)
class Presentation:
    """Everything a game family tells the table about showing and playing its games.

    Each field's default is what a game that declares nothing gets."""

    view: Callable[[str], BoardView] | None = None
    """The game's own LED view (given the game name); None: the generic view."""
    icon: tuple[str, ...] = ()
    """The menu icon, rows of ``#`` and ``.``; empty: the generic die."""
    text_board: Callable[[State, bool], str] | None = None
    """The board as text (state, colour); None: the generic listing."""
    text_legend: str = ""
    """One line saying what the symbols of the text board mean."""
    side_colours: Mapping[str, str] = field(default_factory=dict)
    """Players whose colour on the panel differs from their rules name: the word for it
    (:func:`colour_name`)."""
    side_inks: Mapping[str, str] = field(default_factory=dict)
    """Players drawn in a palette colour (``controller.views.palette.SEAT``) other than
    the one of their rules name, e.g. a side called white drawn orange: the generic
    views and the status line's seat looks draw them in it."""
    preset_names: Mapping[str, str] = field(default_factory=dict)
    """Short words for the rule sets, e.g. "match to 5", in the table's language (a
    :class:`CatalogWords` translates its marked texts when they are read)."""
    move_words: Callable[[State, Move], str] | None = None
    """A move in words for the status line (the state it is played in, the move);
    None: the rules' own words for it."""
    situation_words: Callable[[State], str | None] | None = None
    """What a decision that is not a move with the dice is about ("blue doubles to
    2"), said instead of the dice on show, which are then the last roll; None for a
    state in which the player moves with the dice (and for a game with no such
    decisions)."""
    dice_words: Callable[[str], str] | None = None
    """The dice beside the board as the start of a line, given "3 5"; None: "3 5 — "."""
    step_words: Callable[[tuple[int, int, bool]], str] | None = None
    """One (from, to, hit) step of a move entered piece by piece, in words."""
    checker_steps: Callable[[Move], tuple[tuple[int, int], ...]] | None = None
    """A move's single (from, to) checker steps, for a game whose moves are made of
    several: such a move animates at checker pace, and a held NEXT steps through the
    choices checker by checker. None: no move has any."""
    hint_words: Callable[[State, Move], str] | None = None
    """The figures the status line adds to a hinted move (equity, chances); None:
    none."""
    analysis_lines: Callable[[RecordAnalysis], list[str]] | None = None
    """A record analysis (``Capabilities.record_analysis``) as lines of text; None: its
    JSON on one line."""
    record_extras: Callable[[State, Mapping[str, Any]], RecordExtras] | None = None
    """What a history record adds for a finished or abandoned game (given its final
    position and that position's JSON): e.g. a match's score and games. None:
    nothing."""
    record_game_line: Callable[[RecordedGame], str] | None = None
    """One game of a match of the history as a line of ``spieltisch history show``
    (reading the family's extras of it); None: who won how much and how, and the
    score after it."""
    checker_entry: Callable[[State, Sequence[Move]], Any] | None = None
    """How a human enters a move: None enters whole moves; a game whose moves are
    built checker by checker returns its entry object for a state, or None."""
    hint: bool = False
    """The game's strong bot is exact and instant: a human is shown the best move."""
    dice_roll_themselves: bool = False
    """The dice are the board's, not a player's: the table rolls them by itself."""
    game_end_banner: Callable[[State, State], str | None] | None = None
    """What to flash when one game of a match ends and the match goes on."""
    result_words: Callable[[State], str] | None = None
    """What the status line adds to the winner of a game that ended (the points won
    and how, a match's final score); None: nothing."""
    places: Callable[[State, Sequence[str]], list[str]] | None = None
    """Every player in finishing order; None: the winners first, then the rest."""
    solo_standing: str | None = None
    """A game for one player ends in "you won!" or "you lost" instead of a ranking; a
    lost game shows in this colour (the side the rules play against the player)."""
    fewest_players_first: bool = False
    """Setup seats the fewest players a rule set is for (Mini-Maki's solitaire): more
    players are a rule set of their own ("2 players"), not a seat switched on."""
    menu_place: int = 100
    """Where the game stands in the menu (lower first; equal places sort by name)."""
    replay_words: Mapping[str, str] = field(default_factory=dict)
    """The moves the rules name by a word, not a position (the cube's, a resignation),
    as the companion page's replay says them: notation -> English, marked ``N_`` and
    translated into the page's language."""
    decision_rolls: Callable[[Move], bool] | None = None
    """A decision whose press also throws the dice (Backgammon's "roll" instead of a
    double); None: none does."""
    opening_words: Callable[[Dice, State], str] | None = None
    """The result of an opening roll in words (its dice, the state after it); None:
    the dice and who is on turn next."""
    opening_tie: Callable[[State], tuple[str, ...]] | None = None
    """Read just after an opening throw: the players whose throws tied and who throw
    again; None: the game's opening words say it, or it has no ties."""
    opening_rethrow: Callable[[State], bool] | None = None
    """Read just before an opening throw the opening stays open after: whether it
    starts a new round among players who tied (the text simulator's "(again)"); None:
    the game does not say so."""
    roll_try: Callable[[State], int] | None = None
    """Which of several tries at a roll the player on turn is at (0: the first), for a
    game that gives more than one when nothing can move (the track games' three);
    None: one throw per roll."""
    setup_rows: Callable[[str], Sequence[SetupRow]] | None = None
    """Setup's rule rows for a preset, one per independent option; None: one row that
    steps through the presets."""
    analysis_frames: Callable[[Any], Sequence[AnalysisFrame]] | None = None
    """The replay of a finished game's analysis (what the game's ``record_analysis``
    returned) that game over offers; None: game over offers none."""
    capture_victim: Callable[[State, Move], str | None] | None = None
    """Whose piece a capturing move (played in the state given) hits, for the voice's
    "red captures green"; None: the game does not say (the voice says "red captures")."""
    reaches_goal: Callable[[Move], bool] | None = None
    """The move brings a piece into its goal (a track game's goal lane, a checker borne
    off), for the voice; None: no move is announced so."""
    why_not: Callable[[object], tuple[str, Hashable]] | None = None
    """One of the rules' typed facts of a piece without a legal move
    (``Capabilities.why_not``) as the coach says it: the piece and its reason in words
    for the status line, and the reason itself for the voice (``reason_words``)."""
    reason_words: Callable[[Hashable], str] | None = None
    """A reason of ``why_not`` alone, in the rule text's words ("Capturing is
    compulsory."), as the voice says it."""
    reasons: tuple[Hashable, ...] = ()
    """Every reason ``why_not`` can give, so that the voice renders them ahead of time."""
    routine_reasons: tuple[Hashable, ...] = ()
    """Reasons that hold turn after turn (a waiting piece needs a 6): the coach says
    them only when nothing can move at all, so that it does not repeat them while the
    player has moves to think about."""


DEFAULT = Presentation()
_PRESENTATIONS: dict[str, Presentation] = {}
_LOADING = threading.RLock()
_loaded = threading.Event()
_loading_now = False


def load_families() -> None:
    """Import every family's package beside this module, once: each registers its
    presentation when imported. Threads asking meanwhile wait for all of them; a
    family asking the registry while it is being imported (same thread) gets the
    registry as it stands."""
    global _loading_now
    if _loaded.is_set():
        return
    with _LOADING:
        if _loaded.is_set() or _loading_now:
            return
        _loading_now = True
        try:
            for family in pkgutil.iter_modules([str(Path(__file__).parent)]):
                if family.ispkg:
                    importlib.import_module(f"{__package__}.{family.name}")
        finally:
            _loading_now = False
        _loaded.set()


def register_presentation(game: str, presentation: Presentation) -> None:
    """Declare how ``game`` (a name in the rules registry) is shown and played."""
    _PRESENTATIONS[game] = presentation


def unregister_presentation(game: str) -> None:
    _PRESENTATIONS.pop(game, None)


def presentation(game: str) -> Presentation:
    """The game's presentation, or the default one for a game that declares none."""
    load_families()
    return _PRESENTATIONS.get(game, DEFAULT)


def first_game() -> str:
    """The game the menu shows first (and the one a table without a config plays)."""
    return min(rules.game_names(), key=lambda g: (presentation(g).menu_place, g))


def title(game: str) -> str:
    """The game's title as its rules registered it."""
    try:
        return rules.game_info(game).title
    except rules.UnknownGameError:
        return game.replace("_", " ")


def preset_name(game: str, preset: str) -> str:
    return presentation(game).preset_names.get(preset, preset.replace("_", " "))


def game_and_rules(game: str, preset: str) -> str:
    """The game and its rule set as the table names them ("Kleiner Ärger, Standard"),
    where a listing would otherwise show their ids."""
    return f"{title(game)}, {preset_name(game, preset)}"


def preset_name_in(game: str, preset: str, gettext: Callable[[str], str]) -> str:
    """:func:`preset_name` in the language of ``gettext`` (a catalog's), not the
    table's: the companion page may speak the browser's language."""
    names = presentation(game).preset_names
    in_catalog = getattr(names, "in_catalog", None)
    if in_catalog is not None and preset in names:
        word: str = in_catalog(preset, gettext)
        return word
    return preset_name(game, preset)


class CatalogWords(Mapping[str, str]):
    """Words kept at import time (marked ``N_``) and translated when they are read: a
    family's rule-set names, shown in the language the table speaks at that moment."""

    def __init__(self, words: Mapping[str, str]) -> None:
        self._words = dict(words)

    def __getitem__(self, key: str) -> str:
        return _(self._words[key])

    def in_catalog(self, key: str, gettext: Callable[[str], str]) -> str:
        """``key``'s word through ``gettext``: the companion page asks in the page's
        language, which need not be the one the table speaks."""
        return gettext(self._words[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)


def colour_name(game: str, player: str) -> str:
    """The colour ``player`` is drawn in, as a word (in the table's language)."""
    return colour_word(presentation(game).side_colours.get(player, player))


def move_words(state: State, move: Move) -> str:
    """What ``move`` does in ``state``, in the game's own words."""
    words = presentation(state.game.name).move_words
    if words is not None:
        return words(state, move)
    return notation_words(move)


def checker_steps(game: str, move: Move) -> tuple[tuple[int, int], ...]:
    """``move``'s single checker steps, if ``game``'s moves are made of several."""
    steps = presentation(game).checker_steps
    return () if steps is None else steps(move)
