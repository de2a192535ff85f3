"""The shared protocol of every game: game vs state, explicit chance, moves as values.

Modelled on OpenSpiel's game/state/chance split and python-chess's ergonomics:

* a :class:`Game` is a frozen rule set (a preset) that makes initial states and parses
  JSON;
* a :class:`State` is an immutable, hashable value. It is either a *chance node* (dice
  must be rolled; the caller supplies them, the rules never roll), a *decision node*
  (``legal_moves()`` is never empty: if nothing can move, the only move is :data:`PASS`)
  or *terminal*;
* moves are small frozen values with a text notation.

The module is pure standard library: no clock, no I/O, no global random.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, ClassVar, Final, Protocol

from rules.build_info import mypyc_attr
from rules.errors import InvalidDiceError, shown

Dice = tuple[int, ...]
"""One roll: one value per die thrown together (1 for MÄDN, 2 for Backgammon)."""

JsonDict = dict[str, Any]


class Bot(Protocol):
    """A computer player: sees a decision state and a seeded RNG, returns a legal move.

    Bots never roll dice and never read a clock (a budget bounds their thinking)."""

    name: str

    def choose(self, state: State, rng: random.Random) -> Move: ...


class Move(Protocol):
    """What every move offers: a notation that ``State.parse_move`` reads back."""

    @property
    def notation(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Pass:
    """Passing is a move like any other, so the legal-move list is never empty."""

    notation: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "PASS"


PASS: Final = Pass()


@dataclass(frozen=True, slots=True)
class MoveFacts:
    """What a table needs to know to animate and cue a move, beyond its notation.

    A game family declares a function that reads these from its own move classes
    (``Capabilities.move_facts``), so the appliance never probes a move for attributes
    that only some games' moves have. :func:`notation_facts` is the answer for a game
    that declares nothing. Only facts every game can have live here, never words: how a
    move is put in words for players is the table's business (each game family's
    presentation reads the typed moves and facts of its own rules).
    """

    steps: int = 1
    """Field (or checker) steps the animation walks; at least one."""
    capture: bool = False
    """The move sends a piece home or hits a checker (the capture cue and flash)."""


def notation_facts(move: Move) -> MoveFacts:
    """The facts a move's notation alone gives: each ``/`` separates a step, and ``*``
    marks a hit."""
    notation = move.notation
    return MoveFacts(max(1, notation.count("/")), "*" in notation)


@dataclass(frozen=True, slots=True)
class PresetFacts:
    """Rule switches of a preset that the appliance itself acts on in every game; a
    game family reads them from its own rule set (``Capabilities.preset_facts``). A
    switch only one family has stays in that family's own facts."""

    move_timer_s: float = 0.0
    """Seconds a player has for each move; 0 for no timer."""


@mypyc_attr(allow_interpreted_subclasses=True)
class ValueState:
    """Equality, hashing and a pasteable repr by value, for immutable state classes.

    A subclass lists its value in ``_key()``; if it has a ``_hash`` slot, the hash is
    computed once. States are compared and hashed often (transposition tables, tests),
    so this lives in one place rather than in every game. A game written in plain Python
    may subclass it even when this module is compiled (docs/install.md, "The compiled
    build").
    """

    __slots__ = ()
    _hash: int | None

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

    def to_json(self) -> JsonDict:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()

    def __hash__(self) -> int:
        try:
            cached = self._hash
        except AttributeError:  # no cache slot in this class
            return hash(self._key())
        if cached is None:
            cached = hash(self._key())
            object.__setattr__(self, "_hash", cached)  # the subclass's slot
        return cached

    def __repr__(self) -> str:
        return f"state_from_json({self.to_json()!r})"


class State(Protocol):
    """An immutable position; see the module docstring for the node kinds."""

    @property
    def game(self) -> Game: ...

    @property
    def current_player(self) -> str | None:
        """The colour/side that acts next: rolls at a chance node, moves at a decision."""
        ...

    @property
    def players(self) -> tuple[str, ...]:
        """The players who take part, in seat order: the sides the seats play (Mini-Maki's
        solitaire lists red alone, its black pieces move by the dice). The state's JSON
        lists the same under ``"players"``."""
        ...

    def is_chance(self) -> bool: ...

    def is_terminal(self) -> bool: ...

    def is_opening(self) -> bool:
        """Whether the state waits for a throw of the opening roll, the one that decides
        who begins (False for a game without one)."""
        ...

    def dice_shown(self) -> Dice:
        """The dice on show beside the board: the roll the player on turn moves with;
        empty while no roll is in play (and in a game whose moves use no dice)."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Dice, float]]:
        """The possible rolls and their probabilities (they sum to 1)."""
        ...

    def roll(self, dice: Sequence[int]) -> State:
        """Resolve the chance node with dice supplied by the caller."""
        ...

    def legal_moves(self) -> Sequence[Move]: ...

    def apply(self, move: Move) -> State: ...

    def parse_move(self, text: str) -> Move: ...

    def winners(self) -> tuple[str, ...]:
        """Finishing order so far (the first entry won); empty while nobody finished."""
        ...

    def to_json(self) -> JsonDict: ...


class Game(Protocol):
    """A rule set: one registered game name plus one frozen preset."""

    name: str
    preset: str

    @property
    def player_counts(self) -> tuple[int, ...]: ...

    def new_state(self, players: int | None = None) -> State: ...

    def state_from_json(self, data: Mapping[str, Any]) -> State: ...


def check_dice(dice: Sequence[int], count: int, faces: int = 6) -> Dice:
    """Validate a roll from any source (RNG, typed in, JSON) and return it as a tuple."""
    try:
        values = tuple(dice)
    except TypeError:
        raise InvalidDiceError(
            f"dice must be a list of {count} number(s), got {shown(dice)}"
        ) from None
    if len(values) != count:
        raise InvalidDiceError(f"expected {count} die value(s), got {shown(list(values))}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
            raise InvalidDiceError(f"a die shows 1 to {faces}, got {shown(value)}")
    return values


def uniform_outcomes(count: int, faces: int = 6) -> tuple[tuple[Dice, float], ...]:
    """All ordered rolls of ``count`` fair dice, each with its probability."""
    p = 1.0 / faces**count
    return tuple((roll, p) for roll in product(range(1, faces + 1), repeat=count))
