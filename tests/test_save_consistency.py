"""A save that parses but is not a game this program can play is moved aside, with a
reason; a save an editor gave a byte-order mark is read.

Real save files in a temp directory, read by the real save store and, for one case,
by the appliance's start on the dummy panel.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.history import pending as pending_records
from controller.machine import PLAYING
from controller.persistence import CorruptSaveError, SaveStore
from controller.testing.rig import ApplianceRig
from tests.test_persistence import played


def base() -> dict[str, Any]:
    session = played("maedn", "classic", 4, 40, seed=11)
    assert not session.state.is_terminal()
    return session.to_json()


def made_up_history(data: dict[str, Any]) -> list[dict[str, Any]]:
    """20 000 entries of the right form that never happened."""
    return [{"player": "red", "dice": [6]}] * 20_000


INCONSISTENT: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "seat 99": lambda d: {**d, "seats": {**d["seats"], "red": 99}},
    "seat -1": lambda d: {**d, "seats": {**d["seats"], "blue": -1}},
    "seat 1e30": lambda d: {**d, "seats": {**d["seats"], "green": 1e30}},
    "seat 10**30": lambda d: {**d, "seats": {**d["seats"], "yellow": 10**30}},
    "bot grandmaster": lambda d: {**d, "bot": "grandmaster"},
    "empty started": lambda d: {**d, "started": ""},
    "every seat empty": lambda d: {**d, "kinds": dict.fromkeys(d["kinds"], "empty")},
    "20 000 made-up entries": lambda d: {**d, "history": made_up_history(d)},
    "the last move missing": lambda d: {**d, "history": d["history"][:-1]},
}
REASONS = {
    "seat 99": "seat 99 of red is not a seat of a table (0 to 3)",
    "seat -1": "seat -1 of blue is not a seat of a table (0 to 3)",
    "seat 1e30": "seat 1e+30 of green is not a seat of a table (0 to 3)",
    "seat 10**30": "seat 10000000000000000000 of yellow is not a seat of a table (0 to 3)",
    "bot grandmaster": "bot kind 'grandmaster' is none of",
    "empty started": "start time '' is not a time stamp",
    "every seat empty": "no player is a person or a bot: nobody could move",
    "20 000 made-up entries": "history entry 2 is red's, but it was",
    "the last move missing": "the history does not lead to the saved position",
}


@pytest.mark.parametrize("case", list(INCONSISTENT))
def test_a_save_that_is_no_playable_game_is_moved_aside_with_its_reason(
    tmp_path: Path, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    content = json.dumps(INCONSISTENT[case](base())).encode()
    (tmp_path / "session.json").write_bytes(content)
    with pytest.raises(CorruptSaveError) as info:
        SaveStore(tmp_path).load()
    moved = info.value.moved_to
    assert moved is not None and moved.read_bytes() == content  # set apart, as it was
    assert not (tmp_path / "session.json").exists()
    assert str(info.value).startswith("corrupt save: the game in it is not a valid one")
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any(REASONS[case] in line for line in logged), logged


def test_the_appliance_starts_at_the_menu_and_says_why(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "session.json").write_text(json.dumps({**base(), "bot": "grandmaster"}), "utf-8")
    rig = appliance_rig(state, seats=("human",) * 4, buttons=False)
    rig.start()
    assert rig.table.session is None and rig.table.state not in PLAYING
    [moved] = state.glob("session.json.bad-*")
    assert rig.table.message == (
        f"corrupt save: the game in it is not a valid one; moved to {moved.name}"
    )


def test_a_save_with_a_byte_order_mark_resumes(tmp_path: Path) -> None:
    data = base()
    (tmp_path / "session.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode())
    resumed = SaveStore(tmp_path).load()
    assert resumed is not None and resumed.to_json() == data


def test_a_carried_record_of_no_playable_game_is_skipped_the_others_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    good = played("minimaki", "standard", 1, 200, seed=3)
    assert good.state.is_terminal()
    bad = {**good.to_json(), "history": good.to_json()["history"][:-2]}
    carried = [
        {"session": good.to_json(), "outcome": "finished", "ended": "2026-01-01T00:00:00+00:00"},
        {"session": bad, "outcome": "finished", "ended": "2026-01-01T00:00:00+00:00"},
    ]
    found = pending_records.from_save({"game": None, pending_records.KEY: carried})
    assert [p.uid for p in found] == [good.started]
    assert any("pending record 1 is unusable" in r.getMessage() for r in caplog.records)
