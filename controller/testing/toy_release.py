"""A small real release for the update tests and the power-cut loop: a wheel named
spieltisch that installs with pip, passes (or fails) the new release's check, and
can carry ballast so that unpacking, hashing and installing take a while, as a real
bundle's thirty-odd megabytes do."""

from __future__ import annotations

import base64
import hashlib
import random
import zipfile
from pathlib import Path

from controller.release.bundle import write_bundle
from controller.release.keys import load_private

TOY_CLI = """
import sys

def main():
    args = sys.argv[1:]
    if args[:1] == ["sim"] and {broken!r}:
        print("Traceback: the toy release is broken", file=sys.stderr)
        return 1
    print("toy spieltisch {version}", " ".join(args))
    return 0
"""


def toy_wheel(directory: Path, version: str, broken: bool = False, ballast_mb: int = 0) -> Path:
    """A real installable wheel named spieltisch: its ``spieltisch`` command passes (or,
    ``broken``, fails) the new release's check, and it imports what the check imports.
    ``ballast_mb`` megabytes of random bytes (incompressible, seeded by the version) go
    into ``controller/ballast/``, one file per megabyte."""
    files: dict[str, bytes] = {
        "controller/__init__.py": b"",
        "controller/__main__.py": (
            b"import sys\nfrom controller.cli import main\nsys.exit(main())\n"
        ),
        "controller/app.py": b"",
        "controller/cli.py": TOY_CLI.format(broken=broken, version=version).encode(),
        "rules/__init__.py": b"",
        "rules/build_info.py": b"def describe_build():\n    return 'rules: pure Python'\n",
    }
    rng = random.Random(version)
    for number in range(ballast_mb):
        files[f"controller/ballast/part{number:03}.bin"] = rng.randbytes(1 << 20)
    info = f"spieltisch-{version}.dist-info"
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: spieltisch\nVersion: {version}\n".encode()
    )
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    files[f"{info}/entry_points.txt"] = b"[console_scripts]\nspieltisch = controller.cli:main\n"
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        record.append(f"{name},sha256={digest.decode()},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    directory.mkdir(parents=True, exist_ok=True)
    wheel = directory / f"spieltisch-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return wheel


def toy_bundle(
    out: Path,
    private: Path,
    version: str,
    *,
    broken: bool = False,
    arch: str | None = None,
    python: str | None = None,
    ballast_mb: int = 0,
    sources: dict[str, Path] | None = None,
) -> Path:
    """A bundle of release ``version`` signed with the key in ``private``, with
    ``sources`` as its ``src/``."""
    wheel = toy_wheel(out.parent / f"wheels-{version}", version, broken, ballast_mb)
    write_bundle(
        [wheel],
        out,
        load_private(private),
        release=version,
        version=version,
        compiled=False,
        arch=arch,
        python=python,
        extras="",
        sources=sources,
    )
    return out
