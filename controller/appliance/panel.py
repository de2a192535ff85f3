"""What the panel says about the network, from the supervisor's status.

In the hotspot it scrolls the hotspot's name and password (and why the last join
failed), and on a 32×32 panel the loop shows beside it a QR code in the ``WIFI:`` form
that phones' cameras join in one step. Online it says ``spieltisch.local`` and the
address. The words are the table's (gettext); pure functions, no I/O.
"""

from __future__ import annotations

from controller.appliance.status import HOTSPOT, JOINING, ONLINE, NetworkStatus
from controller.i18n import _
from controller.web import qr

LOCAL_NAME = "spieltisch.local"


def wifi_escape(text: str) -> str:
    """The ``WIFI:`` form's escaping: ``\\ ; , : "`` get a backslash."""
    return "".join("\\" + c if c in '\\;,:"' else c for c in text)


def wifi_qr_text(ssid: str, password: str) -> str:
    """The text phones' cameras read as "join this network"."""
    return f"WIFI:T:WPA;S:{wifi_escape(ssid)};P:{wifi_escape(password)};;"


def words(status: NetworkStatus) -> str:
    """The line to scroll ("" when there is nothing to say)."""
    parts: list[str] = list(status.problems)
    if status.state == HOTSPOT:
        if status.reason:
            parts.append(_(status.reason).format(network=status.network))
        if status.hotspot:
            parts.append(
                _("Wi-Fi {name}, password {password}").format(
                    name=status.hotspot, password=status.password
                )
            )
        else:
            parts.append(_("no network: the hotspot could not open yet"))
    elif status.state == JOINING:
        parts.append(_("joining {network}…").format(network=status.network))
    elif status.state == ONLINE and status.address:
        parts.append(f"{LOCAL_NAME} {status.address}")
    return " · ".join(parts)


def qr_rows(status: NetworkStatus) -> tuple[str, ...]:
    """The hotspot's ``WIFI:`` QR code rows (empty where there is none or it is too big)."""
    if status.state != HOTSPOT or not status.hotspot:
        return ()
    return qr.rows(wifi_qr_text(status.hotspot, status.password))
