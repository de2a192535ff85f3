"""Releases side by side in ``/opt/spieltisch``, and the one symlink that picks one.

::

    /opt/spieltisch/releases/<name>/venv   the release's own venv (its wheels, compiled rules)
    /opt/spieltisch/releases/<name>/src    its source copy (docs, config example)
    /opt/spieltisch/current  -> releases/<name>      the release the unit starts
    /opt/spieltisch/previous -> releases/<name>      the way back, kept until the next
                                                     update has succeeded
    /opt/spieltisch/venv -> current/venv             the paths the unit and the docs name
    /opt/spieltisch/src  -> current/src

The switch is one ``rename(2)`` of a new symlink over ``current``: at every moment,
power cut or not, ``current`` names one whole release, the old or the new. The image
builds this layout; ``systemd/install.sh`` makes it, and :func:`migrate` turns an older
install (a real ``venv`` and ``src`` directory in the prefix) into it without moving
a file's content: the directories are renamed into ``releases/<name>`` and the old
paths become symlinks, so the venv's scripts, which name ``/opt/spieltisch/venv/bin/
python``, keep working.

On the card image the root is read-only, so the prefix is on the data partition
(``/opt/spieltisch`` is a symlink to ``/data/releases``), and the release the image was
built with, the *factory release*, stays on the root (:data:`FACTORY`).
``releases/<its name>`` is a symlink to it, and :func:`adopt_factory`, run at every
start before the table (``python -m controller.release.layout``, which imports nothing
of the program beyond this module), makes ``current`` point at it whenever ``current``
names no release: a data partition that is fresh, emptied or lost its links still
starts the table, and an update adds real release directories beside it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from hardware.atomic_file import sync_directory

PREFIX = Path("/opt/spieltisch")
KEYS_DIR = Path("/etc/spieltisch-keys")
"""The keys the table trusts, and where ``spieltisch update trust`` adds one. Root's,
outside the directories the service may write (its state directory and the config
directory are the service user's): a table process that went wrong must not be able to
make the root-run update trust a key of its own. On the card image it is a link to
``/data/system/spieltisch-keys`` (root's, on the data partition), since the root is
read-only there."""
SHIPPED_KEYS_DIR = Path("/usr/share/spieltisch/keys")
"""The keys the card image ships on its read-only root (the project's): trusted beside
:data:`KEYS_DIR`, never written. A key of the same name in :data:`KEYS_DIR` takes its
place, so a lost project key is replaced as on an installed Pi. An installed Pi has
none: the installer writes the project's key to :data:`KEYS_DIR`."""
FACTORY = Path("/usr/lib/spieltisch/factory")
"""The card image's built-in release, on the read-only root (its ``RELEASE`` file names it)."""
RELEASE_INFO = "RELEASE"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+_-]{0,79}$")


class LayoutError(ValueError):
    """The install cannot be read or changed as a releases layout; one line."""


def check_release_name(name: str) -> str:
    if not NAME.match(name) or ".." in name:
        raise LayoutError(f"{name!r} is not a usable release name")
    return name


@dataclass(frozen=True)
class ReleaseLayout:
    prefix: Path = PREFIX

    @property
    def releases(self) -> Path:
        return self.prefix / "releases"

    @property
    def current(self) -> Path:
        return self.prefix / "current"

    @property
    def previous(self) -> Path:
        return self.prefix / "previous"

    def release(self, name: str) -> Path:
        return self.releases / check_release_name(name)

    def _target(self, link: Path) -> str | None:
        try:
            target = os.readlink(link)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise LayoutError(f"{link} is not a symlink ({exc.strerror})") from None
        name = Path(target).name
        return name if (self.releases / name).is_dir() else None

    def current_name(self) -> str | None:
        """The release ``current`` points at (None if there is none or it is gone)."""
        return self._target(self.current)

    def previous_name(self) -> str | None:
        return self._target(self.previous)

    def names(self) -> list[str]:
        """The releases installed (not the work directories of an update in progress)."""
        return [name for name in self.entries() if NAME.match(name)]

    def entries(self) -> list[str]:
        """Every directory in ``releases/``, a power cut's leftovers included."""
        try:
            return sorted(p.name for p in self.releases.iterdir() if p.is_dir())
        except FileNotFoundError:
            return []

    def python(self, name: str) -> Path:
        return self.release(name) / "venv" / "bin" / "python"

    def program(self, name: str) -> Path:
        return self.release(name) / "venv" / "bin" / "spieltisch"


def point(link: Path, target: str) -> None:
    """Make ``link`` a symlink to ``target`` atomically: a new symlink renamed over it."""
    temporary = link.with_name(f".{link.name}.new")
    temporary.unlink(missing_ok=True)
    os.symlink(target, temporary)
    os.replace(temporary, link)
    sync_directory(link.parent)


def switch(layout: ReleaseLayout, name: str) -> str | None:
    """Make release ``name`` current and the one running so far ``previous``; returns the
    previous name. ``previous`` moves first, so a cut between the two renames leaves
    both links naming whole releases."""
    if not layout.release(name).is_dir():
        raise LayoutError(f"there is no release {name} in {layout.releases}")
    old = layout.current_name()
    if old is not None and old != name:
        point(layout.previous, f"releases/{old}")
    point(layout.current, f"releases/{name}")
    _ensure_paths(layout)
    return old


def switch_back(layout: ReleaseLayout) -> tuple[str, str]:
    """Make ``previous`` current again; returns (the failed release, the one now
    running). The failed one becomes ``previous`` so that its files can be looked at."""
    failed = layout.current_name()
    back = layout.previous_name()
    if back is None or failed is None:
        raise LayoutError("there is no previous release to go back to")
    point(layout.current, f"releases/{back}")
    point(layout.previous, f"releases/{failed}")
    return failed, back


def prune(layout: ReleaseLayout) -> list[str]:
    """Remove every release but ``current`` and ``previous`` (after an update succeeded:
    the one before the way back is no longer needed); returns the removed names."""
    keep = {layout.current_name(), layout.previous_name()}
    removed = []
    for name in layout.entries():
        path = layout.releases / name
        if name in keep or path.is_symlink():
            # a link is the factory release on the read-only root: it costs the data
            # partition nothing and stays the way back of last resort
            continue
        shutil.rmtree(path)
        removed.append(name)
    return removed


def factory_name(factory: Path) -> str:
    """The factory release's name, from its ``RELEASE`` file (written by the image build)."""
    try:
        info = json.loads((factory / RELEASE_INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LayoutError(f"{factory / RELEASE_INFO}: cannot be read ({exc})") from None
    name = info.get("release") if isinstance(info, dict) else None
    if not isinstance(name, str):
        raise LayoutError(f"{factory / RELEASE_INFO}: names no release")
    return check_release_name(name)


def adopt_factory(layout: ReleaseLayout, factory: Path = FACTORY) -> list[str]:
    """Make the releases on the data partition startable (the card image, at every start,
    before the table): ``releases/<name>`` links to the factory release, ``current``
    points at it when it names no whole release, and ``venv`` and ``src`` lead through
    ``current``. Each link is made by one rename, so a cut leaves the old or the new;
    running it again finishes the job. Returns what was changed, a line each."""
    name = factory_name(factory)
    if not (factory / "venv" / "bin" / "python").exists():
        raise LayoutError(f"{factory} holds no release (no venv/bin/python)")
    changed = []
    layout.releases.mkdir(parents=True, exist_ok=True)
    entry = layout.releases / name
    if entry.is_symlink() and os.readlink(entry) != str(factory):
        entry.unlink()
    if not os.path.lexists(entry):
        point(entry, str(factory))
        changed.append(f"{entry} -> {factory}")
    try:
        current = layout.current_name()
    except LayoutError:
        current = None  # not a symlink: replaced below (a directory is refused by rename)
    if current is None or (layout.release(current) / "INCOMPLETE").exists():
        point(layout.current, f"releases/{name}")
        changed.append(f"{layout.current} -> releases/{name} (the factory release)")
    before = [os.path.lexists(layout.prefix / item) for item in ("venv", "src")]
    _ensure_paths(layout)
    if not all(before):
        changed.append(f"{layout.prefix}/venv and src -> current")
    return changed


def _ensure_paths(layout: ReleaseLayout) -> None:
    """``venv`` and ``src`` in the prefix as symlinks through ``current`` (if they are
    missing or already links; a real directory is :func:`migrate`'s job)."""
    for item in ("venv", "src"):
        path = layout.prefix / item
        linked = path.is_symlink()
        if (linked and os.readlink(path) != f"current/{item}") or not os.path.lexists(path):
            point(path, f"current/{item}")


def migrate(layout: ReleaseLayout, name: str) -> bool:
    """Turn an install with a real ``venv`` (and ``src``) directory in the prefix into
    release ``name``; returns False when there was nothing to migrate. Each step is one
    rename, and running it again after a power cut finishes what was begun."""
    release = layout.release(name)
    legacy = [
        item
        for item in ("venv", "src")
        if (layout.prefix / item).is_dir() and not (layout.prefix / item).is_symlink()
    ]
    if not legacy and layout.current_name() is not None:
        return False
    if not legacy and not release.is_dir():
        return False
    release.mkdir(parents=True, exist_ok=True)
    for item in legacy:
        if (release / item).exists():
            raise LayoutError(f"both {layout.prefix / item} and {release / item} exist")
        os.rename(layout.prefix / item, release / item)
    sync_directory(release)
    sync_directory(layout.prefix)
    switch(layout, name)
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -I -m controller.release.layout [FACTORY [PREFIX]]``: :func:`adopt_factory`
    (``/opt/spieltisch`` unless given), one line per change; exit 2 with one line if it
    cannot."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    factory = Path(args[0]) if args else FACTORY
    prefix = Path(args[1]) if len(args) > 1 else PREFIX
    try:
        changed = adopt_factory(ReleaseLayout(prefix), factory)
    except (LayoutError, OSError) as exc:
        print(f"releases: {exc}", file=sys.stderr)
        return 2
    print("\n".join(changed) or "releases: nothing to do")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
