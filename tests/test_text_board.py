"""The text board and the text simulator: a watcher can tell who starts and why, and
what every symbol on the board means."""

from __future__ import annotations

import argparse
import io

import pytest

from controller import text_sim


def watch(game: str, seed: int) -> str:
    args = argparse.Namespace(
        game=game, preset=None, players=None, bots="random", seed=seed, delay=0.0
    )
    out = io.StringIO()
    assert text_sim.run(args, out) == 0
    return out.getvalue()


@pytest.mark.parametrize("seed", range(3))
def test_a_game_that_a_roll_ends_is_watched_to_its_end(seed: int) -> None:
    """Mini-Maki ends on black's roll: the simulator shows that roll and the result."""
    lines = watch("minimaki", seed).splitlines()
    assert lines[-1].startswith("black wins after ")
    assert lines[-2].startswith("red lost in round ")
    assert lines[-10].startswith("black rolled ")
