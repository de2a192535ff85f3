"""A game in progress: game + preset, who sits where, the state, the history and the dice.

The session is everything that must survive a pulled plug: it serialises to plain JSON
(with the rules' own JSON state inside), including the RNG state, so a resumed game
continues with the same player to move and the very same dice to come.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import rules
from controller.i18n import _
from controller.players.person import Person
from rules.core import Dice, Move, State
from rules.errors import InvalidStateError
from rules.playout import sample_roll

SAVE_VERSION = 1
SEAT_KINDS = ("human", "bot", "empty")
COACHED = "coached"
"""A seat set up as a human with the coach (``controller.coach``); the session plays
it as ``"human"`` and keeps the player in ``Session.coached``."""
SETUP_KINDS = (*SEAT_KINDS, COACHED)
"""What a seat may be set up as (the panel's OK cycles the first three; a held NEXT
switches a human seat's coach on and off, so the coach costs nobody a press)."""


class PlayerCountError(InvalidStateError):
    """A game set up with more or fewer players than it is for.

    Only the table's setup can choose such a game (the command line checks its own
    options first, in its own words), and the table shows the error as it reads: so the
    text is the players' language, with the game's title rather than its program name."""

    def __init__(self, game: str, counts: Sequence[int], chosen: int) -> None:
        self.game = game
        self.counts = tuple(counts)
        self.chosen = chosen
        super().__init__(
            _("{game} is for {counts} players, {chosen} chosen").format(
                game=rules.game_info(game).title,
                counts=", ".join(map(str, self.counts)),
                chosen=chosen,
            )
        )


class SaveVersionError(InvalidStateError):
    """A save written by another version of the table (its ``version`` says which):
    told apart from a damaged one, because updating the table explains it."""

    def __init__(self, found: Any) -> None:
        self.found = found
        super().__init__(f"save version {found!r} is not {SAVE_VERSION}")


@dataclass
class Session:
    """One game at the table. ``seats`` maps each player (colour/side) to the physical
    seat whose buttons act for it, ``kinds`` says whether a human or a bot plays it."""

    game: str
    preset: str
    state: State
    seats: dict[str, int]
    kinds: dict[str, str]
    rng: random.Random
    history: list[dict[str, Any]] = field(default_factory=list)
    bot: str = "strong"
    started: str | None = None
    """When the game began (UTC, ISO 8601). It is kept in the save so that a game
    resumed after a power cut is still one game in the history, with its real start."""
    entered: list[tuple[Any, ...]] = field(default_factory=list)
    """The steps a human has fixed of a move being entered piece by piece, kept in the
    save so that a resumed game shows them again; empty between moves. What a step is
    (plain JSON values) is the game's entry's own (``Presentation.checker_entry``),
    which takes back only the saved steps that are still a way to a legal move."""
    bots: dict[str, str] = field(default_factory=dict)
    """A bot kind of its own (a level, ``rules.bots.BOT_KINDS``) per bot player chosen
    so at setup; a bot player not named here plays ``bot``. Kept in the save (old saves
    have none) and in the history's record."""
    people: dict[str, Person] = field(default_factory=dict)
    """The named player at each human seat chosen so at setup; a human player not
    named here is a guest. Kept in the save (old saves have none) and in the record."""
    coached: tuple[str, ...] = ()
    """The human players with the coach switched on at setup (``controller.coach``).
    Kept in the save (old saves have none: nobody is coached)."""

    @classmethod
    def start(
        cls,
        game: str,
        preset: str,
        kinds: Sequence[str],
        seat_count: int = 4,
        seed: int | None = None,
        bot: str = "strong",
        people: Mapping[int, Person] | None = None,
    ) -> Session:
        """A new game for the non-empty entries of ``kinds`` (one per seat, in order).

        A seat's entry may be a bot kind (``"beginner"``, ``"strong"``): a bot seat
        that plays that kind instead of ``bot``; or ``"coached"``: a human seat with the
        coach. ``people`` names the player at some human seats (by seat index); the
        others are guests."""
        from rules.bots import BOT_KINDS

        playing = [i for i, k in enumerate(kinds) if k != "empty"]
        engine = rules.get_game(game, preset)
        if len(playing) not in engine.player_counts:
            raise PlayerCountError(game, engine.player_counts, len(playing))
        state = engine.new_state(len(playing))
        players = list(state.players)
        seats = dict(zip(players, seats_for(len(players), seat_count, playing), strict=True))
        chosen = {p: seat_kind(kinds[s]) for p, s in seats.items()}
        coached = tuple(p for p, s in seats.items() if kinds[s] == COACHED)
        levels = {p: kinds[s] for p, s in seats.items() if kinds[s] in BOT_KINDS}
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        rng = random.Random(seed)
        named = {
            p: (people or {})[s]
            for p, s in seats.items()
            if chosen[p] == "human" and s in (people or {})
        }
        return cls(
            game,
            engine.preset,
            state,
            seats,
            chosen,
            rng,
            bot=bot,
            started=utc_now(),
            bots=levels,
            people=named,
            coached=coached,
        )

    # -- play -------------------------------------------------------------------------

    @property
    def player(self) -> str | None:
        return self.state.current_player

    def is_bot(self, player: str | None) -> bool:
        return player is not None and self.kinds.get(player) == "bot"

    def bot_for(self, player: str | None) -> str:
        """The bot kind that plays ``player``: its own level, else the game's ``bot``."""
        return self.bots.get(player or "", self.bot)

    def draw_dice(self) -> Dice:
        """Throw the dice for the current chance node with the session's RNG."""
        return sample_roll(self.state.chance_outcomes(), self.rng)

    def roll(self, dice: Dice) -> None:
        self.history.append({"player": self.player, "dice": list(dice)})
        self.state = self.state.roll(dice)

    def play(self, move: Move) -> State:
        """Apply a move; returns the state before it (for animations)."""
        before = self.state
        self.history.append({"player": self.player, "move": move.notation})
        self.entered = []
        self.state = self.state.apply(move)
        return before

    def keep_entered(self, steps: Sequence[tuple[int, int, bool]]) -> None:
        """The checker steps fixed so far of the play being entered (saved with it)."""
        self.entered = list(steps)

    # -- persistence ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        data: dict[str, Any] = {
            "version": SAVE_VERSION,
            "game": self.game,
            "preset": self.preset,
            "seats": self.seats,
            "kinds": self.kinds,
            "bot": self.bot,
            "state": self.state.to_json(),
            "history": self.history,
            "rng": {"version": version, "internal": list(internal), "gauss": gauss},
        }
        if self.started is not None:
            data["started"] = self.started
        if self.bots:
            data["bots"] = dict(self.bots)
        if self.coached:
            data["coached"] = list(self.coached)
        if self.entered:
            data["entered"] = [list(step) for step in self.entered]
        if self.people:
            data["people"] = {player: p.to_json() for player, p in self.people.items()}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Session:
        """Rebuild a session; any inconsistency raises InvalidStateError (never eval)."""
        if not isinstance(data, Mapping):
            raise InvalidStateError("a save must be a JSON object")
        if data.get("version") != SAVE_VERSION:
            raise SaveVersionError(data.get("version"))
        try:
            state = rules.state_from_json(data["state"])
            seats = {str(k): int(v) for k, v in dict(data["seats"]).items()}
            kinds = {str(k): str(v) for k, v in dict(data["kinds"]).items()}
            rng_data = data["rng"]
            internal = tuple(int(x) for x in rng_data["internal"])
            gauss = rng_data.get("gauss")
            rng = random.Random()
            rng.setstate((int(rng_data["version"]), internal, gauss))
            history = list(data.get("history", []))
            bot = str(data.get("bot", "strong"))
            bots = {str(k): str(v) for k, v in dict(data.get("bots", {})).items()}
            started = data.get("started")
            if started is not None and not isinstance(started, str):
                raise TypeError('"started" must be a time stamp string')
            saved = data.get("entered", [])
            if not isinstance(saved, list) or not all(isinstance(s, list) for s in saved):
                raise TypeError('"entered" must list steps, each a list')
            entered = [tuple(step) for step in saved]
            people = {str(k): Person.from_json(v) for k, v in dict(data.get("people", {})).items()}
            coached = tuple(str(p) for p in data.get("coached", []))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidStateError(f"save is incomplete or malformed: {exc}") from None
        if state.game.name != data.get("game") or state.game.preset != data.get("preset"):
            raise InvalidStateError("save names another game than its state")
        players = set(state.players)
        if set(seats) != players or set(kinds) != players:
            raise InvalidStateError("save seats do not match the state's players")
        if any(k not in SEAT_KINDS for k in kinds.values()):
            raise InvalidStateError(f"seat kinds must be {', '.join(SEAT_KINDS)}")
        if any(kinds.get(p) != "bot" for p in bots):
            raise InvalidStateError("a bot kind is saved for a player who is no bot")
        if any(kinds.get(p) != "human" for p in people):
            raise InvalidStateError("a name is saved for a player who is no human")
        if any(kinds.get(p) != "human" for p in coached):
            raise InvalidStateError("a coach is saved for a player who is no human")
        return cls(
            state.game.name,
            state.game.preset,
            state,
            seats,
            kinds,
            rng,
            history,
            bot,
            started,
            entered,
            bots,
            people,
            coached,
        )


def seat_kind(kind: str) -> str:
    """What sits at a seat set up as ``kind``: a bot kind (``"beginner"``) is a bot, a
    coached seat a human."""
    from rules.bots import BOT_KINDS

    if kind == COACHED:
        return "human"
    return "bot" if kind in BOT_KINDS else kind


def utc_now() -> str:
    """The wall-clock time as the history stores it: UTC, ISO 8601, microseconds (it
    also tells two games apart, so it must not repeat within a table's life)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def seats_for(players: int, seat_count: int, playing: Sequence[int] | None = None) -> list[int]:
    """Physical seats for ``players`` players: the chosen seats, or spread round the
    table (two players sit opposite). With fewer seats wired than players, seats share."""
    if playing is not None and len(playing) == players and max(playing, default=0) < seat_count:
        return list(playing)
    if players <= seat_count:
        step = seat_count // players
        return [i * step for i in range(players)]
    return [i % seat_count for i in range(players)]
