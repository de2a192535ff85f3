"""The Players page's routes: the family's named players, read by anyone, changed by a
paired phone.

Reading the names needs nothing, like the history (which shows them anyway); adding,
renaming and removing need a paired phone and its CSRF token, like every change. The
book (:mod:`controller.players.book`) checks each name and writes the file on a worker
thread, so the page's loop never waits on the disk. Every refusal is one line in the
page's language: a name the table will not keep, an unknown player, a body that is no
JSON object of this form (a 10 MB body is refused by the server before it is read).
"""

from __future__ import annotations

import asyncio
import errno
import json
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from controller.events import EventQueue, NamesEvent
from controller.i18n import N_
from controller.players.book import MAX_PLAYERS, PlayerBook
from controller.players.names import MAX_LENGTH, NameRefused
from controller.players.person import Person
from controller.web.replies import json_error

ACTIONS = ("add", "rename", "remove")
FIELDS = {"add": {"action", "name"}, "rename": {"action", "id", "name"}, "remove": {"action", "id"}}


class PlayersServer(Protocol):
    """What the routes need of the server's app (:class:`~controller.web.server.WebApp`)."""

    events: EventQueue

    def paired(self, request: web.Request) -> bool: ...

    def say(self, request: web.Request, message: str, **values: object) -> str: ...


class PlayersRoutes:
    def __init__(self, app: PlayersServer, state_dir: Path | None) -> None:
        self.app = app
        self.book = PlayerBook(state_dir) if state_dir is not None else None

    def add(self, router: web.UrlDispatcher) -> None:
        router.add_get("/api/players", self.read)
        router.add_post("/api/players", self.change)

    async def listed(self) -> list[dict[str, str]]:
        players: tuple[Person, ...] = ()
        if self.book is not None:
            players = await asyncio.to_thread(self.book.players)
        return [p.to_json() for p in players]

    async def read(self, request: web.Request) -> web.Response:
        return web.json_response(
            {
                "players": await self.listed(),
                "keeps": self.book is not None,
                "max_players": MAX_PLAYERS,
                "max_length": MAX_LENGTH,
            }
        )

    async def change(self, request: web.Request) -> web.Response:
        if not self.app.paired(request):
            return json_error(
                403, self.app.say(request, N_("pair this phone with the table first"))
            )
        book = self.book
        if book is None:
            text = N_("this table keeps no players (it has no state directory)")
            return json_error(409, self.app.say(request, text))
        data = await strict_body(request)
        action = data.get("action")
        if not isinstance(action, str) or action not in ACTIONS:
            return json_error(400, "players: action add|rename|remove")
        if set(data) != FIELDS[action]:
            wanted = ", ".join(sorted(FIELDS[action]))
            return json_error(400, f"players: {action} takes exactly {wanted}")
        try:
            if action == "add":
                player = await asyncio.to_thread(book.add, data["name"])
            elif action == "rename":
                player = await asyncio.to_thread(book.rename, data["id"], data["name"])
            else:
                player = await asyncio.to_thread(book.remove, data["id"])
        except NameRefused as exc:
            return json_error(400, self.app.say(request, exc.message, **exc.values))
        except OSError as exc:  # the book's write is atomic: the old list stays whole
            text = N_("the names were not kept: the table could not write them ({reason})")
            if exc.errno == errno.ENOSPC:
                text = N_("the names were not kept: the table's storage is full")
            reason = exc.strerror or type(exc).__name__
            return json_error(500, self.app.say(request, text, reason=reason))
        if action != "remove":
            self.app.events.put(NamesEvent((player.name,)))  # the voice says it from now on
        return web.json_response(
            {"ok": True, "player": player.to_json(), "players": await self.listed()}
        )


async def strict_body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object, refusing what :func:`json.loads` lets through by
    default: NaN and Infinity (no JSON), and nesting deep enough to exhaust Python's
    recursion (a 16 KiB body of ``[`` is enough)."""
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(reason="send a JSON object (application/json)")
    try:
        data = json.loads(await request.text(), parse_constant=_refuse_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise web.HTTPBadRequest(reason="the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(reason="the body must be a JSON object")
    return data


def _refuse_constant(word: str) -> object:
    raise ValueError(f"{word} is no JSON value")
