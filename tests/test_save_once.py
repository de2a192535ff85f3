"""A save is made into its file's text once, when the table queues it, and the store
writes that text as it is: the same bytes as before, records it carries included."""

from __future__ import annotations

import json
from pathlib import Path

from controller.history.pending import PendingRecord
from controller.persistence import SaveStore
from controller.safekeeping import Safekeeping
from controller.session import Session
from controller.table import Table, TableOptions
from controller.table.effects import Save
from controller.testing.clock import FakeClock


def compact(content: object) -> str:
    """The save file's format, as the store wrote it before the text was made once."""
    return json.dumps(content, ensure_ascii=False, separators=(",", ":"))


def played(seed: int = 4) -> Session:
    session = Session.start("maedn", "classic", ["bot", "bot"], seed=seed, bot="random")
    while session.state.is_chance():  # the opening rolls, then a roll for a move
        session.roll(session.draw_dice())
    session.play(session.state.legal_moves()[0])
    return session


def queued_save(session: Session) -> Save:
    table = Table(TableOptions(bot="random"))
    table.session = session
    table.persist()
    [save] = [e for e in table.take_effects() if isinstance(e, Save)]
    return save


def test_the_queued_save_carries_its_text_and_a_copy_read_from_it() -> None:
    session = played()
    save = queued_save(session)
    assert save.text == compact(session.to_json())
    assert save.session is not None and save.session is not session
    assert save.session.to_json() == session.to_json()


def test_the_store_writes_the_queued_text_as_it_is(tmp_path: Path) -> None:
    session = played()
    save = queued_save(session)
    keeper = Safekeeping(SaveStore(tmp_path), FakeClock())
    keeper.prepare()
    keeper.carry_out([save])
    assert (tmp_path / "session.json").read_text("utf-8") == save.text
    session.roll(session.draw_dice())  # the live game moves on; the file keeps the queued moment
    assert (tmp_path / "session.json").read_text("utf-8") == save.text
    keeper.close()


def test_records_the_save_carries_give_the_bytes_they_gave_before(tmp_path: Path) -> None:
    session, ended = played(), played(seed=9)
    carried = [PendingRecord(ended, "finished", "2026-01-01T00:00:00")]
    store = SaveStore(tmp_path)
    store.prepare()
    store.save(session, carried, compact(session.to_json()))
    with_text = (tmp_path / "session.json").read_bytes()
    store.save(session, carried)
    content = session.to_json() | {"pending_records": [r.to_json() for r in carried]}
    assert with_text == (tmp_path / "session.json").read_bytes() == compact(content).encode()
    store.save(None, carried)
    empty = {"version": content["version"], "game": None, "pending_records": [carried[0].to_json()]}
    assert (tmp_path / "session.json").read_bytes() == compact(empty).encode()
