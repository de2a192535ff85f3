"""The registry: one registration per game, and the lookups everything else uses.

A game family declares once, in its package's ``__init__``, what each of its games
offers (:class:`GameInfo`): a title, its presets, its strong computer player and the
optional capabilities that only some games have (GNU Backgammon Position IDs, a record
format, a fast random playout, the typed facts a table acts on of a move or a
preset). The command line, the bots and the appliance ask the
registry instead of keeping lists of game names, so a new game is one new folder plus
one :func:`register_game` call. Presets are frozen rule sets of one engine ("presets,
not forks"), so a variant is one more entry in ``presets``, not a new module.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.budget import Budget
from rules.core import Bot, Game, Move, MoveFacts, PresetFacts, State, notation_facts
from rules.errors import InvalidStateError, UnknownGameError, shown

PlayoutResult = tuple[Sequence[str], int, int, int]
"""A fast random playout's (winners, dice throws, moves, passes)."""


class RecordAnalysis(Protocol):
    """What :attr:`Capabilities.record_analysis` returns: typed figures with their
    JSON (the table words them, ``controller/games/<family>/``)."""

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Capabilities:
    """What only some games can do; ``None`` means the game does not have it.

    Typed fields instead of ``getattr`` probes: a caller sees at one glance what a game
    may offer, and mypy checks every use.
    """

    position_id: Callable[[Game, str], State] | None = None
    """Read a GNU Backgammon Position ID (``ID`` or ``ID:MATCHID``) into a state."""
    interchange: Callable[[State], dict[str, str]] | None = None
    """Extra identifiers printed beside a state's JSON (e.g. its Position ID)."""
    record_export: Callable[[Iterable[Any]], str] | None = None
    """A played game's steps (``rules.playout.Step``) as a file another program reads."""
    record_suffix: str = ""
    """The file name suffix of that record format, e.g. ``.mat``."""
    fast_playout: Callable[[State, random.Random], PlayoutResult] | None = None
    """A whole random game from ``state``, much faster than through the public API."""
    play_stats: Callable[[State], Mapping[str, float]] | None = None
    """Game-specific numbers of a finished game for ``spieltisch rules play``'s summary
    (keys ending in ``_mean`` are averaged, the rest summed), e.g. Backgammon's gammons."""
    move_facts: Callable[[Move], MoveFacts] | None = None
    """How the table animates and cues a move; it is handed every move of the game,
    the pass included. ``None``: :func:`rules.core.notation_facts`."""
    hint_details: Callable[[State, Move], Mapping[str, object]] | None = None
    """What a hint adds to its JSON beside the move (Backgammon: equities, chances, IDs)."""
    preset_facts: Callable[[Game], PresetFacts] | None = None
    """The rule switches of a preset the appliance acts on (a move timer). ``None``:
    none."""
    record_analysis: Callable[[Iterable[Any]], RecordAnalysis] | None = None
    """An analysis of a finished record's replayed steps (how well each side played):
    typed figures and their JSON. ``None``: the game has none."""
    move_values: Callable[[Bot, State], Sequence[tuple[Move, float]] | None] | None = None
    """The strong player's (the ``Bot`` given) value of every legal move of a decision,
    higher better, in the game's own unit, for the levels (:mod:`rules.levels`).
    ``None`` as a result: a decision the levels leave to the strong player (a cube
    action). ``None``: the game has no levels; its level kinds play as ``strong``."""
    level_noise: tuple[float, ...] = ()
    """The standard deviation of the evaluation noise of each level, weakest first, in
    the unit of ``move_values`` (calibrated: docs/bots.md)."""
    why_not: Callable[[State], Sequence[object]] | None = None
    """Why the pieces of the side on turn that have no legal move cannot move: typed
    facts of the family's own (``rules/<family>/why_not.py``), never words; the table
    says them. ``None``: the game gives no reasons."""
    coach_threshold: float | None = None
    """How much worse than the strong player's move (in the unit of ``move_values``) a
    move must be for the coach to show the better one (:mod:`rules.coach`; set in
    docs/bots.md). ``None``: the game has no such coach."""
    side_moves: Callable[[State], tuple[Move, ...]] | None = None
    """Moves the side on turn may make that are not among its legal moves, because no
    player should pick them by cycling or searching (Backgammon's offers to resign):
    ``apply`` takes them; the table offers them only behind a deliberate sequence of
    presses. ``None``: the game has none."""


