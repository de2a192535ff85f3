"""A language the table lacks, asked for by a person at a shell: the real program,
started as a family's builder starts it, says one line and exits 2.

The in-process checks (tests/test_language_setting.py) call ``main``; these start the
installed ``spieltisch`` (or ``python -m controller``) in a process of its own, so the
exit status and stderr are what the shell sees, with nothing else written around them.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from controller.testing.process import spieltisch_command

CONFIG = '[display]\ntype = "dummy"\nwidth = 16\nheight = 16\n[table]\nlanguage = "xx"\n'


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*spieltisch_command(), *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SDL_VIDEODRIVER": "dummy"},
        check=False,
    )


def test_sim_lang_xx_is_one_line_and_exit_2() -> None:
    done = run("sim", "--display", "text", "--lang", "xx")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "spieltisch: error: language 'xx' is not one the table speaks (choose de or en)"
    ]


@pytest.mark.parametrize("command", [["sim", "--display", "text"], ["config", "check"]])
def test_a_config_with_language_xx_is_one_line_and_exit_2(
    tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    args = [*command, "--config", str(path)] if command[0] == "sim" else [*command, str(path)]
    done = run(*args)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"spieltisch: error: {path}: table.language: 'xx' is not allowed; allowed: 'de', 'en'"
    ]
