"""What the network supervisor needs of NetworkManager, behind one small interface.

:class:`Nmcli` drives the real NetworkManager through ``nmcli`` with fixed argument
lists (never a shell string, never a hand-written hostapd or dnsmasq file): NM's own
access-point mode runs the hotspot, and its ``ipv4.method shared`` starts the dnsmasq
that hands phones an address. :class:`FakeNetwork` beside it is a NetworkManager in
memory (networks in reach, their passwords, what is connected), so the supervisor's
state machine and the setup page are tested without a radio or root.

The joins are blocking (NM decides within its own timeout); the supervisor calls them
on its own thread, so nothing here ever runs on the table's loop.
"""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from controller.i18n import N_

HOTSPOT_CONNECTION = "spieltisch-hotspot"
"""The NetworkManager profile of the hotspot (made anew each time it opens)."""
HOTSPOT_ADDRESS = "10.42.0.1"
"""The table's address in its hotspot (NM's usual one for shared mode, fixed here so
that the captive portal's DNS answer, a dnsmasq drop-in, can name it)."""

WRONG_PASSWORD = N_("the password for {network} was not accepted")
OUT_OF_REACH = N_("the network {network} is not in reach")
NO_ANSWER = N_("the network {network} did not answer")
"""Why a join failed, in words (translated where they are shown)."""


@dataclass(frozen=True, slots=True)
class WifiNetwork:
    """One network in reach, as a scan lists it."""

    ssid: str
    signal: int = 0
    """0 to 100 (NM's percentage)."""
    secured: bool = True


@dataclass(frozen=True, slots=True)
class JoinResult:
    ok: bool
    address: str = ""
    reason: str = ""
    """One of the reasons above (untranslated); "" when ``ok``."""


class NetworkError(OSError):
    """NetworkManager refused a step (the hotspot did not open)."""


class NetworkControl(Protocol):
    def address(self) -> str:
        """The IPv4 address of an active connection that is not the hotspot ("" if none)."""
        ...

    def scan(self) -> list[WifiNetwork]:
        """The networks in reach, strongest first, each name once."""
        ...

    def start_hotspot(self, ssid: str, password: str) -> str:
        """Open the hotspot; its address (the portal's)."""
        ...

    def stop_hotspot(self) -> None: ...

    def join(self, ssid: str, password: str) -> JoinResult:
        """Join ``ssid`` and keep it as a known network, or say why not (and forget it)."""
        ...

    def stored(self) -> list[str]:
        """The Wi-Fi networks NetworkManager keeps (the hotspot's own profile not)."""
        ...

    def clients(self) -> int:
        """How many devices are joined to the open hotspot (0 if it cannot be told)."""
        ...


def unescape_fields(line: str) -> list[str]:
    r"""Split one line of ``nmcli -t`` output: fields are separated by ``:``, and a ``:``
    or ``\`` inside a field is escaped with ``\``."""
    fields: list[str] = []
    current: list[str] = []
    escaped = False
    for char in line:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(char)
    fields.append("".join(current))
    return fields


def parse_scan(output: str) -> list[WifiNetwork]:
    """``nmcli -t -f SSID,SIGNAL,SECURITY device wifi list``: hidden networks (no name)
    left out, each name once at its strongest."""
    best: dict[str, WifiNetwork] = {}
    for line in output.splitlines():
        fields = unescape_fields(line)
        if len(fields) < 3 or not fields[0]:
            continue
        ssid, signal, security = fields[0], fields[1], fields[2]
        strength = int(signal) if signal.isdigit() else 0
        found = WifiNetwork(ssid, strength, security not in ("", "--"))
        if ssid not in best or best[ssid].signal < strength:
            best[ssid] = found
    return sorted(best.values(), key=lambda n: (-n.signal, n.ssid))


def join_failure(message: str) -> str:
    """The reason (untranslated) for nmcli's error text on a failed join."""
    lowered = message.lower()
    if "secrets were required" in lowered or "802.1x supplicant" in lowered or "psk" in lowered:
        return WRONG_PASSWORD
    if "no network with ssid" in lowered or "not found" in lowered:
        return OUT_OF_REACH
    return NO_ANSWER


