"""Is a request's ``Origin`` this page? Compared with what the server itself serves.

A browser names, in ``Origin``, the page that sent a request; a change that comes from
another site's page is refused. Comparing it with the request's own ``Host`` header
proves nothing (a request can name any host in both, and a site that points its own name
at the table's address, DNS rebinding, makes a browser do just that). So the origin must
name this server: ``http``, the port the request came in on, and as host either the
address the connection came in on (the server's own socket, which the client cannot
choose) or one of the table's own names (``spieltisch.local``, which it announces, and the
machine's host name); ``localhost`` only when the connection came in on a loopback
address.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from functools import cache
from typing import Any

from yarl import URL

ANNOUNCED = "spieltisch.local"


@cache
def own_names() -> frozenset[str]:
    """The names this machine answers to, lower case: the announced one and its host
    name (with and without ``.local``, as avahi announces it)."""
    host = socket.gethostname().lower().rstrip(".")
    short = host.split(".")[0]
    return frozenset(n for n in (ANNOUNCED, host, short, f"{short}.local") if n)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip("[]").split("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def same_origin(origin: str, sockname: Any, names: Iterable[str] | None = None) -> bool:
    """True if ``origin`` names this server as the connection reached it (``sockname``,
    the server's side of the socket: address and port)."""
    if not isinstance(sockname, tuple) or len(sockname) < 2:
        return False
    try:
        url = URL(origin)
        port = url.port
    except ValueError:
        return False
    if url.scheme != "http" or url.host is None or url.path not in ("", "/"):
        return False
    if port != int(sockname[1]):
        return False
    local = _address(str(sockname[0]))
    host = url.host.lower().rstrip(".")
    claimed = _address(host)
    if claimed is not None:
        return claimed == local
    if host == "localhost":
        return local is not None and local.is_loopback
    return host in (own_names() if names is None else frozenset(names))
