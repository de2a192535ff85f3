"""The table's menu, its setup screen and its statistics pages: what is chosen there.

Why apart from the table: choosing a game, its rule set and who sits where is all
before a game exists; none of it touches a session, the dice or the bots. The table
hands presses on (:class:`MenuRoom`) and asks it for the game to begin.
"""

from __future__ import annotations

from collections.abc import Callable

import rules
from controller import setup_rows
from controller.games import presentation
from controller.players.person import Person
from controller.scene import STATISTICS_ITEM, MenuItem, StatisticsPage
from controller.session import COACHED, SEAT_KINDS, PlayerCountError, Session, seat_kind
from controller.table.options import TableOptions

START = "start"
"""What :meth:`MenuRoom.setup_ok` says when OK was pressed on "start"."""


class MenuRoom:
    """The menu entry under the cursor, the setup being made, the statistics shown."""

    def __init__(self, options: TableOptions) -> None:
        self.options = options
        self.index = 0
        """The menu entry under the cursor."""
        self.kinds: list[str] = []
        """Setup: what sits at each seat ("human", "bot", "empty", or "coached": a
        human with the coach)."""
        self.entry = 0
        """Setup's cursor: the rule rows (negative, ``controller.setup_rows``), then each
        seat, then "start" (``len(kinds)``)."""
        self.preset = ""
        """Setup: the rule set chosen."""
        self.press_from: tuple[int, bool] | None = None
        """Setup's cursor when the NEXT press now down began (a held NEXT acts there)."""
        self.pages: tuple[StatisticsPage, ...] = ()
        self.page = 0
        self.remembered: dict[str, tuple[str, tuple[str, ...]]] = dict(options.last_setups)
        """Each game's last setup (rule set, seats), the one a game was begun with."""
        self.known: tuple[Person, ...] = ()
        """Setup: the family's named players, read when setup opened."""
        self.people: dict[int, Person] = {}
        """Setup: the named player at a human seat (by seat); the others are guests."""
        self.naming = False
        """Setup's cursor is on the name row of seat ``entry`` (only where names exist
        and the seat is human: a family without names never meets one)."""
        self.last_people: dict[str, dict[int, str]] = {
            game: dict(seated) for game, seated in options.last_people.items()
        }
        """Each game's named seats when it was last begun (player ids), kept with the
        setups (:mod:`controller.setup_memory`): the same family sits down again without
        pressing through every name, also after a restart."""

    @property
    def item(self) -> MenuItem:
        return self.options.menu[self.index]

    def is_statistics(self) -> bool:
        return self.item.game == STATISTICS_ITEM.game

    def next_entry(self) -> None:
        self.index = (self.index + 1) % len(self.options.menu)

    def open_setup(self) -> None:
        """Setup starts from the game's last setup where there is one that still fits
        (the same number of seats), else at the entry's rule set with the configured
        seats."""
        item = self.item
        self.preset = item.preset
        self.kinds = self.default_kinds(item.game, item.preset)
        last = self.remembered.get(item.game)
        if last is not None and last[0] in rules.presets(item.game):
            preset, kinds = last
            if len(kinds) == len(self.default_kinds(item.game, preset)):
                self.preset, self.kinds = preset, list(kinds)
        self.entry = self.first_entry()
        self.naming = False
        self.known = self.options.named_players()
        by_id = {p.id: p for p in self.known}
        named = self.last_people.get(item.game, {})
        self.people = {
            seat: by_id[ident]
            for seat, ident in named.items()
            if ident in by_id and seat < len(self.kinds) and seat_kind(self.kinds[seat]) == "human"
        }

    def remember(
        self,
    ) -> tuple[dict[str, tuple[str, tuple[str, ...]]], dict[str, dict[int, str]]]:
        """The game being begun is the one setup starts from next time; returns every
        game's last setup and named seats."""
        item = self.item
        self.remembered[item.game] = (self.preset or item.preset, tuple(self.kinds))
        self.last_people[item.game] = {seat: p.id for seat, p in self.seated().items()}
        return dict(self.remembered), dict(self.last_people)

    def begun_from_page(
        self, session: Session
    ) -> tuple[dict[str, tuple[str, tuple[str, ...]]], dict[str, dict[int, str]]]:
        """A game the companion page began is the one setup starts from next time, as
        one begun here would be: its rule set, who sat where (where it fits the seats
        setup shows) and its named players. Returns every game's last setup and named
        seats."""
        game = session.game
        kinds = ["empty"] * max([self.options.seat_count, *(s + 1 for s in session.seats.values())])
        for colour, seat in session.seats.items():
            kinds[seat] = COACHED if colour in session.coached else session.kinds[colour]
        shown = len(self.default_kinds(game, session.preset))
        if all(kind == "empty" for kind in kinds[shown:]):
            self.remembered[game] = (session.preset, tuple(kinds[:shown]))
            self.last_people[game] = {
                session.seats[colour]: person.id for colour, person in session.people.items()
            }
        return dict(self.remembered), dict(self.last_people)

    def first_entry(self) -> int:
        """The first rule row (``setup_rows``: negative, before the seats), else 0."""
        item = self.item
        return -len(setup_rows.rows(item.game, self.preset or item.preset))

    def default_kinds(self, game_name: str, preset: str) -> list[str]:
        game = rules.get_game(game_name, preset)
        most = min(max(game.player_counts), self.options.seat_count)
        if presentation(game_name).fewest_players_first:
            most = min(min(game.player_counts), self.options.seat_count)
        defaults = [k if k == COACHED else seat_kind(k) for k in self.options.default_seats]
        defaults = defaults or ["human"] + ["bot"] * 3
        kinds = [defaults[i] if i < len(defaults) else "bot" for i in range(most)]
        while kinds.count("empty") > most - min(game.player_counts):
            kinds[kinds.index("empty")] = "bot"
        return kinds

    def setup_next(self) -> None:
        """NEXT: the next setup entry (the rule set, each seat and, where names exist,
        a human seat's name, "start")."""
        start = len(self.kinds)
        self.press_from = (self.entry, self.naming)
        if self.has_name_row(self.entry) and not self.naming:
            self.naming = True
            return
        self.naming = False
        self.entry = self.first_entry() if self.entry >= start else self.entry + 1

    def has_name_row(self, entry: int) -> bool:
        """Seat ``entry`` is a human seat and the family has names to choose from."""
        return (
            bool(self.known)
            and 0 <= entry < len(self.kinds)
            and seat_kind(self.kinds[entry]) == "human"
        )

    def seated(self) -> dict[int, Person]:
        """The named player at each human seat (a seat made bot or empty loses it)."""
        return {
            seat: person
            for seat, person in self.people.items()
            if seat < len(self.kinds) and seat_kind(self.kinds[seat]) == "human"
        }

    def next_name(self) -> None:
        """OK on a name row: the seat's next name, "guest" after the last; a person
        already seated elsewhere is passed over (nobody plays two seats)."""
        seat = self.entry
        elsewhere = {p.id for s, p in self.seated().items() if s != seat}
        cycle: list[Person | None] = [None, *(p for p in self.known if p.id not in elsewhere)]
        now = self.people.get(seat)
        index = cycle.index(now) if now in cycle else 0
        chosen = cycle[(index + 1) % len(cycle)]
        if chosen is None:
            self.people.pop(seat, None)
        else:
            self.people[seat] = chosen

    def setup_coach(self) -> None:
        """A held NEXT on a human seat switches its coach on or off (``controller.coach``),
        and the cursor stays on that seat. The press's "down" already stepped on, so it
        acts on the entry shown when the press began."""
        entry, naming = (self.entry, self.naming) if self.press_from is None else self.press_from
        self.press_from = None
        if not 0 <= entry < len(self.kinds):
            return
        self.entry, self.naming = entry, naming
        kind = self.kinds[entry]
        if kind in ("human", COACHED):
            self.kinds[entry] = "human" if kind == COACHED else COACHED

    def setup_ok(self) -> str | None:
        """OK: the next rule set or the seat's next kind; :data:`START` on "start"."""
        item = self.item
        if self.entry == len(self.kinds):
            return START
        if self.naming:
            self.next_name()
        elif self.entry < 0:
            preset = self.preset or item.preset
            self.preset, self.entry = setup_rows.chosen(item.game, preset, self.entry)
            kinds = self.default_kinds(item.game, self.preset)
            if len(kinds) != len(self.kinds):
                self.kinds = kinds
                self.people = {}
        else:
            kind = self.kinds[self.entry]
            kind = seat_kind(kind)  # a coached human's next kind is a human's
            self.kinds[self.entry] = SEAT_KINDS[(SEAT_KINDS.index(kind) + 1) % len(SEAT_KINDS)]
            self.people.pop(self.entry, None)
        return None

    def start_problem(self) -> str | None:
        """Why the game set up cannot begin (the players it is for), or None."""
        item = self.item
        game = rules.get_game(item.game, self.preset or item.preset)
        playing = sum(kind != "empty" for kind in self.kinds)
        if playing in game.player_counts:
            return None
        return str(PlayerCountError(item.game, game.player_counts, playing))

    def new_session(self) -> Session:
        """The game set up; a ValueError says why it cannot begin (too few players)."""
        item = self.item
        return Session.start(
            item.game,
            self.preset or item.preset,
            self.with_levels(),
            seat_count=self.options.seat_count,
            bot=self.options.bot,
            people=self.seated(),
        )

    def with_levels(self) -> list[str]:
        """The seats set up, each bot seat that the config gives a level of its own
        (``[[seats]] player = "beginner"``) as that bot kind. The panel's seat cycle
        stays human, bot, empty: the levels cost a family no presses."""
        configured = self.options.default_seats
        levels = [k if seat_kind(k) == "bot" else "bot" for k in configured]
        return [
            levels[i] if kind == "bot" and i < len(levels) else kind
            for i, kind in enumerate(self.kinds)
        ]

    def open_statistics(self, statistics: Callable[[], tuple[StatisticsPage, ...]] | None) -> None:
        self.pages = statistics() if statistics is not None else ()
        self.page = 0

    def next_page(self) -> None:
        """NEXT turns to the next game's chart."""
        self.page = (self.page + 1) % max(1, len(self.pages))
