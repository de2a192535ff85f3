"""``spieltisch.local``: the table announces its page over mDNS (python-zeroconf).

A phone on the home network then opens http://spieltisch.local:8080 without knowing
the Pi's address. The name is claimed for the host's IPv4 addresses, with an
``_http._tcp`` service beside it so that service browsers list the table too.
"""

from __future__ import annotations

import logging
import socket
from typing import Any

log = logging.getLogger(__name__)

HOST = "spieltisch.local."


def local_addresses() -> list[str]:
    """The host's IPv4 addresses, loopback left out (ifaddr comes with zeroconf)."""
    import ifaddr

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                found.append(ip.ip)
    return found


class Announcement:
    """Registered on start, withdrawn on :meth:`close`."""

    def __init__(self, port: int, addresses: list[str] | None = None) -> None:
        from zeroconf import ServiceInfo, Zeroconf

        addresses = local_addresses() if addresses is None else addresses
        self.zeroconf: Any = Zeroconf()
        self.info: Any = ServiceInfo(
            "_http._tcp.local.",
            "spieltisch._http._tcp.local.",
            port=port,
            addresses=[socket.inet_aton(a) for a in addresses],
            server=HOST,
            properties={"path": "/"},
        )
        self.zeroconf.register_service(self.info, allow_name_change=True)
        log.warning("companion page announced as http://%s:%d/", HOST.rstrip("."), port)

    def refresh(self) -> bool:
        """Claim the host's addresses as they are now; True if they changed. A table
        that started before its network (the image's first start, which joins the home
        network later) would otherwise announce the name with no address at all."""
        addresses = sorted(socket.inet_aton(a) for a in local_addresses())
        if addresses == sorted(self.info.addresses):
            return False
        self.info.addresses = addresses
        self.zeroconf.update_service(self.info)
        log.warning("companion page announced again, at %s", ", ".join(local_addresses()))
        return True

    def close(self) -> None:
        try:
            self.zeroconf.unregister_service(self.info)
        finally:
            self.zeroconf.close()


def announce(port: int) -> Announcement | None:
    """Announce the page; None (one logged line) where mDNS cannot work here."""
    try:
        return Announcement(port)
    except Exception as exc:  # no network, no multicast, no zeroconf: the page still works
        log.error("cannot announce spieltisch.local: %s", exc)
        return None
