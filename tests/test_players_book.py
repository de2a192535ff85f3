"""The named players' file: names checked, kept atomically, ids never reused, a file
that is not ours set aside rather than overwritten."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from controller import setup_memory
from controller.players import book
from controller.players.book import MAX_PLAYERS, PlayerBook
from controller.players.names import MAX_LENGTH, NameRefused, clean


def test_add_rename_remove_survive_a_new_book(tmp_path: Path) -> None:
    players = PlayerBook(tmp_path)
    anna = players.add("Anna")
    ben = players.add("  Ben   Luca ")
    assert (anna.id, ben.name) == ("p1", "Ben Luca")
    players.rename(anna.id, "Anna-Lena")
    players.remove(ben.id)
    again = PlayerBook(tmp_path)
    assert [(p.id, p.name) for p in again.players()] == [("p1", "Anna-Lena")]
    # a removed player's id is never given out again: a new Ben is a new person
    assert again.add("Ben Luca").id == "p3"
    assert not list(tmp_path.glob(".players-*.tmp"))


def test_names_are_nfc_and_unique_ignoring_case(tmp_path: Path) -> None:
    players = PlayerBook(tmp_path)
    decomposed = unicodedata.normalize("NFD", "Jörg")
    assert decomposed != "Jörg"
    assert players.add(decomposed).name == "Jörg"
    with pytest.raises(NameRefused, match="already"):
        players.add("JÖRG")
    with pytest.raises(NameRefused, match="already"):
        players.add("jörg")
    # renaming to one's own name in another case is allowed
    assert players.rename("p1", "JÖRG").name == "JÖRG"


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "A" * (MAX_LENGTH + 1),
        "Anna\nBen",
        "Tab\tname",
        "rtl\u202ename",
        "zero\u200bwidth",
        "Gast",
        "GUEST",
        None,
        3,
        float("nan"),
        ["Anna"],
        {"name": "x"},
    ],
)
def test_refused_names(tmp_path: Path, raw: object) -> None:
    players = PlayerBook(tmp_path)
    with pytest.raises(NameRefused):
        players.add(raw)
    assert players.players() == ()
    assert not (tmp_path / book.NAME).exists()


def test_the_list_is_capped(tmp_path: Path) -> None:
    players = PlayerBook(tmp_path)
    for n in range(MAX_PLAYERS):
        players.add(f"Spieler {n}")
    with pytest.raises(NameRefused, match="at most"):
        players.add("one too many")
    assert len(players.players()) == MAX_PLAYERS


def test_names_the_panel_would_draw_alike_or_not_at_all_are_refused(tmp_path: Path) -> None:
    """The panel's fonts have ASCII and the German letters; anything else is drawn as
    "?", so two emoji names were two players both called "??" at setup, and a name of
    fullwidth letters was drawn as the guest's word."""
    players = PlayerBook(tmp_path)
    players.add("Mia 🎲")
    with pytest.raises(NameRefused, match="looks like “Mia 🎲” on the panel"):
        players.add("Mia 🐱")
    with pytest.raises(NameRefused, match="the panel cannot show"):
        players.add("🐱🐱")
    with pytest.raises(NameRefused, match="the panel cannot show"):
        players.add("Маша")
    with pytest.raises(NameRefused, match="guest's word"):
        players.add("Ｇａｓｔ")
    assert players.add("Zoë").name == "Zoë"  # drawn as "Zoe": a letter the font lacks
    assert [p.name for p in players.players()] == ["Mia 🎲", "Zoë"]


def test_a_file_kept_before_the_panel_check_still_reads_whole(tmp_path: Path) -> None:
    content = {
        "format": 1,
        "next": 3,
        "players": [{"id": "p1", "name": "🎲"}, {"id": "p2", "name": "🐱"}],
    }
    (tmp_path / book.NAME).write_text(json.dumps(content), encoding="utf-8")
    assert [p.name for p in book.read(tmp_path)] == ["🎲", "🐱"]
    assert PlayerBook(tmp_path).add("Anna").id == "p3"
    assert not list(tmp_path.glob("players.json.bad-*"))


