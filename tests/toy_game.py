"""A small dice game that lives only in the tests: "Hasenrennen" (hare race).

It proves that a game is one registration: the rules registry learns it from
:func:`register`, and the menu, a generic view, the text board, ``spieltisch rules``
and a whole table game with bots then work for it without any product file naming it.

Rules: two to four hares race along 12 fields. On your turn you roll one die, then
either *run* (move the rolled number of fields) or *hop* (move one field). Landing on
another hare sends it back to the start. The first hare on field 12 or beyond wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core import (
    Dice,
    JsonDict,
    Move,
    State,
    ValueState,
    check_dice,
    uniform_outcomes,
)
from rules.errors import IllegalMoveError, InvalidStateError, NotDecisionError
from rules.registry import GameInfo, register_game, unregister_game

NAME = "hasenrennen"
GOAL = 12
COLOURS = ("red", "blue", "green", "yellow")


@dataclass(frozen=True, slots=True)
class HareMove:
    """``run`` (the die's number of fields) or ``hop`` (one field)."""

    kind: str

    @property
    def notation(self) -> str:
        return self.kind


RUN, HOP = HareMove("run"), HareMove("hop")


class HareGame:
    name = NAME

    def __init__(self, preset: str) -> None:
        self.preset = preset

    @property
    def player_counts(self) -> tuple[int, ...]:
        return (2, 3, 4)

    def new_state(self, players: int | None = None) -> HareState:
        count = players or 2
        if count not in self.player_counts:
            raise InvalidStateError(f"{NAME} is for 2 to 4 players, not {count}")
        return HareState(self, COLOURS[:count], 0, (0,) * count, None)

    def state_from_json(self, data: Mapping[str, Any]) -> HareState:
        try:
            players = tuple(str(p) for p in data["players"])
            fields = tuple(int(f) for f in data["fields"])
            turn = players.index(str(data["turn"]))
            die = data.get("die")
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidStateError(f"not a {NAME} state: {exc}") from None
        if len(fields) != len(players) or not 2 <= len(players) <= 4:
            raise InvalidStateError(f"a {NAME} state needs one field per player")
        return HareState(self, players, turn, fields, None if die is None else int(die))


class HareState(ValueState):
    __slots__ = ("_game", "_hash", "die", "fields", "players", "turn")

    def __init__(
        self,
        game: HareGame,
        players: Sequence[str],
        turn: int,
        fields: Sequence[int],
        die: int | None,
    ) -> None:
        self._game = game
        self.players = tuple(players)
        self.turn = turn
        self.fields = tuple(fields)
        self.die = die
        self._hash: int | None = None

    def _key(self) -> tuple[object, ...]:
        return (self._game.preset, self.players, self.turn, self.fields, self.die)

    @property
    def game(self) -> HareGame:
        return self._game

    @property
    def current_player(self) -> str | None:
        return None if self.is_terminal() else self.players[self.turn]

    def is_terminal(self) -> bool:
        return max(self.fields) >= GOAL

    def is_chance(self) -> bool:
        return not self.is_terminal() and self.die is None

    def is_opening(self) -> bool:
        return False  # the first hare simply starts

    def dice_shown(self) -> Dice:
        return () if self.die is None else (self.die,)

    def chance_outcomes(self) -> Sequence[tuple[Dice, float]]:
        return uniform_outcomes(1)

    def roll(self, dice: Sequence[int]) -> HareState:
        if not self.is_chance():
            raise NotDecisionError(f"{NAME}: no roll is due in {self.to_json()}")
        (die,) = check_dice(dice, 1)
        return HareState(self._game, self.players, self.turn, self.fields, die)

    def legal_moves(self) -> Sequence[Move]:
        if self.is_terminal() or self.die is None:
            raise NotDecisionError(f"{NAME}: no move is due in {self.to_json()}")
        return (RUN, HOP) if self.die > 1 else (RUN,)

    def apply(self, move: Move) -> HareState:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{NAME}: {move.notation!r} is not legal in {self.to_json()}")
        assert self.die is not None
        target = self.fields[self.turn] + (self.die if move == RUN else 1)
        fields = [0 if f == target and target < GOAL else f for f in self.fields]
        fields[self.turn] = target
        turn = self.turn if target >= GOAL else (self.turn + 1) % len(self.players)
        return HareState(self._game, self.players, turn, fields, None)

    def parse_move(self, text: str) -> Move:
        for move in (RUN, HOP):
            if text.strip() == move.notation:
                return move
        raise IllegalMoveError(f"{NAME}: unknown move {text!r}; moves are run and hop")

    def winners(self) -> tuple[str, ...]:
        if not self.is_terminal():
            return ()
        return (self.players[max(range(len(self.fields)), key=self.fields.__getitem__)],)

    def to_json(self) -> JsonDict:
        return {
            "game": NAME,
            "preset": self._game.preset,
            "players": list(self.players),
            "turn": self.players[self.turn],
            "fields": list(self.fields),
            "die": self.die,
        }


def register() -> None:
    """Teach the registry the toy game (tests call :func:`unregister` afterwards)."""
    register_game(
        GameInfo(
            name=NAME,
            title="Hasenrennen",
            presets={"standard": lambda: HareGame("standard")},
        )
    )


def unregister() -> None:
    unregister_game(NAME)


def hare_words(state: State, move: Move) -> str:
    """The toy's own words for its moves, as a family's words module would give them:
    "the hare runs 5 fields", "the hare hops"."""
    assert isinstance(state, HareState) and state.die is not None
    return f"the hare runs {state.die} fields" if move == RUN else "the hare hops"
