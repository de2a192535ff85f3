"""What the appliance reads and writes, made for a run on fake hardware: a config for
a dummy panel and mock GPIO pins, a game put on the table as a power cut leaves one
(a save in the state directory), and the save and captured frames read back.

The fake hardware is part of the product's normal configuration: ``display.type =
"dummy"`` (luma's dummy device) or ``"capture"`` (luma.emulator writing each frame as a
PNG), and ``input.type = "gpio"`` with gpiozero's MockFactory pins
(``GPIOZERO_PIN_FACTORY=mock`` in a process, :func:`hardware.build.mock_pin_factory`
in this one).

A full disk is a real one too: :func:`tmpfs` mounts a small one and :func:`fill` fills
it to the last byte, so the saves and the history meet the very ``ENOSPC`` a full SD
card gives.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from controller.persistence import SaveStore
from controller.session import Session

SAVE = "session.json"
SEAT_PINS: tuple[tuple[int, int], ...] = ((17, 27), (22, 23), (24, 25), (5, 6))
"""(OK, NEXT) of seats 1 to 4, as in config.example.toml."""
SYSTEM_PIN = 26


def config_text(
    seats: Sequence[str] = ("bot", "bot"),
    size: int = 16,
    sleep_after_min: float | None = None,
) -> str:
    """A config (TOML) for a dummy ``size`` x ``size`` panel and mock GPIO buttons, one
    seat per entry of ``seats`` ("bot" or "human"), the system button wired, no buzzer."""
    lines = [
        "[display]",
        'type = "dummy"',
        f"width = {size}",
        f"height = {size}",
        *([f"sleep_after_min = {sleep_after_min}"] if sleep_after_min is not None else []),
        "[input]",
        'type = "gpio"',
        f"system_pin = {SYSTEM_PIN}",
    ]
    for (ok, nxt), kind in zip(SEAT_PINS, seats, strict=False):
        lines += ["[[seats]]", f"ok = {ok}", f"next = {nxt}", f'player = "{kind}"']
    lines += ["[game]", 'name = "maedn"', 'bot = "random"']
    return "\n".join(lines) + "\n"


def write_config(
    directory: Path,
    seats: Sequence[str] = ("bot", "bot"),
    size: int = 16,
    sleep_after_min: float | None = None,
) -> Path:
    """:func:`config_text` as ``directory/config.toml``, for ``spieltisch run --config``."""
    path = directory / "config.toml"
    path.write_text(config_text(seats, size, sleep_after_min), encoding="utf-8")
    return path


def capture_config(directory: Path, game: str) -> Path:
    """A 16x16 panel drawn by luma.emulator's ``capture`` device, which writes every
    frame as a PNG into ``directory/frames``, and mock GPIO buttons; ``game`` is the
    config's ``[game]`` section as TOML text (tests put a wrong key there)."""
    frames = directory / "frames"
    frames.mkdir(exist_ok=True)
    path = directory / "config.toml"
    path.write_text(
        "[display]\n"
        'type = "capture"\n'
        "width = 16\nheight = 16\nscale = 1\n"
        f'file = "{frames}/frame{{0:06}}.png"\n'
        '[input]\ntype = "gpio"\n' + game,
        encoding="utf-8",
    )
    return path


def lit(path: Path) -> bool:
    """Any LED on in this captured frame."""
    from PIL import Image

    with Image.open(path) as image:
        return image.convert("RGB").getbbox() is not None


def write_bot_game(
    state_dir: Path, game: str, preset: str, players: int, seed: int, bot: str = "random"
) -> Session:
    """Save a fresh game in which every seat is a bot; ``spieltisch run`` resumes it
    and it plays by itself."""
    session = Session.start(game, preset, ["bot"] * players, seed=seed, bot=bot)
    store = SaveStore(state_dir)
    store.prepare()
    store.save(session)
    return session


def read_save(state_dir: Path) -> dict[str, Any] | None:
    """The save in ``state_dir`` as JSON, or None when there is none. A save is
    replaced by a rename, so a reader never sees half of one."""
    try:
        data: dict[str, Any] = json.loads((state_dir / SAVE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return data


class MountUnavailable(Exception):
    """This process may not mount a tmpfs here (not root, or no ``mount``): a test
    skips, it does not fail."""


@contextlib.contextmanager
def tmpfs(mount_point: Path, size: str = "1m") -> Iterator[Path]:
    """A small tmpfs at ``mount_point`` (1 MiB: room for SQLite's write-ahead log and
    its 32 KiB index, little enough to fill at once), unmounted at the end whatever
    happened. Raises :class:`MountUnavailable` where this process may not mount."""
    mount_point.mkdir()
    tool = shutil.which("mount")
    if tool is None:
        raise MountUnavailable("no mount command")
    done = subprocess.run(
        [tool, "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise MountUnavailable(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def fill(directory: Path) -> Path:
    """Fill the disk under ``directory`` to the last byte with one file (returned: the
    disk has room again once it is deleted). Any error but a full disk is raised."""
    filler = directory / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 512)
    except OSError as exc:
        if exc.errno != errno.ENOSPC:
            raise
    finally:
        os.close(fd)
    return filler