def test_longest_name_is_kept_whole() -> None:
    assert clean("Großmutter Hildegard") == "Großmutter Hildegard"


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b"[]",
        b'{"format": 1, "next": 1, "players": [{"id": "p1", "name": "A"}]}',
        b'{"format": 1, "next": 3, "players": [{"id": "p1", "name": "A"},'
        b' {"id": "p2", "name": "a"}]}',
        b'{"format": 1, "next": NaN, "players": []}',
        b"\xff\xfe",
        b"[" * 50000,
    ],
)
def test_a_file_not_ours_reads_as_none_and_is_set_aside_on_change(
    tmp_path: Path, content: bytes
) -> None:
    (tmp_path / book.NAME).write_bytes(content)
    assert book.read(tmp_path) == ()
    PlayerBook(tmp_path).add("Anna")
    aside = list(tmp_path.glob("players.json.bad-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == content
    assert [p.name for p in book.read(tmp_path)] == ["Anna"]


def test_the_file_is_what_a_person_can_read(tmp_path: Path) -> None:
    PlayerBook(tmp_path).add("Zoë")
    data = json.loads((tmp_path / book.NAME).read_text(encoding="utf-8"))
    assert data == {"format": 1, "next": 2, "players": [{"id": "p1", "name": "Zoë"}]}


def test_renaming_or_removing_an_unknown_player_is_refused(tmp_path: Path) -> None:
    players = PlayerBook(tmp_path)
    players.add("Anna")
    for ident in ("p9", "", None, 1):
        with pytest.raises(NameRefused, match="no such player"):
            players.remove(ident)
        with pytest.raises(NameRefused, match="no such player"):
            players.rename(ident, "Ben")


def _read_beside(function: Callable[[], object]) -> threading.Thread:
    """``function`` on a thread of its own, given up to ten seconds to return."""
    thread = threading.Thread(target=function, daemon=True)
    thread.start()
    thread.join(10)
    return thread


def _unblock(fifo: Path) -> None:
    """Let a reader stuck on ``fifo`` go (a writer that opens and closes it)."""
    with contextlib.suppress(OSError):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_a_fifo_for_either_file_is_no_list_and_hangs_nothing(tmp_path: Path) -> None:
    """A FIFO where ``players.json`` or ``setups.json`` should be blocked the reader
    in open() until someone wrote to it: the page's thread, and the table's start and
    setup, waited for ever."""
    for name in (book.NAME, setup_memory.NAME):
        os.mkfifo(tmp_path / name)
    found: list[object] = []
    try:
        players = _read_beside(lambda: found.append(book.read(tmp_path)))
        setups = _read_beside(lambda: found.append(setup_memory.read_all(tmp_path)))
    finally:
        _unblock(tmp_path / book.NAME)
        _unblock(tmp_path / setup_memory.NAME)
    assert not players.is_alive() and not setups.is_alive()
    assert found == [(), ({}, {})]
    assert PlayerBook(tmp_path).add("Anna").id == "p1"  # the FIFO is set aside
    assert [p.name for p in book.read(tmp_path)] == ["Anna"]
    assert len(list(tmp_path.glob("players.json.bad-*"))) == 1


def test_a_second_bad_file_set_aside_keeps_the_first(tmp_path: Path) -> None:
    """Both set aside in the same second took the same name, and the second rename
    replaced the first: a family's unreadable list was lost after all."""
    (tmp_path / book.NAME).write_bytes(b"the first, a family's list a stray edit broke")
    players = PlayerBook(tmp_path)
    players.add("Anna")
    (tmp_path / book.NAME).write_bytes(b"the second")
    players.add("Ben")
    aside = sorted(path.read_bytes() for path in tmp_path.glob("players.json.bad-*"))
    assert aside == [b"the first, a family's list a stray edit broke", b"the second"]


def test_a_new_list_after_a_bad_one_never_gives_its_ids_again(tmp_path: Path) -> None:
    """A list set aside started again at p1: a new player took the id of a person of
    the lost list, and the leaderboards counted the old person's games as theirs."""
    broken = '{"format": 1, "next": 6, "players": [{"id": "p2", "name": "Oma"}, {"id": "p5"'
    (tmp_path / book.NAME).write_text(broken, encoding="utf-8")
    assert PlayerBook(tmp_path).add("Anna").id == "p6"
    (tmp_path / book.NAME).write_text('{"players": [{"id": "p9", "name": 7}]}', encoding="utf-8")
    assert PlayerBook(tmp_path).add("Ben").id == "p10"
