"""Beavers and resigning (the money-play rules in docs/games.md), in the engine, the
bot, the ``.mat`` export and GNU Backgammon's import of it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import rules
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.engine import BackgammonState, Resignation
from rules.backgammon.mat import match_file
from rules.budget import Budget
from rules.errors import IllegalMoveError, InvalidStateError
from rules.playout import PlayStep
from tests.test_backgammon_mat import GNUBG


class Script:
    """A hand-played game, kept as the steps a match file is written from."""

    def __init__(self, preset: str) -> None:
        self.state = rules.get_game("backgammon", preset).new_state()
        self.events: list[PlayStep] = []

    def roll(self, dice: tuple[int, int]) -> BackgammonState:
        after = self.state.roll(dice)
        self.events.append(PlayStep(self.state.current_player or "", self.state, after, dice=dice))
        self.state = after
        return self.bg

    def move(self, text: str) -> BackgammonState:
        chosen = self.state.parse_move(text)
        after = self.state.apply(chosen)
        self.events.append(
            PlayStep(self.state.current_player or "", self.state, after, move=chosen)
        )
        self.state = after
        return self.bg

    @property
    def bg(self) -> BackgammonState:
        assert isinstance(self.state, BackgammonState)
        return self.state


def doubled(preset: str) -> Script:
    """White opens 3-1, black plays 6-4 and white doubles: black to answer."""
    game = Script(preset)
    game.roll((3, 1))
    game.move("8/5 6/5")
    game.move("roll")
    game.roll((6, 4))
    game.move("24/14")
    game.move("double")
    return game


def test_beaver_is_offered_only_where_beavers_are_played() -> None:
    """Rule: a doubled side may beaver in money play with beavers on, nowhere else."""
    assert "beaver" in [m.notation for m in doubled("money-beavers").bg.legal_moves()]
    assert "beaver" not in [m.notation for m in doubled("money").bg.legal_moves()]


def test_a_taken_beaver_plays_for_four_times_the_cube_the_beaverer_owning_it() -> None:
    """Rule: the beaver takes and redoubles at once, keeping the cube; the doubler
    taking plays on for four times the cube offered."""
    game = doubled("money-beavers")
    state = game.move("beaver")
    assert state.current_player == "white" and state.to_json()["phase"] == "beaver"
    state = game.move("take")
    assert (state.cube, state.to_json()["cube_owner"], state.current_player) == (
        4,
        "black",
        "white",
    )


def test_a_dropped_beaver_loses_twice_the_cube() -> None:
    """Rule: the doubler refusing the beaver gives up the doubled cube (2)."""
    game = doubled("money-beavers")
    game.move("beaver")
    state = game.move("drop")
    assert state.to_json()["games"] == [{"winner": "black", "points": 2, "kind": "drop"}]


def test_beaver_state_round_trips_through_json() -> None:
    game = doubled("money-beavers")
    state = game.move("beaver")
    assert state.game.state_from_json(state.to_json()) == state
    money = rules.get_game("backgammon", "money")
    with pytest.raises(InvalidStateError, match="beaver"):
        money.state_from_json(state.to_json())


def test_resigning_a_gammon_accepted_scores_the_cube_twice() -> None:
    """Rule: an accepted resignation ends the game for the cube times its level."""
    game = doubled("money")
    game.move("take")
    game.roll((5, 5))
    game.move("13/3(2)")
    state = game.move("resign gammon")
    assert state.current_player == "white"
    assert [m.notation for m in state.legal_moves()] == ["accept", "reject"]
    assert state.game.state_from_json(state.to_json()) == state
    over = game.move("accept")
    assert over.to_json()["games"] == [{"winner": "white", "points": 4, "kind": "resigned gammon"}]


def test_a_rejected_resignation_plays_on_and_is_not_offered_again_that_turn() -> None:
    """Rule: rejected, the game goes on where it was; the same turn offers only higher."""
    game = doubled("money")
    game.move("take")
    game.roll((5, 5))
    game.move("13/3(2)")
    before = game.bg
    game.move("resign single")
    state = game.move("reject")
    assert state.phase == before.phase and state.boards == before.boards
    assert [o.notation for o in state.resign_offers()] == ["resign gammon", "resign backgammon"]
    with pytest.raises(IllegalMoveError):
        state.apply(Resignation(1))
    game.move("roll")
    game.roll((2, 1))  # the next turn may offer anything again
    game.move("13/11 6/5")
    assert len(game.bg.resign_offers()) == 3


def test_with_jacoby_and_a_centred_cube_only_a_single_is_offered() -> None:
    """Rule: under the Jacoby rule a gammon with a centred cube counts single."""
    state = rules.get_game("backgammon", "money-jacoby").new_state(first="white")
    assert [o.notation for o in state.resign_offers()] == ["resign single"]


def test_resignations_are_not_legal_moves_so_no_player_stumbles_on_them() -> None:
    state = rules.get_game("backgammon", "money").new_state(first="white")
    assert not any(isinstance(m, Resignation) for m in state.legal_moves())


def lost_position(preset: str) -> BackgammonState:
    """Black to play with all 15 checkers on its own 13 point against white's last
    two checkers on its 1 point: black is lost, a gammon is certain."""
    white = [0] * 24
    white[0] = 2
    black = [0] * 24
    black[12] = 15
    data = {"points": {"white": white, "black": black}, "turn": "black", "phase": "double"}
    state = rules.get_game("backgammon", preset).state_from_json(data)
    assert isinstance(state, BackgammonState)
    return state


def test_the_bot_resigns_a_lost_game_and_accepts_a_fair_offer() -> None:
    """The bot offers when its evaluation says it is lost, and accepts an offer of
    at least what playing on is worth to it (a gammon here)."""
    import random

    bot = BackgammonBot(Budget(nodes=2000), lookahead=False)
    state = lost_position("money")
    offer = bot.choose(state, random.Random(1))
    assert offer.notation == "resign gammon"
    offered = state.apply(offer)
    assert bot.choose(offered, random.Random(1)).notation == "accept"
    single = state.apply(state.parse_move("resign single"))
    assert bot.choose(single, random.Random(1)).notation == "reject"


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) not installed")
def test_gnubg_imports_beavers_and_a_resignation_with_every_money_option_on(
    tmp_path: Path,
) -> None:
    """Jacoby, beavers and automatic doubles in the header; a beaver taken, a rejected
    single, an accepted gammon: GNU Backgammon reads the same cube and score."""
    game = doubled("money-all")
    game.move("beaver")
    game.move("take")
    game.roll((5, 5))
    game.move("13/3(2)")
    game.move("resign single")
    game.move("reject")
    game.move("resign gammon")
    game.move("accept")
    text = match_file(game.events)
    for tag in ('[Jacoby "On"]', '[Beaver "On"]', '[AutoDoubles "2"]'):
        assert f"; {tag}" in text
    beaver = doubled("money-beavers")
    beaver.move("beaver")
    beaver.move("drop")
    files = [tmp_path / "resign.mat", tmp_path / "dropped.mat"]
    files[0].write_text(text, encoding="utf-8")
    files[1].write_text(match_file(beaver.events), encoding="utf-8")
    assert GNUBG is not None
    script = "set jacoby on\n" + "".join(f"import mat {f}\nshow score\n" for f in files)
    result = subprocess.run(
        [GNUBG, "-t", "-q"],
        input=script + "quit\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    found = re.findall(
        r"The score \(after (\d+) games?\) is: white (\d+), black (\d+)", result.stdout
    )
    assert found == [("1", "8", "0"), ("1", "0", "2")], result.stdout[-2000:]
    assert "resigns gammon" in result.stdout and "Cube: 4" in result.stdout
