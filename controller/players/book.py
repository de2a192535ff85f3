"""The family's named players, kept in ``players.json`` in the state directory.

Why a small JSON file and not a table in the history database: the history has one
writer, the table's loop, and every other reader (the page, ``spieltisch history``)
opens it read-only; the names are changed from the page, so keeping them in the
database would make the page's thread a second writer that the loop's short lock
timeout must race. The names are a few dozen bytes that change a few times a year:
one file, written whole and atomically (a temporary file, fsync, rename, the
directory fsynced, as ``setups.json`` and the save are), is all they need. The
history never depends on the file: each record keeps the name a person played under
and the person's id, so a removed player's games stay under their name, and a lost
file costs only the list, never a game.

Each player has an id (``p1``, ``p2``, ...) that is never given out again, so a
renamed player's games stay theirs and a new player with an old name is a new person.
A file that is unreadable or not ours is set aside (``players.json.bad-<time>``) before
the next change writes a new one, so a family's names are never overwritten unseen;
the new list's ids start past those the set-aside file still shows.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

from controller.i18n import N_
from controller.input_checks import NotAConfigFile, read_limited
from controller.players.names import NameRefused, clean
from controller.players.person import ID, Person
from hardware.atomic_file import write_text_atomically

log = logging.getLogger(__name__)

NAME = "players.json"
MAX_PLAYERS = 40
"""More than any family; a list this long still fits the page and the setup cycle."""
MAX_BYTES = 64 * 1024
"""A file bigger than this is not ours (forty names are under 2 KiB)."""
FORMAT = 1


class BookUnreadable(ValueError):
    """``players.json`` is there but is not a list of players this table wrote."""


def _parse(data: Any) -> tuple[int, tuple[Person, ...]]:
    """The next id number and the players of a file's JSON, or BookUnreadable."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BookUnreadable("not the table's players")
    counter, rows = data.get("next"), data.get("players")
    if not isinstance(counter, int) or isinstance(counter, bool) or counter < 1:
        raise BookUnreadable("no id counter")
    if not isinstance(rows, list) or len(rows) > MAX_PLAYERS:
        raise BookUnreadable("no list of players")
    players: list[Person] = []
    for row in rows:
        if not isinstance(row, dict):
            raise BookUnreadable("a player is not an object")
        ident = row.get("id")
        if not isinstance(ident, str) or not ID.fullmatch(ident) or int(ident[1:]) >= counter:
            raise BookUnreadable("a player's id is not one the table gave")
        try:
            name = clean(row.get("name"), [p.name for p in players], on_panel=False)
        except NameRefused as exc:
            raise BookUnreadable(f"a player's name is refused: {exc}") from None
        if name != row.get("name") or any(p.id == ident for p in players):
            raise BookUnreadable("a player is not as the table wrote it")
        players.append(Person(ident, name))
    return counter, tuple(players)


def _load(path: Path) -> tuple[int, tuple[Person, ...]]:
    """The file's next id and players; none for a missing file; BookUnreadable."""
    try:
        text = read_limited(path, MAX_BYTES).decode("utf-8")
    except FileNotFoundError:
        return 1, ()
    except NotAConfigFile as exc:  # a FIFO would hang the reader, /dev/zero never end
        reason = f"a {exc.kind}, not a file" if exc.kind else "too big to be the table's players"
        raise BookUnreadable(reason) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BookUnreadable(f"unreadable ({type(exc).__name__})") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BookUnreadable("not JSON") from None
    return _parse(data)


def _no_constant(word: str) -> object:
    raise ValueError(f"{word} is no JSON value")


def _ids_past(bad: Path) -> int:
    """The first id a new list after the set-aside ``bad`` may give: past every id and
    counter the file still shows, so that a new player is never counted with the games
    of a person of the lost list (the history keeps their ids)."""
    try:
        text = read_limited(bad, MAX_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return 1
    numbers = [int(n) for n in re.findall(r'"p([1-9][0-9]{0,8})"', text)]
    numbers += [int(n) - 1 for n in re.findall(r'"next"\s*:\s*([1-9][0-9]{0,8})\b', text)]
    return max(numbers, default=0) + 1


def read(directory: Path) -> tuple[Person, ...]:
    """The players kept in ``directory``, for the table's setup; none where the file
    is missing or unreadable (one line in the log). Never raises."""
    try:
        return _load(directory / NAME)[1]
    except BookUnreadable as exc:
        log.warning("%s: %s; no named players", directory / NAME, exc)
        return ()


class PlayerBook:
    """Adds, renames and removes players in ``directory/players.json``.

    Changes are serialised by a lock (the page's requests run on worker threads); each
    reads the file afresh and writes it whole, so the table's reads never see half."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / NAME
        self.lock = threading.Lock()

    def players(self) -> tuple[Person, ...]:
        return read(self.directory)

    def add(self, raw: object) -> Person:
        """A new player named ``raw`` (:class:`NameRefused` says why not)."""
        with self.lock:
            counter, players = self._for_change()
            if len(players) >= MAX_PLAYERS:
                raise NameRefused(N_("the table keeps at most {n} players"), n=MAX_PLAYERS)
            player = Person(f"p{counter}", clean(raw, [p.name for p in players]))
            self._write(counter + 1, (*players, player))
            return player

    def rename(self, ident: object, raw: object) -> Person:
        with self.lock:
            counter, players = self._for_change()
            old = self._find(players, ident)
            player = Person(old.id, clean(raw, [p.name for p in players if p.id != old.id]))
            self._write(counter, tuple(player if p.id == old.id else p for p in players))
            return player

    def remove(self, ident: object) -> Person:
        """Forget the player; their games keep the name they played under."""
        with self.lock:
            counter, players = self._for_change()
            old = self._find(players, ident)
            self._write(counter, tuple(p for p in players if p.id != old.id))
            return old

    @staticmethod
    def _find(players: tuple[Person, ...], ident: object) -> Person:
        for player in players:
            if player.id == ident:
                return player
        raise NameRefused(N_("there is no such player (the list has changed: reload it)"))

    def _for_change(self) -> tuple[int, tuple[Person, ...]]:
        """What the change starts from; a file that is not ours is set aside first."""
        try:
            return _load(self.path)
        except BookUnreadable as exc:
            aside = self.path.with_name(f"{NAME}.bad-{time.strftime('%Y%m%d-%H%M%S')}")
            for n in range(2, 100):  # a second bad file in the same second keeps the first
                if not aside.exists():
                    break
                aside = aside.with_name(f"{NAME}.bad-{time.strftime('%Y%m%d-%H%M%S')}-{n}")
            log.error("%s: %s; moved to %s, a new list is started", self.path, exc, aside.name)
            os.replace(self.path, aside)
            return _ids_past(aside), ()

    def _write(self, counter: int, players: tuple[Person, ...]) -> None:
        content = {"format": FORMAT, "next": counter, "players": [p.to_json() for p in players]}
        self.directory.mkdir(parents=True, exist_ok=True)
        text = json.dumps(content, ensure_ascii=False, indent=1)
        write_text_atomically(self.path, text, durable=True, prefix=".players-", suffix=".tmp")
