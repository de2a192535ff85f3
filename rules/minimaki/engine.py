"""Mini-Maki, a dice solitaire: one red piece (the Maki) against six black pieces, on 6×6.

Board (numbered as in the JSON state): columns 1–6 are the die faces, rows 1–6 run from
black's baseline (row 1, red's goal) to red's baseline (row 6). Each column holds exactly one
black piece, which only ever moves forward (towards row 6) or is reset to row 1.

A round (where the rule text is vague, docs/architecture.md gives the decision and why):

1. *Black's turn* is a chance node: the caller supplies two dice. The black of each
   rolled column takes one single step; a double is two single steps of that one piece.
   Every single step is judged against red's field *before* the roll, and capture beats
   reset: a black landing on red, or any black reaching row 6, loses the game; otherwise
   red goes back to row 6 of its column if a step ended directly left or right of red
   (or diagonally, with the diagonal switch), or if the black of red's own column moved
   while behind red.
2. *Red's turn* is a decision: one king step onto a field without a black piece
   (boxed in: pass). Blacks directly left or right of red's new field (or diagonal, with
   the switch) go back to row 1. Red reaching row 1 wins.

Before the first round red chooses its start field on row 6 (a move); with the free
setup the blacks are first placed one column at a time (rows 1–5, also moves).

Two-player mode (``players=2``): the players play whole games in turn ("player1"
first unless told), each game on a fresh board. After each pair of games the better
result wins: a win beats a loss, fewer rounds to a win beat more, and of two losses the
one that lasted more rounds is better. An exact tie plays another pair (play-off).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from rules.core import PASS, Dice, JsonDict, Move, ValueState, check_dice, uniform_outcomes
from rules.errors import (
    IllegalMoveError,
    InvalidDiceError,
    InvalidStateError,
    NotDecisionError,
    shown,
)

SIZE = 6
BLACK_BASE = 1
RED_BASE = 6
WON, LOST = "won", "lost"
SOLO_PLAYERS = ("red",)
DUEL_SEATS = ("player1", "player2")
_OUTCOMES = uniform_outcomes(2)

Field = tuple[int, int]
"""(row, col), both 1–6."""


@dataclass(frozen=True)
class MinimakiRules:
    """The switches of one preset: diagonal contact, a free black setup, the player counts."""

    name: str
    diagonal_contact: bool = False
    """Diagonal contact counts as a neighbour, for resets in both directions."""
    free_setup: bool = False
    """The blacks start on rows 1–5 of the player's choice instead of all on row 1."""
    player_counts: tuple[int, ...] = (1, 2)


STANDARD = MinimakiRules(name="standard")
DIAGONAL = MinimakiRules(name="diagonal", diagonal_contact=True)
FREE_SETUP = MinimakiRules(name="free_setup", free_setup=True)
TWO_PLAYER = MinimakiRules(name="two_player", player_counts=(2,))


def field_name(field: Field) -> str:
    return f"r{field[0]}c{field[1]}"


@dataclass(frozen=True, slots=True)
class Place:
    """Put a piece on ``field``: red's start field, or one black in the free setup."""

    row: int
    col: int

    @property
    def notation(self) -> str:
        return field_name((self.row, self.col))

    def __str__(self) -> str:
        return self.notation


@dataclass(frozen=True, slots=True)
class Step:
    """Red's king step; notation ``r6c3-r5c4`` (``parse_move`` also takes ``r5c4``)."""

    src: Field
    dst: Field

    @property
    def notation(self) -> str:
        return f"{field_name(self.src)}-{field_name(self.dst)}"

    def __str__(self) -> str:
        return self.notation


def is_neighbour(a: Field, b: Field, diagonal: bool) -> bool:
    """Left/right of each other, or (switch) diagonally adjacent; never the same column."""
    if abs(a[1] - b[1]) != 1:
        return False
    return a[0] == b[0] or (diagonal and abs(a[0] - b[0]) == 1)