@dataclass(frozen=True)
class GameInfo:
    """Everything one game declares about itself, once."""

    name: str
    """The identifier used on the command line, in JSON and in saves."""
    title: str
    """The name players know, e.g. "Mensch ärgere dich nicht"."""
    presets: Mapping[str, Callable[[], Game]]
    """Preset name -> factory, in the order menus show them."""
    default_preset: str = ""
    """Empty: the first preset."""
    strong_bot: Callable[[Budget], Bot] | None = None
    """The game's best player; ``None``: the generic Monte Carlo player."""
    capabilities: Capabilities = field(default_factory=Capabilities)

    def __post_init__(self) -> None:
        if not self.presets:
            raise ValueError(f"game {self.name!r} declares no preset")
        if self.default_preset and self.default_preset not in self.presets:
            raise ValueError(f"default preset {self.default_preset!r} of {self.name!r} unknown")

    @property
    def default(self) -> str:
        return self.default_preset or next(iter(self.presets))


_GAMES: dict[str, GameInfo] = {}
_CACHE: dict[tuple[str, str], Game] = {}


def register_game(info: GameInfo) -> None:
    """Add (or replace) a game. Replacing drops its cached game objects."""
    _GAMES[info.name] = info
    for key in [key for key in _CACHE if key[0] == info.name]:
        del _CACHE[key]


def unregister_game(name: str) -> None:
    """Remove a game (tests that register a toy game clean up with this)."""
    _GAMES.pop(name, None)
    for key in [key for key in _CACHE if key[0] == name]:
        del _CACHE[key]


def game_names() -> list[str]:
    return sorted(_GAMES)


def game_info(name: str) -> GameInfo:
    try:
        return _GAMES[name]
    except (KeyError, TypeError):  # TypeError: a name from JSON that is a list or object
        raise UnknownGameError(
            f"unknown game {shown(name)}; known games: {', '.join(game_names())}"
        ) from None


def capabilities(name: str) -> Capabilities:
    return game_info(name).capabilities


def move_facts(name: str, move: Move) -> MoveFacts:
    """The facts of a move of game ``name``: the game's own, else its notation's."""
    read = capabilities(name).move_facts
    return notation_facts(move) if read is None else read(move)


def side_moves(name: str, state: State) -> tuple[Move, ...]:
    """The side moves (:attr:`Capabilities.side_moves`) open to the side on turn."""
    read = capabilities(name).side_moves
    return () if read is None else read(state)


def preset_facts(game: Game) -> PresetFacts:
    """The rule switches of ``game``'s preset that the appliance acts on."""
    read = capabilities(game.name).preset_facts
    return PresetFacts() if read is None else read(game)


def presets(name: str) -> list[str]:
    return list(game_info(name).presets)


def default_preset(name: str) -> str:
    return game_info(name).default


def get_game(name: str, preset: str | None = None) -> Game:
    """The game object for ``name``/``preset`` (cached: games are immutable)."""
    info = game_info(name)
    chosen = preset or info.default
    if not isinstance(chosen, str) or chosen not in info.presets:
        raise UnknownGameError(
            f"unknown preset {shown(chosen)} for {name}; known presets: {', '.join(info.presets)}"
        )
    key = (name, chosen)
    if key not in _CACHE:
        _CACHE[key] = info.presets[chosen]()
    return _CACHE[key]


def state_from_json(data: Mapping[str, Any]) -> State:
    """Parse any game's state: the ``game`` and ``preset`` keys pick the engine."""
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"a state must be a JSON object, got {type(data).__name__}")
    name = data.get("game")
    if not isinstance(name, str):
        raise InvalidStateError('a state needs a "game" key naming the game')
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise InvalidStateError('"preset" must be a string')
    return get_game(name, preset).state_from_json(data)
