"""``spieltisch history``: games played at the table, listed, shown, exported and
counted; a Backgammon match from the table goes into GNU Backgammon, a MÄDN game's JSON
lines replay through ``spieltisch rules apply``; bad input is one line and exit 2."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rules
from controller.cli import main
from controller.history.export import replay
from controller.history.record import record_of
from controller.history.store import HistoryStore
from controller.testing.files import fill
from tests.history_games import played, table_game
from tests.test_backgammon_mat import GNUBG, actions, gnubg_actions, gnubg_scores, long_left_plays

ROOT = Path(__file__).resolve().parent.parent
V1_DATABASE = Path(__file__).parent / "data" / "history_v1.sqlite3"


def history(capsys: pytest.CaptureFixture[str], state: Path, *args: str) -> tuple[int, str, str]:
    code = main(["history", "--state-dir", str(state), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def table_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A state directory in which the table played a Backgammon match (game 1) and a
    two-player MÄDN game (game 2), bots on every seat."""
    state = tmp_path_factory.mktemp("table") / "state"
    table_game(state, "backgammon", "match5", 2, seed=8)
    table_game(state, "maedn", "classic", 2, seed=4)
    return state


def stored(state: Path, record_id: int) -> object:
    store = HistoryStore(state)
    store.open(create=False)
    try:
        return store.get(record_id)
    finally:
        store.close()


# -- list, show, stats ----------------------------------------------------------------------