@dataclass(frozen=True)
class BlackTurn:
    """What one roll did: the new black rows and the verdict on red."""

    black: tuple[int, ...]
    captured: bool
    reached_baseline: bool
    red_reset: bool


def black_turn(black: Sequence[int], red: Field, dice: Dice, diagonal: bool = False) -> BlackTurn:
    """Carry out black's roll: single steps judged against ``red`` as it stood before.

    A captured black stays on red's field, and a black on row 6 stops there: the game is
    lost either way, and the board shows why.
    """
    rows = list(black)
    a, b = dice
    columns = (a, a) if a == b else (a, b)
    captured = reached = reset = False
    red_row, red_col = red
    for col in columns:
        row = rows[col - 1]
        if row >= RED_BASE or (col == red_col and row == red_row):
            continue
        behind = col == red_col and row > red_row
        row += 1
        rows[col - 1] = row
        if (row, col) == red:
            captured = True
        if row == RED_BASE:
            reached = True
        if behind or is_neighbour((row, col), red, diagonal):
            reset = True
    return BlackTurn(tuple(rows), captured, reached, reset)


def red_steps(black: Sequence[int], red: Field) -> list[Field]:
    """King steps onto the board and onto fields without a black piece."""
    row, col = red
    targets = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = row + dr, col + dc
            if (dr or dc) and 1 <= r <= SIZE and 1 <= c <= SIZE and black[c - 1] != r:
                targets.append((r, c))
    return targets


def reset_by_red(black: Sequence[int], red: Field, diagonal: bool) -> tuple[int, ...]:
    """Blacks that red's step made neighbours go back to their baseline (row 1)."""
    return tuple(
        BLACK_BASE if is_neighbour((row, col), red, diagonal) else row
        for col, row in enumerate(black, start=1)
    )


def result_key(result: str, rounds: int) -> tuple[int, int]:
    """Smaller is better: wins by fewest rounds, then losses by most rounds survived."""
    return (0, rounds) if result == WON else (1, -rounds)


class MinimakiGame:
    """A preset of Mini-Maki; makes and parses states."""

    name = "minimaki"

    def __init__(self, rules: MinimakiRules) -> None:
        self.rules = rules
        self.preset = rules.name

    def __repr__(self) -> str:
        return f"get_game({self.name!r}, {self.preset!r})"

    @property
    def player_counts(self) -> tuple[int, ...]:
        return self.rules.player_counts

    def fresh_board(self, players: int, seat: int, match: tuple[MatchGame, ...]) -> MinimakiState:
        """The start of one game: blacks on row 1 (or to be placed), red not yet placed."""
        if self.rules.free_setup:
            return MinimakiState(
                self, (None,) * SIZE, None, 1, "black", None, None, players, seat, match
            )
        return MinimakiState(
            self, (BLACK_BASE,) * SIZE, None, 1, "red", None, None, players, seat, match
        )

    def new_state(self, players: int | None = None, first: str | None = None) -> MinimakiState:
        """A new game (``players=1``) or match (``players=2``; ``first`` starts it)."""
        count = self.rules.player_counts[0] if players is None else players
        if count not in self.rules.player_counts:
            counts = " or ".join(map(str, self.rules.player_counts))
            raise InvalidStateError(
                f"minimaki/{self.preset} is for {counts} player(s), not {count}"
            )
        seats = DUEL_SEATS if count == 2 else ("red",)
        if first is not None and first not in seats:
            raise InvalidStateError(f"{shown(first)} does not play; players are {list(seats)}")
        seat = seats.index(first) if first is not None else 0
        return self.fresh_board(count, seat, ())

    def state_from_json(self, data: Mapping[str, Any]) -> MinimakiState:
        return parse_state(self, data)


@dataclass(frozen=True)
class MatchGame:
    """One finished game of a two-player match."""

    seat: int
    result: str
    rounds: int


