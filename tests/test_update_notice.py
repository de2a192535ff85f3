"""The last update's outcome is said once on the panel when the table starts, in the
table's language; a broken notice file is no notice and never stops the table."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller import i18n
from controller.release.notice import unseen
from controller.testing.rig import ApplianceRig

ROLLED_BACK = {
    "kind": "rolled-back",
    "to": "0.3.0",
    "back": "0.2.1",
    "reason": "the table failed to start",
    "ok": False,
    "time": 1234.5,
    "text": "update to 0.3.0 failed: the table failed to start; back on 0.2.1",
}


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    i18n.use("en")


def write_notice(state_dir: Path, notice: object) -> None:
    (state_dir / "update").mkdir(parents=True, exist_ok=True)
    (state_dir / "update" / "notice.json").write_text(json.dumps(notice), encoding="utf-8")


def test_the_table_says_the_rollback_once_at_start(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    write_notice(tmp_path, ROLLED_BACK)
    first = appliance_rig(tmp_path, buttons=False)
    first.start()
    assert first.table.message == ROLLED_BACK["text"]
    first.close()
    again = appliance_rig(tmp_path, buttons=False)
    again.start()
    assert again.table.message != ROLLED_BACK["text"]


def test_a_new_notice_is_said_again(tmp_path: Path) -> None:
    write_notice(tmp_path, ROLLED_BACK)
    assert unseen(tmp_path) == ROLLED_BACK["text"]
    assert unseen(tmp_path) is None
    write_notice(tmp_path, {"kind": "confirmed", "to": "0.3.1", "time": 99.0})
    assert unseen(tmp_path) == "updated to 0.3.1"


def test_the_notice_in_german(tmp_path: Path) -> None:
    i18n.use("de")
    write_notice(tmp_path, ROLLED_BACK)
    words = unseen(tmp_path)
    assert words is not None and "0.3.0" in words and "0.2.1" in words
    assert "failed" not in words


@pytest.mark.parametrize("content", ["{", "[]", '"text"', "\x00\xff"])
def test_a_broken_notice_is_no_notice(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig], content: str
) -> None:
    (tmp_path / "update").mkdir()
    (tmp_path / "update" / "notice.json").write_text(content, encoding="utf-8")
    rig = appliance_rig(tmp_path, buttons=False)
    rig.start()
    assert rig.table.message == ""
