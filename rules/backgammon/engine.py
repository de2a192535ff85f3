"""Backgammon: the rule text plus the full standard rules (docs/games.md).

Presets ("presets, not forks"):

* ``single`` (default): one game without the doubling cube; a win scores 1, a gammon 2,
  a backgammon 3;
* ``money``: one game with the doubling cube (offer, take or drop; ownership);
* ``match5``: a match to 5 points with the cube and the Crawford rule. A state's
  ``match_length`` may be set to any length in JSON (or a Match ID); the preset only
  fixes the length of a new match.

Turn structure, all explicit (the rules never roll):

* ``opening``: a chance node of two dice, one per side (``[white, black]``); a tie is
  thrown again, otherwise the higher side moves with both dice;
* ``double``: a decision of the side on turn, ``roll`` or ``double`` (only where the
  cube may be turned: not in the Crawford game, not by the side that does not own it,
  and in a match not once it is dead, as GNU Backgammon rules it, see ``_turn_phase``);
* ``take``: the opponent of the doubler decides ``take`` or ``drop`` (or, where beavers
  are played, ``beaver``: it takes and at once redoubles, keeping the cube);
* ``beaver``: the doubler answers a beaver: ``take`` plays on for four times the cube
  offered, the beaverer owning it; ``drop`` gives up twice the cube offered (GNU
  Backgammon's reading of the rule: the cube shows 2 while the beaver is answered);
* ``roll``: a chance node of the side on turn, 21 distinct rolls;
* ``move``: a decision; each legal play is one move of up to four checker steps, one per
  distinct resulting position; a roll with no legal play has the single move ``pass``;
* ``over``: the single game, or the match, is finished.

Resigning (:class:`Resignation`): at any of its decisions, or before its roll, the side
on turn may offer to give up the game as a single, a gammon or a backgammon (``resign
single`` …; not among :meth:`BackgammonState.legal_moves`, so that no random or
searching player stumbles on it, but :meth:`BackgammonState.resign_offers` lists them
and ``apply``/``parse_move`` take them). Then the opponent decides ``accept`` (the game
ends, worth the cube times the level) or ``reject`` (play goes on where it was; the
same turn cannot offer that level or less again).

Boards are per side, from the side's own view (see :mod:`rules.backgammon.moves`), which
is also GNU Backgammon's layout. White is GNU Backgammon's player 0, black player 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Final

from rules.backgammon.ids import (
    GAME_DROP,
    GAME_OVER,
    GAME_PLAYING,
    MatchInfo,
    decode_match,
    decode_position,
    encode_match,
    encode_position,
)
from rules.backgammon.moves import BAR, CHECKERS, after, play_steps
from rules.backgammon.xgid import XgPosition, decode_xgid, encode_xgid, is_xgid
from rules.core import PASS, Dice, JsonDict, Move, ValueState, check_dice
from rules.errors import (
    IllegalMoveError,
    InvalidDiceError,
    InvalidStateError,
    NotDecisionError,
    shown,
)

PLAYERS: Final = ("white", "black")
# Final: a compiled build inlines these instead of looking them up per use.
OPENING: Final = 0
DOUBLE: Final = 1
TAKE: Final = 2
ROLL: Final = 3
MOVE: Final = 4
OVER: Final = 5
BEAVER: Final = 6
PHASE_NAMES = ("opening", "double", "take", "roll", "move", "over", "beaver")
MAX_CUBE: Final = 1 << 15
"""The highest cube value a Match ID can hold; doubling stops there."""

START: Final[tuple[int, ...]] = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0)
"""Each side's start position in its own view: 2 on the 24 point, 5 on the 13, 3 on
the 8 and 5 on the 6 (the rule text's "fest vorgegebene Aufstellung")."""

SINGLE: Final = 1
GAMMON: Final = 2
BACKGAMMON: Final = 3
RESIGNED: Final = 10
"""A result's kind is ``RESIGNED + level`` when the loser's resignation was accepted."""
LEVEL_NAMES: Final = {SINGLE: "single", GAMMON: "gammon", BACKGAMMON: "backgammon"}
KIND_NAMES = {
    0: "drop",
    **LEVEL_NAMES,
    **{RESIGNED + level: f"resigned {name}" for level, name in LEVEL_NAMES.items()},
}


@dataclass(frozen=True)
class BackgammonRules:
    """The switches of one preset. ``match_length`` 0 means a single (money) game."""

    name: str
    cube: bool = False
    match_length: int = 0
    crawford: bool = True
    jacoby: bool = False
    """Money play: gammons and backgammons count single while the cube is centred."""
    automatic: int = 0
    """Money play: automatic doubles, at most this many; each tie of the opening roll
    doubles the centred cube once more."""
    beavers: bool = False
    """Money play: a doubled side may beaver (take and redouble at once, keeping the
    cube); one beaver per double, no raccoons."""


SINGLE_GAME = BackgammonRules("single")
MONEY = BackgammonRules("money", cube=True)
MONEY_JACOBY = BackgammonRules("money-jacoby", cube=True, jacoby=True)
MONEY_AUTOMATIC = BackgammonRules("money-automatic", cube=True, jacoby=True, automatic=2)
MONEY_BEAVERS = BackgammonRules("money-beavers", cube=True, beavers=True)
MONEY_ALL = BackgammonRules("money-all", cube=True, jacoby=True, automatic=2, beavers=True)
"""Every money option on: Jacoby, beavers and two automatic doubles."""
MATCH_LENGTHS: Final = (1, 3, 5, 7, 11)
MATCHES: Final = {n: BackgammonRules(f"match{n}", cube=True, match_length=n) for n in MATCH_LENGTHS}
MATCH5 = MATCHES[5]


class Play:
    """One checker play: up to four steps, in standard notation (``13/9 24/23``,
    ``bar/22*``, ``6/off``, ``8/5(2)``).

    Plays compare by their resulting position (both sides' boards), which is what makes
    a play distinct. ``before`` is (mover's board, opponent's board) before the play. The
    notation and the boards after are built on first use, because a random game looks
    at neither for all but the chosen play.
    """

    __slots__ = ("_boards", "_notation", "before", "steps")

    def __init__(
        self,
        steps: tuple[tuple[int, int, bool], ...],
        before: tuple[tuple[int, ...], tuple[int, ...]],
    ) -> None:
        self.steps = steps
        self.before = before
        self._notation: str | None = None
        self._boards: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    @property
    def notation(self) -> str:
        if self._notation is None:
            self._notation = format_play(self.steps)
        return self._notation

    @property
    def boards(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(mover's board, opponent's board) after the play, each in its own view."""
        if self._boards is None:
            self._boards = after(self.before[0], self.before[1], self.steps)
        return self._boards

    @property
    def mover(self) -> tuple[int, ...]:
        """The mover's board after the play (25 counts, own view, bar last)."""
        return self.boards[0]

    @property
    def other(self) -> tuple[int, ...]:
        """The opponent's board after the play (changed only by hits)."""
        return self.boards[1]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self.boards == other.boards

    def __hash__(self) -> int:
        return hash(self.boards)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"state.parse_move({self.notation!r})"


@dataclass(frozen=True, slots=True)
class CubeAction:
    """A cube decision: ``roll`` or ``double`` before the roll, ``take`` or ``drop``."""

    notation: str

    def __str__(self) -> str:
        return self.notation


ROLL_ACTION = CubeAction("roll")
DOUBLE_ACTION = CubeAction("double")
TAKE_ACTION = CubeAction("take")
DROP_ACTION = CubeAction("drop")
BEAVER_ACTION = CubeAction("beaver")
ACCEPT_ACTION = CubeAction("accept")
"""Accept the opponent's resignation: the game ends at the level offered."""
REJECT_ACTION = CubeAction("reject")
"""Reject the opponent's resignation: play goes on."""


@dataclass(frozen=True, slots=True)
class Resignation:
    """The side on turn offers to give up the game at ``level`` (SINGLE, GAMMON or
    BACKGAMMON), i.e. for the cube times the level."""

    level: int

    @property
    def notation(self) -> str:
        return f"resign {LEVEL_NAMES[self.level]}"

    def __str__(self) -> str:
        return self.notation


RESIGNATIONS: Final = {level: Resignation(level) for level in LEVEL_NAMES}

_OPENING_OUTCOMES: tuple[tuple[Dice, float], ...] = tuple(
    ((w, b), 1 / 36) for w in range(1, 7) for b in range(1, 7)
)
ROLL_OUTCOMES: tuple[tuple[Dice, float], ...] = tuple(
    ((hi, lo), (1 if hi == lo else 2) / 36) for hi in range(6, 0, -1) for lo in range(hi, 0, -1)
)


def pip_count(board: Sequence[int]) -> int:
    """Pips a side still has to move: its point i + 1 counts i + 1, the bar 25."""
    return sum((i + 1) * n for i, n in enumerate(board))


def has_contact(side: Sequence[int], other: Sequence[int]) -> bool:
    """True while some checker of one side still has to pass a checker of the other
    (otherwise the game is a pure race)."""
    back = max((i for i in range(BAR + 1) if side[i]), default=-1)
    # The other side's index k is our 23 - k; its bar (k = 24) is our -1.
    front = min((23 - k for k in range(BAR + 1) if other[k]), default=24)
    return back > front


def result_kind(loser: Sequence[int]) -> int:
    """SINGLE, GAMMON or BACKGAMMON against ``loser`` when the winner bears off its
    last checker: a gammon if the loser has borne off none, a backgammon if it also has
    a checker on the bar or in the winner's home board (its own points 19–24)."""
    if sum(loser) < CHECKERS:
        return SINGLE
    return BACKGAMMON if loser[BAR] or any(loser[18:24]) else GAMMON


def point_name(index: int) -> str:
    """Notation of a board index in the mover's view: ``bar``, ``off`` or 1–24."""
    return "bar" if index == BAR else "off" if index < 0 else str(index + 1)


def format_play(steps: Sequence[tuple[int, int, bool]]) -> str:
    """Standard notation: a checker moving on is one chain (``24/18``; an intermediate
    hit stays visible: ``24/21*/18``), equal chains are grouped (``8/5(2)``), highest
    source first."""
    chains: list[list[tuple[int, bool]]] = []
    for src, dst, hit in steps:
        for chain in chains:
            if chain[-1][0] == src:  # the checker moves on (an "off" end is negative)
                chain.append((dst, hit))
                break
        else:
            chains.append([(src, False), (dst, hit)])
    parts: list[tuple[int, int, str]] = []
    for chain in chains:
        text = point_name(chain[0][0])
        for i, (where, hit) in enumerate(chain[1:], start=1):
            last = i == len(chain) - 1
            if last or hit:
                text += "/" + point_name(where) + ("*" if hit else "")
        parts.append((chain[0][0], chain[-1][0], text))
    parts.sort(key=lambda p: (-p[0], -p[1]))
    out: list[str] = []
    i = 0
    while i < len(parts):
        j = i
        while j < len(parts) and parts[j][2] == parts[i][2]:
            j += 1
        out.append(parts[i][2] + (f"({j - i})" if j - i > 1 else ""))
        i = j
    return " ".join(out)


class BackgammonGame:
    """A preset; makes start positions and parses JSON, Position IDs and Match IDs."""

    name = "backgammon"

    def __init__(self, rules: BackgammonRules) -> None:
        self.rules = rules
        self.preset = rules.name

    def __repr__(self) -> str:
        return f"get_game('backgammon', {self.preset!r})"

    @property
    def player_counts(self) -> tuple[int, ...]:
        return (2,)

    def new_state(self, players: int | None = None, first: str | None = None) -> BackgammonState:
        """The start position before the opening roll (``first`` skips it: that side
        rolls first, with both dice of its own)."""
        if players not in (None, 2):
            raise InvalidStateError(f"backgammon is for 2 players, not {players}")
        state = BackgammonState(self, (START, START), 0, OPENING, (), 1, None, (0, 0), False)
        if first is not None:
            if first not in PLAYERS:
                raise InvalidStateError(
                    f"{shown(first)} does not play; players are {list(PLAYERS)}"
                )
            seat = PLAYERS.index(first)
            state = state._replace(turn=seat, phase=state._turn_phase(seat, 1, None, False))
        return state

    # -- GNU Backgammon and eXtreme Gammon interchange ----------------------------------

    def state_from_position(self, text: str) -> BackgammonState:
        """A position from either ID: an XGID (``XGID=...``) or a GNU Backgammon
        Position ID, optionally with its Match ID (``POSID:MATCHID``)."""
        if is_xgid(text):
            return self.state_from_xgid(text)
        return self.state_from_position_id(text)

    def state_from_xgid(self, text: str) -> BackgammonState:
        """A position from an XGID (:mod:`rules.backgammon.xgid`). Its match length and
        Crawford flag are taken as given; its Jacoby and beaver flags and its cube
        limit are properties of the rule set (the preset), not of the position."""
        pos = decode_xgid(text)
        if pos.doubled:
            phase = TAKE
        elif pos.dice[0]:
            phase = MOVE
        else:
            phase = ROLL
        state = BackgammonState(
            self,
            pos.boards,
            pos.turn,
            phase,
            pos.dice if phase == MOVE else (),
            pos.cube,
            pos.cube_owner,
            pos.score,
            pos.crawford,
            (),
            pos.match_length,
        )
        if phase == ROLL and state._may_double(pos.turn):
            state = state._replace(phase=DOUBLE)
        return self._checked(state)

    def state_from_position_id(self, text: str) -> BackgammonState:
        """A position from a GNU Backgammon Position ID, optionally ``POSID:MATCHID``.

        A bare Position ID puts white on roll (GNU Backgammon's player on roll is the
        second side of the ID) at the roll: the dice are the next input, the cube is
        centred. With a Match ID, the side on roll, dice, cube, score, match length and
        Crawford flag come from it (the games before are unknown, so ``games`` stays
        empty; the Jacoby bit belongs to the rule set, the preset, and is ignored).
        """
        pid, _, mid = text.strip().partition(":")
        not_on_roll, on_roll = decode_position(pid)
        if not mid:
            return self._checked(
                BackgammonState(self, (on_roll, not_on_roll), 0, ROLL, (), 1, None, (0, 0), False)
            )
        info = decode_match(mid)
        seat = info.on_roll
        boards = (on_roll, not_on_roll) if seat == 0 else (not_on_roll, on_roll)
        if info.doubled:
            phase = TAKE
        elif info.dice[0]:
            phase = MOVE
        else:
            phase = ROLL
        dice = tuple(sorted(info.dice, reverse=True)) if phase == MOVE else ()
        state = BackgammonState(
            self,
            boards,
            seat,
            phase,
            dice,
            info.cube,
            info.cube_owner,
            info.score,
            info.crawford,
            (),
            info.match_length,
        )
        if info.game_state != GAME_PLAYING:
            raise InvalidStateError(f"Match ID {shown(mid)} is not of a game in progress")
        return self._checked(state)

    # -- JSON ---------------------------------------------------------------------------

    def state_from_json(self, data: Mapping[str, Any]) -> BackgammonState:
        """Parse and validate a JSON state (format in docs/json.md).

        Required: ``points`` (per side, 24 counts from its own view) and ``turn``;
        ``bar`` defaults to 0 each, ``phase`` to ``"roll"`` (``"move"`` with ``dice``),
        the cube to 1 and centred, the score to 0–0. ``off``, ``position_id``,
        ``match_id`` are derived and ignored on input, except that ``off`` must agree.
        """
        points = data.get("points")
        if not isinstance(points, Mapping) or set(points) != set(PLAYERS):
            raise InvalidStateError('"points" must map "white" and "black" to 24 counts each')
        bar = data.get("bar", {"white": 0, "black": 0})
        if not isinstance(bar, Mapping) or set(bar) != set(PLAYERS):
            raise InvalidStateError('"bar" must map "white" and "black" to a count')
        boards: list[tuple[int, ...]] = []
        for colour in PLAYERS:
            counts = points[colour]
            if (
                not isinstance(counts, list)
                or len(counts) != 24
                or not all(_natural(c) for c in counts)
            ):
                raise InvalidStateError(f"{colour} points must be 24 counts (0 or more)")
            if not _natural(bar[colour]):
                raise InvalidStateError(f"{colour} bar must be a count (0 or more)")
            boards.append((*counts, bar[colour]))
        turn = data.get("turn")
        if turn not in PLAYERS:
            raise InvalidStateError(f'"turn" must be "white" or "black", got {shown(turn)}')
        seat = PLAYERS.index(str(turn))
        raw_dice = data.get("dice") or None
        phase_name = data.get("phase", "move" if raw_dice else "roll")
        if phase_name not in PHASE_NAMES:
            raise InvalidStateError(f'"phase" must be one of {list(PHASE_NAMES)}')
        phase = PHASE_NAMES.index(str(phase_name))
        dice: tuple[int, ...] = ()
        if phase == MOVE:
            if raw_dice is None:
                raise InvalidStateError('phase "move" needs "dice": [d1, d2]')
            dice = tuple(sorted(check_dice(raw_dice, 2), reverse=True))
        elif raw_dice is not None:
            raise InvalidStateError(f"phase {shown(phase_name)} takes no dice")
        cube = data.get("cube", 1)
        if not _natural(cube) or cube < 1 or cube & (cube - 1) or cube > MAX_CUBE:
            raise InvalidStateError(f'"cube" must be a power of two from 1 to {MAX_CUBE}')
        owner_name = data.get("cube_owner")
        if owner_name is not None and owner_name not in PLAYERS:
            raise InvalidStateError('"cube_owner" must be null, "white" or "black"')
        owner = None if owner_name is None else PLAYERS.index(str(owner_name))
        length = data.get("match_length", self.rules.match_length)
        if not _natural(length) or length >= 1 << 15:
            raise InvalidStateError('"match_length" must be 0 (no match) or a length in points')
        raw_score = data.get("score", {"white": 0, "black": 0})
        if (
            not isinstance(raw_score, Mapping)
            or set(raw_score) != set(PLAYERS)
            or not all(_natural(raw_score[c]) and raw_score[c] < 1 << 15 for c in PLAYERS)
        ):
            raise InvalidStateError('"score" must map "white" and "black" to points')
        score = (int(raw_score["white"]), int(raw_score["black"]))
        crawford = data.get("crawford", False)
        if not isinstance(crawford, bool):
            raise InvalidStateError('"crawford" must be true or false')
        offer_name = data.get("resign_offer")
        levels = {name: level for level, name in LEVEL_NAMES.items()}
        if offer_name is not None and offer_name not in levels:
            raise InvalidStateError(
                '"resign_offer" must be null, "single", "gammon" or "backgammon"'
            )
        declined_name = data.get("resign_declined")
        if declined_name is not None and declined_name not in levels:
            raise InvalidStateError(
                '"resign_declined" must be null, "single", "gammon" or "backgammon"'
            )
        raw_games = data.get("games", [])
        if not isinstance(raw_games, list):
            raise InvalidStateError('"games" must list the finished games of the match')
        results = tuple(_parse_result(g) for g in raw_games)
        state = BackgammonState(
            self,
            (boards[0], boards[1]),
            seat,
            phase,
            dice,
            int(cube),
            owner,
            score,
            crawford,
            results,
            int(length),
            0 if offer_name is None else levels[str(offer_name)],
            0 if declined_name is None else levels[str(declined_name)],
        )
        off = data.get("off")
        if off is not None and off != {c: state.off(i) for i, c in enumerate(PLAYERS)}:
            raise InvalidStateError('"off" does not match the checkers on the board')
        return self._checked(state)

    def _checked(self, state: BackgammonState) -> BackgammonState:
        """Reject positions that cannot occur (impossible input raises, in every game)."""
        for seat, colour in enumerate(PLAYERS):
            total = sum(state.boards[seat])
            if total > CHECKERS:
                raise InvalidStateError(f"{colour} has {total} checkers on the board (max 15)")
        white, black = state.boards
        for i in range(24):
            if white[i] and black[23 - i]:
                raise InvalidStateError(
                    f"white and black both have checkers on white's point {i + 1}"
                )
        length = state.match_length
        rules = self.rules
        if length and max(state.score) >= length and state.phase != OVER:
            raise InvalidStateError(f"the score {state.score} already ends a {length}-point match")
        if state.crawford and state.phase != OVER and not (length and length - 1 in state.score):
            raise InvalidStateError("a Crawford game needs a match with a side 1 point away")
        if state.cube_owner is not None or state.cube > 1:
            if not rules.cube:
                raise InvalidStateError(f"the {rules.name} preset plays without the cube")
            if state.crawford:
                raise InvalidStateError("the cube stays at 1 in the Crawford game")
            if state.cube_owner is None and state.cube > 1 << rules.automatic:
                raise InvalidStateError(
                    "a turned cube has an owner (or came from automatic doubles)"
                )
        finished = [seat for seat in (0, 1) if state.off(seat) == CHECKERS]
        if state.phase == OVER:
            if not state.results:
                raise InvalidStateError('a finished game is listed last in "games"')
            if length and max(state.score) < length:
                raise InvalidStateError(f"a {length}-point match is not over at {state.score}")
        elif finished:
            raise InvalidStateError(f"{PLAYERS[finished[0]]} has borne off all checkers")
        elif not length and state.results:
            raise InvalidStateError('"games" lists finished games only in a match')
        won = [0, 0]
        for winner, points, _ in state.results:
            won[winner] += points
        if length and state.results and tuple(won) != state.score:
            raise InvalidStateError(f'the "games" add up to {tuple(won)}, not the score')
        if state.phase == DOUBLE and not state._may_double(state.turn):
            raise InvalidStateError(f"{PLAYERS[state.turn]} may not double here")
        if state.phase == TAKE and not state._may_double(state.turn):
            raise InvalidStateError(f"{PLAYERS[state.turn]} could not have doubled here")
        if state.phase == BEAVER and not (
            rules.beavers
            and not length
            and state.cube_owner == 1 - state.turn
            and 2 <= state.cube <= MAX_CUBE // 2
        ):
            raise InvalidStateError(
                "a beaver is answered in money play with beavers, the beaverer owning the cube"
            )
        if state.offer and state.phase not in (DOUBLE, ROLL, MOVE):
            raise InvalidStateError("a resignation is offered only at its side's turn")
        if state.offer and state.offer <= state.declined:
            raise InvalidStateError("that resignation was already rejected this turn")
        if state.phase == OPENING and state.boards != (START, START):
            raise InvalidStateError("the opening roll happens before any checker moved")
        return state


def _natural(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _parse_result(raw: object) -> tuple[int, int, int]:
    kinds = {v: k for k, v in KIND_NAMES.items()}
    if (
        not isinstance(raw, Mapping)
        or raw.get("winner") not in PLAYERS
        or not isinstance(raw.get("kind"), str)  # a list or an object cannot be looked up
        or raw.get("kind") not in kinds
        or not _natural(raw.get("points"))
    ):
        raise InvalidStateError(
            'each of "games" must be {"winner": colour, "points": n, "kind": '
            "single|gammon|backgammon|drop}"
        )
    return PLAYERS.index(raw["winner"]), int(raw["points"]), kinds[raw["kind"]]


class BackgammonState(ValueState):
    """An immutable backgammon position (one game, or a match in progress)."""

    __slots__ = (
        "_hash",
        "_moves",
        "boards",
        "crawford",
        "cube",
        "cube_owner",
        "declined",
        "dice",
        "game",
        "match_length",
        "offer",
        "phase",
        "results",
        "score",
        "turn",
    )

    def __init__(
        self,
        game: BackgammonGame,
        boards: tuple[tuple[int, ...], tuple[int, ...]],
        turn: int,
        phase: int,
        dice: tuple[int, ...],
        cube: int,
        cube_owner: int | None,
        score: tuple[int, int],
        crawford: bool,
        results: tuple[tuple[int, int, int], ...] = (),
        match_length: int | None = None,
        offer: int = 0,
        declined: int = 0,
    ) -> None:
        self.game = game
        self.boards = boards
        self.turn = turn
        self.phase = phase
        self.dice = dice
        self.cube = cube
        self.cube_owner = cube_owner
        self.score = score
        self.crawford = crawford
        self.results = results
        self.match_length = game.rules.match_length if match_length is None else match_length
        self.offer = offer
        """The level of a resignation the side on turn offers (0: none)."""
        self.declined = declined
        """The highest level rejected this turn (0: none); it may not be offered again."""
        self._moves: tuple[Move, ...] | None = None
        self._hash: int | None = None

    def _replace(self, **changes: Any) -> BackgammonState:
        values: dict[str, Any] = {
            "boards": self.boards,
            "turn": self.turn,
            "phase": self.phase,
            "dice": self.dice,
            "cube": self.cube,
            "cube_owner": self.cube_owner,
            "score": self.score,
            "crawford": self.crawford,
            "results": self.results,
            "match_length": self.match_length,
            "offer": self.offer,
            "declined": self.declined,
        }
        values.update(changes)
        return BackgammonState(self.game, **values)

    # -- value semantics --------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self.game.preset,
            self.boards,
            self.turn,
            self.phase,
            self.dice,
            self.cube,
            self.cube_owner,
            self.score,
            self.crawford,
            self.results,
            self.match_length,
            self.offer,
            self.declined,
        )

    # -- queries ----------------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        """Who acts: rolls, moves, doubles, or (``take``) answers a double. In the
        opening both throw; white is named as the one who throws first."""
        if self.phase == OVER:
            return None
        if self.phase == TAKE or self.offer:
            return PLAYERS[1 - self.turn]
        return PLAYERS[self.turn]

    def is_chance(self) -> bool:
        return (self.phase == ROLL or self.phase == OPENING) and not self.offer

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def players(self) -> tuple[str, ...]:
        return PLAYERS

    def is_opening(self) -> bool:
        return self.phase == OPENING

    def dice_shown(self) -> Dice:
        """The roll the side on turn moves with (none before the roll, nor in the
        opening roll, whose dice pass straight to the move)."""
        return self.dice

    def off(self, seat: int) -> int:
        """Checkers ``seat`` has borne off."""
        return CHECKERS - sum(self.boards[seat])

    def pips(self, seat: int) -> int:
        """Pip count: the steps ``seat`` still needs to bear everything off."""
        return pip_count(self.boards[seat])

    def winners(self) -> tuple[str, ...]:
        if self.phase != OVER or not self.results:
            return ()
        winner = self._match_winner()
        return (PLAYERS[winner], PLAYERS[1 - winner])

    def _match_winner(self) -> int:
        if self.match_length:
            return 0 if self.score[0] >= self.match_length else 1
        return self.results[-1][0] if self.results else 0

    def describe(self) -> str:
        who = self.current_player or "nobody"
        extra = f" with {self.dice[0]}-{self.dice[1]}" if self.phase == MOVE else ""
        doing = PHASE_NAMES[self.phase]
        if self.offer:
            doing = f"answer {PLAYERS[self.turn]}'s offer to resign a {LEVEL_NAMES[self.offer]}"
        return f"backgammon/{self.game.preset} {self.position_id()}, {who} to {doing}{extra}"

    # -- chance -----------------------------------------------------------------------

    def chance_outcomes(self) -> tuple[tuple[Dice, float], ...]:
        """Opening: 36 ordered pairs (white's die, black's die); later the 21 distinct
        rolls, larger die first, 1/36 for a double and 2/36 otherwise."""
        if self.offer:
            raise InvalidDiceError(f"no roll is due: {self.describe()}")
        if self.phase == OPENING:
            return _OPENING_OUTCOMES
        if self.phase == ROLL:
            return ROLL_OUTCOMES
        raise InvalidDiceError(f"no roll is due: {self.describe()}")

    def roll(self, dice: Sequence[int]) -> BackgammonState:
        if self.offer:
            raise InvalidDiceError(f"no roll is due: {self.describe()}")
        if self.phase == OPENING:
            white, black = check_dice(dice, 2)
            if white == black:
                rules = self.game.rules
                if rules.automatic and self.cube < 1 << rules.automatic and not self.match_length:
                    return self._replace(cube=self.cube * 2)  # an automatic double
                return self  # "ties re-rolled": the opening roll is thrown again
            seat = 0 if white > black else 1
            return self._replace(turn=seat, phase=MOVE, dice=(max(dice), min(dice)))
        if self.phase != ROLL:
            raise InvalidDiceError(f"no roll is due: {self.describe()}")
        d1, d2 = check_dice(dice, 2)
        return BackgammonState(
            self.game,
            self.boards,
            self.turn,
            MOVE,
            (d1, d2) if d1 >= d2 else (d2, d1),
            self.cube,
            self.cube_owner,
            self.score,
            self.crawford,
            self.results,
            self.match_length,
            0,
            self.declined,
        )

    # -- moves ------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """Plays at ``move`` (one per distinct result; ``pass`` if none); cube actions at
        ``double`` and ``take``."""
        moves = self._moves
        if moves is not None:
            return moves
        phase = self.phase
        if self.offer:
            moves = (ACCEPT_ACTION, REJECT_ACTION)
        elif phase == MOVE:
            moves = self._plays()
        elif phase == DOUBLE:
            moves = (ROLL_ACTION, DOUBLE_ACTION)
        elif phase == TAKE:
            moves = (TAKE_ACTION, DROP_ACTION)
            if self._may_beaver():
                moves = (TAKE_ACTION, DROP_ACTION, BEAVER_ACTION)
        elif phase == BEAVER:
            moves = (TAKE_ACTION, DROP_ACTION)
        else:
            raise NotDecisionError(
                f"no moves at this point: {self.describe()}"
                + (" (roll the dice first)" if self.is_chance() else "")
            )
        self._moves = moves
        return moves

    def _may_beaver(self) -> bool:
        rules = self.game.rules
        return rules.beavers and not self.match_length and self.cube * 4 <= MAX_CUBE

    def resign_offers(self) -> tuple[Resignation, ...]:
        """The resignations the side on turn may offer now: at its decisions and before
        its roll, levels above one rejected this turn. With the Jacoby rule and a
        centred cube only a single is offered (a gammon would count single anyway;
        GNU Backgammon would score it double)."""
        if self.offer or self.phase not in (DOUBLE, ROLL, MOVE):
            return ()
        levels = [SINGLE, GAMMON, BACKGAMMON]
        if self.game.rules.jacoby and self.cube_owner is None and not self.match_length:
            levels = [SINGLE]
        return tuple(RESIGNATIONS[level] for level in levels if level > self.declined)

    def _plays(self) -> tuple[Move, ...]:
        mover = self.boards[self.turn]
        other = self.boards[1 - self.turn]
        d1, d2 = self.dice
        plays = play_steps(list(mover), list(other), d1, d2)
        if not plays:
            return (PASS,)
        before = (mover, other)
        return tuple([Play(steps, before) for steps in plays])

    def parse_move(self, text: str) -> Move:
        """Read a move: a cube word, ``pass``, or checker steps in any order and
        grouping (``24/23 13/9``, ``13/10 10/9``, ``8/5(2)``) that reach a legal play's
        position."""
        wanted = " ".join(text.strip().lower().split())
        for offer in self.resign_offers():
            if offer.notation == wanted:
                return offer
        moves = self.legal_moves()
        for move in moves:
            if move.notation == wanted:
                return move
        if self.phase == MOVE and moves[0] is not PASS:
            target = self._simulate(wanted, text)
            for move in moves:
                if isinstance(move, Play) and move.boards == target:
                    return move
        legal = ", ".join(m.notation for m in moves)
        raise IllegalMoveError(f"{shown(text)} is not legal in {self.describe()}; legal: {legal}")

    def _simulate(self, wanted: str, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        own = list(self.boards[self.turn])
        opp = list(self.boards[1 - self.turn])
        for token in wanted.split():
            times = 1
            if token.endswith(")") and "(" in token:
                token, _, count = token[:-1].partition("(")
                if not count.isdigit() or not 1 <= int(count) <= 4:
                    raise IllegalMoveError(f"bad repeat count in {shown(text)}")
                times = int(count)
            hops = [_parse_point(p, text) for p in token.split("/")]
            if len(hops) < 2:
                raise IllegalMoveError(f"{shown(text)}: a step looks like 13/9, bar/22* or 6/off")
            for _ in range(times):
                for src, dst in pairwise(hops):
                    if src < 0 or not own[src]:
                        raise IllegalMoveError(
                            f"{shown(text)}: no {PLAYERS[self.turn]} checker on {point_name(src)} "
                            f"in {self.describe()}"
                        )
                    own[src] -= 1
                    if dst >= 0:
                        own[dst] += 1
                        if opp[23 - dst] == 1:
                            opp[23 - dst] = 0
                            opp[BAR] += 1
        return tuple(own), tuple(opp)

    def apply(self, move: Move) -> BackgammonState:
        if isinstance(move, Resignation):
            if move not in self.resign_offers():
                raise IllegalMoveError(f"{move} cannot be offered in {self.describe()}")
            return self._replace(offer=move.level)
        moves = self.legal_moves()
        chosen = None
        for candidate in moves:
            if candidate is move:
                chosen = candidate
                break
        else:
            for candidate in moves:
                if candidate == move or candidate.notation == move.notation:
                    chosen = candidate
                    break
        if chosen is None:
            legal = ", ".join(m.notation for m in moves)
            raise IllegalMoveError(f"{move} is not legal in {self.describe()}; legal: {legal}")
        if isinstance(chosen, Play):
            return self._after_play(chosen)
        if chosen is PASS:
            return self._next_turn(self.boards)
        if chosen is ACCEPT_ACTION:
            return self._resigned()
        if chosen is REJECT_ACTION:
            return self._replace(offer=0, declined=self.offer)
        if chosen is ROLL_ACTION:
            return self._replace(phase=ROLL)
        if chosen is DOUBLE_ACTION:
            return self._replace(phase=TAKE)
        if chosen is BEAVER_ACTION:
            # GNU Backgammon's reading: the beaverer now owns a cube of twice the value
            # and has in effect redoubled it; the doubler answers.
            return self._replace(phase=BEAVER, cube=self.cube * 2, cube_owner=1 - self.turn)
        if chosen is TAKE_ACTION:
            # A beaver taken: the beaverer already owns the cube, now twice as high.
            return self._replace(phase=ROLL, cube=self.cube * 2, cube_owner=1 - self.turn)
        if self.phase == BEAVER:  # the doubler drops the beaver: it loses the cube shown
            return self._end_game(self.boards, 1 - self.turn, self.cube, 0)
        # Drop: the doubler wins the cube's value before the double.
        return self._end_game(self.boards, self.turn, self.cube, 0)

    def _resigned(self) -> BackgammonState:
        """The opponent accepts the resignation of the side on turn."""
        return self._end_game(
            self.boards, 1 - self.turn, self.cube * self.offer, RESIGNED + self.offer
        )

    def _after_play(self, play: Play) -> BackgammonState:
        seat = self.turn
        mover, loser = play.boards
        boards = (mover, loser) if seat == 0 else (loser, mover)
        if sum(mover) == 0:
            kind = result_kind(loser)
            counted = kind
            if self.game.rules.jacoby and self.cube_owner is None and not self.match_length:
                counted = SINGLE  # the Jacoby rule: no gammons with a centred cube
            return self._end_game(boards, seat, self.cube * counted, kind)
        return self._next_turn(boards)

    def _next_turn(self, boards: tuple[tuple[int, ...], tuple[int, ...]]) -> BackgammonState:
        nxt = 1 - self.turn
        return BackgammonState(
            self.game,
            boards,
            nxt,
            self._turn_phase(nxt, self.cube, self.cube_owner, self.crawford),
            (),
            self.cube,
            self.cube_owner,
            self.score,
            self.crawford,
            self.results,
            self.match_length,
        )

    def _turn_phase(self, seat: int, cube: int, owner: int | None, crawford: bool) -> int:
        """DOUBLE where ``seat`` may turn the cube before its roll, else ROLL.

        In a match a dead cube is not turned: once the cube's value already wins ``seat``
        the match (``cube >= match_length - score``), doubling can only hand the other
        side a cube it may redouble. GNU Backgammon refuses that double to a person too
        (its ``double`` command answers "The cube is dead; you can't double any more.")
        and its evaluation gives no player the cube then, so neither does the rules'
        list of moves: no bot, random or strong, and no person at the table is offered
        it. The same test covers the leader after the Crawford game (1 away: even a
        cube of 1 is dead) and a taker whose new cube already wins it the match.
        """
        rules = self.game.rules
        if rules.cube and not crawford and cube < MAX_CUBE and (owner is None or owner == seat):
            length = self.match_length
            if not length or cube < length - self.score[seat]:
                return DOUBLE
        return ROLL

    def _may_double(self, seat: int) -> bool:
        return self._turn_phase(seat, self.cube, self.cube_owner, self.crawford) == DOUBLE

    def _end_game(
        self,
        boards: tuple[tuple[int, ...], tuple[int, ...]],
        winner: int,
        points: int,
        kind: int,
    ) -> BackgammonState:
        results = (*self.results, (winner, points, kind))
        length = self.match_length
        score = list(self.score)
        if length:
            score[winner] += points
        new_score = (score[0], score[1])
        if not length or score[winner] >= length:
            return BackgammonState(
                self.game,
                boards,
                winner,
                OVER,
                (),
                self.cube,
                self.cube_owner,
                new_score,
                self.crawford,
                results,
                length,
            )
        # Crawford rule: the game right after a side first reaches 1 point away.
        crawford = (
            self.game.rules.crawford and length - 1 in new_score and length - 1 not in self.score
        )
        return BackgammonState(
            self.game,
            (START, START),
            0,
            OPENING,
            (),
            1,
            None,
            new_score,
            crawford,
            results,
            length,
        )

    # -- statistics and fast playout ---------------------------------------------------

    def play_stats(self) -> dict[str, float]:
        """Per finished single/money game (``rules play``): points won and how.

        For a match only the last game's kind is known from the final state, so the
        counts are per match there (documented in docs/games.md).
        """
        kinds = [kind for _, _, kind in self.results]
        points = sum(p for _, p, _ in self.results)
        return {
            "games_played": len(kinds),
            "points_won": points,
            "points_per_game_mean": points / max(len(kinds), 1),
            "singles": kinds.count(SINGLE),
            "gammons": kinds.count(GAMMON),
            "backgammons": kinds.count(BACKGAMMON),
            "drops": kinds.count(0),
            "resignations": sum(1 for kind in kinds if kind > RESIGNED),
        }

    # -- interchange ------------------------------------------------------------------

    def position_id(self, seat: int | None = None) -> str:
        """GNU Backgammon Position ID with ``seat`` (default: the side on turn) as the
        side on roll."""
        s = self.turn if seat is None else seat
        return encode_position(self.boards[1 - s], self.boards[s])

    def match_id(self) -> str:
        """GNU Backgammon Match ID: cube, score, side on roll, dice and game state."""
        doubled = self.phase in (TAKE, BEAVER)
        if self.phase == OVER:
            state = GAME_DROP if self.results and self.results[-1][2] == 0 else GAME_OVER
        else:
            state = GAME_PLAYING
        dice = self.dice if self.phase == MOVE else (0, 0)
        return encode_match(
            MatchInfo(
                cube=self.cube,
                cube_owner=self.cube_owner,
                on_roll=self.turn,
                crawford=self.crawford,
                game_state=state,
                decision=1 - self.turn if self.phase == TAKE or self.offer else self.turn,
                doubled=doubled,
                resigned=self.offer,
                dice=(dice[0], dice[1]),
                match_length=self.match_length,
                score=self.score,
                jacoby=self.game.rules.jacoby,
            )
        )

    def xgid(self) -> str:
        """eXtreme Gammon's XGID of this position (white is the bottom player)."""
        rules = self.game.rules
        return encode_xgid(
            XgPosition(
                boards=self.boards,
                cube=self.cube,
                cube_owner=self.cube_owner,
                turn=self.turn,
                dice=(self.dice[0], self.dice[1]) if self.phase == MOVE else (0, 0),
                doubled=self.phase == TAKE,
                score=self.score,
                crawford=self.crawford,
                jacoby=rules.jacoby,
                match_length=self.match_length,
                max_cube=MAX_CUBE if rules.cube else 1,
            )
        )

    def interchange(self) -> dict[str, str]:
        """For ``rules moves``: the Position ID seen from the side that just moved (not
        yet swapped to the opponent), as GNU Backgammon's move generator reports it."""
        if self.phase == OVER:
            mover = self.results[-1][0] if self.results else self.turn
        elif self.phase == OPENING:
            return {"position_id": self.position_id()}
        else:
            mover = 1 - self.turn
        return {"position_id": self.position_id(mover)}

    def to_json(self) -> JsonDict:
        data: JsonDict = {
            "game": "backgammon",
            "preset": self.game.preset,
            "players": list(PLAYERS),
            "turn": PLAYERS[self.turn],
            "phase": PHASE_NAMES[self.phase],
            "dice": list(self.dice),
            "points": {c: list(self.boards[i][:24]) for i, c in enumerate(PLAYERS)},
            "bar": {c: self.boards[i][BAR] for i, c in enumerate(PLAYERS)},
            "off": {c: self.off(i) for i, c in enumerate(PLAYERS)},
            "cube": self.cube,
            "cube_owner": None if self.cube_owner is None else PLAYERS[self.cube_owner],
            "match_length": self.match_length,
            "score": {c: self.score[i] for i, c in enumerate(PLAYERS)},
            "crawford": self.crawford,
            "games": [
                {"winner": PLAYERS[w], "points": p, "kind": KIND_NAMES[k]}
                for w, p, k in self.results
            ],
            "winner": None,
            "position_id": self.position_id(),
            "match_id": self.match_id(),
        }
        if self.phase == OVER:
            data["winner"] = PLAYERS[self._match_winner()]
        # Only while they say something: a state without them is what it always was.
        if self.offer:
            data["resign_offer"] = LEVEL_NAMES[self.offer]
        if self.declined:
            data["resign_declined"] = LEVEL_NAMES[self.declined]
        return data


def _parse_point(text: str, whole: str) -> int:
    """A point of the notation as a board index (bar 24, off -1); ``*`` is ignored."""
    token = text.rstrip("*")
    if token == "bar" or token == "25":
        return BAR
    if token == "off" or token == "0":
        return -1
    if token.isdigit() and 1 <= int(token) <= 24:
        return int(token) - 1
    raise IllegalMoveError(f"{shown(whole)}: {shown(text)} is not a point (1–24, bar or off)")


def backgammon_game(rules: BackgammonRules) -> BackgammonGame:
    return BackgammonGame(rules)
