"""The command line speaks the locale's language: argparse's usage errors, the one-line
error of a failing command, and ``selftest``'s report (they stayed English under a
German locale while the panel spoke German)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def spieltisch(*args: str, lang: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LANG=lang, SDL_VIDEODRIVER="dummy")
    env.pop("DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "controller", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )


def test_usage_errors_speak_german_under_a_german_locale() -> None:
    done = spieltisch("sim", "--size", "7", lang="de_DE.UTF-8")
    assert done.returncode == 2
    assert done.stderr == (
        "spieltisch sim: Fehler: Argument --size: '7' ist keine Größe einer Anzeige "
        "(möglich: 16, 32, 32x8, 8x8) (siehe --help)\n"
    )
    done = spieltisch("history", lang="de_DE.UTF-8")
    assert done.returncode == 2
    assert (
        done.stderr
        == "spieltisch history: Fehler: diese Argumente fehlen: COMMAND (siehe --help)\n"
    )
    english = spieltisch("sim", "--size", "7", lang="C.UTF-8")
    assert english.stderr.startswith("spieltisch sim: error: argument --size: '7' is not a panel")
    done = spieltisch("sim", "--display", "fenster", lang="de_DE.UTF-8")
    assert "Argument --display: ungültige Wahl: 'fenster' (möglich: " in done.stderr


def test_a_failing_command_says_fehler() -> None:
    done = spieltisch("history", "--state-dir", "/nonexistent/x", "list", lang="de_DE.UTF-8")
    assert done.returncode == 2
    assert done.stderr.startswith("spieltisch: Fehler: ") and done.stderr.count("\n") == 1


def test_selftest_reports_in_german() -> None:
    args = ["selftest", "--display", "dummy", "--skip-buttons", "--step-ms", "0"]
    done = spieltisch(*args, "--colour-s", "0", lang="de_DE.UTF-8")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Selbsttest: ")
    assert lines[1] == "LED-Lauf: 256 LEDs einzeln nacheinander, Reihe für Reihe von oben links"
    assert lines[-1] == "Selbsttest: 256 LEDs geprüft, Tasten übersprungen"


def test_the_simulators_checks_speak_the_language_asked_for() -> None:
    """``--lang de`` (or the locale) also for the checks made before anything opens."""
    kinds = "human, bot, empty, coached, random, beginner, casual, advanced, expert, strong"
    expected = f"spieltisch: Fehler: --seats: 'bto' ist keine Platzart ({kinds}) in "
    done = spieltisch("sim", "--lang", "de", "--seats", "human,bto", lang="C.UTF-8")
    assert done.returncode == 2 and done.stderr == expected + "'human,bto'\n"
    done = spieltisch("sim", "--seats", "human,bto", lang="de_DE.UTF-8")
    assert done.returncode == 2 and done.stderr == expected + "'human,bto'\n"
