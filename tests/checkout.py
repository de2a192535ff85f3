"""This checkout as a user gets it: the files git tracks, copied somewhere clean.

Tests of the delivered product (the wheel, the installer) start from such a copy, so
that nothing untracked (caches, a local venv, build output) can hide a file the
packaging or the installer forgot.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_SOURCE = {"__pycache__", "build", "dist"}


def tracked_files(root: Path = ROOT) -> list[str]:
    """The checkout's files as git tracks them; without git (an unpacked archive), every
    file except hidden ones, caches, virtual environments and build output."""
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=False
    )
    if listed.returncode == 0 and listed.stdout:
        names = listed.stdout.decode().split("\0")
        return sorted(name for name in names if name and (root / name).is_file())
    return sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file()
        and not any(
            part.startswith(".") or part in NOT_SOURCE or part.endswith(".egg-info")
            for part in path.relative_to(root).parts
        )
    )


def copy_checkout(target: Path, root: Path = ROOT) -> list[str]:
    """Copy the tracked files of ``root`` to ``target``; returns their names."""
    names = tracked_files(root)
    for name in names:
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, destination)
    return names
