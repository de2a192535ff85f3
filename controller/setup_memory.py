"""The last setup of each game (its rule set, who sits where, and which named player
sat at which seat), kept in the state directory so that it survives a restart.

Why: a family that plays two-handed Kleiner Ärger would otherwise set two seats to
"empty" before every game. Setup starts from the game's last choice instead
(:class:`controller.table.menu.MenuRoom`). The file is a convenience, never a reason to
stop: one that is missing, unreadable, too big, no regular file (a FIFO would hang the
start), not JSON or not what this module writes
is one line in the log and counts as no memory; entries for games, rule sets or seat
kinds this version does not know are dropped one by one. The named players are kept
by their ids (``controller.players.book``), never their names: a renamed player is
still proposed at their seat, and a removed one is simply passed over by setup. A file
written before names were kept has no ``people`` and reads as no names; an older table
reading a newer file ignores them. It is written atomically (a
temporary file, fsync, rename), so a pulled plug leaves the old file or the new one.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Mapping
from pathlib import Path

import rules
from controller.input_checks import NotAConfigFile, read_limited
from controller.players.person import ID
from controller.session import SETUP_KINDS
from hardware.atomic_file import write_text_atomically

log = logging.getLogger(__name__)

NAME = "setups.json"
MAX_BYTES = 64 * 1024
"""A file bigger than this is not ours (a few games' setups are a few hundred bytes)."""

Setup = tuple[str, tuple[str, ...]]
"""A game's last setup: the rule set (preset) and each seat's kind."""
Seated = dict[int, str]
"""A game's named players when it was last begun: seat index -> player id."""


def read(directory: Path) -> dict[str, Setup]:
    """The setups kept in ``directory``; empty where there are none to trust."""
    return read_all(directory)[0]


def read_all(directory: Path) -> tuple[dict[str, Setup], dict[str, Seated]]:
    """The setups kept in ``directory``, and each game's named seats (only of a game
    whose setup is kept); empty where there are none to trust."""
    path = directory / NAME
    for stale in _stale_temporaries(directory):
        with contextlib.suppress(OSError):
            stale.unlink()  # a write a pulled plug cut short
    try:
        data = json.loads(read_limited(path, MAX_BYTES).decode("utf-8"))
    except FileNotFoundError:
        return {}, {}
    except NotAConfigFile as exc:  # a FIFO would hang the table's start, /dev/zero never end
        reason = f"a {exc.kind}, not a file" if exc.kind else "too big to be the last setups"
        log.warning("%s: %s; setup starts afresh", path, reason)
        return {}, {}
    except (OSError, ValueError, RecursionError) as exc:
        log.warning("%s: unreadable (%s); setup starts afresh", path, type(exc).__name__)
        return {}, {}
    if not isinstance(data, dict):
        log.warning("%s: not the last setups; setup starts afresh", path)
        return {}, {}
    setups: dict[str, Setup] = {}
    people: dict[str, Seated] = {}
    for game, entry in data.items():
        setup = _setup(game, entry)
        if setup is not None:
            setups[game] = setup
            seated = _seated(entry.get("people"), len(setup[1]))
            if seated:
                people[game] = seated
    return setups, people


def _stale_temporaries(directory: Path) -> list[Path]:
    try:
        return list(directory.glob(".setups-*.tmp"))
    except OSError:
        return []


def _setup(game: object, entry: object) -> Setup | None:
    if not isinstance(game, str) or game not in rules.game_names() or not isinstance(entry, dict):
        return None
    preset, seats = entry.get("preset"), entry.get("seats")
    if not isinstance(preset, str) or preset not in rules.presets(game):
        return None
    if not isinstance(seats, list) or not seats or len(seats) > 16:
        return None
    if not all(isinstance(kind, str) and kind in SETUP_KINDS for kind in seats):
        return None
    return preset, tuple(seats)


def _seated(entry: object, seats: int) -> Seated:
    """The named seats of an entry's ``people`` (one id or null per seat); none at all
    where the list is not what this module writes (the setup itself still counts)."""
    if not isinstance(entry, list) or len(entry) != seats:
        return {}
    ids = [ident for ident in entry if ident is not None]
    if not all(isinstance(i, str) and ID.fullmatch(i) for i in ids) or len(set(ids)) != len(ids):
        return {}
    return {seat: ident for seat, ident in enumerate(entry) if ident is not None}


def write(
    directory: Path,
    setups: Mapping[str, Setup],
    people: Mapping[str, Mapping[int, str]] | None = None,
) -> None:
    """Keep ``setups`` and each game's named seats ``people`` in ``directory``
    (atomically); raises OSError as the disk does."""
    content: dict[str, dict[str, object]] = {}
    for game, (preset, seats) in setups.items():
        content[game] = {"preset": preset, "seats": list(seats)}
        seated = (people or {}).get(game, {})
        if seated:
            content[game]["people"] = [seated.get(seat) for seat in range(len(seats))]
    text = json.dumps(content, ensure_ascii=False, sort_keys=True)
    write_text_atomically(
        directory / NAME, text, durable=True, mode=0o600, prefix=".setups-", suffix=".tmp"
    )