def test_list_shows_newest_first_two_short_lines_each(
    table_games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = history(capsys, table_games, "list")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80, out
    firsts = [line for line in lines if not line.startswith(" ")]
    assert [line.split()[0] for line in firsts] == ["2", "1"]
    maedn, match = out.split("\n1 ")
    # games and rule sets by their titles, the random bot by the page's word for it
    assert "Mensch ärgere dich nicht, classic" in maedn and " moves, " in maedn
    assert "red, green: bot (easy)" in maedn or "green, red: bot (easy)" in maedn
    assert "Backgammon, match to 5" in match or "(match to 5)" in match
    assert "white, black: bot (easy)" in match
    code, out, _ = history(capsys, table_games, "list", "--json")
    listed = json.loads(out)
    assert [g["id"] for g in listed] == [2, 1]
    match = listed[1]
    assert match["match_length"] == 5 and max(match["score"].values()) >= 5
    assert match["winner"] == max(match["score"], key=match["score"].get)
    assert (
        sum(g["points"] for g in match["games"] if g["winner"] == match["winner"])
        == (match["score"][match["winner"]])
    )


def test_show_walks_the_game_move_by_move_on_the_text_board(
    table_games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = stored(table_games, 2)
    code, out, _ = history(capsys, table_games, "show", "2")
    assert code == 0
    moves = [e for e in record.history if "move" in e]  # type: ignore[attr-defined]
    rolls = [e for e in record.history if "dice" in e]  # type: ignore[attr-defined]
    events = [line for line in out.splitlines() if line[:4].strip().isdigit()]
    assert len(events) == len(record.history)  # type: ignore[attr-defined]
    assert sum(" rolls " in line for line in events) == len(rolls)
    assert sum(line[6:].startswith(("red: ", "green: ")) for line in events) == len(moves)
    assert any(line.endswith(": pass (no move)") for line in events)
    assert " plays " not in out  # "red plays pass" said nothing; the moves are in words
    assert out.startswith("game 2: Mensch ärgere dich nicht, classic, finished\n")
    assert "result: red won" in out or "result: green won" in out
    code, out, _ = history(capsys, table_games, "show", "2", "--json")
    shown = json.loads(out)
    assert len(shown["events"]) == len(record.history)  # type: ignore[attr-defined]
    assert shown["events"][-1]["state"] == record.final_state  # type: ignore[attr-defined]


def test_show_gives_a_backgammon_record_its_analysis_and_others_none(
    table_games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = history(capsys, table_games, "show", "1")
    assert code == 0
    lines = out.splitlines()
    assert any(line.startswith("  white: PR ") for line in lines)
    assert any(line.startswith("  black: PR ") for line in lines)
    assert any(line.startswith("  worst 1: event ") for line in lines)
    code, out, _ = history(capsys, table_games, "show", "1", "--json")
    analysis = json.loads(out)["analysis"]
    assert [side["player"] for side in analysis["sides"]] == ["white", "black"]
    assert all(side["decisions"] > 0 and side["pr"] > 0 for side in analysis["sides"])
    worst = analysis["worst"][0]
    assert worst["equity_lost"] > 0 and worst["played"] != worst["best"]
    code, out, _ = history(capsys, table_games, "show", "2", "--json")
    assert "analysis" not in json.loads(out)
    _, out, _ = history(capsys, table_games, "show", "2")
    assert "analysis" not in out


def test_stats_count_wins_per_colour_and_kind(
    table_games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = history(capsys, table_games, "stats", "--json")
    assert code == 0
    stats = json.loads(out)
    assert list(stats) == [g for g in rules.game_names() if g in ("maedn", "backgammon")]
    for game in stats.values():
        assert game["games"] == 1
        assert sum(c["won"] for c in game["colours"].values()) == 1
        # one game with two bots is one game for the bots, not two
        assert game["kinds"] == {"bot (random)": {"seated": 1, "won": 1}}
    code, out, _ = history(capsys, table_games, "stats")
    assert "Mensch ärgere dich nicht: 1 finished game" in out and "bot (easy)" in out


# -- export ---------------------------------------------------------------------------------


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) not installed")
def test_a_match_played_at_the_table_imports_into_gnu_backgammon(
    table_games: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "match.mat"
    code, _, err = history(capsys, table_games, "export", "1", str(target))
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    assert " 5 point match" in text
    record = stored(table_games, 1)
    games = record.summary.games  # type: ignore[attr-defined]
    score = record.summary.result["score"]  # type: ignore[attr-defined]
    assert text.count(" Game ") == len(games)
    assert gnubg_scores([target], tmp_path) == [(len(games), score["white"], score["black"])]


def test_a_maedn_game_replays_through_rules_apply_to_its_final_state(
    table_games: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = tmp_path / "game.jsonl"
    code, _, err = history(capsys, table_games, "export", "2", str(target))
    assert code == 0, err
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    header, events = lines[0], lines[1:]
    assert header["format"] == "spieltisch-history" and header["game"] == "maedn"
    position = tmp_path / "state.json"
    state = header["state"]
    for event in events:
        position.write_text(json.dumps(state), encoding="utf-8")
        step = ["--dice", ",".join(map(str, event["dice"]))] if "dice" in event else []
        step += ["--move", event["move"]] if "move" in event else []
        code = main(
            ["rules", "apply", "maedn", "--preset", "classic", "--state", str(position), *step]
        )
        out = capsys.readouterr().out
        assert code == 0
        state = json.loads(out)
        assert state == event["state"]
    assert state == stored(table_games, 2).final_state  # type: ignore[attr-defined]
    assert state["winner"] == header["winner"]


def test_export_to_stdout_and_jsonl_for_backgammon_too(
    table_games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = history(capsys, table_games, "export", "1", "-", "--format", "jsonl")
    assert code == 0
    lines = out.splitlines()
    assert json.loads(lines[0])["game"] == "backgammon"
    assert len(lines) == 1 + len(stored(table_games, 1).history)  # type: ignore[attr-defined]


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["show", "99"], "no game 99"),
        (["export", "99", "x.mat"], "no game 99"),
        (["export", "1", "/nonexistent/dir/x.mat"], "cannot write /nonexistent/dir/x.mat"),
        (["export", "2", "x.mat", "--format", "mat"], "has no match file (.mat)"),
        (["export", "2", "g1.mat"], "has no match file (.mat)"),
        (["export", "2", "G1.MAT"], "export it as JSON lines"),
        (["show", "two"], "invalid int value"),
        (["list", "--limit", "0"], "--limit must be at least 1"),
        (["stats", "--last", "0"], "--last must be at least 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    table_games: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    words: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        code = main(["history", "--state-dir", str(table_games), *args])
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and words in err, err
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_a_failed_export_leaves_an_older_file_whole(
    table_games: Path, capsys: pytest.CaptureFixture[str], small_disk: Path
) -> None:
    """The disk fills up while exporting over an older export: exit 2, one line, and
    the older file is untouched (the export goes to a temp file and is renamed)."""
    target = small_disk / "match.mat"
    target.write_text("an older export\n", encoding="utf-8")
    fill(small_disk)
    code, _, err = history(capsys, table_games, "export", "1", str(target))
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err, err
    assert target.read_text(encoding="utf-8") == "an older export\n"
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "match.mat"]


def test_no_history_yet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = history(capsys, tmp_path, "list")
    assert code == 0 and out == "no games recorded yet\n"
    code, out, _ = history(capsys, tmp_path, "list", "--json")
    assert json.loads(out) == []
    code, _, err = history(capsys, tmp_path, "show", "1")
    assert code == 2 and "no games recorded yet" in err
    assert not (tmp_path / "history.sqlite3").exists()  # reading never creates it


def test_a_corrupt_database_is_one_line_and_left_for_the_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"garbage, not SQLite" * 50)
    code, _, err = history(capsys, tmp_path, "list")
    assert code == 2 and err.count("\n") == 1 and "corrupt history database" in err
    assert path.read_bytes() == b"garbage, not SQLite" * 50
    assert not list(tmp_path.glob("*.bad-*"))


def test_a_database_of_the_first_version_lists(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    shutil.copyfile(V1_DATABASE, tmp_path / "history.sqlite3")
    code, out, _ = history(capsys, tmp_path, "list")
    firsts = [line for line in out.splitlines() if not line.startswith(" ")]
    assert code == 0 and len(firsts) == 3
    assert "abandoned" in out.split(f"\n{firsts[1]}")[0]


def test_stats_say_who_wins_mini_maki_including_the_dice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Mini-Maki's black pieces are no seat: their wins count under the kind "rules"."""
    store = HistoryStore(tmp_path)
    store.open()
    winners = []
    for seed in range(8):
        session = played("minimaki", "standard", ["human"], seed)
        store.add(record_of(session, "finished", f"2025-01-0{seed + 1}T00:00:00+00:00", 1, "r"))
        winners.append(session.state.winners()[0])
    store.close()
    _code, out, _ = history(capsys, tmp_path, "stats", "--json")
    stats = json.loads(out)["minimaki"]
    assert stats["games"] == 8
    assert stats["colours"]["red"] == {"seated": 8, "won": winners.count("red")}
    assert stats["kinds"]["human"]["won"] == winners.count("red")
    assert stats["kinds"].get("rules", {"won": 0})["won"] == winners.count("black")
    _, out, _ = history(capsys, tmp_path, "stats", "--json", "--last", "3")
    assert json.loads(out)["minimaki"]["games"] == 3
    _, out, _ = history(capsys, tmp_path, "stats")
    players = out.split("  player ")[1].splitlines()[1:]
    assert [row.split()[0] for row in players[:-1]] == ["human"]
    assert players[0].split()[1:3] == ["8", str(winners.count("red"))]
    assert players[-1] == "  black is played by no one: the game itself moves it"
    assert "the rules" not in out


def test_stats_count_the_games_a_kind_of_player_played_not_its_seats(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two four-bot games: the bots played 2 games and won 2, not "8 seated"."""
    store = HistoryStore(tmp_path)
    store.open()
    for seed in range(2):
        session = played("maedn", "classic", ["bot"] * 4, seed)
        ended = f"2025-01-0{seed + 1}T00:00:00+00:00"
        store.add(record_of(session, "finished", ended, 4, "random"))
    store.close()
    _code, out, _ = history(capsys, tmp_path, "stats", "--json")
    assert json.loads(out)["maedn"]["kinds"] == {"bot (random)": {"seated": 2, "won": 2}}
    _code, out, _ = history(capsys, tmp_path, "stats")
    row = out.split("  player ")[1].splitlines()[1]
    assert row.split()[-4:] == ["2", "2", "100.0", "%"], out


def test_show_gives_the_opening_roll_as_both_sides_throws(
    table_games: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Backgammon's opening throw is one die each: white's and black's, then who
    begins, never one side's "3-5"."""
    record = stored(table_games, 1)
    first = record.history[0]  # type: ignore[attr-defined]
    white, black = first["dice"]
    code, out, _ = history(capsys, table_games, "show", "1")
    assert code == 0
    opening = next(line for line in out.splitlines() if line.startswith("   1  "))
    said = f"   1  opening roll: white {white}, black {black}"
    if white == black:
        assert opening == said + " · a tie, all throw again"
    else:
        assert opening == said + f" · {'white' if white > black else 'black'} begins"


def test_show_speaks_german_under_a_german_locale(
    table_games: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    code, out, _ = history(capsys, table_games, "show", "1")
    assert code == 0
    assert "   1  Anfangswurf: weiß " in out
    for english in (" zieht roll", " zieht take", " zieht double", " zieht drop", " plays "):
        assert english not in out
    assert ": würfeln\n" in out or ": doppeln\n" in out
    assert "  weiß: PR " in out and "  schwarz: PR " in out


# -- the simulator ----------------------------------------------------------------------------


def test_a_simulator_game_with_a_state_dir_is_in_the_history(tmp_path: Path) -> None:
    """`spieltisch sim --game minimaki --seats bot --state-dir DIR` plays a whole game in
    real time (pygame's dummy video driver); then `history list`, `show` and `export`
    see it, from another process, while the simulator still runs."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SPIELTISCH_SOLVE_MINIMAKI="0")
    command = [sys.executable, "-m", "controller", "sim", "--display", "pygame"]
    command += ["--game", "minimaki", "--seats", "bot", "--seed", "2"]
    command += ["--state-dir", str(tmp_path)]
    sim = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env
    )
    listing = ""
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and sim.poll() is None and " won" not in listing:
            time.sleep(0.5)
            listing = cli(tmp_path, "list").stdout
        assert sim.poll() is None, sim.communicate()[1]
    finally:
        sim.send_signal(signal.SIGTERM)
        _, err = sim.communicate(timeout=30)
    assert sim.returncode == 0 and "Traceback" not in err, err
    assert "Mini-Maki, standard" in listing.splitlines()[0], listing
    shown = cli(tmp_path, "show", "1")
    assert shown.returncode == 0 and "red human" not in shown.stdout
    assert "red bot (" in shown.stdout and "  red: " in shown.stdout
    exported = cli(tmp_path, "export", "1", str(tmp_path / "game.jsonl"))
    assert exported.returncode == 0, exported.stderr
    assert (tmp_path / "game.jsonl").read_text(encoding="utf-8").count("\n") > 2


def cli(state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller", "history", "--state-dir", str(state), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (Debian package gnubg) not installed")
def test_games_with_long_doubles_import_whole_into_gnu_backgammon(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Seeded bot games are played until three of them hold a play longer than the
    left column (doubles with hits, bar entries); each is recorded, exported with
    ``history export`` and imported by the real GNU Backgammon, which must see every
    play and cube action of every game, in order, with no warning."""
    state = tmp_path / "state"
    state.mkdir()
    store = HistoryStore(state)
    store.open()
    chosen = 0
    for seed in range(60):
        session = played("backgammon", "single", ["bot", "bot"], seed)
        events = replay(record_of(session, "finished", "2025-01-01T00:00:00+00:00", 2, "r"))
        if long_left_plays(events):
            store.add(record_of(session, "finished", f"2025-01-01T00:00:{seed:02d}+00:00", 2, "r"))
            chosen += 1
            if chosen == 3:
                break
    store.close()
    assert chosen == 3, "no three seeded games with long plays"
    for record_id in (1, 2, 3):
        target = tmp_path / f"game{record_id}.mat"
        code, _, err = history(capsys, state, "export", str(record_id), str(target))
        assert code == 0, err
        expected = actions(replay(stored(state, record_id)))  # type: ignore[arg-type]
        imported, said = gnubg_actions(target, tmp_path)
        assert "WARNING" not in said and "garbage" not in said, said[:2000]
        assert imported == expected
        assert isinstance(expected[0][0], str) and len(expected[0]) > 20
