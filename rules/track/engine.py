"""The Mensch-ärgere-dich-nicht family engine: one engine, rule switches, several boards.

Presets (the rule decisions are in docs/architecture.md):

* ``maedn/classic``: the MÄDN general rules 1–15, obligations enforced by offering only
  the moves the rules allow (capture > enter on a 6 > clear the start > any move);
* ``maedn/lingo``: the "Ärgern" house rules 0–10 (56 % six, pass always, self-capture,
  jumping in the goal, move timer);
* ``maedn/schmidt``: no capture obligation, one piece starts on the start field,
  jumping in the goal allowed;
* ``kleiner_aerger/standard`` (the Kleiner Ärger rules) reuses the engine on the
  24-field ring of the 33-hole cross with 2 pieces and goal lanes of 2.

A state is an immutable value. Internally a piece's position is its *progress* from its
own start field (-1 = home, 0 = start field, ..., ``track_steps - 1`` = last ring step,
then the goal fields), so every rule is the same arithmetic for every colour; JSON uses
the absolute positions of the JSON format (docs/json.md). The engine is written for
throughput (slots, cached tables, no per-step allocation beyond the new state) because
bots and the conformance suite play many thousands of games.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, cast

from rules.core import PASS, Dice, JsonDict, Move, ValueState, check_dice
from rules.errors import (
    IllegalMoveError,
    InvalidDiceError,
    InvalidStateError,
    NotDecisionError,
    shown,
)
from rules.playout import randbelow
from rules.track import kernel
from rules.track.boards import KLEINER_AERGER_BOARD, MAEDN_BOARD, TrackGeometry
from rules.track.presets import KLEINER_AERGER, MaednRules

HOME: Final = kernel.HOME

# Final: a compiled build inlines these instead of looking them up per use.
OPENING: Final = 0
ROLL: Final = 1
MOVE: Final = 2
OVER: Final = 3
PHASE_NAMES = ("opening", "roll", "move", "over")


@dataclass(frozen=True, slots=True)
class TrackMove:
    """Move the piece on ``src`` to ``dst`` (the JSON position vocabulary, docs/json.md).

    ``capture`` is True when a piece is sent home by the move (an opponent's, or in the
    Lingo preset possibly one's own). Notation: ``"12-18"``, ``"home-0"``, ``"37-goal2"``,
    with a trailing ``x`` for a capture: ``"12-18x"``.
    """

    src: int | str
    dst: int | str
    capture: bool = False
    from_progress: int = field(default=0, compare=False, repr=False)
    to_progress: int = field(default=0, compare=False, repr=False)

    @property
    def notation(self) -> str:
        return f"{self.src}-{self.dst}{'x' if self.capture else ''}"

    def __str__(self) -> str:
        return self.notation


class MaednGame:
    """A preset of the family on one geometry; makes and parses states."""

    def __init__(self, name: str, geometry: TrackGeometry, rules: MaednRules) -> None:
        self.name = name
        self.preset = rules.name
        self.geometry = geometry
        self.rules = rules
        g = geometry
        self._steps = g.track_steps
        self._ring = g.ring
        self._end = g.track_steps + g.goal_len
        # Per colour: progress -> ring index (for 0 <= progress < track_steps).
        self._field: dict[str, tuple[int, ...]] = {
            c: tuple((g.start_of(c) + p) % g.ring for p in range(g.track_steps)) for c in g.colours
        }
        # Per colour: progress -> JSON token (index -1 is home).
        tokens: dict[str, list[int | str]] = {}
        for c in g.colours:
            row: list[int | str] = []
            for p in range(self._end):
                if p < g.ring:
                    row.append(self._field[c][p])
                elif p < g.track_steps:
                    row.append(g.lap_token or "lap")
                else:
                    row.append(f"goal{p - g.track_steps + 1}")
            row.append(g.home_token)
            tokens[c] = row
        self._token = {c: tuple(t) for c, t in tokens.items()}
        self._tables: dict[tuple[str, ...], tuple[tuple[int, ...], ...]] = {}
        # Per colour: raw kernel move -> its shared move object (one dict per colour, so
        # the lookup key is the kernel's own tuple, with nothing built per lookup).
        self._move_cache: dict[str, dict[tuple[int, int, bool], TrackMove]] = {
            c: {} for c in g.colours
        }

    def tables(self, players: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
        """Per seat: progress -> ring index."""
        tables = self._tables.get(players)
        if tables is None:
            tables = self._tables[players] = tuple(self._field[c] for c in players)
        return tables

    def move(self, colour: str, raw: tuple[int, int, bool]) -> TrackMove:
        """The (shared, immutable) move object for a raw kernel move."""
        cache = self._move_cache[colour]
        move = cache.get(raw)
        if move is None:
            p, q, capture = raw
            token = self._token[colour]
            move = cache[raw] = TrackMove(token[p], token[q], capture, p, q)
        return move

    def __repr__(self) -> str:
        return f"get_game({self.name!r}, {self.preset!r})"

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.geometry.seatings))

    # -- construction -----------------------------------------------------------------

    def new_state(self, players: int | None = None, first: str | None = None) -> MaednState:
        """The start position; ``first`` skips the opening roll (scripting, tests)."""
        count = 4 if players is None else players
        if count not in self.geometry.seatings:
            raise InvalidStateError(
                f"{self.name} is for {', '.join(map(str, self.player_counts))} players, not {count}"
            )
        colours = self.geometry.seatings[count]
        start_piece = (0,) if self.rules.piece_on_start else ()
        own = tuple(sorted((HOME,) * (self.geometry.pieces - len(start_piece)) + start_piece))
        pieces = tuple(own for _ in colours)
        if first is not None:
            if first not in colours:
                raise InvalidStateError(
                    f"{shown(first)} does not play; players are {list(colours)}"
                )
            return MaednState(self, colours, pieces, colours.index(first), ROLL, 0, 0, None, ())
        if self.rules.opening_roll:
            opening = (tuple(range(len(colours))), ())
            return MaednState(self, colours, pieces, 0, OPENING, 0, 0, opening, ())
        return MaednState(self, colours, pieces, 0, ROLL, 0, 0, None, ())

    def position_to_progress(self, colour: str, token: object) -> int:
        """Parse one JSON position of ``colour``'s piece into its progress."""
        g = self.geometry
        if token == g.home_token:
            return HOME
        if g.lap_token is not None and token == g.lap_token:
            return g.ring
        if isinstance(token, str) and token.startswith("goal") and token[4:].isdigit():
            n = int(token[4:])
            if 1 <= n <= g.goal_len:
                return g.track_steps + n - 1
        if isinstance(token, int) and not isinstance(token, bool) and 0 <= token < g.ring:
            return (token - g.start_of(colour)) % g.ring
        allowed = (
            f'"{g.home_token}", 0–{g.ring - 1}, '
            + (f'"{g.lap_token}", ' if g.lap_token else "")
            + f'"goal1"–"goal{g.goal_len}"'
        )
        raise InvalidStateError(f"bad position {shown(token)} for {colour}; allowed: {allowed}")

    def state_from_json(self, data: Mapping[str, Any]) -> MaednState:
        """Parse and validate a JSON state; impossible positions raise InvalidStateError.

        Only ``players``, ``turn`` and ``pieces`` are required, so that scripts can
        write positions by hand; ``phase`` defaults to ``"roll"``, or ``"move"`` when
        ``dice`` are given.
        """
        g = self.geometry
        players = data.get("players")
        if (
            not isinstance(players, list)
            or not all(isinstance(p, str) for p in players)
            or len(players) not in g.seatings
        ):
            raise InvalidStateError(
                f'"players" must list {"/".join(map(str, self.player_counts))} colours'
            )
        for p in players:
            if p not in g.colours:
                raise InvalidStateError(f"unknown colour {shown(p)}; colours are {list(g.colours)}")
        order = [g.colours.index(p) for p in players]
        if len(set(order)) != len(order) or order != sorted(order):
            raise InvalidStateError(
                '"players" must be distinct colours in clockwise seat order '
                f"({', '.join(g.colours)})"
            )
        colours = tuple(players)
        raw_pieces = data.get("pieces")
        if not isinstance(raw_pieces, Mapping) or set(raw_pieces) != set(colours):
            raise InvalidStateError('"pieces" must map every player\'s colour to its positions')
        pieces: list[tuple[int, ...]] = []
        for colour in colours:
            positions = raw_pieces[colour]
            if not isinstance(positions, list) or len(positions) != g.pieces:
                raise InvalidStateError(f"{colour} must have exactly {g.pieces} pieces")
            pieces.append(tuple(sorted(self.position_to_progress(colour, t) for t in positions)))
        self._check_occupancy(colours, pieces)

        turn = data.get("turn")
        if turn not in colours:
            raise InvalidStateError(f'"turn" must be one of {list(colours)}, got {shown(turn)}')
        seat = colours.index(str(turn))

        phase_name = data.get("phase")
        raw_dice = data.get("dice", data.get("die"))
        if isinstance(raw_dice, int) and not isinstance(raw_dice, bool):
            raw_dice = [raw_dice]
        if raw_dice in (None, []):
            raw_dice = None
        if phase_name is None:
            phase_name = "move" if raw_dice is not None else "roll"
        if phase_name not in PHASE_NAMES:
            raise InvalidStateError(f'"phase" must be one of {list(PHASE_NAMES)}')
        phase = PHASE_NAMES.index(str(phase_name))
        die = 0
        if phase == MOVE:
            if raw_dice is None:
                raise InvalidStateError('phase "move" needs "dice": [value]')
            die = check_dice(raw_dice, 1)[0]
        elif raw_dice is not None:
            raise InvalidStateError(f"phase {shown(phase_name)} takes no dice")
        tries = data.get("tries", 0)
        if not isinstance(tries, int) or not 0 <= tries < self.rules.max_tries:
            raise InvalidStateError(f'"tries" must be 0–{self.rules.max_tries - 1}')

        finished = self._parse_finished(data.get("finished", []), colours, pieces, phase)
        over = bool(finished) and (not self.rules.play_on or len(finished) >= len(colours) - 1)
        if over != (phase == OVER):
            raise InvalidStateError(
                "the game is over exactly when a player has won"
                + (" (and all others but one finished)" if self.rules.play_on else "")
            )
        if phase != OVER and seat in finished:
            raise InvalidStateError(f"{turn} has finished and cannot be on turn")

        opening = None
        if phase == OPENING:
            raw = data.get("opening", {})
            contenders_raw = raw.get("contenders", list(colours)) if isinstance(raw, dict) else None
            rolls_raw = raw.get("rolls", []) if isinstance(raw, dict) else None
            if not isinstance(contenders_raw, list) or not all(
                c in colours for c in contenders_raw
            ):
                raise InvalidStateError('"opening.contenders" must list players')
            if not isinstance(rolls_raw, list):
                raise InvalidStateError('"opening.rolls" must list the throws so far')
            contenders = tuple(colours.index(c) for c in contenders_raw)
            rolls = check_dice(rolls_raw, len(rolls_raw))
            if len(rolls) >= len(contenders) or contenders[len(rolls)] != seat:
                raise InvalidStateError('"turn" must be the next contender of the opening roll')
            if tuple(pieces) != self.new_state(len(colours)).pieces:
                raise InvalidStateError("the opening roll happens before any piece moved")
            opening = (contenders, rolls)
        return MaednState(self, colours, tuple(pieces), seat, phase, die, tries, opening, finished)

    def _parse_finished(
        self, raw: object, colours: tuple[str, ...], pieces: list[tuple[int, ...]], phase: int
    ) -> tuple[int, ...]:
        """Finishing order; players with every piece in goal are added if not listed."""
        if not isinstance(raw, list) or not all(c in colours for c in raw):
            raise InvalidStateError('"finished" must list colours of players')
        finished = tuple(colours.index(c) for c in raw)
        if len(set(finished)) != len(finished):
            raise InvalidStateError('"finished" names a player twice')
        steps = self.geometry.track_steps
        complete = [i for i, own in enumerate(pieces) if own[0] >= steps]
        # With play-on the last player is ranked when the game ends, unfinished.
        ranked_unfinished = 1 if self.rules.play_on and phase == OVER else 0
        for i in finished[: len(finished) - ranked_unfinished]:
            if i not in complete:
                raise InvalidStateError(f"{colours[i]} is listed as finished but has pieces left")
        return finished + tuple(i for i in complete if i not in finished)

    def _check_occupancy(self, colours: Sequence[str], pieces: Sequence[tuple[int, ...]]) -> None:
        seen: dict[int, str] = {}
        g = self.geometry
        for colour, own in zip(colours, pieces, strict=True):
            goals = [p for p in own if p >= g.track_steps]
            if len(goals) != len(set(goals)):
                raise InvalidStateError(f"two {colour} pieces on one goal field")
            for p in own:
                if 0 <= p < g.track_steps:
                    square = self._field[colour][p]
                    if square in seen:
                        raise InvalidStateError(
                            f"two pieces on track field {square} ({seen[square]} and {colour})"
                        )
                    seen[square] = colour


_UNIFORM: tuple[tuple[Dice, float], ...] = tuple(((face,), 1 / 6) for face in range(1, 7))


class MaednState(ValueState):
    """An immutable position of the MÄDN family. Compare, hash and serialise by value."""

    __slots__ = (
        "_hash",
        "_moves",
        "_occ",
        "die",
        "finished",
        "game",
        "opening",
        "phase",
        "pieces",
        "players",
        "tries",
        "turn",
    )

    def __init__(
        self,
        game: MaednGame,
        players: tuple[str, ...],
        pieces: tuple[tuple[int, ...], ...],
        turn: int,
        phase: int,
        die: int,
        tries: int,
        opening: tuple[tuple[int, ...], tuple[int, ...]] | None,
        finished: tuple[int, ...],
        occ: list[int] | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.pieces = pieces
        self.turn = turn
        self.phase = phase
        self.die = die
        self.tries = tries
        self.opening = opening
        self.finished = finished
        self._occ = occ
        self._moves: tuple[Move, ...] | None = None
        self._hash: int | None = None

    # -- value semantics --------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (
            self.game.name,
            self.game.preset,
            self.players,
            self.pieces,
            self.turn,
            self.phase,
            self.die,
            self.tries,
            self.opening,
            self.finished,
        )

    # -- queries ----------------------------------------------------------------------

    @property
    def current_player(self) -> str | None:
        return None if self.phase == OVER else self.players[self.turn]

    def is_chance(self) -> bool:
        return self.phase == ROLL or self.phase == OPENING

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_opening(self) -> bool:
        return self.phase == OPENING

    def dice_shown(self) -> Dice:
        """The die the player on turn moves with (none before the roll)."""
        return (self.die,) if self.phase == MOVE else ()

    def winners(self) -> tuple[str, ...]:
        return tuple(self.players[i] for i in self.finished)

    def progress(self, colour: str) -> tuple[int, ...]:
        """Progress of each piece of ``colour`` (sorted; -1 = home)."""
        return self.pieces[self.players.index(colour)]

    def is_safe(self, progress: int) -> bool:
        """A piece in its goal lane can never be captured (Lingo draws it darker)."""
        return progress >= self.game.geometry.track_steps

    def occupancy(self) -> list[int]:
        """Ring index -> seat standing there, or -1 (a copy-free cached list; read only)."""
        if self._occ is None:
            g = self.game
            self._occ = kernel.occupancy(
                g.tables(self.players), self.pieces, g.geometry.track_steps, g.geometry.ring
            )
        return self._occ

    def can_advance(self, seat: int | None = None) -> bool:
        """Whether a piece of ``seat`` is on the track or can still move up in the goal.

        MÄDN rules 2 and 6: this decides between 3 tries and 1 roll; in the Lingo
        preset it decides whether the roll is the biased 56 % six.
        """
        s = self.turn if seat is None else seat
        g = self.game
        return kernel.can_advance(g.rules, g.geometry.track_steps, g._end, self.pieces[s])

    def allowed_tries(self) -> int:
        """Throws the player on turn gets for this roll (MÄDN rules 2, 3, 6)."""
        g = self.game
        return kernel.allowed_tries(
            g.rules,
            g.geometry.track_steps,
            g._end,
            g._field[self.players[self.turn]],
            self.pieces[self.turn],
            self.occupancy(),
            self.turn,
        )

    def chance_outcomes(self) -> tuple[tuple[Dice, float], ...]:
        phase = self.phase
        if phase != ROLL and phase != OPENING:
            raise InvalidDiceError(f"no roll is due: {self.describe()}")
        p6 = self.game.rules.six_probability_when_stuck
        if phase == ROLL and p6 is not None and not self.can_advance():
            other = (1.0 - p6) / 5
            return tuple(((face,), p6 if face == 6 else other) for face in range(1, 7))
        return _UNIFORM

    def describe(self) -> str:
        """A one-line summary for error messages."""
        who = self.current_player or "nobody"
        extra = f" with a {self.die}" if self.phase == MOVE else ""
        return f"{self.game.name}/{self.game.preset}, {who} to {PHASE_NAMES[self.phase]}{extra}"

    # -- chance -----------------------------------------------------------------------

    def roll(self, dice: Sequence[int]) -> MaednState:
        phase = self.phase
        if phase != ROLL and phase != OPENING:
            raise InvalidDiceError(f"no roll is due: {self.describe()}")
        (value,) = check_dice(dice, 1)
        if phase == ROLL:
            return MaednState(
                self.game,
                self.players,
                self.pieces,
                self.turn,
                MOVE,
                value,
                self.tries,
                None,
                self.finished,
                self._occ,
            )
        if self.opening is None:
            raise InvalidStateError(f"opening roll without contenders: {self.describe()}")
        contenders, rolls = self.opening
        rolls = (*rolls, value)
        if len(rolls) < len(contenders):
            nxt = contenders[len(rolls)]
            return MaednState(
                self.game,
                self.players,
                self.pieces,
                nxt,
                OPENING,
                0,
                0,
                (contenders, rolls),
                (),
            )
        best = max(rolls)
        tied = tuple(c for c, r in zip(contenders, rolls, strict=True) if r == best)
        if len(tied) == 1:
            return MaednState(self.game, self.players, self.pieces, tied[0], ROLL, 0, 0, None, ())
        return MaednState(
            self.game, self.players, self.pieces, tied[0], OPENING, 0, 0, (tied, ()), ()
        )

    # -- moves ------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the preset allows now: never empty at a decision node, empty once
        the game is over; at a chance node it raises (roll first)."""
        moves = self._moves
        if moves is not None:
            return moves
        if self.phase == OVER:
            return ()
        if self.phase != MOVE:
            raise NotDecisionError(
                f"no moves at this point: {self.describe()}"
                + (" (roll the dice first)" if self.is_chance() else "")
            )
        g = self.game
        seat = self.turn
        colour = self.players[seat]
        raw = kernel.legal_raw(
            g.rules,
            g._steps,
            g._end,
            g._ring,
            g._field[colour],
            self.pieces[seat],
            self._occ if self._occ is not None else self.occupancy(),
            seat,
            self.die,
        )
        cache = g._move_cache[colour]
        made = [cache.get(m) or g.move(colour, m) for m in raw]
        if not made:
            moves = (PASS,)
        elif g.rules.pass_always:
            moves = (*made, PASS)
        else:
            moves = tuple(made)
        self._moves = moves
        return moves

    def parse_move(self, text: str) -> Move:
        """Read a notation (with or without the capture ``x``) as one of the legal moves."""
        wanted = text.strip().lower().rstrip("x")
        for move in self.legal_moves():
            if move.notation.rstrip("x").lower() == wanted:
                return move
        legal = ", ".join(m.notation for m in self.legal_moves())
        raise IllegalMoveError(f"{shown(text)} is not legal in {self.describe()}; legal: {legal}")

    def apply(self, move: Move) -> MaednState:
        moves = self.legal_moves()
        # Bots hand back one of the move objects offered, so identity usually decides
        # (comparing dataclasses field by field is the slow way, for moves made anew).
        for chosen in moves:
            if chosen is move:
                break
        else:
            try:
                chosen = moves[moves.index(move)]
            except ValueError:
                legal = ", ".join(m.notation for m in moves)
                raise IllegalMoveError(
                    f"{move} is not legal in {self.describe()}; legal: {legal}"
                ) from None
        game = self.game
        rules = game.rules
        seat = self.turn
        if chosen is PASS:
            if self.die == 6 and rules.unused_six_rolls_again:
                return self._next(self.pieces, self.finished, seat, 0, self._occ)
            if self.tries + 1 < self.allowed_tries():
                return self._next(self.pieces, self.finished, seat, self.tries + 1, self._occ)
            nxt = kernel.next_seat(seat, len(self.players), self.finished)
            return self._next(self.pieces, self.finished, nxt, 0, self._occ)
        track_move = cast(TrackMove, chosen)
        steps = game._steps
        pieces = list(self.pieces)
        occ = (self._occ if self._occ is not None else self.occupancy()).copy()
        kernel.move_piece(
            pieces,
            occ,
            game.tables(self.players),
            steps,
            seat,
            (track_move.from_progress, track_move.to_progress, track_move.capture),
        )
        new_pieces = tuple(pieces)
        finished = self.finished
        if pieces[seat][0] >= steps:
            finished = (*finished, seat)
            left = len(self.players) - len(finished)
            if not rules.play_on or left <= 1:
                if rules.play_on:
                    finished += tuple(i for i in range(len(self.players)) if i not in finished)
                return MaednState(
                    game, self.players, new_pieces, seat, OVER, 0, 0, None, finished, occ
                )
            nxt = kernel.next_seat(seat, len(self.players), finished)
        elif self.die == 6:
            nxt = seat
        else:
            nxt = kernel.next_seat(seat, len(self.players), finished)
        return self._next(new_pieces, finished, nxt, 0, occ)

    def _next(
        self,
        pieces: tuple[tuple[int, ...], ...],
        finished: tuple[int, ...],
        seat: int,
        tries: int,
        occ: list[int] | None,
    ) -> MaednState:
        return MaednState(
            self.game, self.players, pieces, seat, ROLL, 0, tries, None, finished, occ
        )

    def random_playout(self, rng: random.Random) -> tuple[tuple[str, ...], int, int, int]:
        """Play to the end as :class:`rules.bots.RandomBot` would on every seat, drawing
        dice as :func:`rules.playout.sample_roll` does, so the same RNG gives the same
        game as the generic driver, several times faster (no state objects per step).

        Returns (finishing order, throws, moves, passes); throws include the opening.
        """
        state = self
        throws = moves = passes = 0
        while state.phase == OPENING:
            state = state.roll((randbelow(rng, 6) + 1,))
            throws += 1
        if state.phase == MOVE:  # finish the decision in progress through the API
            move = state.legal_moves()
            real = [m for m in move if m is not PASS]
            chosen = move[0] if len(move) == 1 else real[randbelow(rng, len(real))]
            passes += chosen is PASS
            moves += chosen is not PASS
            state = state.apply(chosen)
        if state.phase == OVER:
            return state.winners(), throws, moves, passes
        g = state.game
        order, more_throws, more_moves, more_passes = kernel.random_playout(
            g.rules,
            g.geometry.track_steps,
            g._end,
            g.geometry.ring,
            g.tables(state.players),
            state.pieces,
            state.turn,
            state.tries,
            state.finished,
            rng,
        )
        return (
            tuple(state.players[i] for i in order),
            throws + more_throws,
            moves + more_moves,
            passes + more_passes,
        )

    # -- serialisation ----------------------------------------------------------------

    def to_json(self) -> JsonDict:
        game = self.game
        data: JsonDict = {
            "game": game.name,
            "preset": game.preset,
            "players": list(self.players),
            "turn": self.players[self.turn],
            "phase": PHASE_NAMES[self.phase],
            "dice": [self.die] if self.phase == MOVE else [],
            "tries": self.tries,
            "pieces": {
                colour: [game._token[colour][p] for p in own]
                for colour, own in zip(self.players, self.pieces, strict=True)
            },
            "finished": [self.players[i] for i in self.finished],
            "winner": self.players[self.finished[0]] if self.phase == OVER else None,
        }
        if self.opening is not None:
            contenders, rolls = self.opening
            data["opening"] = {
                "contenders": [self.players[i] for i in contenders],
                "rolls": list(rolls),
            }
        return data


def maedn_game(rules: MaednRules) -> MaednGame:
    return MaednGame("maedn", MAEDN_BOARD, rules)


def kleiner_aerger_game(rules: MaednRules = KLEINER_AERGER) -> MaednGame:
    return MaednGame("kleiner_aerger", KLEINER_AERGER_BOARD, rules)
