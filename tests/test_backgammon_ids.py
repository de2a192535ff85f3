"""GNU Backgammon Position IDs and Match IDs, and the ``rules`` CLI around them.

Reference values come from GNU Backgammon 1.07 itself (``show board`` after setting up
the position), so these tests do not depend on our own encoder being right.
"""

from __future__ import annotations

import json

import pytest

import rules
from controller.cli import main
from rules.backgammon.engine import START, BackgammonState
from rules.backgammon.ids import (
    MatchInfo,
    decode_match,
    decode_position,
    encode_match,
    encode_position,
)
from rules.errors import InvalidStateError


def test_start_position_id() -> None:
    """The start position's GNU Backgammon Position ID is 4HPwATDgc/ABMA."""
    assert encode_position(START, START) == "4HPwATDgc/ABMA"
    assert decode_position("4HPwATDgc/ABMA") == (START, START)


def test_position_id_from_gnubg_session() -> None:
    """GNU Backgammon showed ``HwAAwLoAAAAAAA`` for O (on roll) with 2, 1, 3, 1 checkers
    on its points 1–4 and X with 5 on its ace point."""
    not_on_roll, on_roll = decode_position("HwAAwLoAAAAAAA")
    assert not_on_roll == (5,) + (0,) * 24
    assert on_roll == (2, 1, 3, 1) + (0,) * 21
    assert encode_position(not_on_roll, on_roll) == "HwAAwLoAAAAAAA"


@pytest.mark.parametrize(
    ("mid", "info"),
    [
        (  # money session, cube 2 owned by player 0, player 0 rolled 6-4, 686 to 805
            "AQETAOAqKBkA",
            MatchInfo(cube=2, cube_owner=0, dice=(6, 4), score=(686, 805), jacoby=True),
        ),
        (  # 5-point match over at 5-2, in the Crawford game, player 1 on roll
            "8AqgAFAAEAAE",
            MatchInfo(
                cube_owner=None,
                on_roll=1,
                crawford=True,
                game_state=2,
                decision=1,
                match_length=5,
                score=(5, 2),
            ),
        ),
    ],
)
def test_match_ids_from_gnubg(mid: str, info: MatchInfo) -> None:
    assert decode_match(mid) == info
    assert encode_match(info) == mid


@pytest.mark.parametrize(
    "bad",
    ["4HPwATDgc/ABM", "4HPwATDgc/AB!A", "////////////////", "//////////////"],
)
def test_bad_position_ids_raise_one_line(bad: str) -> None:
    with pytest.raises(InvalidStateError) as info:
        rules.get_game("backgammon").state_from_position_id(bad)
    assert "\n" not in str(info.value)


def test_position_and_match_id_together_restore_the_state() -> None:
    """``POSID:MATCHID`` (GNU Backgammon's ``set gnubgid`` form) carries cube, score,
    dice and the side on roll."""
    game = rules.get_game("backgammon", "match5")
    state = game.state_from_json(
        {
            "points": {"white": list(START[:24]), "black": list(START[:24])},
            "turn": "black",
            "dice": [5, 2],
            "cube": 2,
            "cube_owner": "white",
            "score": {"white": 1, "black": 2},
            "games": [
                {"winner": "black", "points": 2, "kind": "gammon"},
                {"winner": "white", "points": 1, "kind": "single"},
            ],
        }
    )
    assert isinstance(state, BackgammonState)
    again = game.state_from_position_id(f"{state.position_id()}:{state.match_id()}")
    for name in ("boards", "turn", "phase", "dice", "cube", "cube_owner", "score"):
        assert getattr(again, name) == getattr(state, name), name
    assert again.match_length == 5


def test_cli_new_with_position_id(capsys: pytest.CaptureFixture[str]) -> None:
    """``rules new backgammon`` accepts ``--position-id``."""
    assert main(["rules", "new", "backgammon", "--position-id", "4HPwATDgc/ABMA"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["position_id"] == "4HPwATDgc/ABMA"
    assert data["phase"] == "roll" and data["turn"] == "white"


def test_cli_moves_lists_plays_with_resulting_position_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``rules moves backgammon --position-id ID --dice 3,1`` lists every legal play with
    its notation and the resulting Position ID. The result is seen from the side that
    just moved, not yet swapped to the opponent."""
    args = ["rules", "moves", "backgammon", "--position-id", "4HPwATDgc/ABMA", "--dice", "3,1"]
    assert main(args) == 0
    answer = json.loads(capsys.readouterr().out)
    by_move = {m["move"]: m["position_id"] for m in answer["moves"]}
    assert len(by_move) == 16
    # 8/5 6/5: the mover (second side of the ID) made its 5 point; the other side is
    # unchanged, so the ID's first half still encodes the start position.
    mover = list(START)
    mover[7] -= 1
    mover[5] -= 1
    mover[4] += 2
    assert by_move["8/5 6/5"] == encode_position(START, tuple(mover))
    # The state after the move is the opponent's turn; its own position_id is swapped.
    entry = next(m for m in answer["moves"] if m["move"] == "8/5 6/5")
    assert entry["state"]["turn"] == "black"
    assert entry["state"]["position_id"] == encode_position(tuple(mover), START)


def test_cli_bad_position_id_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "moves", "backgammon", "--position-id", "nope", "--dice", "3,1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Position ID" in err


def test_cli_play_reports_points_and_gammons(capsys: pytest.CaptureFixture[str]) -> None:
    """``spieltisch rules play backgammon --bots random`` reports wins, points per game,
    and gammon/backgammon counts."""
    assert main(["rules", "play", "backgammon", "--bots", "random", "--games", "20"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 20
    assert sum(summary["wins"].values()) == 20
    assert summary["singles"] + summary["gammons"] + summary["backgammons"] == 20
    assert 1.0 <= summary["points_per_game_mean"] <= 3.0
