"""The QR code the panel shows beside the pairing code: the page's address with the
code in it, so a phone's camera pairs in one step.

The address is written in QR's alphanumeric mode (digits, capitals and ``:/.``), which
packs it densest: ``HTTP://192.168.1.23:8080/P/123456`` fits version 2 (25×25 modules)
at error correction M, small enough for a 32×32 panel with a quiet zone around it.
Browsers lowercase the scheme and host themselves; the ``/P/<code>`` route (capital
P) sends the phone on to the page with the code filled in. The address is the one
the server was reached on (the socket's own address, not the request's Host header,
which a client could make point anywhere).
"""

from __future__ import annotations

import ipaddress

MAX_MODULES = 29
"""Version 3 at most: larger codes have no room on a 32×32 panel."""


def pairing_url(host: str, port: int, code: str) -> str:
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        shown = host.upper()
    else:
        shown = f"[{address}]" if address.version == 6 else str(address)
    return f"HTTP://{shown.upper()}:{port}/P/{code}"


def rows(text: str) -> tuple[str, ...]:
    """The code's modules, one string of "1" (dark) and "0" per row, no quiet zone;
    empty if it would be too large for a 32×32 panel."""
    import segno

    code = segno.make_qr(text, error="m", boost_error=False)
    matrix = tuple("".join("1" if bit else "0" for bit in row) for row in code.matrix)
    return matrix if len(matrix) <= MAX_MODULES else ()