class MinimakiState(ValueState):
    """An immutable Mini-Maki position. Compare, hash and serialise by value."""

    __slots__ = (
        "black",
        "game",
        "last_roll",
        "match",
        "nplayers",
        "red",
        "result",
        "round",
        "seat",
        "to_move",
    )

    def __init__(
        self,
        game: MinimakiGame,
        black: tuple[int | None, ...],
        red: Field | None,
        round_: int,
        to_move: str,
        result: str | None,
        last_roll: Dice | None,
        nplayers: int,
        seat: int,
        match: tuple[MatchGame, ...],
    ) -> None:
        self.game = game
        self.black = black
        self.red = red
        self.round = round_
        self.to_move = to_move
        self.result = result
        self.last_roll = last_roll
        self.nplayers = nplayers
        self.seat = seat
        self.match = match

    # -- value semantics --------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self.game.preset,
            self.black,
            self.red,
            self.round,
            self.to_move,
            self.result,
            self.last_roll,
            self.nplayers,
            self.seat,
            self.match,
        )

    # -- queries ----------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """The seats' players: the two match players, or red alone in the solitaire
        (its black pieces are the dice's, no seat plays them)."""
        return DUEL_SEATS if self.nplayers == 2 else SOLO_PLAYERS

    def is_opening(self) -> bool:
        return False  # the board's setup decides nothing about who begins

    def dice_shown(self) -> Dice:
        return ()  # red steps without dice; black's roll moves black at once

    @property
    def rows(self) -> tuple[int, ...]:
        """Black rows per column (only once every black is placed)."""
        if any(r is None for r in self.black):
            raise NotDecisionError(f"the blacks are still being set up: {self.describe()}")
        return tuple(r for r in self.black if r is not None)

    @property
    def current_player(self) -> str | None:
        if self.is_terminal():
            return None
        if self.nplayers == 2:
            return DUEL_SEATS[self.seat]
        # The solitaire player sets up, places and steps red; the dice play black.
        return "black" if self.is_chance() else "red"

    def is_terminal(self) -> bool:
        return self.result is not None

    def is_chance(self) -> bool:
        return self.result is None and self.to_move == "black" and self.red is not None

    def in_setup(self) -> bool:
        return None in self.black

    def winners(self) -> tuple[str, ...]:
        if self.result is None:
            return ()
        if self.nplayers == 1:
            return ("red",) if self.result == WON else ("black",)
        a, b = self.match[-2], self.match[-1]
        best, other = (
            (a, b) if result_key(a.result, a.rounds) < result_key(b.result, b.rounds) else (b, a)
        )
        return (DUEL_SEATS[best.seat], DUEL_SEATS[other.seat])

    def describe(self) -> str:
        """One line for error messages."""
        who = f"{DUEL_SEATS[self.seat]}'s game, " if self.nplayers == 2 else ""
        if self.result is not None:
            what = f"red {self.result} in round {self.round}"
        elif self.in_setup():
            what = f"black setup of column {self.black.index(None) + 1}"
        elif self.red is None:
            what = "red to choose its start field"
        elif self.to_move == "black":
            what = f"black to roll in round {self.round}"
        else:
            what = f"red on {field_name(self.red)} to step in round {self.round}"
        return f"minimaki/{self.game.preset}, {who}{what}"

    def play_stats(self) -> dict[str, float]:
        """Per game (``rules play``): red's wins and the rounds played.

        A two-player match reports its games' wins (summed), the mean rounds per game
        and the number of games it took.
        """
        if self.nplayers == 1:
            return {"red_wins": int(self.result == WON), "rounds_mean": self.round}
        games = self.match
        return {
            "red_wins": sum(g.result == WON for g in games),
            "rounds_mean": sum(g.rounds for g in games) / max(len(games), 1),
            "match_games_mean": len(games),
        }

    # -- chance -----------------------------------------------------------------------

    def chance_outcomes(self) -> tuple[tuple[Dice, float], ...]:
        if not self.is_chance():
            raise InvalidDiceError(f"no roll is due: {self.describe()}")
        return _OUTCOMES

    def roll(self, dice: Sequence[int]) -> MinimakiState:
        """Black's turn with the caller's two dice."""
        if not self.is_chance() or self.red is None:
            raise InvalidDiceError(f"no roll is due: {self.describe()}")
        values = check_dice(dice, 2)
        turn = black_turn(self.rows, self.red, values, self.game.rules.diagonal_contact)
        if turn.captured or turn.reached_baseline:
            return self._end(turn.black, self.red, LOST, "black", values)
        red = (RED_BASE, self.red[1]) if turn.red_reset else self.red
        return self._with(black=turn.black, red=red, to_move="red", last_roll=values)

    # -- moves ------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        if self.result is not None:
            raise NotDecisionError(f"the game is over: {self.describe()}")
        if self.in_setup():
            col = self.black.index(None) + 1
            return tuple(Place(row, col) for row in range(BLACK_BASE, RED_BASE))
        if self.red is None:
            return tuple(Place(RED_BASE, col) for col in range(1, SIZE + 1))
        if self.to_move != "red":
            raise NotDecisionError(
                f"no moves at this point: {self.describe()} (roll the dice first)"
            )
        steps = tuple(Step(self.red, dst) for dst in red_steps(self.rows, self.red))
        return steps or (PASS,)

    def parse_move(self, text: str) -> Move:
        """Read a notation; a red step may also be given by its target field alone."""
        wanted = text.strip().lower()
        moves = self.legal_moves()
        for move in moves:
            if move.notation == wanted or (
                isinstance(move, Step) and field_name(move.dst) == wanted
            ):
                return move
        legal = ", ".join(m.notation for m in moves)
        raise IllegalMoveError(f"{shown(text)} is not legal in {self.describe()}; legal: {legal}")

    def apply(self, move: Move) -> MinimakiState:
        moves = self.legal_moves()
        if move not in moves:
            legal = ", ".join(m.notation for m in moves)
            raise IllegalMoveError(f"{move} is not legal in {self.describe()}; legal: {legal}")
        if isinstance(move, Place):
            if self.in_setup():
                black = list(self.black)
                black[move.col - 1] = move.row
                to_move = "black" if None in black else "red"
                return self._with(black=tuple(black), to_move=to_move)
            return self._with(red=(move.row, move.col), to_move="black")
        nxt_round = self.round + 1
        if move is PASS:
            return self._with(to_move="black", round_=nxt_round, last_roll=None)
        if not isinstance(move, Step):
            raise IllegalMoveError(f"{shown(move)} is not a Mini-Maki move")
        if move.dst[0] == BLACK_BASE:
            return self._end(self.rows, move.dst, WON, "red", None)
        after = reset_by_red(self.rows, move.dst, self.game.rules.diagonal_contact)
        return self._with(
            black=after, red=move.dst, to_move="black", round_=nxt_round, last_roll=None
        )

    # -- transitions ------------------------------------------------------------------

    def _with(self, **changes: Any) -> MinimakiState:
        return MinimakiState(
            self.game,
            changes.get("black", self.black),
            changes.get("red", self.red),
            changes.get("round_", self.round),
            changes.get("to_move", self.to_move),
            None,
            changes.get("last_roll", self.last_roll),
            self.nplayers,
            self.seat,
            self.match,
        )

    def _end(
        self, black: tuple[int, ...], red: Field, result: str, to_move: str, roll: Dice | None
    ) -> MinimakiState:
        """A game ended: the final state (solo), or the next game / the match's end."""
        final = MinimakiState(
            self.game,
            black,
            red,
            self.round,
            to_move,
            result,
            roll,
            self.nplayers,
            self.seat,
            self.match,
        )
        if self.nplayers == 1:
            return final
        match = (*self.match, MatchGame(self.seat, result, self.round))
        if len(match) % 2 == 0:
            a, b = match[-2], match[-1]
            if result_key(a.result, a.rounds) != result_key(b.result, b.rounds):
                return MinimakiState(
                    self.game,
                    black,
                    red,
                    self.round,
                    to_move,
                    result,
                    roll,
                    self.nplayers,
                    self.seat,
                    match,
                )
        return self.game.fresh_board(2, 1 - self.seat, match)

    # -- serialisation ----------------------------------------------------------------

    def to_json(self) -> JsonDict:
        data: JsonDict = {
            "game": "minimaki",
            "preset": self.game.preset,
            "players": list(self.players),
            "black": list(self.black),
            "red": list(self.red) if self.red is not None else None,
            "round": self.round,
            "to_move": self.to_move,
            "result": self.result,
            "last_roll": list(self.last_roll) if self.last_roll is not None else None,
        }
        if self.nplayers == 2:
            data["turn"] = DUEL_SEATS[self.seat]
            data["match"] = [
                {"player": DUEL_SEATS[g.seat], "result": g.result, "rounds": g.rounds}
                for g in self.match
            ]
            winners = self.winners()
            data["winner"] = winners[0] if winners else None
        return data


def _int(value: object, lo: int, hi: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidStateError(f"{what} must be a whole number {lo}–{hi}, got {shown(value)}")
    return value


def parse_state(game: MinimakiGame, data: Mapping[str, Any]) -> MinimakiState:
    """Parse and validate a JSON state; impossible positions are rejected.

    Only ``black`` and ``red`` are required; ``round`` defaults to 1, ``to_move`` to
    ``"red"`` before red has chosen its start field and to ``"black"`` after it.
    """
    players = data.get("players", ["red"])
    if players == ["red"]:
        nplayers = 1
    elif players == list(DUEL_SEATS):
        nplayers = 2
    else:
        raise InvalidStateError('"players" must be ["red"] or ["player1", "player2"]')
    if nplayers not in game.rules.player_counts:
        raise InvalidStateError(f"minimaki/{game.preset} is not for {nplayers} player(s)")

    raw_black = data.get("black")
    if not isinstance(raw_black, list) or len(raw_black) != SIZE:
        raise InvalidStateError('"black" must list the row (1–6) of the black piece in columns 1–6')
    placed = [r for r in raw_black if r is not None]
    if game.rules.free_setup and raw_black[: len(placed)] != placed:
        raise InvalidStateError(
            "the free setup places the blacks column by column: nulls only at the end"
        )
    if placed != raw_black and not game.rules.free_setup:
        raise InvalidStateError("only the free_setup preset has unplaced (null) blacks")
    black = tuple(_int(r, 1, 6, f"the black in column {i}") for i, r in enumerate(placed, 1))
    setup = len(black) < SIZE

    raw_red = data.get("red")
    red: Field | None = None
    if raw_red is not None:
        if not isinstance(raw_red, list) or len(raw_red) != 2:
            raise InvalidStateError('"red" must be [row, col] or null')
        red = (_int(raw_red[0], 1, 6, "red's row"), _int(raw_red[1], 1, 6, "red's column"))

    result = data.get("result")
    if result not in (None, WON, LOST):
        raise InvalidStateError(f'"result" must be null, "won" or "lost", got {shown(result)}')
    round_ = _int(data.get("round", 1), 1, 1_000_000, '"round"')
    default_move = "red" if red is None and not setup else "black"
    to_move = data.get("to_move", default_move)
    if to_move not in ("black", "red"):
        raise InvalidStateError(f'"to_move" must be "black" or "red", got {shown(to_move)}')
    raw_roll = data.get("last_roll")
    last_roll = None if raw_roll is None else check_dice(raw_roll, 2)

    if setup and red is not None:
        raise InvalidStateError("red is placed after the black setup is complete")
    if setup or red is None:
        if round_ != 1 or result is not None:
            raise InvalidStateError("red chooses its start field before round 1 begins")
        if setup and to_move != "black":
            raise InvalidStateError('during the black setup "to_move" is "black"')
        if not setup and to_move != "red":
            raise InvalidStateError('before red has chosen its start field "to_move" is "red"')
        if last_roll is not None:
            raise InvalidStateError("no dice have been rolled before red chose its start")
        if RED_BASE in black:
            raise InvalidStateError(
                "the blacks stand on rows 1–5 until red has chosen its start field"
            )
    else:
        on_red = black[red[1] - 1] == red[0]
        at_base = RED_BASE in black
        if result is None and (on_red or at_base):
            raise InvalidStateError(
                'a black on red\'s field or on row 6 means the game is lost: set "result"'
            )
        if result == LOST and not (on_red or at_base):
            raise InvalidStateError('"lost" needs a black on red\'s field or on row 6')
        if (result == WON) != (red[0] == BLACK_BASE):
            raise InvalidStateError('red is on row 1 exactly when "result" is "won"')

    if nplayers == 1:
        if data.get("match"):
            raise InvalidStateError('"match" is only for the two-player mode')
        return MinimakiState(
            game,
            (*black, *(None,) * (SIZE - len(black))),
            red,
            round_,
            str(to_move),
            result,
            last_roll,
            1,
            0,
            (),
        )
    return _parse_duel(game, data, black, red, round_, str(to_move), result, last_roll)


def _parse_duel(
    game: MinimakiGame,
    data: Mapping[str, Any],
    black: tuple[int, ...],
    red: Field | None,
    round_: int,
    to_move: str,
    result: str | None,
    last_roll: Dice | None,
) -> MinimakiState:
    """The two-player part: who plays now, and the games finished so far."""
    turn = data.get("turn", DUEL_SEATS[0])
    if turn not in DUEL_SEATS:
        raise InvalidStateError(f'"turn" must be "player1" or "player2", got {shown(turn)}')
    seat = DUEL_SEATS.index(str(turn))
    raw_match = data.get("match", [])
    if not isinstance(raw_match, list):
        raise InvalidStateError('"match" must list the finished games')
    games: list[MatchGame] = []
    for i, entry in enumerate(raw_match, start=1):
        if (
            not isinstance(entry, Mapping)
            or entry.get("player") not in DUEL_SEATS
            or entry.get("result") not in (WON, LOST)
        ):
            raise InvalidStateError(
                f'match game {i} must be {{"player": "player1"|"player2", "result": "won"|"lost", '
                '"rounds": n}'
            )
        rounds = _int(entry.get("rounds"), 1, 1_000_000, f"the rounds of match game {i}")
        games.append(
            MatchGame(DUEL_SEATS.index(str(entry["player"])), str(entry["result"]), rounds)
        )
    for a, b in pairwise(games):
        if a.seat == b.seat:
            raise InvalidStateError("the players of a match play their games in turn")
    decided = [
        result_key(games[i].result, games[i].rounds)
        != result_key(games[i + 1].result, games[i + 1].rounds)
        for i in range(0, len(games) - 1, 2)
    ]
    if any(decided[:-1]) or (decided and decided[-1] and len(games) % 2 == 1):
        raise InvalidStateError("the match was already decided before its last game")
    over = bool(decided) and decided[-1] and len(games) % 2 == 0
    if over:
        last = games[-1]
        if result != last.result or seat != last.seat or round_ != last.rounds:
            raise InvalidStateError("a finished match shows the board of its last game")
    else:
        if result is not None:
            raise InvalidStateError(
                'a match goes on until a pair of games is decided: "result" is null'
            )
        if games and seat == games[-1].seat:
            raise InvalidStateError("the players of a match play their games in turn")
    full_black = (*black, *(None,) * (SIZE - len(black)))
    return MinimakiState(
        game, full_black, red, round_, to_move, result, last_roll, 2, seat, tuple(games)
    )


def minimaki_game(rules: MinimakiRules = STANDARD) -> MinimakiGame:
    return MinimakiGame(rules)
