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
from hypothesis import given, settings
from hypothesis import strategies as st

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


def exported(
    cases: list[tuple[str, int]], tmp_path: Path
) -> tuple[list[Path], list[tuple[int, int, int]]]:
    """Each (preset, seed) game exported as a ``.mat`` file, and the score GNU Backgammon
    must reach on importing it: (games, white's points, black's points)."""
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
        else:  # a money session: gnubg adds up the points of the game
            won = {"white": 0, "black": 0}
            won[games[-1]["winner"]] = games[-1]["points"]
            expected.append((1, won["white"], won["black"]))
    return files, expected


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) not installed")
def test_gnubg_imports_exported_matches_with_the_same_score(tmp_path: Path) -> None:
    cases = [("match5", seed) for seed in (3, 8, 21)] + [("single", 4), ("money", 5)]
    files, expected = exported(cases, tmp_path)
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
    files, expected = exported(cases, tmp_path)
    assert gnubg_scores(files, tmp_path) == expected


# -- whole games into GNU Backgammon -------------------------------------------------------


def sgf_point(colour: str, point: int) -> str:
    """A checker step's point (the mover's numbering, 25 the bar, 0 off) as GNU
    Backgammon's SGF writes it: a letter on white's numbering, ``y`` bar, ``z`` off."""
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + (point - 1 if colour == "white" else 24 - point))


def actions(events: list[PlayStep]) -> list[list[str]]:
    """Per game, every checker play and cube action as GNU Backgammon's SGF records it
    (``W[44xtrnhdfb]``, ``B[double]``), the steps of a play in a fixed order."""
    from rules.backgammon.engine import MOVE, PLAYERS, BackgammonState, Play

    games: list[list[str]] = [[]]
    for step in events:
        before = step.before
        assert isinstance(before, BackgammonState)
        if step.move is not None:
            colour = PLAYERS[before.turn]
            if before.phase == MOVE:
                d1, d2 = before.dice
                moves = step.move.steps if isinstance(step.move, Play) else ()
                pairs = sorted(
                    sgf_point(colour, src + 1) + sgf_point(colour, max(dst + 1, 0))
                    for src, dst, _hit in moves
                )
                games[-1].append(f"{colour[0].upper()}[{d1}{d2}{''.join(pairs)}]")
            elif step.move.notation in ("double", "take", "drop"):
                who = colour if step.move.notation == "double" else PLAYERS[1 - before.turn]
                games[-1].append(f"{who[0].upper()}[{step.move.notation}]")
        if len(step.after.to_json()["games"]) > len(before.to_json()["games"]):
            games.append([])
    return [game for game in games if game]


