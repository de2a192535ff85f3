"""The corrupt-save set: hundreds of generated bad saves, each starting cleanly.

"A corrupt, truncated or wrong-version save is moved aside with a timestamp, logged, and
shown briefly on the display, and the menu starts." Every generated save below goes
through the appliance's real start-up path (:meth:`controller.app.Appliance.start` on
luma's dummy panel and gpiozero mock pins): the message is on the panel, the file is
moved aside, and after the message the menu is up. Nothing crashes, nothing is left
in the state directory's save slot, so the next boot cannot trip over it again.

Random byte damage can by chance leave a save that is still valid (a flipped digit in
the RNG state); those are checked to resume a consistent game instead. A handful of the
set also runs through a real ``spieltisch run`` process.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.machine import Mode
from controller.persistence import SaveStore
from controller.scene import MessageScene
from controller.testing.files import write_config
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess
from controller.testing.rig import ApplianceRig
from tests.test_persistence import played

BASES = [
    ("maedn", "classic", 4, 40),
    ("maedn", "lingo", 2, 30),
    ("kleiner_aerger", "standard", 2, 30),
    ("backgammon", "match5", 2, 20),
    ("minimaki", "free_setup", 1, 6),
]


def base_saves() -> list[dict[str, Any]]:
    saves = []
    for game, preset, players, steps in BASES:
        session = played(game, preset, players, steps, seed=11)
        assert not session.state.is_terminal()
        saves.append(session.to_json())
    return saves


def without(data: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


def structural(base: dict[str, Any]) -> Iterator[tuple[str, bytes]]:
    """Well-formed JSON that is not a usable save: wrong versions, missing or mistyped
    fields, impossible states, mismatched seats, a broken RNG, a bad history."""

    def dump(value: object) -> bytes:
        return json.dumps(value).encode()

    for version in (0, 2, 99, -1, "1", None, [1], {"v": 1}, 1.5):
        yield f"version {version!r}", dump({**base, "version": version})
    yield "version missing", dump(without(base, "version"))
    for key in ("state", "seats", "kinds", "rng", "game", "preset"):
        yield f"{key} missing", dump(without(base, key))
        for junk in (None, 7, "x", [], {}):
            yield f"{key} = {junk!r}", dump({**base, key: junk})
    state = base["state"]
    yield (
        "state of another game",
        dump({**base, "game": "backgammon" if base["game"] != "backgammon" else "maedn"}),
    )
    yield "unknown game", dump({**base, "game": "schach", "state": {**state, "game": "schach"}})
    yield "unknown preset", dump({**base, "preset": "x", "state": {**state, "preset": "x"}})
    for field in list(state):
        yield f"state without {field}", dump({**base, "state": without(state, field)})
        yield f"state {field} = 'garbage'", dump({**base, "state": {**state, field: "garbage"}})
        yield f"state {field} = -5", dump({**base, "state": {**state, field: -5}})
    seats = base["seats"]
    yield "seat of a stranger", dump({**base, "seats": {**seats, "purple": 3}})
    yield "seat missing", dump({**base, "seats": dict(list(seats.items())[1:])})
    yield "seat not a number", dump({**base, "seats": dict.fromkeys(seats, "left")})
    yield "seat kind unknown", dump({**base, "kinds": dict.fromkeys(base["kinds"], "robot")})
    rng = base["rng"]
    yield "rng short", dump({**base, "rng": {**rng, "internal": rng["internal"][:-1]}})
    yield "rng empty", dump({**base, "rng": {**rng, "internal": []}})
    yield "rng negative", dump({**base, "rng": {**rng, "internal": [-1] * 625}})
    yield "rng huge", dump({**base, "rng": {**rng, "internal": [2**40] * 625}})
    yield "rng strings", dump({**base, "rng": {**rng, "internal": ["a"] * 625}})
    yield "rng bad index", dump({**base, "rng": {**rng, "internal": [*rng["internal"][:-1], 999]}})
    yield "rng version", dump({**base, "rng": {**rng, "version": "three"}})
    for junk in (
        "abc",
        {"a": 1},
        [1, 2],
        [{"player": 1, "dice": [1]}],
        [{"move": 5}],
        [{"player": "red", "dice": ["6"]}],
        [None],
    ):
        yield f"history {junk!r}", dump({**base, "history": junk})


def damaged(base: bytes, rng: random.Random) -> Iterator[tuple[str, bytes]]:
    """Byte-level damage as a power cut or a dying SD card leaves it."""
    for cut in sorted(rng.sample(range(len(base)), 12)):
        yield f"truncated at {cut}", base[:cut]
    for _ in range(6):
        at = rng.randrange(len(base))
        yield f"zeroed from {at}", base[:at] + b"\0" * (len(base) - at)
    for _ in range(6):
        at = rng.randrange(len(base))
        flipped = bytes([base[at] ^ (1 << rng.randrange(8))])
        yield f"bit flip at {at}", base[:at] + flipped + base[at + 1 :]
    yield "invalid utf-8", base[:20] + b"\xff\xfe\xfd" + base[23:]


def corrupt_set() -> list[tuple[str, bytes]]:
    rng = random.Random(2024)
    cases: list[tuple[str, bytes]] = [
        ("empty file", b""),
        ("only whitespace", b"   \n"),
        ("null", b"null"),
        ("a list", b"[1, 2, 3]"),
        ("a number", b"42"),
        ("a string", b'"session"'),
        ("NaN", b"NaN"),
        ("deep nesting", b"[" * 100_000 + b"]" * 100_000),
        ("huge integer", b'{"version": ' + b"9" * 10_000 + b"}"),
        ("utf-8 bom", b"\xef\xbb\xbf{}"),
        ("binary garbage", bytes(rng.randrange(256) for _ in range(512))),
        ("a pickle", b"\x80\x04\x95\x0b\x00\x00\x00\x00\x00\x00\x00\x8c\x02os\x94."),
        ("python literal", b"{'version': 1}"),
    ]
    for base in base_saves():
        name = f"{base['game']}/{base['preset']}"
        cases += [(f"{name}: {what}", data) for what, data in structural(base)]
        cases += [
            (f"{name}: {what}", data) for what, data in damaged(json.dumps(base).encode(), rng)
        ]
    return cases


CASES = corrupt_set()


def test_the_set_is_large_enough() -> None:
    """At least 200 generated corrupt saves, all distinct."""
    assert len(CASES) >= 200
    assert len({data for _, data in CASES}) >= 200  # distinct files, not repeats


def start_with(
    appliance_rig: Callable[..., ApplianceRig], state_dir: Path, content: bytes
) -> tuple[str, Any]:
    """Start an appliance on this save; returns how it came up and its session."""
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "session.json").write_bytes(content)
    rig = appliance_rig(state_dir, buttons=False)
    app = rig.app
    try:
        rig.start()  # the first frame reaches the panel
        if app.table.state is Mode.MESSAGE:
            scene = app.table.scene()
            assert isinstance(scene, MessageScene)
            assert re.search(r"corrupt|cannot read|version", scene.text), scene.text
            for _ in range(10):
                rig.advance()
                if app.table.state is Mode.MENU:
                    return "menu", None
            raise AssertionError(f"still in {app.table.state} after the message")
        return str(app.table.state.value), app.table.session
    finally:
        rig.close()


def test_every_corrupt_save_starts_cleanly(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    """Each save in the set: no crash; either the menu after a message with the file
    moved aside (``session.json.bad-<timestamp>``), or, where random damage happened to
    leave a valid save, a resumed game that matches the file."""
    outcomes: dict[str, int] = {}
    for index, (what, content) in enumerate(CASES):
        state_dir = tmp_path / f"case{index}"
        outcome, session = start_with(appliance_rig, state_dir, content)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        names = sorted(p.name for p in state_dir.iterdir() if p.name != ".reserve")
        if outcome == "menu":
            assert len(names) == 1 and names[0].startswith("session.json.bad-"), (what, names)
            assert (state_dir / names[0]).read_bytes() == content, what
        else:
            # still a valid save: it must have resumed the game it describes
            assert session is not None, (what, outcome)
            assert names == ["session.json"], (what, names)
            assert SaveStore(state_dir).load() is not None, what
            assert "truncated" not in what and "version" not in what, what
    assert outcomes["menu"] >= 200, outcomes


def test_parsers_reject_bad_saves_with_value_errors(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The rules' contract: malformed JSON raises a ValueError subclass.
    The save store survives any other exception too, but logs it as a bug; none of the
    set may trigger that path."""
    bugs = []
    for index, (what, content) in enumerate(CASES):
        caplog.clear()
        state_dir = tmp_path / f"case{index}"
        state_dir.mkdir()
        (state_dir / "session.json").write_bytes(content)
        with contextlib.suppress(ValueError):
            SaveStore(state_dir).load()
        if any("unexpected error" in r.getMessage() for r in caplog.records):
            bugs.append(what)
    assert bugs == []


@pytest.mark.parametrize(
    "what",
    ["empty file", "maedn/classic: truncated", "maedn/classic: version 2", "binary garbage"],
)
def test_real_process_starts_to_the_menu(tmp_path: Path, what: str) -> None:
    """A few of the set through a real ``spieltisch run``: READY (first frame) comes,
    the save is moved aside, the log says so, and SIGTERM exits 0."""
    content = next(data for name, data in CASES if name.startswith(what))
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (state_dir / "session.json").write_bytes(content)
    config = write_config(tmp_path, seats=("human", "human"))
    notify = NotifySocket()
    app = ApplianceProcess(config, state_dir, notify)
    try:
        assert notify.wait_for("READY=1", timeout=60) is not None, app.stderr()
        code, _seconds = app.terminate()
        assert code == 0, app.stderr()
        names = [p.name for p in state_dir.iterdir() if p.name != ".reserve"]
        assert len(names) == 1 and names[0].startswith("session.json.bad-"), names
        log = app.stderr()
        assert "ERROR controller.persistence:" in log and names[0] in log
        assert "Traceback" not in log
    finally:
        app.close()
        notify.close()
