"""A fixed set of commands that print or draw, with their outputs written to a folder.

Why: a refactor of the controller must change nothing a user sees except the defects it
fixes. Run this before and after (``python -m tests.record_outputs DIR``) and compare
the two folders (``diff -r``): every file is one command's output, byte for byte.

The set: ``spieltisch rules`` JSON for every game, ``spieltisch sim --display text``
games with seeds, ``spieltisch history`` over games played at an in-process table, every
golden scene drawn at each of its layouts (as a hash of its pixels), and timelines:
whole seeded games at a table on a fake clock, each frame's time, pixel hash and status
line.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from controller import views
from controller.table import TableOptions
from tests.timeline import Timeline
from tests.views_scenes import SCENES, golden_cases

GAMES = {
    "maedn": ["classic", "lingo", "schmidt"],
    "kleiner_aerger": ["standard"],
    "backgammon": ["single", "money", "match5"],
    "minimaki": ["standard", "diagonal", "two_player"],
}


def cli(*argv: str, stdin: str | None = None) -> str:
    """``spieltisch ARGV`` in a fresh process: its exit code, stdout and stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "controller", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    return f"exit {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"


def rules_outputs() -> dict[str, str]:
    out = {"rules_games": cli("rules", "games")}
    for game, presets in GAMES.items():
        for preset in presets:
            new = cli("rules", "new", game, "--preset", preset)
            out[f"rules_new_{game}_{preset}"] = new
            out[f"rules_play_{game}_{preset}"] = cli(
                "rules", "play", game, "--preset", preset, "--games", "3", "--seed", "7"
            )
    state = json.loads(cli("rules", "new", "maedn").split("--- stdout\n")[1].split("---")[0])
    rolled = cli("rules", "apply", "maedn", "--state", "-", "--dice", "6", stdin=json.dumps(state))
    out["rules_apply_maedn"] = rolled
    body = rolled.split("--- stdout\n")[1].split("--- stderr")[0]
    out["rules_moves_maedn"] = cli("rules", "moves", "maedn", "--state", "-", stdin=body)
    out["rules_moves_maedn_6"] = cli(
        "rules", "moves", "maedn", "--state", "-", "--dice", "6", stdin=json.dumps(state)
    )
    out["rules_show_maedn"] = cli("rules", "show", "maedn", "--state", "-", stdin=body)
    bg = cli("rules", "new", "backgammon", "--first", "white").split("--- stdout\n")[1]
    bg = bg.split("--- stderr")[0]
    out["rules_show_backgammon"] = cli("rules", "show", "backgammon", "--state", "-", stdin=bg)
    return out


def text_sim_outputs() -> dict[str, str]:
    out = {}
    runs = [
        ("maedn", "classic", 4, 1),
        ("maedn", "lingo", 3, 2),
        ("kleiner_aerger", "standard", 4, 3),
        ("backgammon", "single", 2, 4),
        ("backgammon", "match5", 2, 5),
        ("minimaki", "standard", 1, 6),
        ("minimaki", "two_player", 2, 7),
    ]
    for game, preset, players, seed in runs:
        args = ["sim", "--display", "text", "--game", game, "--preset", preset]
        args += ["--players", str(players), "--seed", str(seed), "--delay", "0"]
        out[f"sim_text_{game}_{preset}_{seed}"] = cli(*args)
    return out


CLOCK_TIMES = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(\+00:00)?")
LENGTHS = re.compile(r"(moves, )(<1|\d+) min\b")


def wall_clock_free(text: str) -> str:
    """The history prints when each game was played and how long it took by the wall
    clock: the two things that differ (a game played in-process takes under a minute on
    a quiet machine and over one on a busy one)."""
    return LENGTHS.sub(r"\1<length>", CLOCK_TIMES.sub("<time>", text))


def history_outputs() -> dict[str, str]:
    from tests.history_games import table_game

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp)
        table_game(state, "maedn", "classic", 4, 11).close()
        table_game(state, "backgammon", "match5", 2, 12).close()
        table_game(state, "minimaki", "two_player", 2, 13).close()
        base = ["history", "--state-dir", str(state)]
        out["history_list"] = cli(*base, "list")
        out["history_list_json"] = cli(*base, "list", "--json")
        out["history_stats"] = cli(*base, "stats")
        for number in (1, 2, 3):
            out[f"history_show_{number}"] = cli(*base, "show", str(number))
            out[f"history_show_{number}_json"] = cli(*base, "show", str(number), "--json")
        out["history_export_2"] = cli(*base, "export", "2", "-")
    return {key: wall_clock_free(text) for key, text in out.items()}


def golden_outputs() -> dict[str, str]:
    lines = []
    for name, width, height, mode in golden_cases():
        image = views.render(SCENES[name](), width, height, mode)
        digest = hashlib.sha256(image.tobytes()).hexdigest()[:16]
        lines.append(f"{name} {width}x{height} {mode} {digest}")
    return {"golden": "\n".join(lines) + "\n"}


def table_timeline(game: str, preset: str, seats: int, seed: int, size: int = 16) -> str:
    """A whole game of seeded random bots at a table: every frame's time, hash and
    status line."""
    from controller.session import Session

    line = Timeline(TableOptions(bot="random", seat_count=max(seats, 2)), size=size)
    session = Session.start(game, preset, ["bot"] * seats, seed=seed, bot="random")
    line.table.start_session(session)
    line.step()
    rows = []
    seen = 0

    def note() -> None:
        nonlocal seen
        for frame in line.frames[seen:]:
            digest = hashlib.sha256(frame.image.tobytes()).hexdigest()[:12]
            rows.append(f"{frame.at:9.3f} {digest}")
        seen = len(line.frames)
        status = line.table.status()
        looks = " | ".join(look.label for look in status.seats)
        rows.append(f"  status: {status.text}  [{looks}]")

    for _ in range(20000):
        note()
        if line.table.state.value == "game_over":
            line.run_for(7.0)
            note()
            break
        wake = line.next_deadline()
        if wake is None:
            break
        line.clock.advance_to(wake)
        line.step()
    return "\n".join(rows) + "\n"


def timeline_outputs() -> dict[str, str]:
    return {
        "timeline_maedn": table_timeline("maedn", "classic", 2, 21),
        "timeline_backgammon": table_timeline("backgammon", "single", 2, 22),
        "timeline_minimaki_solo": table_timeline("minimaki", "standard", 1, 23),
        "timeline_minimaki_two": table_timeline("minimaki", "two_player", 2, 24, size=32),
    }


SECTIONS: dict[str, Callable[[], dict[str, str]]] = {
    "rules": rules_outputs,
    "sim": text_sim_outputs,
    "history": history_outputs,
    "golden": golden_outputs,
    "timeline": timeline_outputs,
}


def record(folder: Path, only: list[str] | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, section in SECTIONS.items():
        if only and name not in only:
            continue
        for key, text in section().items():
            (folder / f"{key}.txt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    record(Path(sys.argv[1]), sys.argv[2:] or None)
