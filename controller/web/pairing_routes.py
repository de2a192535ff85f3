"""The pairing routes: a code on the panel, pairing with it, and the paired phones.

Asking for a code is a change like any other (a JSON request, from this page): it shows
the code on the panel (and its QR code) through the table's event queue, and hides it
from the pages that are not paired, whose mirror keeps the frame before it until the
code is used or gone (:meth:`~controller.web.publish.FramePublisher.hide_for`); paired
pages play on. The code is never logged. Pairing with it sets the session cookie. A
paired phone lists the paired phones and forgets any of them; every phone is forgotten
for a code from the panel (:mod:`controller.web.pairing` holds the rules).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Protocol

from aiohttp import web

from controller.events import EventQueue, NoticeEvent
from controller.i18n import N_, _
from controller.web import qr
from controller.web.pairing import CODE_S, Pairing, PairingError
from controller.web.publish import FramePublisher
from controller.web.replies import json_body, json_error

log = logging.getLogger(__name__)

COOKIE = "spieltisch_session"


class PairingServer(Protocol):
    """What the routes need of the server's app (:class:`~controller.web.server.WebApp`)."""

    pairing: Pairing
    publisher: FramePublisher
    events: EventQueue

    def paired(self, request: web.Request) -> bool: ...

    def page_language(self, request: web.Request) -> str: ...

    def say(self, request: web.Request, message: str, **values: object) -> str: ...


def device(user_agent: str) -> str:
    """A phone's browser and system in a few words, from its ``User-Agent``, for the list
    of paired phones (names, not claims: any client can say anything)."""
    systems = (
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Android", "Android"),
        ("Windows", "Windows"),
        ("Mac OS X", "Mac"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    )
    browsers = (
        ("Firefox/", "Firefox"),
        ("Edg/", "Edge"),
        ("SamsungBrowser/", "Samsung"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    )
    system = next((name for key, name in systems if key in user_agent), "")
    browser = next((name for key, name in browsers if key in user_agent), "")
    return " · ".join(part for part in (system, browser) if part) or user_agent[:40]


class PairingRoutes:
    def __init__(self, app: PairingServer) -> None:
        self.app = app

    def add(self, router: web.UrlDispatcher) -> None:
        router.add_post("/api/pair/code", self.show_code)
        router.add_post("/api/pair", self.pair)
        router.add_get(r"/P/{code:\d{6}}", self.scanned)
        router.add_get("/api/phones", self.phones)
        router.add_post("/api/phones/forget", self.forget)
        router.add_post("/api/phones/forget-all", self.forget_all)

    async def show_code(self, request: web.Request) -> web.Response:
        await json_body(request)  # a JSON request: no other site's form can send one
        try:
            code = self.app.pairing.new_code()
        except PairingError as exc:
            return json_error(exc.status, exc.words(self.app.page_language(request)))
        # Watchers must not read the code off the mirror: their pages keep the frame
        # before it (and say that a code is up) until it is used up or its notice is
        # over; paired pages, whose people may see the panel anyway, play on.
        shown = CODE_S / 4
        self.app.publisher.hide_for(shown + 2)
        asyncio.get_running_loop().call_later(shown + 2.1, self.app.publisher.release)
        self.app.events.put(
            NoticeEvent(_("code {code}").format(code=code), shown, self.qr_rows(request, code))
        )
        # The code itself is never logged: whoever reads the journal could pair with it.
        log.warning("companion page: a pairing code is on the panel (asked by %s)", request.remote)
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
            session = self.app.pairing.pair(
                code, client, device(request.headers.get("User-Agent", ""))
            )
        except PairingError as exc:
            return json_error(exc.status, exc.words(self.app.page_language(request)))
        self.app.publisher.reveal()  # the code on the panel is used up: watching is safe again
        response = web.json_response({"paired": True, "csrf": session.csrf})
        response.set_cookie(
            COOKIE, session.token, max_age=30 * 24 * 3600, httponly=True, samesite="Strict"
        )
        return response

    async def phones(self, request: web.Request) -> web.Response:
        """The paired phones, for a paired phone: when each was paired, what it is, which
        one is this one. Reading needs the session's cookie only (``SameSite=Strict``,
        and another site cannot read an answer from here)."""
        mine = self.app.pairing.session(request.cookies.get(COOKIE))
        if mine is None:
            return json_error(
                403, self.app.say(request, N_("pair this phone with the table first"))
            )
        return web.json_response(
            {
                "phones": [
                    {
                        "id": phone.id,
                        "label": phone.label,
                        "paired": time.strftime(  # UTC: the browser shows its own time
                            "%Y-%m-%dT%H:%M:%SZ", time.gmtime(phone.paired_at)
                        ),
                        "this": phone.id == mine.id,
                    }
                    for phone in self.app.pairing.phones()
                ]
            }
        )

    async def forget(self, request: web.Request) -> web.Response:
        """Forget one paired phone (this one or another): it must pair again."""
        if not self.app.paired(request):
            return json_error(
                403, self.app.say(request, N_("pair this phone with the table first"))
            )
        data = await json_body(request)
        phone = data.get("id")
        if not isinstance(phone, str) or not self.app.pairing.forget(phone):
            return json_error(404, self.app.say(request, N_("no such phone is paired")))
        return web.json_response({"forgotten": 1})

    async def forget_all(self, request: web.Request) -> web.Response:
        """Forget every paired phone, this one too, for the code on the panel: only who
        stands at the table can do it, paired or not."""
        data = await json_body(request)
        code = data.get("code")
        if not isinstance(code, str) or len(code) > 16:
            return json_error(400, "send the code as text")
        try:
            count = self.app.pairing.forget_all(code, request.remote or "?")
        except PairingError as exc:
            return json_error(exc.status, exc.words(self.app.page_language(request)))
        self.app.publisher.reveal()  # the code is used up
        log.warning("companion page: every paired phone forgotten (%d)", count)
        response = web.json_response({"forgotten": count})
        response.del_cookie(COOKIE)
        return response
