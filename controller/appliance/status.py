"""The network's state as one small JSON file, written by the supervisor and read by
the running table.

The supervisor runs as root in its own unit (NetworkManager's hotspot needs it); the
table runs as its own user and must never wait on the network. A file in /run is the
narrowest bridge between the two: the supervisor replaces it atomically, the table
looks at it from a thread of its own and puts what changed on its event queue, as any
other producer does. Either side can restart without the other noticing.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from hardware.atomic_file import write_text_atomically

DEFAULT_PATH = Path("/run/spieltisch/network.json")

STARTING = "starting"
"""Waiting for a known network (up to the timeout)."""
ONLINE = "online"
HOTSPOT = "hotspot"
JOINING = "joining"
STATES = (STARTING, ONLINE, HOTSPOT, JOINING)


@dataclass(frozen=True, slots=True)
class NetworkStatus:
    state: str = STARTING
    network: str = ""
    """The home network joined or being joined; in the hotspot, the one that failed."""
    address: str = ""
    """The table's address: on the home network (online) or the hotspot's."""
    hotspot: str = ""
    """The hotspot's name while it is open."""
    password: str = ""
    """The hotspot's password (shown on the panel; not the home network's)."""
    reason: str = ""
    """Why the last join failed, untranslated (``controller.appliance.network``)."""
    problems: tuple[str, ...] = ()
    """The settings file's problems, in words, for the panel."""

    def to_json(self) -> str:
        data = asdict(self)
        data["problems"] = list(self.problems)
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> NetworkStatus:
        """Unknown keys are ignored and wrong types refused, so a newer supervisor's file
        is still read and a damaged one is no crash (ValueError)."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("network status: not an object")
        values: dict[str, object] = {}
        for item in fields(cls):
            if item.name not in data:
                continue
            value = data[item.name]
            if item.name == "problems":
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise ValueError("network status: problems is not a list of words")
                value = tuple(value)
            elif not isinstance(value, str):
                raise ValueError(f"network status: {item.name} is not a string")
            values[item.name] = value
        status = cls(**values)  # type: ignore[arg-type]
        if status.state not in STATES:
            raise ValueError(f"network status: unknown state {status.state!r}")
        return status


def write(path: Path, status: NetworkStatus) -> None:
    """Replace ``path`` at once (temp file and rename), readable by the table: the
    hotspot's password in it is the one the panel shows to everyone at the table."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(path, status.to_json(), mode=0o644, prefix=f".{path.name}.", suffix="")


def read(path: Path) -> NetworkStatus | None:
    """The status in ``path``; None if there is none or it cannot be read."""
    try:
        return NetworkStatus.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
