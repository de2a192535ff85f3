"""A game that ends while its record cannot be written is neither lost nor replayed.

The record is retried as soon as a save succeeds again (also while nobody plays), and
until it is written it travels inside the save file, so a power cut in between loses
nothing: the next start writes it, and the finished game is not played again. Real
disks: a small tmpfs filled to the last byte, and a real SQLite write lock held by
another connection (as any SQLite tool may), which makes every record wait.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.history.store import HistoryStore
from controller.machine import Mode
from controller.persistence import SaveStore
from controller.safekeeping import RETRY_S
from controller.session import Session
from controller.testing.files import fill
from controller.testing.rig import ApplianceRig
from hardware.interfaces import ButtonEvent


def play_to_the_end(rig: ApplianceRig) -> None:
    for _ in range(200_000):
        rig.advance()
        if rig.table.state is Mode.GAME_OVER and not rig.table.outbox.records_waiting():
            return
    pytest.fail("the bot did not finish the game")


def idle(rig: ApplianceRig, seconds: float) -> None:
    """Let the table stand for ``seconds`` with nobody pressing anything."""
    rig.clock.advance(seconds)
    rig.app.loop.step(timeout_cap=0)


def recorded(state_dir: Path) -> list[str]:
    store = HistoryStore(state_dir)
    store.open(create=False)
    try:
        return [s.uid for s in store.summaries()]
    finally:
        store.close()


def saved(state_dir: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((state_dir / "session.json").read_text("utf-8"))
    return data


def test_a_game_that_ended_on_a_full_disk_is_written_once_the_disk_has_room(
    small_disk: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    state_dir = small_disk / "state"
    rig = appliance_rig(state_dir, seats=("bot",), buttons=False)
    rig.table.options.frame_interval_s = 0.5
    game = Session.start("minimaki", "standard", ["bot"], seed=3, bot="random")
    rig.app.start(new_game=game)
    rig.advance()
    (state_dir / ".reserve").unlink()  # a disk that never had room for the reserve
    filler = fill(small_disk)
    play_to_the_end(rig)
    assert rig.app.history is not None
    assert [r.summary.uid for r in rig.app.history.backlog] == [game.started]
    assert rig.table.banner.text == "not saved: disk full"
    idle(rig, RETRY_S)  # still full: it stays waiting
    assert len(rig.app.history.backlog) == 1
    filler.unlink()
    idle(rig, RETRY_S)  # nobody starts a new game: the retry alone writes it
    assert rig.app.history.backlog == [] and rig.app.keeper.failing_saves == 0
    assert recorded(state_dir) == [game.started]
    final = saved(state_dir)
    assert final["history"] == game.history and "pending_records" not in final


def test_a_game_that_ends_on_a_full_disk_lands_in_the_reserve_and_survives_a_power_cut(
    small_disk: Path,
) -> None:
    """The disk fills up mid-game: the saves fail, the game plays on. The save that ends
    it takes the space kept in reserve, so the power going right after loses nothing:
    the next start does not replay the game, and it is recorded once."""
    state_dir = small_disk / "state"
    first = ApplianceRig(state_dir, seats=("bot",), buttons=False)  # never closed: the cut
    first.table.options.frame_interval_s = 0.5
    game = Session.start("minimaki", "standard", ["bot"], seed=3, bot="random")
    first.app.start(new_game=game)
    assert (state_dir / ".reserve").exists()
    first.advance()
    fill(small_disk)  # and it stays full: nobody frees anything before the cut
    play_to_the_end(first)
    assert first.app.keeper.save_failures >= 1, "the disk never refused a save"
    final = saved(state_dir)
    assert final["history"] == game.history  # the final position, in the reserve's room
    second = ApplianceRig(state_dir, seats=("bot",), buttons=False)
    second.start()
    try:
        assert second.table.state is Mode.MENU and second.table.session is None  # not replayed
    finally:
        second.close()
    assert recorded(state_dir) == [game.started]


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Callable[[], None]]:
    """A history database whose write lock another connection holds; calling the
    fixture's value lets it go."""
    state_dir = tmp_path / "state"
    HistoryStore(state_dir).open()
    holder = sqlite3.connect(state_dir / "history.sqlite3", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")

    done: list[bool] = []

    def release() -> None:
        if not done:
            done.append(True)
            holder.execute("ROLLBACK")
            holder.close()

    yield release
    release()


def test_a_power_cut_while_the_record_waits_neither_loses_nor_replays_the_game(
    tmp_path: Path, locked: Callable[[], None]
) -> None:
    state_dir = tmp_path / "state"
    # built by hand and never closed: the power goes, nothing is flushed at the end
    first = ApplianceRig(state_dir, seats=("bot",), buttons=False)
    first.table.options.frame_interval_s = 0.5
    game = Session.start("minimaki", "standard", ["bot"], seed=3, bot="random")
    first.app.start(new_game=game)
    play_to_the_end(first)
    assert first.app.history is not None and len(first.app.history.backlog) == 1
    carried = saved(state_dir)
    assert carried["history"] == game.history  # the final position, saved
    assert [p["session"]["started"] for p in carried["pending_records"]] == [game.started]  # type: ignore[index, union-attr]
    locked()  # the lock goes with the power; the next start finds the save
    second = ApplianceRig(state_dir, seats=("bot",), buttons=False)
    second.start()
    try:
        assert second.table.state is Mode.MENU and second.table.session is None  # not replayed
        assert second.app.history is not None and second.app.history.backlog == []
        assert recorded(state_dir) == [game.started]
        assert SaveStore(state_dir).load() is None
    finally:
        second.close()
    assert recorded(state_dir) == [game.started]  # once


def test_an_abandoned_game_waiting_for_the_history_is_carried_by_a_save_with_no_game(
    tmp_path: Path, locked: Callable[[], None]
) -> None:
    state_dir = tmp_path / "state"
    first = ApplianceRig(state_dir, seats=("bot",), buttons=False)
    game = Session.start("minimaki", "standard", ["human"], seed=3)
    first.app.start(new_game=game)
    # the system button held ("back to the menu?"), then OK
    first.table.handle(ButtonEvent(None, "system", "held"), first.table.now)
    first.table.handle(ButtonEvent(0, "ok", "down"), first.table.now)
    first.app.loop.carry_out(first.clock())
    assert first.table.session is None
    carried = saved(state_dir)
    assert carried["game"] is None and len(carried["pending_records"]) == 1  # type: ignore[arg-type]
    locked()
    second = ApplianceRig(state_dir, seats=("bot",), buttons=False)
    second.start()
    second.close()
    assert recorded(state_dir) == [game.started]
    assert not (state_dir / "session.json").exists()
