"""The companion page's server: aiohttp on its own thread, beside the table's loop.

It reads the table only from :class:`~controller.web.publish.FramePublisher` snapshots
and changes it only by putting events on the loop's queue: the phone seat's presses
are the same :class:`~hardware.interfaces.ButtonEvent` a GPIO button makes, so the table
cannot tell them apart. Limits keep a bad client from costing the table anything:
request bodies of at most :data:`MAX_BODY` bytes, at most :data:`MAX_CONNECTIONS` open
connections and :data:`MAX_STREAMS` live streams, and a stream that does not take its
frames within :data:`SEND_TIMEOUT_S` is closed (each stream only ever holds the newest
frame, never a backlog).
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
from controller.events import EventQueue, NoticeEvent
from controller.i18n import N_, _
from controller.web import page_words, qr
from controller.web.connections import HEADER_TIMEOUT_S, Counted, Counter, Refuse
from controller.web.history_routes import HistoryRoutes
from controller.web.maintenance_routes import MaintenanceRoutes
from controller.web.pairing import CODE_S, Pairing, PairingError
from controller.web.publish import FramePublisher
from controller.web.replies import json_body, json_error
from controller.web.setup_routes import SetupRoutes
from hardware.interfaces import ButtonEvent

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024
MAX_CONNECTIONS = 128
MAX_STREAMS = 48
SEND_TIMEOUT_S = 5.0
COOKIE = "spieltisch_session"
STATIC = {
    "/": ("index.html", "text/html"),
    "/setup": ("setup.html", "text/html"),
    "/history": ("history.html", "text/html"),
    "/care": ("care.html", "text/html"),
    "/static/style.css": ("style.css", "text/css"),
    "/static/app.js": ("app.js", "text/javascript"),
    "/static/common.js": ("common.js", "text/javascript"),
    "/static/setup.js": ("setup.js", "text/javascript"),
    "/static/history.js": ("history.js", "text/javascript"),
    "/static/care.js": ("care.js", "text/javascript"),
}
"""The only files served: fixed names, never a path taken from a request. The HTML
files have their words filled in (:mod:`controller.web.page_words`)."""
BUTTONS = ("ok", "next")
KINDS = ("down", "up")


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
        self.setup = SetupRoutes(self, config_path)
        panel = (publisher.width, publisher.height, publisher.mode)
        self.history = HistoryRoutes(state_dir, panel)
        self.maintenance = MaintenanceRoutes(self, config_path, state_dir)

    def build(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self.guard])
        for path in self.files:
            app.router.add_get(path, self.static)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/ws", self.stream)
        app.router.add_post("/api/pair/code", self.show_code)
        app.router.add_post("/api/pair", self.pair)
        app.router.add_post("/api/press", self.press)
        app.router.add_get(r"/P/{code:\d{6}}", self.scanned)
        self.setup.add(app.router)
        self.history.add(app.router)
        self.maintenance.add(app.router)
        return app

    # -- safety ---------------------------------------------------------------------------

    @web.middleware
    async def guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Changes come only from this page: a cross-site Origin is refused outright;
        every handler also checks pairing and the CSRF token itself."""
        if request.method not in ("GET", "HEAD"):
            origin = request.headers.get("Origin")
            if origin is not None and origin.split("://", 1)[-1] != request.host:
                return json_error(403, "cross-site request refused")
        try:
            response: web.StreamResponse = await handler(request)
        except web.HTTPException as exc:
            return json_error(exc.status, exc.reason)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'",
        )
        response.headers.setdefault("Cache-Control", "no-store")
        return response

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
        snapshot = self.publisher.latest()
        return web.json_response(
            {
                "paired": session is not None,
                "csrf": session.csrf if session is not None else None,
                "phone_seats": list(self.phone_seats),
                "table": snapshot.status_json() if snapshot is not None else None,
            }
        )

    # -- pairing --------------------------------------------------------------------------

    async def show_code(self, request: web.Request) -> web.Response:
        try:
            code = self.pairing.new_code()
        except PairingError as exc:
            return json_error(429, exc.words(self.page_language(request)))
        # Watchers must not read the code off the mirror: no frame is published while
        # it is on the panel, until it is used up or its notice is over.
        shown = CODE_S / 4
        self.publisher.hide_for(shown + 2)
        asyncio.get_running_loop().call_later(shown + 2, self.publisher.reveal)
        self.events.put(
            NoticeEvent(_("code {code}").format(code=code), shown, self.qr_rows(request, code))
        )
        log.warning("companion page: pairing code %s is on the panel", code)
        return web.json_response({"shown": True})

    def qr_rows(self, request: web.Request, code: str) -> tuple[str, ...]:
        """The QR code of this page's address with ``code``; none without segno."""
        where = request.transport.get_extra_info("sockname") if request.transport else None
        if not where:
            return ()
        try:
            return qr.rows(qr.pairing_url(str(where[0]), int(where[1]), code))
        except ImportError:
            log.warning("companion page: no QR code on the panel (install segno)")
            return ()

    async def scanned(self, request: web.Request) -> web.Response:
        """The QR code's address: on to the page, the code filled in."""
        location = f"/?code={request.match_info['code']}"
        return web.Response(status=302, headers={"Location": location})

    async def pair(self, request: web.Request) -> web.Response:
        data = await json_body(request)
        code = data.get("code")
        if not isinstance(code, str) or len(code) > 16:
            return json_error(400, "send the code as text")
        client = request.remote or "?"
        try:
            session = self.pairing.pair(code, client)
        except PairingError as exc:
            return json_error(403, exc.words(self.page_language(request)))
        self.publisher.reveal()  # the code on the panel is used up: watching is safe again
        response = web.json_response({"paired": True, "csrf": session.csrf})
        response.set_cookie(
            COOKIE, session.token, max_age=30 * 24 * 3600, httponly=True, samesite="Strict"
        )
        return response

    # -- the phone seat -------------------------------------------------------------------

    async def press(self, request: web.Request) -> web.Response:
        if not self.paired(request):
            return json_error(403, self.say(request, N_("pair this phone with the table first")))
        data = await json_body(request)
        seat, button, kind = data.get("seat"), data.get("button"), data.get("kind")
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or seat not in self.phone_seats
            or button not in BUTTONS
            or kind not in KINDS
        ):
            allowed = ", ".join(map(str, [s + 1 for s in self.phone_seats])) or "none"
            return json_error(400, f"press: a phone seat ({allowed}), button ok|next, kind down|up")
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
        sent = 0
        try:
            while not ws.closed and not reader.done():
                snapshot = self.publisher.latest()
                if snapshot is not None and snapshot.number != sent:
                    sent = snapshot.number
                    async with asyncio.timeout(SEND_TIMEOUT_S):
                        await ws.send_str(json.dumps(snapshot.status_json()))
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
        header_s: float = HEADER_TIMEOUT_S,
        language: str | None = None,
    ) -> None:
        self.publisher = publisher
        self.language = language
        self.events = events
        self.config_path = config_path
        self.state_dir = state_dir
        self.header_s = header_s
        self.counter = Counter()
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
        header_s = self.header_s

        def limited() -> asyncio.BaseProtocol:
            # Counted here, when asyncio accepts: a burst of connections is accepted
            # all at once, before aiohttp registers any of them.
            if counter.open >= MAX_CONNECTIONS:
                return Refuse()
            return Counted(handlers(), counter, header_s)

        server = await self.loop.create_server(limited, self.host, self.port, backlog=256)
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
