"""Read-only data files shipped inside the rules packages, checked before use.

Bot tables and network weights are data, not code: binary files next to the module that
uses them, read with :mod:`importlib.resources` (the one kind of file access the rules
allow themselves). Beside each file lies its provenance, ``NAME.provenance.json``: the
command that generated it, its inputs, the figures it achieved and its sha256. The
digest is checked on load, so a truncated or swapped file is a clear one-line error and
never a silently weaker bot.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any

from rules.errors import RulesError


class DataFileError(RulesError):
    """A shipped data file is missing, unreadable or not the one its provenance names."""


def provenance_name(name: str) -> str:
    return f"{name}.provenance.json"


def provenance(package: str, name: str) -> dict[str, Any]:
    """The provenance record of ``package``'s data file ``name``."""
    where = f"{package.replace('.', '/')}/{provenance_name(name)}"
    try:
        text = resources.files(package).joinpath(provenance_name(name)).read_text("utf-8")
        record = json.loads(text)
    except (OSError, ValueError) as exc:
        raise DataFileError(f"cannot read {where}: {exc}") from None
    if not isinstance(record, dict) or not isinstance(record.get("sha256"), str):
        raise DataFileError(f"{where} has no sha256")
    return record


def read_checked(package: str, name: str) -> bytes:
    """The bytes of ``package``'s data file ``name``, after checking its sha256."""
    where = f"{package.replace('.', '/')}/{name}"
    try:
        data = resources.files(package).joinpath(name).read_bytes()
    except OSError as exc:
        raise DataFileError(f"cannot read {where}: {exc.strerror or exc}") from None
    expected = provenance(package, name)["sha256"]
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise DataFileError(
            f"{where} is corrupt: sha256 {actual[:12]}… but its provenance says {expected[:12]}…"
        )
    return data


def provenance_record(data: bytes, command: str, **details: Any) -> str:
    """The JSON text of a provenance sidecar for ``data`` (used by the generators)."""
    record = {"command": command, **details, "bytes": len(data)}
    record["sha256"] = hashlib.sha256(data).hexdigest()
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"
