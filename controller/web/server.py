"""The companion page's server: aiohttp on its own thread, beside the table's loop.

It reads the table only from :class:`~controller.web.publish.FramePublisher` snapshots
and changes it only by putting events on the loop's queue: the phone seat's presses
are the same :class:`~hardware.interfaces.ButtonEvent` a GPIO button makes, so the table
cannot tell them apart. Limits keep a bad client from costing the table anything:
request bodies of at most :data:`MAX_BODY` bytes, read whole before any handler runs and
within the request time (:mod:`controller.web.connections`, which also caps the
connections, in all and per client), at most :data:`MAX_STREAMS` live streams, and a
stream that does not take its frames within :data:`SEND_TIMEOUT_S` is closed (each stream
only ever holds the newest frame, never a backlog).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from controller import i18n
from controller.events import EventQueue
from controller.i18n import N_
from controller.web import page_words
from controller.web.connections import MAX_CONNECTIONS, REQUEST_TIMEOUT_S, Counter, Gate
from controller.web.history_routes import HistoryRoutes
from controller.web.maintenance_routes import MaintenanceRoutes
from controller.web.origin import same_origin
from controller.web.pairing import Pairing
from controller.web.pairing_routes import COOKIE, PairingRoutes
from controller.web.players_routes import PlayersRoutes
from controller.web.publish import FramePublisher, Snapshot
from controller.web.replies import json_body, json_error
from controller.web.setup_routes import SetupRoutes
from hardware.interfaces import ButtonEvent

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024
UPLOADS = frozenset({"/api/update", "/api/backup/restore"})
"""The two requests whose body is a file (an update bundle, a backup): their handlers
stream it to disk under their own cap, so the guard neither reads them whole nor caps
them at :data:`MAX_BODY`; it lets only a paired page send one."""
MAX_STREAMS = 48
SEND_TIMEOUT_S = 5.0
STATIC = {
    "/": ("index.html", "text/html"),
    "/setup": ("setup.html", "text/html"),
    "/history": ("history.html", "text/html"),
    "/care": ("care.html", "text/html"),
    "/players": ("players.html", "text/html"),
    "/static/style.css": ("style.css", "text/css"),
    "/static/app.js": ("app.js", "text/javascript"),
    "/static/common.js": ("common.js", "text/javascript"),
    "/static/setup.js": ("setup.js", "text/javascript"),
    "/static/history.js": ("history.js", "text/javascript"),
    "/static/icon.svg": ("icon.svg", "image/svg+xml"),
    "/manifest.webmanifest": ("manifest.webmanifest", "application/manifest+json"),
    "/static/phones.js": ("phones.js", "text/javascript"),
    "/static/care.js": ("care.js", "text/javascript"),
    "/static/players.js": ("players.js", "text/javascript"),
}
"""The only files served: fixed names, never a path taken from a request. The HTML
files have their words filled in (:mod:`controller.web.page_words`)."""
BUTTONS = ("ok", "next")
KINDS = ("down", "up")
__all__ = ["MAX_BODY", "MAX_CONNECTIONS", "MAX_STREAMS", "WebApp", "WebServer"]


def gate_of(request: web.Request) -> Gate | None:
    """The connection's gate (None where the app runs without one, as in aiohttp's
    test client): it times the request until the middleware has read it whole."""
    transport = request.transport
    protocol = transport.get_protocol() if transport is not None else None
    return protocol if isinstance(protocol, Gate) else None


def static_text(name: str) -> bytes:
    return resources.files("controller.web").joinpath("static", name).read_bytes()


class WebApp:
    """The routes, the pairing and the streams (everything runs on the server's loop)."""

    def __init__(
        self,
        publisher: FramePublisher,
        events: EventQueue,
        phone_seats: Sequence[int] = (),
        hold_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        config_path: Path | None = None,
        state_dir: Path | None = None,
        language: str | None = None,
    ) -> None:
        self.publisher = publisher
        self.language = language
        """The table's language setting (config or ``--lang``); None: left open."""
        self.events = events
        self.phone_seats = tuple(phone_seats)
        self.hold_s = hold_s
        self.clock = clock
        self.pairing = Pairing(clock)
        self.streams: set[web.WebSocketResponse] = set()
        self.changed = asyncio.Event()
        self.held: dict[tuple[int, str], asyncio.TimerHandle] = {}
        self.files = {path: (static_text(name), kind) for path, (name, kind) in STATIC.items()}
        self.pages = {
            path: {
                language: page_words.render(self.files[path][0].decode("utf-8"), language)
                for language in i18n.LANGUAGES
            }
            for path, (_name, kind) in STATIC.items()
            if kind == "text/html"
        }
        """Each page in each language, built once: a missing word fails the start."""
        self.setup = SetupRoutes(self, config_path, state_dir)
        self.pairing_routes = PairingRoutes(self)
        panel = (publisher.width, publisher.height, publisher.mode)
        self.history = HistoryRoutes(state_dir, panel)
        self.maintenance = MaintenanceRoutes(self, config_path, state_dir)
        self.players = PlayersRoutes(self, state_dir)

    def build(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self.guard])
        for path in self.files:
            app.router.add_get(path, self.static)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/ws", self.stream)
        app.router.add_post("/api/press", self.press)
        self.pairing_routes.add(app.router)
        self.setup.add(app.router)
        self.history.add(app.router)
        self.maintenance.add(app.router)
        self.players.add(app.router)
        return app

    # -- safety ---------------------------------------------------------------------------

    @web.middleware
    async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Changes come only from this page: an Origin that is not this server is
        refused outright (every handler also checks pairing and the CSRF token itself).
        Every body is read whole, at most :data:`MAX_BODY` bytes, before the handler
        runs, within the connection's request time: only then is the request "in"."""
        gate = gate_of(request)
        try:
            if request.method not in ("GET", "HEAD") and not self.own_origin(request):
                return json_error(403, "cross-site request refused")
            upload = request.method == "POST" and request.path in UPLOADS
            if upload and not self.paired(request):
                # an upload's body is read by its handler, so only a paired page may send one
                refused = json_error(403, "pair this phone with the table first")
                refused.force_close()  # its bytes are not read, so the connection ends
                return refused
            if (
                not upload
                and request.content_length is not None
                and request.content_length > MAX_BODY
            ):
                refused = json_error(413, f"the body is over {MAX_BODY} bytes")
                refused.force_close()  # its bytes are not read, so the connection ends
                return refused
            if request.body_exists and not upload:
                try:
                    await request.read()  # over client_max_size: 413, raised by aiohttp
                except (ConnectionError, RuntimeError):
                    if request.transport is not None and not request.transport.is_closing():
                        raise
                    # dropped by its gate while the body dripped in: nobody to answer
                    raise web.HTTPRequestTimeout() from None
            if gate is not None:
                gate.answering()
            try:
                response: web.StreamResponse = await handler(request)
            finally:
                if gate is not None:
                    gate.answered()
            if upload and not request.content.at_eof():
                response.force_close()  # refused before its body was read
        except web.HTTPException as exc:
            error = json_error(exc.status, exc.reason)
            if exc.status == 413:
                error.force_close()
            return error
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'",
        )
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    def own_origin(self, request: web.Request) -> bool:
        """No ``Origin`` (not a browser's cross-site request), or this server's own."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        return same_origin(origin, sockname)

    def watcher_paired(self, request: web.Request) -> bool:
        """A page that may see what the panel shows while a code is on it: one with a
        paired session, opened from this server (a stream needs no CSRF token, so its
        Origin is checked here)."""
        return self.own_origin(request) and (
            self.pairing.session(request.cookies.get(COOKIE)) is not None
        )

    def game_on(self) -> bool:
        """The newest frame says a game is being played."""
        snapshot = self.publisher.latest()
        return snapshot is not None and snapshot.playing

    def paired(self, request: web.Request) -> bool:
        return self.pairing.allowed(
            request.cookies.get(COOKIE), request.headers.get("X-CSRF-Token")
        )

    # -- pages ----------------------------------------------------------------------------

    def page_language(self, request: web.Request) -> str:
        return page_words.page_language(
            self.language, request.headers.get("Accept-Language"), i18n.active_language()
        )

    def say(self, request: web.Request, message: str, **values: object) -> str:
        """``message`` (marked ``N_``) in the page's language, ``{name}`` filled in: the
        one-line answers a family reads beside a button."""
        catalog = i18n.translations(self.page_language(request))
        return catalog.gettext(message).format(**values)

    async def static(self, request: web.Request) -> web.Response:
        body, kind = self.files[request.path]
        headers = {}
        if request.path in self.pages:
            body = self.pages[request.path][self.page_language(request)]
            headers["Vary"] = "Accept-Language"
        return web.Response(body=body, content_type=kind, charset="utf-8", headers=headers)

    async def state(self, request: web.Request) -> web.Response:
        session = self.pairing.session(request.cookies.get(COOKIE))
        snapshot, code_shown = self.view(session is not None)
        return web.json_response(
            {
                "paired": session is not None,
                "csrf": session.csrf if session is not None else None,
                "phone_seats": list(self.phone_seats),
                "table": snapshot.status_json(code_shown) if snapshot is not None else None,
            }
        )

    def view(self, paired: bool) -> tuple[Snapshot | None, bool]:
        """The frame a page gets, and whether a pairing code is on the panel: a paired
        page sees the panel as it is, a watcher the frame before the code."""
        snapshot, code_shown = self.publisher.public()
        return (self.publisher.latest() if paired else snapshot), code_shown

    # -- the phone seat -------------------------------------------------------------------

    async def press(self, request: web.Request) -> web.Response:
        if not self.paired(request):
            return json_error(403, self.say(request, N_("pair this phone with the table first")))
        data = await json_body(request)
        seat, button, kind = data.get("seat"), data.get("button"), data.get("kind")
        if button not in BUTTONS or kind not in KINDS:
            return json_error(400, "press: button ok|next, kind down|up")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in self.phone_seats:
            # a page from before a restart or a new game: it reads the seats again
            text = N_("this seat is not played from a phone in this game")
            return json_error(400, self.say(request, text))
        self.button(seat, str(button), str(kind))
        return web.json_response({"ok": True})

    def button(self, seat: int, button: str, kind: str) -> None:
        """A press from the phone, with the long press timed here as the GPIO buttons
        time theirs: "held" after ``hold_s`` while still down."""
        key = (seat, button)
        pending = self.held.pop(key, None)
        if pending is not None:
            pending.cancel()
        self.events.put(ButtonEvent(seat, button, kind, self.clock()))  # type: ignore[arg-type]
        if kind == "down":
            self.held[key] = asyncio.get_running_loop().call_later(
                self.hold_s, self._held, seat, button
            )

    def _held(self, seat: int, button: str) -> None:
        self.held.pop((seat, button), None)
        self.events.put(ButtonEvent(seat, button, "held", self.clock()))  # type: ignore[arg-type]

    # -- the live stream ------------------------------------------------------------------

    def notify(self) -> None:
        """On the server loop, after the loop thread published a frame: wake every
        stream (each waits on the event it saw; the next wait is on a fresh one)."""
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()

    async def stream(self, request: web.Request) -> web.StreamResponse:
        if len(self.streams) >= MAX_STREAMS:
            return json_error(503, "too many pages are watching")
        ws = web.WebSocketResponse(heartbeat=20, max_msg_size=1024)
        await ws.prepare(request)
        self.streams.add(ws)
        reader = asyncio.create_task(drain(ws))
        sent: tuple[int, bool] = (0, False)
        try:
            while not ws.closed and not reader.done():
                # asked again for every frame: a phone forgotten meanwhile is a watcher
                snapshot, code_shown = self.view(self.watcher_paired(request))
                if snapshot is not None and (snapshot.number, code_shown) != sent:
                    sent = (snapshot.number, code_shown)
                    async with asyncio.timeout(SEND_TIMEOUT_S):
                        await ws.send_str(json.dumps(snapshot.status_json(code_shown)))
                        await ws.send_bytes(snapshot.frame_message())
                    continue
                waiter = asyncio.create_task(self.changed.wait())
                await asyncio.wait((waiter, reader), return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
        except (TimeoutError, ConnectionError, RuntimeError):
            pass  # a slow or gone reader: drop it, it cost one frame's bytes
        finally:
            self.streams.discard(ws)
            reader.cancel()
            with contextlib.suppress(Exception):
                await ws.close()
        return ws


async def drain(ws: web.WebSocketResponse) -> None:
    """Read (and ignore) what a page sends, so a close is noticed."""
    async for message in ws:
        if message.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
            break


class WebServer:
    """The server thread: start() returns once it listens (or raises OSError)."""

    def __init__(
        self,
        publisher: FramePublisher,
        events: EventQueue,
        port: int,
        host: str = "0.0.0.0",
        phone_seats: Sequence[int] = (),
        hold_s: float = 1.0,
        config_path: Path | None = None,
        state_dir: Path | None = None,
        request_s: float = REQUEST_TIMEOUT_S,
        language: str | None = None,
    ) -> None:
        self.publisher = publisher
        self.language = language
        self.events = events
        self.config_path = config_path
        self.state_dir = state_dir
        self.counter = Counter(request_s)
        self.host = host
        self.port = port
        self.phone_seats = phone_seats
        self.hold_s = hold_s
        self.loop: asyncio.AbstractEventLoop | None = None
        self.web: WebApp | None = None
        self.thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stop: asyncio.Event | None = None

    def start(self) -> WebServer:
        self.thread = threading.Thread(target=self._run, name="web", daemon=True)
        self.thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise OSError(f"companion page on port {self.port}: {self._error}")
        return self

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported by start()
            self._error = exc
            self._ready.set()

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self.web = WebApp(
            self.publisher,
            self.events,
            self.phone_seats,
            self.hold_s,
            config_path=self.config_path,
            state_dir=self.state_dir,
            language=self.language,
        )
        runner = web.AppRunner(
            self.web.build(), handle_signals=False, access_log=None, keepalive_timeout=15
        )
        await runner.setup()
        handlers = runner.server
        assert handlers is not None

        counter = self.counter

        def gated() -> asyncio.BaseProtocol:
            # Counted by the gate as asyncio makes each connection: a burst is accepted
            # all at once, before aiohttp registers any of them.
            return Gate(handlers, counter)

        server = await self.loop.create_server(gated, self.host, self.port, backlog=256)
        self.port = server.sockets[0].getsockname()[1]
        loop = self.loop
        web_app = self.web

        def wake() -> None:
            loop.call_soon_threadsafe(web_app.notify)

        self.publisher.listeners.append(wake)
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            server.close()
            for ws in list(web_app.streams):
                with contextlib.suppress(Exception):
                    await ws.close()
            await runner.cleanup()

    def stop(self) -> None:
        if self.loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(self._stop.set)
        if self.thread is not None:
            self.thread.join(5)
