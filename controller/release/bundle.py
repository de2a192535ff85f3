"""Update bundles: one signed tar of wheels that makes a release, built and checked here.

A bundle is a plain tar (the wheels inside are compressed already) holding

* ``manifest.json``: the release's name and version, the machine architecture and the
  Python version the wheels were built for, the extras to install, and the SHA-256 of
  every other member;
* ``manifest.sig``: the Ed25519 signature of ``manifest.json``'s exact bytes, base64;
* ``wheels/*.whl``: the program and every dependency, for that architecture; the
  rules compiled by mypyc when the builder could compile them;
* ``src/``: what of the checkout is no program but belongs to a release (the docs the
  units name in ``Documentation=``, ``config.example.toml`` that the config's errors
  point to, ``wiring.md``, ``REVISION``): the release's ``src/``, as the installer
  makes it. The code itself comes from the wheels only.

:func:`check_bundle` unpacks it with :mod:`controller.release.safe_archive` into a new
directory and then believes nothing it has not checked: the signature first (against
the table's trusted keys), then the kind and format, the architecture, the Python
version, and that the wheels are exactly the manifest's files with exactly its hashes.
Each refusal is one line naming the reason.
"""

from __future__ import annotations

import base64
import hashlib
import json
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from controller.release import keys as keyring
from controller.release.layout import check_release_name
from controller.release.safe_archive import ArchiveError, Limits, unpack

KIND = "spieltisch-bundle"
FORMAT = 1
MANIFEST = "manifest.json"
SIGNATURE = "manifest.sig"
EXTRAS = "pi,web"
LIMITS = Limits(members=400, member_bytes=200 << 20, total_bytes=800 << 20)
_WHEEL = re.compile(r"^wheels/[A-Za-z0-9][A-Za-z0-9._+-]{0,200}\.whl$")
_SOURCE = re.compile(
    r"^src/([A-Za-z0-9_][A-Za-z0-9._+-]{0,100}/){0,4}[A-Za-z0-9_][A-Za-z0-9._+-]{0,100}$"
)
SOURCE_ITEMS = ("README.md", "wiring.md", "config.example.toml", "pyproject.toml", "docs")
"""What of a checkout goes into a bundle's ``src/`` (the docs and examples; no code)."""
_MAX_MANIFEST = 1 << 20


class BundleError(ValueError):
    """The bundle is refused; the message is one line naming why."""


@dataclass(frozen=True)
class Bundle:
    """A checked bundle, unpacked in ``directory``."""

    directory: Path
    release: str
    version: str
    arch: str
    python: str
    extras: str
    compiled: bool
    key: str

    @property
    def wheels(self) -> Path:
        return self.directory / "wheels"

    @property
    def sources(self) -> Path:
        """The release's ``src/`` (absent in a bundle that carries none)."""
        return self.directory / "src"


def this_python() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def this_arch() -> str:
    return platform.machine()


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 16):
            digest.update(chunk)
    return digest.hexdigest()


def _expected(name: str) -> bool:
    return name in (MANIFEST, SIGNATURE) or bool(_WHEEL.match(name) or _SOURCE.match(name))


