"""The Setup page's routes: read the settings, check them, save them, start a game.

Reading needs nothing (like watching); checking, saving and starting need a paired
phone and its CSRF token. Saving writes the file the appliance was started with
(:mod:`controller.web.settings`) and hands the running table, through its event
queue, the saved settings it takes at once (a :class:`~controller.events.SettingsEvent`:
the move timer, the brightness, the sleep time; the rest waits for the next start);
starting puts a
:class:`~controller.events.StartGameEvent` on the table's queue, as a button would,
and the table starts the game on its own thread when no game is being played.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

import rules
from controller import setup_memory
from controller.events import EventQueue, SettingsEvent, StartGameEvent
from controller.games import title
from controller.i18n import N_
from controller.players import book
from controller.players.person import Person
from controller.web import settings
from controller.web.replies import json_body, json_error
from controller.web.settings import SettingsError
from controller.web.setup_people import PeopleMalformed, Seated, seated


class Server(Protocol):
    """What the routes need of the server's app (:class:`~controller.web.server.WebApp`)."""

    events: EventQueue
    phone_seats: tuple[int, ...]

    def paired(self, request: web.Request) -> bool: ...

    def say(self, request: web.Request, message: str, **values: object) -> str: ...

    def game_on(self) -> bool: ...

    def page_language(self, request: web.Request) -> str: ...


ACTIONS = ("check", "save", "start")
LIVE = ("move_timer_s", "brightness", "sleep_after_min")
"""The fields a save changes on the running table; the others wait for the next start."""


class SetupRoutes:
    def __init__(
        self, app: Server, config_path: Path | None, state_dir: Path | None = None
    ) -> None:
        self.app = app
        self.config_path = config_path
        self.state_dir = state_dir
        """Where the family's named players and the last setups are kept (None: no names)."""

    def players(self) -> tuple[Person, ...]:
        return book.read(self.state_dir) if self.state_dir is not None else ()

    def last_people(self) -> dict[str, list[str | None]]:
        """Each game's named seats when it was last begun (the page proposes them)."""
        if self.state_dir is None:
            return {}
        setups, people = setup_memory.read_all(self.state_dir)
        return {
            game: [seated.get(seat) for seat in range(len(setups[game][1]))]
            for game, seated in people.items()
        }

    def add(self, router: web.UrlDispatcher) -> None:
        router.add_get("/api/setup", self.read)
        router.add_post("/api/setup", self.change)

    def source(self) -> str:
        return str(self.config_path) if self.config_path is not None else "<simulator>"

    async def read(self, request: web.Request) -> web.Response:
        try:
            document = settings.read_document(self.config_path)
        except SettingsError as exc:
            return json_error(500, str(exc))
        players = await asyncio.to_thread(self.players)
        last = await asyncio.to_thread(self.last_people)
        return web.json_response(
            {
                "values": settings.current(document),
                "choices": settings.choices(),
                "saves_to": str(self.config_path) if self.config_path is not None else None,
                "players": [p.to_json() for p in players],
                "last_people": last,
            }
        )

    async def change(self, request: web.Request) -> web.Response:
        if not self.app.paired(request):
            return json_error(
                403, self.app.say(request, N_("pair this phone with the table first"))
            )
        data = await json_body(request)
        action, form = data.get("action"), data.get("values")
        if action not in ACTIONS or not isinstance(form, dict):
            return json_error(400, "setup: send {action: check|save|start, values: {...}}")
        try:
            document = settings.read_document(self.config_path)
        except SettingsError as exc:
            return json_error(500, str(exc))
        checked = settings.check(document, form, self.source())
        language = self.app.page_language(request)
        errors = {
            field: [settings.for_the_page(field, line, language) for line in lines]
            for field, lines in checked.errors.items()
        }
        named = Seated()
        if action == "start":
            # said together with every other error, not only once they are all fixed
            game = checked.config.game if checked.config is not None else None
            chosen = (game.name, game.preset) if game is not None else game_of(checked.document)
            seats = self.seat_count(request, *chosen, checked.document)
            if seats is not None:
                errors.setdefault("seats", []).append(seats)
            asked = [seat.get("player", "human") for seat in settings.seats_of(checked.document)]
            try:
                named = seated(data.get("people"), asked, await asyncio.to_thread(self.players))
            except PeopleMalformed as exc:
                return json_error(400, str(exc))
            for field, (text, words) in named.errors.items():
                errors.setdefault(field, []).append(self.app.say(request, text, **words))
        if errors or checked.config is None:
            return web.json_response({"ok": False, "errors": errors}, status=422)
        config = checked.config
        if action == "save":
            if self.config_path is None:
                text = N_("the simulator runs without --config FILE: nothing to save")
                return json_error(409, self.app.say(request, text))
            try:
                settings.save(self.config_path, checked.document)
            except SettingsError as exc:
                return json_error(500, str(exc))
            self.app.events.put(
                SettingsEvent(
                    config.game.move_timer_s, config.display.brightness, config.sleep_after_min
                )
            )
            return web.json_response(
                {"ok": True, "saved": str(self.config_path), "live": list(LIVE)}
            )
        if action == "start":
            preset = config.game.preset or rules.default_preset(config.game.name)
            if self.app.game_on():
                text = N_("a game is being played: end it at the table first")
                return json_error(409, self.app.say(request, text))
            kinds = tuple("human" if kind == "phone" else kind for kind in config.players)
            self.app.phone_seats = tuple(i for i, k in enumerate(config.players) if k == "phone")
            people = tuple(sorted(named.people.items()))
            self.app.events.put(
                StartGameEvent(config.game.name, preset, kinds, config.game.bot, people)
            )
            return web.json_response({"ok": True, "started": config.game.name, "preset": preset})
        return web.json_response({"ok": True})

    def seat_count(
        self, request: web.Request, game: object, preset: object, document: dict[str, Any]
    ) -> str | None:
        """Why the seats cannot start ``game`` (too many or too few playing); None if
        they can, or if the game or its rule set is itself wrong (its own field says
        so)."""
        if not isinstance(game, str) or game not in rules.game_names():
            return None
        preset = preset or rules.default_preset(game)
        if not isinstance(preset, str):
            return None
        try:
            counts = rules.get_game(game, preset).player_counts
        except rules.RulesError:  # no rule set of the game (composed ones are)
            return None
        seats = settings.seats_of(document)
        playing = sum(seat.get("player", "human") != "empty" for seat in seats)
        if playing in counts:
            return None
        return self.app.say(
            request,
            N_("{game} is for {allowed} players, {playing} chosen"),
            game=title(game),
            allowed=", ".join(map(str, counts)),
            playing=playing,
        )


def game_of(document: dict[str, Any]) -> tuple[object, object]:
    """The game and rule set a config document names (either may be missing or wrong)."""
    table = document.get("game")
    if not isinstance(table, dict):
        return None, None
    return table.get("name"), table.get("preset")
