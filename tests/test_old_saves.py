"""Saves written before the rules were split into one package per game family still load.

``tests/data/saves_v0_1/`` holds saves written by version 0.1.0 as it stood before the
reorganisation (the flat ``rules/`` modules): one per game, each after some moves. A save
names its game and preset, never a module, so the same games continue with the same
history, the same position and the same dice to come.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from controller.persistence import SaveStore
from controller.session import Session

SAVES = sorted((Path(__file__).parent / "data" / "saves_v0_1").glob("*.json"))


def test_there_is_an_old_save_of_every_game() -> None:
    games = {json.loads(path.read_text("utf-8"))["game"] for path in SAVES}
    assert games == {"maedn", "kleiner_aerger", "backgammon", "minimaki"}


@pytest.mark.parametrize("path", SAVES, ids=[p.stem for p in SAVES])
def test_an_old_save_resumes_exactly(path: Path, tmp_path: Path) -> None:
    shutil.copy(path, tmp_path / "session.json")
    written = json.loads(path.read_text("utf-8"))
    again = Session.from_json(written)
    assert again.to_json() == written  # nothing lost or reinterpreted
    resumed = SaveStore(tmp_path).load()
    if again.state.is_terminal():  # a finished game is read, but not resumed
        assert resumed is None
        return
    assert resumed is not None, "the save was not resumed"
    assert resumed.to_json() == written
    # the same dice to come: both copies roll alike from here
    if not resumed.state.is_terminal() and resumed.state.is_chance():
        assert resumed.draw_dice() == again.draw_dice()
