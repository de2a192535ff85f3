"""The network supervisor: a known network, else a hotspot with a setup page.

At start it waits for NetworkManager to bring up a known network. If none has an
address after :data:`WAIT_S` (no network known, or none answers), it lists the networks
in reach (the radio cannot scan well once it is an access point) and opens the hotspot
``spieltisch-XXXX`` with a password made for this start. A join asked for by the setup
page closes the hotspot (one radio does one thing), tries the home network and either
is online with an address or opens the hotspot again with the reason in words. A
known network that goes away later is waited for again, then the hotspot opens.

The hotspot is not for ever: a known network that did not answer (the router was off,
or slow after a power cut that restarted both) gets another chance every
:data:`HOME_RETRY_S`. One radio cannot scan for it while it is an access point, so a
retry closes the hotspot and waits for NetworkManager's autoconnect as at start, then
opens the hotspot again (same name, same password) if nothing answered. A phone in the
middle of the setup page must not lose its connection to that: :func:`home_retry_due`
holds the retry off while the page was used lately or a phone is joined.

Each change is published (:mod:`controller.appliance.status`) for the table and the
page. The state machine is :meth:`Supervisor.step`, driven by a clock it is given, so
tests step it through every path against :class:`~controller.appliance.network.FakeNetwork`.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable

from controller.appliance.network import NetworkControl, NetworkError, WifiNetwork
from controller.appliance.status import (
    HOTSPOT,
    JOINING,
    ONLINE,
    STARTING,
    NetworkStatus,
)

log = logging.getLogger(__name__)

WAIT_S = 60.0
"""How long a known network gets to connect at start (NM tries each in turn)."""
RETRY_S = 30.0
"""How soon a hotspot that NetworkManager refused is tried again."""
QUIET_S = 15.0
"""How often an online table (or an open hotspot) looks again: each look is two nmcli
processes, which a Pi Zero feels; a join asked for by the page wakes it at once."""
HOME_RETRY_S = 300.0
"""How often a hotspot opened because no known network answered tries them again."""
PAGE_BUSY_S = 180.0
"""A retry waits while the setup page was used this recently (a phone is setting up)."""
PHONE_IDLE_S = 900.0
"""A phone joined to the hotspot holds the retry off until it has not used the page for
this long (a phone that merely stays joined must not keep the table off its network)."""
PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""No l/1, o/0: the password is read off a scrolling panel and typed on a phone."""
PASSWORD_LENGTH = 8
"""WPA2's shortest; with the name, the ``WIFI:`` QR code still fits 29×29 modules."""


def hotspot_password() -> str:
    return "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))


def home_retry_due(
    now: float,
    hotspot_since: float,
    stored: int,
    phones: int,
    page_used: float | None,
    *,
    every: float = HOME_RETRY_S,
) -> bool:
    """Whether the open hotspot should make way for another try of the known networks:
    there is one (``stored`` networks), the hotspot has been open ``every`` seconds (or
    as long since the last try), no phone used the page in the last
    :data:`PAGE_BUSY_S`, and no phone is joined, unless it has left the page alone for
    :data:`PHONE_IDLE_S`."""
    if stored == 0 or now - hotspot_since < every:
        return False
    if page_used is not None and now - page_used < PAGE_BUSY_S:
        return False
    quiet_since = max(hotspot_since, page_used or hotspot_since)
    return phones == 0 or now - quiet_since >= PHONE_IDLE_S


