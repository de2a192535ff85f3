"""The guest's half of the power-cut check (run with the installed venv's Python).

    boot_check.py check STATE_DIR      one line "VMCHECK {json}": the unit, the save, the history
    boot_check.py unfinished STATE_DIR exit 0 if an unfinished game is saved
    boot_check.py newgame STATE_DIR    save a fresh two-bot MÄDN game, "VMNEWGAME {json}"
    boot_check.py startup STATE_DIR [cold|warm]
                                       one line "VMSTARTUP {json}": the unit's exec ->
                                       READY (systemd's own time stamps) and a bare
                                       python -c 'import gpiozero, luma.core', twice

The history database is checked on a copy (database and WAL together), so the check
never writes to the table's files; the save is read as JSON, never moved aside.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def unit() -> dict[str, Any]:
    fields = [
        "ActiveState",
        "SubState",
        "NRestarts",
        "StatusText",
        "ExecMainStartTimestampMonotonic",
    ]
    out = subprocess.run(
        ["systemctl", "show", "spieltisch", *[f"-p{f}" for f in fields]],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    info = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    journal = subprocess.run(
        ["journalctl", "-b", "-u", "spieltisch", "--no-pager", "-o", "cat"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    info["resumed"] = "resuming" in journal
    info["tracebacks"] = journal.count("Traceback")
    with open("/proc/uptime") as fh:
        info["uptime"] = float(fh.read().split()[0])
    return info


def save(state: Path) -> dict[str, Any]:
    from controller.session import Session

    path = state / "session.json"
    info: dict[str, Any] = {"bad_files": sorted(p.name for p in state.glob("session.json.bad-*"))}
    if not path.exists():
        info["exists"] = False
        return info
    info["exists"] = True
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        session = Session.from_json(data)
    except Exception as exc:  # what is wrong is the finding
        info["sound"] = False
        info["error"] = f"{type(exc).__name__}: {exc}"[:200]
        return info
    info.update(
        sound=True,
        started=session.started,
        game=session.game,
        moves=len(session.history),
        finished=session.state.is_terminal(),
    )
    return info


def history(state: Path) -> dict[str, Any]:
    db = state / "history.sqlite3"
    if not db.exists():
        return {"exists": False, "integrity": "ok", "records": []}
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in ("", "-wal"):
            source = state / f"history.sqlite3{suffix}"
            if source.exists():
                shutil.copy2(source, Path(tmp) / source.name)
        connection = sqlite3.connect(Path(tmp) / "history.sqlite3")
        try:
            integrity = "; ".join(r[0] for r in connection.execute("PRAGMA integrity_check"))
            rows = connection.execute(
                "SELECT uid, started, outcome, moves FROM records ORDER BY id"
            ).fetchall()
        except sqlite3.Error as exc:
            return {"exists": True, "integrity": f"error: {exc}", "records": []}
        finally:
            connection.close()
    return {"exists": True, "integrity": integrity, "records": [list(r) for r in rows]}


def startup() -> dict[str, Any]:
    """The unit's last start, exec -> READY, from systemd's monotonic time stamps (for
    Type=notify the unit turns active at READY=1), beside the bare import of the two
    libraries no table starts without, timed twice from the same Python: the first run
    after the unit's start, so both read from a warm page cache, then once more."""
    fields = ["ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic"]
    out = subprocess.run(
        ["systemctl", "show", "spieltisch", *[f"-p{f}" for f in fields]],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    info = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    start, active = (int(info.get(f) or 0) for f in fields)
    bare = []
    for _ in range(2):
        begin = time.monotonic()
        subprocess.run([sys.executable, "-c", "import gpiozero, luma.core"], check=True, cwd="/")
        bare.append(round(time.monotonic() - begin, 3))
    return {
        "exec_to_ready_s": round((active - start) / 1e6, 3) if active > start > 0 else None,
        "bare_import_s": bare,
    }


def main() -> int:
    command, state = sys.argv[1], Path(sys.argv[2])
    if command == "check":
        report = {"unit": unit(), "save": save(state), "history": history(state)}
        print("VMCHECK " + json.dumps(report), flush=True)
        return 0
    if command == "unfinished":
        info = save(state)
        return 0 if info.get("sound") and not info.get("finished") else 1
    if command == "newgame":
        from controller.testing.files import write_bot_game

        # two random bots: about 400 rolls and moves, a few minutes at the VM's pace,
        # so the cuts land in the middle of games and games still finish between them
        session = write_bot_game(state, "maedn", "classic", 2, seed=random.randrange(10**6))
        print(
            "VMNEWGAME " + json.dumps({"started": session.started, "moves": len(session.history)})
        )
        return 0
    if command == "startup":
        label = sys.argv[3] if len(sys.argv) > 3 else "cold"
        print("VMSTARTUP " + json.dumps({"start": label, **startup()}), flush=True)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
