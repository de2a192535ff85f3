"""The setup page a phone finds on the hotspot (captive portal).

NetworkManager's shared mode runs dnsmasq for the hotspot, and the drop-in this image
puts into ``/etc/NetworkManager/dnsmasq-shared.d/`` answers every name with the table's
address. So whatever a phone asks for after joining (its makers' "am I online?" checks,
any site) arrives here, and every address but the page's own is sent on to it: the
phone then opens the page by itself ("sign in to network").

The page lists the networks in reach (the supervisor scanned them before the hotspot
opened), takes the home network's name and password and hands them to the supervisor,
which closes the hotspot and joins. The answer says what comes next: the panel shows
the new address, and a wrong password brings the hotspot back with the reason on this
page. Plain server-made HTML with no script, so the smallest captive browser shows it.
The words are the table's (gettext); the language is the table's setting, else the
browser's ``Accept-Language``.
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable
from typing import Protocol

from aiohttp import web

from controller import i18n
from controller.appliance.network import WifiNetwork
from controller.appliance.panel import LOCAL_NAME
from controller.appliance.status import HOTSPOT, JOINING, ONLINE, NetworkStatus
from controller.i18n import N_

WORDS = {
    "title": N_("Set up the table's Wi-Fi"),
    "intro": N_("Choose your home network and type its password. The table then joins it."),
    "network": N_("Network"),
    "other": N_("or its name, if it is not listed"),
    "password": N_("Password"),
    "open": N_("open, no password"),
    "join": N_("Join"),
    "none": N_("No networks were in reach when the hotspot opened; type the name."),
    "joining": N_(
        "The table is joining {network}. This hotspot closes now. Connect this phone to "
        "{network} again; the table's panel shows its new address, and the table's page "
        "is at {page}. If it does not work, the hotspot {hotspot} opens again and this "
        "page says why."
    ),
    "online": N_("The table is on {network}: {page}"),
    "failed": N_("Joining did not work: {reason}. Try again."),
    "bad_name": N_("Choose a network or type its name (at most 32 bytes)."),
    "bad_password": N_("A password has 8 to 63 characters."),
    "busy": N_("The table is already joining a network; wait a moment."),
}


class Joiner(Protocol):
    """What the page needs of the supervisor."""

    @property
    def status(self) -> NetworkStatus: ...

    networks: list[WifiNetwork]

    def request_join(self, ssid: str, password: str) -> bool: ...


def page_language(setting: str | None, accept: str) -> str:
    if setting in i18n.LANGUAGES:
        return setting
    for part in accept.split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in i18n.LANGUAGES:
            return code
    return i18n.DEFAULT


def _page(language: str, body: str, refresh: int | None = None) -> web.Response:
    title = html.escape(i18n.translations(language).gettext(WORDS["title"]))
    meta = f'<meta http-equiv="refresh" content="{refresh}; url=/">' if refresh else ""
    text = (
        f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{meta}<title>{title}</title>"
        "<style>body{font-family:sans-serif;max-width:30em;margin:1em auto;padding:0 1em}"
        "label,input,select,button{display:block;width:100%;margin:.4em 0;font-size:1.1em}"
        ".problem{color:#a00}</style></head>"
        f"<body><h1>{title}</h1>{body}</body></html>"
    )
    return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})


class Portal:
    """The page's routes over one supervisor; ``address`` is where the page is reached
    (the hotspot's), ``page_port`` the companion page's port on the home network."""

    def __init__(
        self,
        joiner: Joiner,
        *,
        language: str | None = None,
        page_port: int = 8080,
        own_hosts: Callable[[], set[str]] = lambda: set(),
        on_use: Callable[[], None] = lambda: None,
    ) -> None:
        self.joiner = joiner
        self.on_use = on_use
        """Called for every request: a phone is using the page (the supervisor holds a
        retry of the known networks off meanwhile)."""
        self.language = language
        self.page_port = page_port
        self.own_hosts = own_hosts

    def app(self) -> web.Application:
        app = web.Application(client_max_size=4096, middlewares=[self.note_use])
        app.router.add_get("/", self.index)
        app.router.add_post("/join", self.join)
        app.router.add_get("/status.json", self.status_json)
        app.router.add_route("*", "/{tail:.*}", self.elsewhere)
        return app

    @web.middleware
    async def note_use(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        self.on_use()
        return await handler(request)

    def words(self, request: web.Request) -> Callable[[str], str]:
        language = page_language(self.language, request.headers.get("Accept-Language", ""))
        catalog = i18n.translations(language)
        return lambda key: catalog.gettext(WORDS[key])

    def lang(self, request: web.Request) -> str:
        return page_language(self.language, request.headers.get("Accept-Language", ""))

    def redirect_target(self, request: web.Request) -> str:
        """The page's own address: the socket's, never the Host a client sent."""
        sock = request.transport.get_extra_info("sockname") if request.transport else None
        host = sock[0] if sock else "10.42.0.1"
        port = sock[1] if sock else 80
        return f"http://{host}/" if port == 80 else f"http://{host}:{port}/"

    def foreign(self, request: web.Request) -> bool:
        """A request for another name (a phone's online check): to be sent to the page."""
        host = request.host.rsplit(":", 1)[0].strip("[]") if request.host else ""
        sock = request.transport.get_extra_info("sockname") if request.transport else None
        own = {str(sock[0])} if sock else set()
        return bool(host) and host not in own | self.own_hosts()

    def page_address(self) -> str:
        return f"http://{LOCAL_NAME}:{self.page_port}"

    async def elsewhere(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(self.redirect_target(request))

    async def status_json(self, request: web.Request) -> web.Response:
        status = self.joiner.status
        return web.json_response(
            {
                "state": status.state,
                "network": status.network,
                "address": status.address,
                "reason": status.reason.format(network=status.network),
                "networks": [n.ssid for n in self.joiner.networks],
            }
        )

    async def index(self, request: web.Request) -> web.StreamResponse:
        if self.foreign(request):
            raise web.HTTPFound(self.redirect_target(request))
        return self.form(request)

    def form(self, request: web.Request, problem: str = "") -> web.Response:
        w = self.words(request)
        language = self.lang(request)
        status = self.joiner.status
        esc = html.escape
        parts: list[str] = []
        if status.state == JOINING:
            message = w("joining").format(
                network=esc(status.network),
                page=esc(self.page_address()),
                hotspot=esc(status.hotspot or "spieltisch"),
            )
            return _page(language, f"<p>{message}</p>", refresh=5)
        if status.state == ONLINE:
            page = f"http://{status.address}:{self.page_port}"
            message = w("online").format(
                network=esc(status.network),
                page=f'<a href="{esc(page)}">{esc(page)}</a> ({esc(self.page_address())})',
            )
            parts.append(f"<p>{message}</p>")
        if status.state == HOTSPOT and status.reason:
            catalog = i18n.translations(language)
            reason = catalog.gettext(status.reason).format(network=status.network)
            parts.append(f'<p class="problem">{esc(w("failed").format(reason=reason))}</p>')
        if problem:
            parts.append(f'<p class="problem">{esc(problem)}</p>')
        parts.append(f"<p>{esc(w('intro'))}</p>")
        parts.append('<form method="post" action="/join">')
        networks = self.joiner.networks
        if networks:
            label = esc(w("network"))
            parts.append(f'<label for="ssid">{label}</label><select id="ssid" name="ssid">')
            for found in networks:
                # an open network is said in words (a lock sign needs a font with it)
                note = "" if found.secured else ", " + w("open")
                parts.append(
                    f'<option value="{esc(found.ssid)}">{esc(found.ssid)} '
                    f"({found.signal} %{esc(note)})</option>"
                )
            parts.append("</select>")
        else:
            parts.append(f"<p>{esc(w('none'))}</p>")
        parts.append(
            f'<label for="other">{esc(w("other"))}</label>'
            '<input id="other" name="other" autocomplete="off" autocapitalize="none">'
            f'<label for="password">{esc(w("password"))}</label>'
            '<input id="password" name="password" type="password" autocomplete="off">'
            f'<button type="submit">{esc(w("join"))}</button></form>'
        )
        return _page(language, "".join(parts))

    async def join(self, request: web.Request) -> web.StreamResponse:
        w = self.words(request)
        form = await request.post()
        other = str(form.get("other", "")).strip()
        ssid = other or str(form.get("ssid", ""))
        password = str(form.get("password", ""))
        if not ssid or len(ssid.encode("utf-8")) > 32:
            return self.form(request, w("bad_name"))
        printable = all(" " <= c <= "~" for c in password)
        if password and not (printable and 8 <= len(password) <= 63):
            return self.form(request, w("bad_password"))
        if not self.joiner.request_join(ssid, password):
            return self.form(request, w("busy"))
        status = self.joiner.status
        message = w("joining").format(
            network=html.escape(ssid),
            page=html.escape(self.page_address()),
            hotspot=html.escape(status.hotspot or "spieltisch"),
        )
        return _page(self.lang(request), f"<p>{message}</p>")
