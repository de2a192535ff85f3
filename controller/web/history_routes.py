"""The History page's routes: the kept games, one game's moves, its replay frames, its
downloads and the statistics. All of it is for watching: nothing here changes the
table or the database, so none of it needs pairing.

The database work runs on a worker thread (``asyncio.to_thread``), one at a time
(:data:`BUSY` answers a second request while one runs), so neither the live stream nor
the table waits for a long list, and a burst of requests cannot queue up work.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from controller.history.store import HistoryError
from controller.web import history_data
from controller.web.history_data import FilterError, Filters, Replays
from controller.web.replies import json_error

T = TypeVar("T")
BUSY = "the history is busy with another request: try again"


class HistoryRoutes:
    def __init__(self, state_dir: Path | None, panel: tuple[int, int, str]) -> None:
        self.replays = Replays(state_dir)
        self.state_dir = state_dir
        self.panel = panel
        self.lock = asyncio.Lock()

    def add(self, router: web.UrlDispatcher) -> None:
        router.add_get("/api/history", self.listing)
        router.add_get("/api/stats", self.statistics)
        router.add_get(r"/api/history/{id:\d{1,9}}", self.game)
        router.add_get(r"/api/history/{id:\d{1,9}}/frame/{n:\d{1,6}}.png", self.frame)
        router.add_get(r"/api/history/{id:\d{1,9}}/game.mat", self.match)
        router.add_get(r"/api/history/{id:\d{1,9}}/game.json", self.json_file)

    async def work(self, job: Callable[[], T]) -> T:
        if self.lock.locked():
            raise web.HTTPServiceUnavailable(reason=BUSY)
        async with self.lock:
            return await asyncio.to_thread(job)

    async def answer(self, job: Callable[[], web.Response]) -> web.Response:
        try:
            return await self.work(job)
        except FilterError as exc:
            return json_error(400, str(exc))
        except HistoryError as exc:
            return json_error(404, str(exc))

    async def listing(self, request: web.Request) -> web.Response:
        return await self.answer(
            lambda: json_response(
                history_data.listing(self.state_dir, Filters.parse(dict(request.query)))
            )
        )

    async def statistics(self, request: web.Request) -> web.Response:
        return await self.answer(
            lambda: json_response(
                history_data.statistics(self.state_dir, Filters.parse(dict(request.query)))
            )
        )

    async def game(self, request: web.Request) -> web.Response:
        record_id = int(request.match_info["id"])
        return await self.answer(lambda: json_response(history_data.game(self.replays, record_id)))

    async def frame(self, request: web.Request) -> web.Response:
        record_id, number = int(request.match_info["id"]), int(request.match_info["n"])
        width, height, mode = self.panel

        def png() -> web.Response:
            body = history_data.frame_png(self.replays, record_id, number, width, height, mode)
            return web.Response(body=body, content_type="image/png")

        return await self.answer(png)

    async def match(self, request: web.Request) -> web.Response:
        record_id = int(request.match_info["id"])
        return await self.answer(
            lambda: download(
                history_data.match_file(self.replays, record_id), f"game-{record_id}.mat"
            )
        )

    async def json_file(self, request: web.Request) -> web.Response:
        record_id = int(request.match_info["id"])
        return await self.answer(
            lambda: download(
                history_data.json_document(self.replays, record_id),
                f"game-{record_id}.json",
                "application/json",
            )
        )


def download(text: str, name: str, kind: str = "text/plain") -> web.Response:
    """A file to save: the name is made here from the game's number, never taken from
    the request."""
    response = web.Response(text=text, content_type=kind, charset="utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def json_response(data: Any) -> web.Response:
    return web.Response(text=json.dumps(data, ensure_ascii=False), content_type="application/json")
