"""Where the MicroPython unix port is, and whether it runs on this machine.

The firmware runs on a Pico under MicroPython, so its pure modules are also tested
under the MicroPython unix port (``tests/test_firmware_checks.py``, the MicroPython
cases of ``tests/test_bridge_e2e.py``). Looked for, in this order:

1. the ``SPIELTISCH_MICROPYTHON`` environment variable (a path to the binary);
2. ``<repository>/../shared/tools/micropython``;
3. ``/work/shared/tools/micropython``;
4. ``micropython`` on ``PATH``.

Where none is found, or the one found cannot run here (another architecture, a
missing C library), the tests that need it are skipped with the reason.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV_VAR = "SPIELTISCH_MICROPYTHON"
SHARED = (ROOT.parent / "shared" / "tools" / "micropython", Path("/work/shared/tools/micropython"))


@dataclass(frozen=True)
class MicroPython:
    path: str
    version: str  # sys.version of the binary, e.g. "3.4.0; MicroPython v1.28.0 on ..."


def candidate() -> str | None:
    """The binary to use, by the order above; None when there is none."""
    configured = os.environ.get(ENV_VAR)
    if configured:
        return configured
    for path in SHARED:
        if path.is_file():
            return str(path)
    return shutil.which("micropython")


@functools.cache
def probe(path: str | None) -> MicroPython | str:
    """A runnable MicroPython at ``path``, or the reason why there is none."""
    if path is None:
        return (
            f"no MicroPython binary: set {ENV_VAR}, or put the unix port at {SHARED[0]} or on PATH"
        )
    if not Path(path).is_file():
        return f"{ENV_VAR}={path} does not exist"
    try:
        result = subprocess.run(
            [path, "-c", "import sys; print(sys.implementation.name); print(sys.version)"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except OSError as exc:  # e.g. "Exec format error": built for another architecture
        return f"{path} cannot run on this machine: {exc.strerror or exc}"
    except subprocess.TimeoutExpired:
        return f"{path} did not answer within 60 s"
    lines = result.stdout.splitlines()
    if result.returncode != 0:
        said = result.stderr.strip().splitlines()
        detail = said[0] if said else f"exit status {result.returncode}"
        return f"{path} cannot run on this machine: {detail}"
    if not lines or lines[0] != "micropython":
        return f"{path} is not MicroPython (its sys.implementation.name is {lines[:1]})"
    return MicroPython(path, lines[1] if len(lines) > 1 else "")


def micropython_or_skip() -> MicroPython:
    """The MicroPython binary, or skip the calling test with the reason."""
    found = probe(candidate())
    if isinstance(found, str):
        pytest.skip(found)
    return found
