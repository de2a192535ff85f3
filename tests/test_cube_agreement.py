"""The cube-agreement benchmark: GNU Backgammon's cube action wordings, and a small run
against the real ``gnubg`` (where installed)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import cube_agreement as bench


@pytest.mark.parametrize(
    ("text", "double", "take", "too_good"),
    [
        (" No double, take (28.8%)", False, True, False),
        (" No redouble, beaver", False, True, False),
        (" Double, take", True, True, False),
        (" Redouble, pass", True, False, False),
        (" Too good to double, pass", False, False, True),
        (" Too good to redouble, take", False, True, True),
    ],
)
def test_gnubg_cube_actions_read_as_both_decisions(
    text: str, double: bool, take: bool, too_good: bool
) -> None:
    assert bench.parse_action(text) == bench.Verdict(double, take, too_good)


def test_an_unknown_cube_action_is_an_error_not_a_guess() -> None:
    with pytest.raises(ValueError, match="unknown cube action"):
        bench.parse_action("Proper cube action not available")


def test_dead_match_cubes_are_left_out() -> None:
    positions = bench.collect("match5", seed=4, wanted=40)
    assert len(positions) == 40
    assert not any(bench.dead_cube(s) for s in positions)


@pytest.mark.skipif(
    shutil.which(bench.GNUBG) is None and not Path(bench.GNUBG).exists(),
    reason="GNU Backgammon is not installed",
)
def test_gnubg_answers_every_collected_position() -> None:
    tally = bench.Tally()
    for _, us, them in bench.compare("money", seed=5, positions=12, plies=0):
        tally.add(us, them)
    assert tally.positions == 12
    # Early money positions: no double, take; the two agree on most of them.
    assert tally.double_agree >= 9 and tally.take_agree >= 9
