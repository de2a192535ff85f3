"""Mini-Maki's strong player: the shipped exact policy, in every preset, from the start.

Whether the shipped tables are right (agree with the rules and the exact values) is
tested in ``tests/test_minimaki_policy.py``; here: that the bot plays them, in every
preset, from a fresh process, and that a missing or damaged table is a clear error.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

import rules
from rules.bots import make_bot
from rules.minimaki import policy as mp
from rules.minimaki.bot import MinimakiBot, best_move
from rules.minimaki.engine import MinimakiState, Place, Step
from tests.helpers import position

ROOT = Path(__file__).resolve().parent.parent


def minimaki(preset: str | None = None, **fields: object) -> MinimakiState:
    state = position("minimaki", preset, **fields)
    assert isinstance(state, MinimakiState)
    return state


def test_the_standard_start_field_is_an_optimal_column() -> None:
    """The rules: "Sie können zu Beginn ihren Maki auf ein beliebiges Feld der Reihe 6
    setzen." Columns 3 and 4 are the best (mirror images); the first of them is chosen."""
    state = rules.get_game("minimaki").new_state()
    move = make_bot("strong").choose(state, random.Random(0))
    provenance = json.loads(files("rules.minimaki").joinpath(mp.PROVENANCE_NAME).read_text())
    by_column = provenance["tables"]["standard"]["p_win_by_start_column"]
    assert isinstance(move, Place) and by_column[move.col - 1] == max(by_column)
    assert move == Place(6, 3)


def test_a_winning_step_is_taken() -> None:
    """The rules: "Erreicht Ihr roter Stein die gegenüberliegende Seite, so haben Sie
    gewonnen." """
    state = minimaki(black=[3, 3, 3, 3, 3, 3], red=[2, 4], to_move="red")
    move = make_bot("strong").choose(state, random.Random(0))
    assert isinstance(move, Step) and move.dst[0] == 1


def test_the_choice_does_not_depend_on_the_random_source() -> None:
    """Ties are settled in the table (the first optimal move), so a hint is the same
    every time it is asked for."""
    state = minimaki(black=[2, 1, 4, 1, 3, 1], red=[5, 4], to_move="red")
    choices = {MinimakiBot().choose(state, random.Random(seed)) for seed in range(20)}
    assert len(choices) == 1


def test_standard_free_setup_and_two_player_share_one_table() -> None:
    """Only diagonal contact changes a step's rules; the same position gets the same
    step in the three other presets."""
    fields = {"black": [2, 1, 4, 1, 3, 1], "red": [5, 4], "to_move": "red"}
    standard = best_move(minimaki(**fields))
    assert best_move(minimaki("free_setup", **fields)) == standard
    duel = minimaki("two_player", players=["player1", "player2"], turn="player2", **fields)
    assert best_move(duel) == standard


def test_diagonal_has_its_own_table() -> None:
    assert mp.shipped_policy(True) is not mp.shipped_policy(False)
    assert mp.shipped_policy(True).steps != mp.shipped_policy(False).steps
    assert mp.shipped_policy(True).p_win < mp.shipped_policy(False).p_win


def test_two_player_form_prefers_a_win_over_a_loss() -> None:
    """The better-result rule: a win beats a loss. From row 2 red steps onto row 1
    whenever it can, in either player's game."""
    for turn in ("player1", "player2"):
        state = minimaki(
            "two_player",
            players=["player1", "player2"],
            turn=turn,
            black=[1, 1, 5, 1, 1, 1],
            red=[2, 3],
            to_move="red",
        )
        move = best_move(state)
        after = state.apply(move)
        assert isinstance(move, Step) and move.dst[0] == 1
        assert after.to_json()["match"][-1]["result"] == "won"


def test_free_setup_bot_places_every_black_then_red() -> None:
    """The free setup places the blacks column by column (rows 1-5), then red's start."""
    state: MinimakiState = rules.get_game("minimaki", "free_setup").new_state()
    bot = MinimakiBot()
    for col in range(1, 7):
        move = bot.choose(state, random.Random(0))
        assert isinstance(move, Place) and move.col == col and 1 <= move.row <= 5
        nxt = state.apply(move)
        assert isinstance(nxt, MinimakiState)
        state = nxt
    move = bot.choose(state, random.Random(0))
    assert isinstance(move, Place) and move.row == 6


def copy_of_shipped_data(folder: Path) -> Path:
    for name in [mp.PROVENANCE_NAME, "policy_standard.bin"]:
        source = files("rules.minimaki").joinpath(name)
        (folder / name).write_bytes(source.read_bytes())
    return folder


def test_a_missing_table_is_a_one_line_error(tmp_path: Path) -> None:
    copy_of_shipped_data(tmp_path)
    (tmp_path / "policy_standard.bin").unlink()
    with pytest.raises(mp.PolicyDataError, match=r"policy_standard\.bin is missing") as e:
        mp.load_policy(False, tmp_path)
    assert isinstance(e.value, ValueError) and "\n" not in str(e.value)


def test_a_missing_provenance_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(mp.PolicyDataError, match=r"cannot read Mini-Maki's policy.json"):
        mp.load_policy(False, tmp_path)


def test_a_damaged_table_is_refused(tmp_path: Path) -> None:
    copy_of_shipped_data(tmp_path)
    path = tmp_path / "policy_standard.bin"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))
    with pytest.raises(mp.PolicyDataError, match="damaged: its sha256 does not match"):
        mp.load_policy(False, tmp_path)


def test_a_table_of_the_wrong_rules_or_length_is_refused(tmp_path: Path) -> None:
    """Even with a matching sha256 (a hand-edited provenance), the header and the
    length are checked."""
    copy_of_shipped_data(tmp_path)
    good = mp.shipped_policy(False)

    def install(data: bytes) -> None:
        import hashlib

        (tmp_path / "policy_standard.bin").write_bytes(data)
        provenance = json.loads((tmp_path / mp.PROVENANCE_NAME).read_text())
        provenance["tables"]["standard"]["sha256"] = hashlib.sha256(data).hexdigest()
        (tmp_path / mp.PROVENANCE_NAME).write_text(json.dumps(provenance))

    install(mp.encode_policy(True, good.steps, good.starts, good.setup))
    with pytest.raises(mp.PolicyDataError, match="wrong header"):
        mp.load_policy(False, tmp_path)
    import lzma

    short = mp.MAGIC + b"S" + good.steps
    install(lzma.compress(short, format=lzma.FORMAT_XZ, filters=mp.XZ_FILTERS))
    with pytest.raises(mp.PolicyDataError, match="wrong length"):
        mp.load_policy(False, tmp_path)
    install(b"not xz at all")
    with pytest.raises(mp.PolicyDataError, match="damaged"):
        mp.load_policy(False, tmp_path)
    install(mp.encode_policy(False, good.steps, good.starts, good.setup))
    assert mp.load_policy(False, tmp_path) == good


def test_a_fresh_process_hints_the_optimal_start_without_any_state(tmp_path: Path) -> None:
    """``rules hint`` from a fresh HOME with no state directory: the table ships with
    the program, so the first hint is already exact."""
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    new = subprocess.run(
        [sys.executable, "-m", "controller", "rules", "new", "minimaki"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=True,
    )
    hint = subprocess.run(
        [sys.executable, "-m", "controller", "rules", "hint", "minimaki", "--state", "-"],
        input=new.stdout,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=True,
    )
    assert json.loads(hint.stdout)["move"] == "r6c3"
    assert list(tmp_path.iterdir()) == []