def check_bundle(
    bundle: Path,
    into: Path,
    trusted: dict[str, Ed25519PublicKey],
    *,
    arch: str | None = None,
    python: str | None = None,
) -> Bundle:
    """Unpack ``bundle`` into the empty directory ``into`` and check it whole (see the
    module's docstring). Raises :class:`BundleError`; the caller removes ``into``."""
    try:
        names = unpack(bundle, into, _expected, LIMITS, "the bundle")
    except ArchiveError as exc:
        raise BundleError(str(exc)) from None
    if MANIFEST not in names or SIGNATURE not in names:
        raise BundleError("the bundle has no manifest or no signature: not a spieltisch bundle")
    raw = (into / MANIFEST).read_bytes()
    if len(raw) > _MAX_MANIFEST:
        raise BundleError("the bundle's manifest is too large")
    if not trusted:
        raise BundleError("this table trusts no signing key (spieltisch update trust FILE)")
    try:
        signature = base64.b64decode((into / SIGNATURE).read_bytes().strip(), validate=True)
    except ValueError:
        raise BundleError("the bundle's signature is not base64") from None
    key = keyring.verify(trusted, raw, signature)
    if key is None:
        raise BundleError("the bundle's signature does not match any key this table trusts")
    try:
        manifest = json.loads(raw)
    except (ValueError, RecursionError):
        raise BundleError("the bundle's manifest is not JSON") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != KIND:
        raise BundleError("the bundle's manifest is not a spieltisch bundle's")
    if manifest.get("format") != FORMAT:
        raise BundleError(
            f"the bundle is format {manifest.get('format')!r}; this table reads format {FORMAT}"
        )
    want_arch = arch or this_arch()
    if manifest.get("arch") != want_arch:
        raise BundleError(
            f"the bundle is built for {manifest.get('arch')!r}, this table is {want_arch}"
        )
    want_python = python or this_python()
    if manifest.get("python") != want_python:
        raise BundleError(
            f"the bundle is built for Python {manifest.get('python')!r}, "
            f"this table runs {want_python}"
        )
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in files.items()
    ):
        raise BundleError("the bundle's manifest lists no files")
    present = set(names) - {MANIFEST, SIGNATURE}
    listed = set(files)
    if present - listed:
        raise BundleError(f"the bundle holds {sorted(present - listed)[0]}, not in its manifest")
    if listed - present:
        raise BundleError(f"the bundle lacks {sorted(listed - present)[0]}, named in its manifest")
    for name in sorted(listed):
        if sha256(into / name) != files[name]:
            raise BundleError(f"the hash of {name} does not match the manifest")
    release = str(manifest.get("release", ""))
    try:
        check_release_name(release)
    except ValueError as exc:
        raise BundleError(f"the bundle's release name: {exc}") from None
    if not any(n.startswith("wheels/spieltisch-") for n in listed):
        raise BundleError("the bundle holds no spieltisch wheel")
    return Bundle(
        directory=into,
        release=release,
        version=str(manifest.get("version", "")),
        arch=want_arch,
        python=want_python,
        extras=str(manifest.get("extras", EXTRAS)),
        compiled=bool(manifest.get("compiled", False)),
        key=key,
    )


# -- building -------------------------------------------------------------------------


def checkout_version(checkout: Path) -> str:
    with (checkout / "pyproject.toml").open("rb") as fh:
        return str(tomllib.load(fh)["project"]["version"])


