"""A card whose data partition could not be mounted: the table plays, and says that
nothing is kept.

On the card image the initramfs mounts the data partition on ``/data`` before systemd
starts. When there is no such partition, or it cannot be mounted, it puts a small RAM
file system there instead, filled from a fresh card's data partition kept on the root,
and leaves :data:`MARKER` in it: the first line a key (``missing``, ``unreadable``),
the second what it found, for whoever reads the file. The card then starts as a fresh
card would, but every save goes to RAM and is gone at the next power-off. A family
must not find that out by losing a game, so the table says it in words: in the unit's
status (``systemctl status``, the console's ready line) with every status it sends, and
on the panel when it starts (:mod:`controller.cli.run`).

Only the marker is read here: no marker is a data partition that was mounted (or a
system that is not the card image), never a failure.
"""

from __future__ import annotations

from pathlib import Path

from controller.i18n import N_, _

MARKER = Path("/data/.in-ram")

REASONS = {
    "missing": N_("games are not saved: the card has no data partition"),
    "unreadable": N_("games are not saved: the card's data partition could not be read"),
}
"""The marker's key, in words; an unknown key reads as the second."""

SHOW_S = 40.0
"""How long the panel shows it when the table starts (it scrolls by about twice)."""


def reason(marker: Path = MARKER) -> str | None:
    """The marker's key ("unreadable" for an empty or unknown one), or None if there
    is no marker: the data partition was mounted."""
    try:
        text = marker.read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        # no marker, or a /data of a builder's own system that is none of ours
        return None
    except OSError:  # there, but the read failed: the RAM file system is in trouble too
        return "unreadable"
    key = text.strip().split("\n", 1)[0].strip()
    return key if key in REASONS else "unreadable"


def words(key: str) -> str:
    """The notice, in the table's language."""
    return _(REASONS.get(key, REASONS["unreadable"]))