class Nmcli:
    """The real NetworkManager, through ``nmcli`` (run as root by the network unit)."""

    def __init__(self, device: str = "", command: Sequence[str] = ("nmcli",)) -> None:
        self.device = device
        """The Wi-Fi device ("" the first one NM lists)."""
        self.command = list(command)

    def run(self, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.command, *args], capture_output=True, text=True, timeout=timeout, check=False
        )

    def wifi_device(self) -> str:
        if self.device:
            return self.device
        listing = self.run("-t", "-f", "DEVICE,TYPE", "device")
        for line in listing.stdout.splitlines():
            fields = unescape_fields(line)
            if len(fields) >= 2 and fields[1] == "wifi":
                self.device = fields[0]
                return self.device
        raise NetworkError("NetworkManager lists no Wi-Fi device")

    def address(self) -> str:
        listing = self.run("-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device")
        for line in listing.stdout.splitlines():
            fields = unescape_fields(line)
            if len(fields) < 4 or fields[1] not in ("wifi", "ethernet"):
                continue
            if fields[2] != "connected" or fields[3] == HOTSPOT_CONNECTION:
                continue
            shown = self.run("-g", "IP4.ADDRESS", "device", "show", fields[0])
            for value in shown.stdout.replace("|", "\n").split():
                if value and "/" in value:
                    return value.split("/", 1)[0]
        return ""

    def scan(self) -> list[WifiNetwork]:
        listing = self.run(
            "-t", "-f", "SSID,SIGNAL,SECURITY", "device", "wifi", "list", "--rescan", "yes"
        )
        return parse_scan(listing.stdout)

    def start_hotspot(self, ssid: str, password: str) -> str:
        device = self.wifi_device()
        self.run("connection", "delete", HOTSPOT_CONNECTION)
        made = self.run(
            "connection", "add", "type", "wifi", "ifname", device,
            "con-name", HOTSPOT_CONNECTION, "autoconnect", "no", "ssid", ssid,
            "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
            "ipv4.method", "shared", "ipv4.addresses", f"{HOTSPOT_ADDRESS}/24",
            "ipv6.method", "disabled",
            "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn",
            "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp",
            "wifi-sec.psk", password,
        )  # fmt: skip
        if made.returncode != 0:
            raise NetworkError(f"cannot make the hotspot: {made.stderr.strip()}")
        # NM's access point, then its dnsmasq: seconds on a Pi, up to a minute under load
        up = self.run("--wait", "90", "connection", "up", HOTSPOT_CONNECTION, timeout=120.0)
        if up.returncode != 0:
            raise NetworkError(f"cannot open the hotspot: {up.stderr.strip()}")
        shown = self.run("-g", "IP4.ADDRESS", "connection", "show", HOTSPOT_CONNECTION)
        for value in shown.stdout.replace("|", "\n").split():
            if "/" in value:
                return value.split("/", 1)[0]
        return HOTSPOT_ADDRESS

    def stop_hotspot(self) -> None:
        self.run("connection", "down", HOTSPOT_CONNECTION)

    def stored(self) -> list[str]:
        listing = self.run("-t", "-f", "NAME,TYPE", "connection", "show")
        names = []
        for line in listing.stdout.splitlines():
            fields = unescape_fields(line)
            wifi = len(fields) >= 2 and fields[1] == "802-11-wireless"
            if wifi and fields[0] != HOTSPOT_CONNECTION:
                names.append(fields[0])
        return names

    def clients(self) -> int:
        """``iw dev DEVICE station dump``: one ``Station`` block per joined device
        (reading it needs no capability, so the network unit's sandbox allows it)."""
        try:
            device = self.wifi_device()
            dump = subprocess.run(
                ["iw", "dev", device, "station", "dump"],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return 0
        return sum(1 for line in dump.stdout.splitlines() if line.startswith("Station "))

    def join(self, ssid: str, password: str) -> JoinResult:
        """``nmcli device wifi connect``. The password is in nmcli's arguments for the
        moment it runs (visible to root alone on the table, where nothing else runs)."""
        device = self.wifi_device()
        self.run("connection", "delete", ssid)
        args = ["--wait", "45", "device", "wifi", "connect", ssid]
        if password:
            args += ["password", password]
        joined = self.run(*args, "ifname", device, "name", ssid, timeout=90.0)
        if joined.returncode == 0:
            for _attempt in range(20):
                address = self.address()
                if address:
                    return JoinResult(True, address)
                threading.Event().wait(0.5)
            return JoinResult(True, "")
        reason = join_failure(joined.stderr + joined.stdout)
        self.run("connection", "delete", ssid)  # a profile with a wrong password must not stay
        return JoinResult(False, reason=reason)


@dataclass
class FakeNetwork:
    """NetworkManager in memory: ``reach`` holds the networks in reach and their
    passwords, ``known`` the stored ones; a known network in reach connects when asked
    for the address (as NM's autoconnect would). Thread-safe, as the supervisor and the
    page call it from two threads."""

    reach: dict[str, str] = field(default_factory=dict)
    known: dict[str, str] = field(default_factory=dict)
    connected: str = ""
    hotspot: tuple[str, str] | None = None
    log: list[str] = field(default_factory=list)
    phones: int = 0
    """Devices joined to the hotspot."""
    join_gate: threading.Event | None = None
    """When set by a test, a join waits for it (to look at the page while joining)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def address_of(self, ssid: str) -> str:
        return f"192.168.{sorted(self.reach).index(ssid) + 1}.23"

    def address(self) -> str:
        with self.lock:
            if self.hotspot is None and not self.connected:
                for ssid, password in self.known.items():
                    if self.reach.get(ssid) == password:
                        self.connected = ssid
                        break
            if self.connected and self.connected not in self.reach:
                self.connected = ""
            return self.address_of(self.connected) if self.connected else ""

    def scan(self) -> list[WifiNetwork]:
        with self.lock:
            return [WifiNetwork(ssid, 70, bool(pw)) for ssid, pw in sorted(self.reach.items())]

    def start_hotspot(self, ssid: str, password: str) -> str:
        with self.lock:
            self.connected = ""
            self.hotspot = (ssid, password)
            self.log.append(f"hotspot {ssid}")
            return HOTSPOT_ADDRESS

    def stop_hotspot(self) -> None:
        with self.lock:
            self.hotspot = None
            self.log.append("hotspot down")

    def stored(self) -> list[str]:
        with self.lock:
            return sorted(self.known)

    def clients(self) -> int:
        with self.lock:
            return self.phones if self.hotspot is not None else 0

    def join(self, ssid: str, password: str) -> JoinResult:
        if self.join_gate is not None:
            self.join_gate.wait(30)
        with self.lock:
            self.log.append(f"join {ssid}")
            if ssid not in self.reach:
                return JoinResult(False, reason=OUT_OF_REACH)
            if self.reach[ssid] != password:
                return JoinResult(False, reason=WRONG_PASSWORD)
            self.known[ssid] = password
            self.connected = ssid
            return JoinResult(True, self.address_of(ssid))