def checkout_revision(checkout: Path) -> str:
    result = subprocess.run(
        ["git", "-C", str(checkout), "describe", "--always", "--dirty"],
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip() if result.returncode == 0 else ""


def release_name(version: str, revision: str) -> str:
    return check_release_name(f"{version}-{revision}" if revision else version)


def build_wheels(checkout: Path, into: Path, compile_rules: bool) -> bool:
    """``pip wheel`` the checkout with its table extras into ``into``; returns whether the
    rules are compiled (mypyc), falling back to pure Python when compiling fails."""
    import os

    base = [sys.executable, "-m", "pip", "wheel", "-q", "--wheel-dir", str(into)]
    target = f"{checkout}[{EXTRAS}]"
    if compile_rules:
        env = {**os.environ, "SPIELTISCH_COMPILE": "1"}
        done = subprocess.run([*base, target], env=env, check=False)
        if done.returncode == 0:
            return True
        sys.stderr.write("spieltisch: the rules did not compile; the bundle has pure Python\n")
        for wheel in into.glob("spieltisch-*.whl"):
            wheel.unlink()
    subprocess.run([*base, target], check=True)
    return False


def write_bundle(
    wheels: Sequence[Path],
    out: Path,
    key: Ed25519PrivateKey,
    *,
    release: str,
    version: str,
    compiled: bool,
    arch: str | None = None,
    python: str | None = None,
    extras: str = EXTRAS,
    sources: dict[str, Path] | None = None,
) -> dict[str, Any]:
    """Write the signed bundle ``out`` holding ``wheels`` and ``sources`` (a path below
    ``src/`` -> the file); returns its manifest."""
    sources = sources or {}
    files = {f"wheels/{w.name}": sha256(w) for w in sorted(wheels)}
    files.update({f"src/{name}": sha256(path) for name, path in sorted(sources.items())})
    manifest: dict[str, Any] = {
        "kind": KIND,
        "format": FORMAT,
        "release": check_release_name(release),
        "version": version,
        "arch": arch or this_arch(),
        "python": python or this_python(),
        "extras": extras,
        "compiled": compiled,
        "files": files,
    }
    raw = json.dumps(manifest, indent=1, sort_keys=True).encode() + b"\n"
    signature = base64.b64encode(keyring.sign(key, raw)) + b"\n"
    with tempfile.TemporaryDirectory() as work:
        (Path(work) / MANIFEST).write_bytes(raw)
        (Path(work) / SIGNATURE).write_bytes(signature)
        partial = out.with_name(out.name + ".part")
        with tarfile.open(partial, "w", format=tarfile.PAX_FORMAT) as tar:
            for name in (MANIFEST, SIGNATURE):
                tar.add(Path(work) / name, arcname=name, filter=_plain)
            for wheel in sorted(wheels):
                tar.add(wheel, arcname=f"wheels/{wheel.name}", filter=_plain)
            for name, path in sorted(sources.items()):
                tar.add(path, arcname=f"src/{name}", filter=_plain)
        partial.replace(out)
    return manifest


def _plain(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    info.mode = 0o644
    return info


def build_bundle(
    checkout: Path, out: Path, key_file: Path, *, wheels_from: Path | None, compile_rules: bool
) -> dict[str, Any]:
    """The whole build: wheels (or those already in ``wheels_from``), then the bundle."""
    key = keyring.load_private(key_file)
    version = checkout_version(checkout)
    release = release_name(version, checkout_revision(checkout))
    with tempfile.TemporaryDirectory() as work:
        if wheels_from is None:
            directory = Path(work)
            compiled = build_wheels(checkout, directory, compile_rules)
        else:
            directory = wheels_from
            compiled = any(
                n.endswith(".whl") and "-cp" in n and n.startswith("spieltisch-")
                for n in (p.name for p in wheels_from.iterdir())
            )
        wheels = sorted(directory.glob("*.whl"))
        if not any(w.name.startswith("spieltisch-") for w in wheels):
            raise BundleError(f"{directory} holds no spieltisch wheel")
        copies = []
        for wheel in wheels:
            copy = Path(work) / "out" / wheel.name
            copy.parent.mkdir(exist_ok=True)
            shutil.copyfile(wheel, copy)
            copies.append(copy)
        revision = Path(work) / "REVISION"
        revision.write_text((checkout_revision(checkout) or "unknown") + "\n", encoding="utf-8")
        sources = {**checkout_sources(checkout), "REVISION": revision}
        return write_bundle(
            copies,
            out,
            key,
            release=release,
            version=version,
            compiled=compiled,
            sources=sources,
        )


def checkout_sources(checkout: Path) -> dict[str, Path]:
    """The files of :data:`SOURCE_ITEMS` in ``checkout``, by their path below it."""
    found: dict[str, Path] = {}
    for item in SOURCE_ITEMS:
        path = checkout / item
        candidates = sorted(path.rglob("*")) if path.is_dir() else [path]
        for candidate in candidates:
            if candidate.is_file() and not candidate.is_symlink():
                name = candidate.relative_to(checkout).as_posix()
                if "__pycache__" not in name and _SOURCE.match(f"src/{name}"):
                    found[name] = candidate
    return found
