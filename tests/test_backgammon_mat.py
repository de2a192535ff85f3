"""Match files (``.mat``): the layout, and import into GNU Backgammon itself.

The import check runs Debian's ``gnubg`` (``/usr/games/gnubg -t``, package ``gnubg``)
with a command script and compares the score it reports after importing with ours. It
is skipped where ``gnubg`` is not installed.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import rules
from controller.cli import main
from rules.backgammon.mat import match_file
from rules.bots import RandomBot
from rules.playout import PlayStep, steps

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)
BOTS = {"white": RandomBot(), "black": RandomBot()}


def played(preset: str, seed: int) -> list[PlayStep]:
    start = rules.get_game("backgammon", preset).new_state()
    return list(steps(start, BOTS, random.Random(seed)))


def scripted(preset: str) -> list[PlayStep]:
    """A short hand-played money game: white opens 3-1, black plays 6-4, white doubles,
    black takes, white plays 5-5, black redoubles to 4 and white drops (black wins 2)."""
    game = rules.get_game("backgammon", preset)
    state = game.new_state()
    events: list[PlayStep] = []

    def roll(dice: tuple[int, int]) -> None:
        nonlocal state
        after = state.roll(dice)
        events.append(PlayStep(state.current_player or "", state, after, dice=dice))
        state = after

    def move(text: str) -> None:
        nonlocal state
        chosen = state.parse_move(text)
        after = state.apply(chosen)
        events.append(PlayStep(state.current_player or "", state, after, move=chosen))
        state = after

    roll((3, 1))
    move("8/5 6/5")
    move("roll")
    roll((6, 4))
    move("24/14")
    move("double")
    move("take")
    roll((5, 5))
    move("13/3(2)")
    move("double")
    move("drop")
    return events


def test_layout_follows_gnubg_export() -> None:
    text = match_file(scripted("money"))
    lines = [line.rstrip() for line in text.splitlines()]
    assert " 0 point match" in lines
    assert " Game 1" in lines
    assert lines[lines.index(" Game 1") + 1].startswith(" white : 0")
    assert "  1) 31: 8/5 6/5                 64: 24/18 18/14" in lines
    assert "  2)  Doubles => 2                Takes" in lines
    assert "  3) 55: 13/8 13/8 8/3 8/3        Doubles => 4" in lines
    assert lines[-2] == "  4)  Drops                       Wins 2 points"  # black's redouble


def test_right_column_win_shares_the_row() -> None:
    """Black's win after white's drop goes into the right cell of that row, as GNU
    Backgammon writes it."""
    events = played("money", 5)
    text = match_file(events)
    final = events[-1].after
    assert final.is_terminal()
    winner = final.to_json()["games"][-1]["winner"]
    win_lines = [line for line in text.splitlines() if "Wins" in line]
    assert len(win_lines) == 1
    assert (win_lines[0].index("Wins") > 30) == (winner == "black")


def test_cli_play_export_writes_a_match_file(tmp_path: Path) -> None:
    target = tmp_path / "m.mat"
    args = ["rules", "play", "backgammon", "--preset", "match5", "--games", "1", "--seed", "3"]
    code = main([*args, "--export", str(target)])
    assert code == 0
    text = target.read_text(encoding="utf-8")
    assert " 5 point match" in text
    assert text == match_file(played("match5", 3))  # same seed, same match


def gnubg_scores(files: list[Path], tmp: Path) -> list[tuple[int, int, int]]:
    """(games, white, black) GNU Backgammon reports after importing each file."""
    assert GNUBG is not None
    script = tmp / "commands.txt"
    script.write_text(
        "set jacoby off\n" + "".join(f"import mat {f}\nshow score\n" for f in files) + "quit\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [GNUBG, "-t", "-q"],
        stdin=script.open(encoding="utf-8"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    found = re.findall(
        r"The score \(after (\d+) games?\) is: white (\d+), black (\d+)", result.stdout
    )
    return [(int(g), int(w), int(b)) for g, w, b in found]


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) not installed")
def test_gnubg_imports_exported_matches_with_the_same_score(tmp_path: Path) -> None:
    cases = [("match5", seed) for seed in (3, 8, 21)] + [("single", 4), ("money", 5)]
    files = []
    expected = []
    for preset, seed in cases:
        events = played(preset, seed)
        path = tmp_path / f"{preset}-{seed}.mat"
        path.write_text(match_file(events), encoding="utf-8")
        files.append(path)
        final = events[-1].after.to_json()
        games = final["games"]
        if final["match_length"]:
            expected.append((len(games), final["score"]["white"], final["score"]["black"]))
        else:  # a money session: gnubg adds up the points of the game
            won = {"white": 0, "black": 0}
            won[games[-1]["winner"]] = games[-1]["points"]
            expected.append((1, won["white"], won["black"]))
    path = tmp_path / "scripted.mat"
    path.write_text(match_file(scripted("money")), encoding="utf-8")
    files.append(path)
    expected.append((1, 0, 2))
    assert gnubg_scores(files, tmp_path) == expected


def test_header_names_every_rule() -> None:
    money = match_file(played("money-automatic", 2)).splitlines()
    assert '; [Jacoby "On"]' in money and '; [Beaver "Off"]' in money
    assert '; [AutoDoubles "2"]' in money
    match = match_file(played("match7", 2)).splitlines()
    assert '; [Crawford "On"]' in match and " 7 point match" in match
    assert not any("Jacoby" in line for line in match)


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) not installed")
def test_gnubg_imports_every_preset_with_its_header(tmp_path: Path) -> None:
    """Every rules option in the header, every match length: gnubg reads the file and
    reaches our score (a Jacoby gammon with a centred cube counts one point)."""
    cases = [(p, 7) for p in ("match1", "match3", "match7", "match11")]
    cases += [("money-jacoby", seed) for seed in (1, 2, 3)] + [("money-automatic", 4)]
    files, expected = [], []
    for preset, seed in cases:
        events = played(preset, seed)
        path = tmp_path / f"{preset}-{seed}.mat"
        path.write_text(match_file(events), encoding="utf-8")
        files.append(path)
        final = events[-1].after.to_json()
        games = final["games"]
        if final["match_length"]:
            expected.append((len(games), final["score"]["white"], final["score"]["black"]))
        else:
            won = {"white": 0, "black": 0}
            won[games[-1]["winner"]] = games[-1]["points"]
            expected.append((1, won["white"], won["black"]))
    assert gnubg_scores(files, tmp_path) == expected
