"""Another program holding the history locked never holds up the table.

A real second process (Python's ``sqlite3``, as the ``sqlite3`` shell or a backup
would) takes the database's write lock and keeps it. The table's record then fails
after a wait of a frame or two, not seconds, stays in the save, says nothing on the
panel (nothing is lost, no disk is failing) and is written by the retry once the
lock is gone.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.history.keeper import HistoryKeeper
from controller.history.store import HistoryStore
from controller.persistence import SaveStore
from controller.safekeeping import RETRY_S, Safekeeping
from controller.session import Session
from controller.table.effects import Record, Save
from controller.testing.clock import FakeClock
from tests.history_games import played

HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
db.close()
"""


@pytest.fixture
def held(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """A history database whose write lock another process holds until its stdin
    gets a line."""
    HistoryStore(tmp_path).open()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path / "history.sqlite3")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
    yield holder
    if holder.poll() is None:
        holder.kill()
        holder.wait()


def release(holder: subprocess.Popen[str]) -> None:
    assert holder.stdin is not None
    holder.stdin.write("go\n")
    holder.stdin.flush()
    assert holder.wait(timeout=60) == 0


def test_a_locked_history_waits_a_frame_not_seconds_and_the_retry_writes_it(
    tmp_path: Path, held: subprocess.Popen[str]
) -> None:
    clock = FakeClock()
    keeper = Safekeeping(
        SaveStore(tmp_path),
        clock,
        lambda warn, notice: HistoryKeeper(tmp_path, 1, warn, notice=notice),
    )
    keeper.prepare()
    history = keeper.history
    assert history is not None and history.store.connection is not None
    # how long a write may wait for another program's lock: a frame or two, not 2 s
    (waits_ms,) = history.store.connection.execute("PRAGMA busy_timeout").fetchone()
    assert 0 < waits_ms <= 100
    game = played("minimaki", "standard", ["human"], seed=5)
    keeper.carry_out([Record(game, "finished"), Save(game)])
    assert [r.summary.uid for r in history.backlog] == [game.started]  # it waits
    assert history.failures == 1
    assert keeper.take_notices() == []  # nothing for the players to worry about
    saved = json.loads((tmp_path / "session.json").read_text("utf-8"))
    assert [p["session"]["started"] for p in saved["pending_records"]] == [game.started]
    assert keeper.retry_at == clock.now + RETRY_S
    release(held)
    clock.advance(RETRY_S)
    keeper.retry(clock.now)
    assert history.backlog == [] and keeper.retry_at is None
    store = HistoryStore(tmp_path)
    store.open(create=False)
    assert [s.uid for s in store.summaries()] == [game.started]
    store.close()
    saved = json.loads((tmp_path / "session.json").read_text("utf-8"))
    assert "pending_records" not in saved
    assert Session.from_json(saved).state.is_terminal()
    keeper.close()