class Supervisor:
    """One network supervisor. :meth:`step` runs on one thread (the supervisor's);
    :meth:`request_join`, :attr:`status` and :attr:`networks` may be used from others
    (the page's)."""

    def __init__(
        self,
        network: NetworkControl,
        hotspot_name: str,
        publish: Callable[[NetworkStatus], None] = lambda _status: None,
        *,
        clock: Callable[[], float] = time.monotonic,
        wait_s: float = WAIT_S,
        make_password: Callable[[], str] = hotspot_password,
        problems: tuple[str, ...] = (),
    ) -> None:
        self.network = network
        self.hotspot_name = hotspot_name
        self.publish = publish
        self.clock = clock
        self.wait_s = wait_s
        self.make_password = make_password
        self.problems = problems
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.since = clock()
        self.retry_at: float | None = None
        self.hotspot_since = self.since
        """When the hotspot opened, or the known networks were last tried from it."""
        self.page_used: float | None = None
        self.retry_every = HOME_RETRY_S
        self.pending: tuple[str, str] | None = None
        self.networks: list[WifiNetwork] = []
        self.password = ""
        self.reason = ""
        """Why the last join failed (untranslated, ``{network}`` left in)."""
        self.failed = ""
        """The network that last failed to join."""
        self._status = NetworkStatus(STARTING, problems=problems)
        self.publish(self._status)

    @property
    def status(self) -> NetworkStatus:
        with self.lock:
            return self._status

    def _set(self, status: NetworkStatus) -> None:
        with self.lock:
            changed = status != self._status
            self._status = status
        if changed:
            log.info(
                "network: %s %s",
                status.state,
                status.address or status.hotspot or status.network,
            )
            self.publish(status)

    def note_page_use(self) -> None:
        """The setup page answered a phone (the page's thread): a retry of the known
        networks waits (:func:`home_retry_due`)."""
        with self.lock:
            self.page_used = self.clock()

    def request_join(self, ssid: str, password: str) -> bool:
        """Ask to join ``ssid`` (the page's form). False while a join is under way."""
        with self.lock:
            if self.pending is not None or self._status.state == JOINING:
                return False
            self.pending = (ssid, password)
        self.wake.set()
        return True

    def step(self) -> None:
        """One look at the network, and the one change it calls for."""
        now = self.clock()
        with self.lock:
            pending, self.pending = self.pending, None
        state = self.status.state
        if pending is not None:
            self._join(*pending)
        elif state in (STARTING, ONLINE):
            address = self.network.address()
            if address:
                self.since = now
                network = self.status.network if state == ONLINE else ""
                self._set(NetworkStatus(ONLINE, network, address, problems=self.problems))
            elif state == ONLINE:
                self.since = now  # lost: give it the same time to come back
                self._set(NetworkStatus(STARTING, problems=self.problems))
            elif now - self.since >= self.wait_s:
                self._open_hotspot()
        elif state == HOTSPOT and self.retry_at is not None and now >= self.retry_at:
            self._open_hotspot()
        elif state == HOTSPOT and self.retry_at is None and self._home_retry_due(now):
            self._retry_home(now)

    def _home_retry_due(self, now: float) -> bool:
        if now - self.hotspot_since < self.retry_every:
            return False  # no nmcli or iw call before a retry could be due
        with self.lock:
            page_used = self.page_used
        stored = len(self.network.stored())
        phones = self.network.clients() if stored else 0
        return home_retry_due(
            now, self.hotspot_since, stored, phones, page_used, every=self.retry_every
        )

    def _retry_home(self, now: float) -> None:
        """Close the hotspot and give the known networks the start's wait again."""
        log.info(
            "hotspot open for %.0f s: trying the known networks again", now - self.hotspot_since
        )
        self.network.stop_hotspot()
        self.since = now
        self._set(NetworkStatus(STARTING, problems=self.problems))

    def _open_hotspot(self) -> None:
        try:
            self.networks = self.network.scan()
        except (OSError, ValueError) as exc:
            log.warning("cannot list the networks in reach: %s", exc)
        self.password = self.password or self.make_password()
        try:
            address = self.network.start_hotspot(self.hotspot_name, self.password)
        except (NetworkError, OSError) as exc:
            log.error("%s; trying again in %.0f s", exc, RETRY_S)
            self.retry_at = self.clock() + RETRY_S
            address = ""
        else:
            self.retry_at = None
        self.hotspot_since = self.clock()
        self._set(
            NetworkStatus(
                HOTSPOT,
                network=self.failed if self.reason else "",
                address=address,
                hotspot=self.hotspot_name if address else "",
                password=self.password if address else "",
                reason=self.reason,
                problems=self.problems,
            )
        )

    def _join(self, ssid: str, password: str) -> None:
        self._set(NetworkStatus(JOINING, ssid, problems=self.problems))
        self.network.stop_hotspot()
        result = self.network.join(ssid, password)
        if result.ok:
            self.reason = self.failed = ""
            self.since = self.clock()
            self._set(NetworkStatus(ONLINE, ssid, result.address, problems=self.problems))
            return
        log.warning("joining %s failed: %s", ssid, result.reason.format(network=ssid))
        self.reason = result.reason
        self.failed = ssid
        self._open_hotspot()

    def run(self, stop: threading.Event, interval: float = 2.0) -> None:
        """Step until ``stop`` is set: every ``interval`` s while waiting for a known
        network, every :data:`QUIET_S` otherwise, and at once on a join request."""
        while not stop.is_set():
            try:
                self.step()
            except Exception:  # the supervisor must outlive any one failed nmcli call
                log.exception("network supervisor step failed")
            self.wake.wait(interval if self.status.state == STARTING else max(interval, QUIET_S))
            self.wake.clear()
