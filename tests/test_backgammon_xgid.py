"""XGIDs (eXtreme Gammon's position IDs): our reader and writer, and GNU Backgammon's.

The independent check feeds our XGIDs of positions from seeded random games to Debian's
``gnubg`` (``set xgid``) and compares the Position ID and Match ID it then reports with
ours; skipped where ``gnubg`` is not installed.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

import rules
from controller.cli import main
from rules.backgammon.engine import BackgammonState
from rules.backgammon.ids import decode_match
from rules.bots import RandomBot
from rules.errors import InvalidStateError
from rules.playout import steps

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def positions(preset: str, seed: int, every: int = 7) -> list[BackgammonState]:
    start = rules.get_game("backgammon", preset).new_state()
    bots = {"white": RandomBot(), "black": RandomBot()}
    found = []
    for number, step in enumerate(steps(start, bots, random.Random(seed))):
        after = step.after
        assert isinstance(after, BackgammonState)
        if number % every == 0 and after.phase not in (0, 5):  # not the opening, not over
            found.append(after)
    return found


def test_start_position_reads_as_the_start() -> None:
    game = rules.get_game("backgammon", "money")
    state = game.state_from_position(START_XGID)
    assert state.boards == game.new_state().boards
    assert state.current_player == "white"
    assert state.position_id() == "4HPwATDgc/ABMA"


@pytest.mark.parametrize("preset", ["money", "match7", "money-jacoby"])
def test_xgid_round_trips_through_our_reader(preset: str) -> None:
    game = rules.get_game("backgammon", preset)
    for state in positions(preset, 11, every=3):
        again = game.state_from_position(state.xgid())
        # "00" is both "to double or roll" and "decided to roll": the phase may differ.
        same = {"games": [], "phase": "roll" if state.phase in (1, 3) else state.to_json()["phase"]}
        assert again.to_json() | same == state.to_json() | same
        assert again.xgid() == state.xgid()


@pytest.mark.parametrize(
    "bad",
    [
        "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",  # 25 cells
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",  # a field short... still 9
        "XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10",  # turn 0
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10",  # dice 7
        "XGID=-b----E-C---eE---c-e----BP:0:0:1:00:0:0:0:0:10",  # 16 on the bar
        "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:9:0:0:5:10",  # score ends the match
    ],
)
def test_bad_xgids_raise_one_line(bad: str) -> None:
    game = rules.get_game("backgammon", "match5")
    if bad.endswith(":0:0:0:0"):  # nine fields are allowed (no cube limit)
        assert game.state_from_position(bad).match_length == 0
        return
    with pytest.raises(InvalidStateError) as info:
        game.state_from_position(bad)
    assert "\n" not in str(info.value)


def test_cli_new_position_takes_either_id(capsys: pytest.CaptureFixture[str]) -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:1:0:5:10"
    assert main(["rules", "new", "backgammon", "--position", xgid]) == 0
    from_xg = json.loads(capsys.readouterr().out)
    pid = f"{from_xg['position_id']}:{from_xg['match_id']}"
    assert main(["rules", "new", "backgammon", "--position", pid]) == 0
    from_gnu = json.loads(capsys.readouterr().out)
    assert from_gnu == from_xg
    state = rules.state_from_json(from_xg)
    assert isinstance(state, BackgammonState)
    assert state.xgid() == xgid.replace(":10", ":15")  # our cube limit is 2^15
    assert from_xg["turn"] == "black" and from_xg["dice"] == [5, 2]
    assert from_xg["cube"] == 2 and from_xg["cube_owner"] == "white"


def test_cli_show_prints_both_ids(capsys: pytest.CaptureFixture[str]) -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:1:0:5:10"
    assert main(["rules", "show", "backgammon", "--position", xgid]) == 0
    shown = capsys.readouterr().out
    assert "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:1:0:5:15" in shown
    assert "Position ID 4HPwATDgc/ABMA" in shown


def test_cli_bad_xgid_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "new", "backgammon", "--position", "XGID=nonsense:1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "XGID" in err


def gnubg_ids(xgids: list[str], tmp_path: Path) -> list[tuple[str, str]]:
    script = tmp_path / "ids.txt"
    script.write_text(
        # "show jacoby" ends each answer with a line of its own.
        "".join(f"set xgid {x}\nshow board\nshow jacoby\n" for x in xgids) + "quit\ny\n",
        encoding="utf-8",
    )
    assert GNUBG is not None
    run = subprocess.run(
        [GNUBG, "-t", "-q", "-c", str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    found = []
    for chunk in re.split(r"New money sessions", run.stdout)[: len(xgids)]:
        pids = re.findall(r"Position ID: (\S+)", chunk)
        mids = re.findall(r"Match ID   : (\S+)", chunk)
        found.append((pids[-1], mids[-1]))
    return found


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) not installed")
def test_gnubg_reads_our_xgids_as_our_gnu_ids(tmp_path: Path) -> None:
    states = positions("match7", 5) + positions("money", 6)
    states = [s for s in states if s.phase != 2][:60]  # gnubg shows no board mid-double
    got = gnubg_ids([s.xgid() for s in states], tmp_path)
    assert len(got) == len(states)
    for state, (pid, mid) in zip(states, got, strict=True):
        ours, theirs = decode_match(state.match_id()), decode_match(mid)
        assert pid == state.position_id(), state.xgid()
        # gnubg's "set xgid" makes the side on roll its player 1, whoever that is: its
        # players are ours swapped when white is on roll.
        if theirs.on_roll != ours.on_roll:
            owner = theirs.cube_owner
            theirs = replace(
                theirs,
                on_roll=1 - theirs.on_roll,
                cube_owner=None if owner is None else 1 - owner,
                score=(theirs.score[1], theirs.score[0]),
            )
        for field in ("cube", "cube_owner", "crawford", "dice", "match_length"):
            assert getattr(theirs, field) == getattr(ours, field), (field, state.xgid())
        if state.match_length:
            assert theirs.score == ours.score