def gnubg_actions(mat: Path, tmp: Path) -> tuple[list[list[str]], str]:
    """What GNU Backgammon imported from ``mat``: per game its plays and cube actions
    (from the SGF it saves), and everything it printed."""
    assert GNUBG is not None
    sgf = tmp / (mat.stem + ".sgf")
    result = subprocess.run(
        [GNUBG, "-t", "-q"],
        input=f"import mat {mat}\nsave match {sgf}\nquit\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    text = sgf.read_text(encoding="utf-8") if sgf.exists() else ""
    games = []
    for tree in text.split("(;")[1:]:
        moves = re.findall(r";([BW])\[([^\]]*)\]", tree)
        normal = []
        for who, value in moves:
            if value[:2].isdigit():  # dice, then the steps' from/to letters: sort them
                pairs = sorted(value[2 + i : 4 + i] for i in range(0, len(value) - 2, 2))
                value = value[:2] + "".join(pairs)
            normal.append(f"{who}[{value}]")
        games.append(normal)
    return games, result.stdout + result.stderr


def long_left_plays(events: list[PlayStep]) -> int:
    """White's plays (the left column) as long as the column or longer: doubles with
    hits, entries from the bar, ``44: 24/20 24/20 20/16* 20/16*``."""
    from rules.backgammon.engine import MOVE, BackgammonState, Play
    from rules.backgammon.mat import LEFT_WIDTH

    count = 0
    for step in events:
        before = step.before
        white = isinstance(before, BackgammonState) and before.phase == MOVE and before.turn == 0
        if white and isinstance(before, BackgammonState) and isinstance(step.move, Play):
            text = f"{before.dice[0]}{before.dice[1]}: " + " ".join(
                f"{src + 1}/{max(dst + 1, 0)}{'*' if hit else ''}"
                for src, dst, hit in step.move.steps
            )
            count += len(text) >= LEFT_WIDTH
    return count


# -- the two columns never touch -------------------------------------------------------------


def gnubg_cells(line: str) -> tuple[str, str]:
    """A row split the way GNU Backgammon's ``import mat`` splits it: the right cell
    starts two characters before a second ``:`` (its dice; the character before them is
    cut off), else at the first two blanks after column 15; the left cell after ``)``."""
    right = ""
    colons = [i for i, char in enumerate(line) if char == ":"]
    if len(colons) >= 2 and colons[1] > 3:
        start = colons[1] - 2
        line, right = line[: start - 1], line[start:]
    elif len(line) > 15 and (start := line.find("  ", 15)) >= 0:
        line, right = line[:start], line[start + 1 :]
    left = line.split(")", 1)[1] if ")" in line else line
    return left.strip(), right.strip()


@st.composite
def long_plays(draw: st.DrawFn) -> str:
    """A play of doubles with up to four steps, any of them a hit, from the bar too:
    the longest cells a row can hold (``66: 25/19* 25/19* 25/19* 25/19*``)."""
    die = draw(st.integers(1, 6))
    count = draw(st.integers(0, 4))
    steps = []
    for _ in range(count):
        source = draw(st.integers(1, 25))
        hit = draw(st.booleans()) and source - die > 0
        steps.append(f"{source}/{max(source - die, 0)}{'*' if hit else ''}")
    return f"{die}{die}: " + " ".join(steps)


CUBE_CELLS = st.sampled_from([" Doubles => 64", " Takes", " Drops", " Doubles => 2"]) | long_plays()


@settings(max_examples=300, deadline=None)
@given(left=long_plays() | st.sampled_from([" Doubles => 2", " Takes"]), right=CUBE_CELLS)
def test_the_columns_stay_apart(left: str, right: str) -> None:
    from rules.backgammon.mat import _GameLines

    lines = _GameLines()
    lines.add(0, left)
    lines.add(1, right)
    (row,) = lines.render()
    assert len(row) < 127, "GNU Backgammon reads a row of at most 127 characters"
    assert gnubg_cells(row) == (left.strip(), right.strip())


@settings(max_examples=100, deadline=None)
@given(left=long_plays(), points=st.integers(1, 192))
def test_a_win_beside_a_long_play_stays_apart(left: str, points: int) -> None:
    from rules.backgammon.mat import _GameLines

    lines = _GameLines()
    lines.add(0, left)
    lines.won(1, points)
    (row,) = lines.render()
    assert gnubg_cells(row) == (left.strip(), f"Wins {points} point{'s' * (points != 1)}")


# -- what GNU Backgammon's importer cannot be told ------------------------------------------


def first_crawford_candidate(events: list[PlayStep], length: int) -> int:
    """The first game that starts with exactly one side 1 away (GNU Backgammon's Crawford
    game on import), if it has a double in it; else 0."""
    game, doubled, start = 1, False, events[0].before.to_json()["score"]
    for step in events:
        doubled = doubled or (step.move is not None and step.move.notation == "double")
        if len(step.after.to_json()["games"]) > len(step.before.to_json()["games"]):
            if list(start.values()).count(length - 1) == 1:
                return game if doubled else 0
            game, doubled, start = game + 1, False, step.after.to_json()["score"]
    return 0


def run_gnubg(commands: list[str], tmp: Path) -> str:
    assert GNUBG is not None
    result = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join([*commands, "quit", ""]),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return result.stdout + result.stderr


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) not installed")
def test_gnubg_reads_a_no_crawford_match_as_crawford_and_the_note_corrects_it(
    tmp_path: Path,
) -> None:
    """GNU Backgammon plays every imported match with the Crawford rule: the game at one
    side 1 away becomes its Crawford game, though the double in it still imports and the
    score agrees. The file's note names that game; ``set crawford off`` there fixes it."""
    seed = next(
        s for s in range(200) if first_crawford_candidate(played("match7-nocrawford", s), 7)
    )
    events = played("match7-nocrawford", seed)
    number = first_crawford_candidate(events, 7)
    text = match_file(events)
    note = f"; Played without the Crawford rule: in game {number}, set crawford off."
    assert note in text.splitlines()
    mat = tmp_path / "nocrawford.mat"
    mat.write_text(text, encoding="utf-8")
    score = events[-1].after.to_json()["score"]
    assert gnubg_scores([mat], tmp_path)[0][1:] == (score["white"], score["black"])
    assert gnubg_actions(mat, tmp_path)[0] == actions(events)  # every double, as played
    as_read = tmp_path / "as-read.sgf"
    fixed = tmp_path / "fixed.sgf"
    run_gnubg(
        [f"import mat {mat}", f"save match {as_read}", "first game"]
        + ["next game"] * (number - 1)
        + ["set crawford off", f"save match {fixed}"],
        tmp_path,
    )
    read = as_read.read_text(encoding="utf-8")
    assert read.count("RU[Crawford:CrawfordGame]") == 1
    assert read.split("(;")[number].count("CrawfordGame") == 1  # the game the note names
    assert "Played without the Crawford rule" in read  # the match comment (GC)
    assert "CrawfordGame" not in fixed.read_text(encoding="utf-8")


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) not installed")
def test_gnubg_starts_an_automatically_doubled_game_at_one(tmp_path: Path) -> None:
    """The limit, measured: GNU Backgammon's import starts every game with the cube at 1,
    so a game that began with automatic doubles scores that much less there; the file
    says the starting cube in a note, which lands in the match comment."""
    from rules.backgammon.engine import OPENING, BackgammonState

    def start_cube(events: list[PlayStep]) -> int:
        for step in events:
            assert isinstance(step.before, BackgammonState)
            if step.before.phase == OPENING and step.after.to_json()["phase"] != "opening":
                return int(step.after.to_json()["cube"])
        return 1

    seed = next(s for s in range(200) if start_cube(played("money-all", s)) > 1)
    events = played("money-all", seed)
    cube = start_cube(events)
    text = match_file(events)
    assert f"; Game 1 starts with the cube at {cube} (automatic doubles)." in text.splitlines()
    mat = tmp_path / "auto.mat"
    mat.write_text(text, encoding="utf-8")
    ours = events[-1].after.to_json()["games"][-1]
    output = run_gnubg(["set jacoby on", f"import mat {mat}", "show score"], tmp_path)
    found = re.search(r"white (\d+), black (\d+)", output)
    assert found is not None, output
    theirs = int(found.group(1 if ours["winner"] == "white" else 2))
    assert theirs * cube == ours["points"]
