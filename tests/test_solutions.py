"""Mini-Maki's exact policy cached in the state directory (controller/solutions.py)."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest

from controller import solutions
from rules.minimaki import bot as bot_minimaki
from rules.minimaki.bot import POSITIONS, MinimakiSolution, installed_solution


@pytest.fixture(autouse=True)
def no_installed_solution() -> None:
    bot_minimaki._SOLUTIONS.clear()
    yield
    bot_minimaki._SOLUTIONS.clear()


def test_cached_solution_is_installed_at_start(tmp_path: Path) -> None:
    values = array("d", [0.25]) * POSITIONS
    solutions.write_atomically(
        tmp_path / solutions.CACHE_NAME, MinimakiSolution(False, values).to_bytes()
    )
    assert solutions.prepare(tmp_path, solve_if_missing=False) is None
    solution = installed_solution(False)
    assert solution is not None and solution.values[123] == 0.25
    assert not list(tmp_path.glob(".minimaki-*.tmp"))


def test_broken_cache_is_deleted_and_not_installed(tmp_path: Path) -> None:
    path = tmp_path / solutions.CACHE_NAME
    path.write_bytes(b"MMK1Xgarbage")
    assert solutions.install_cached(path) is False
    assert not path.exists() and installed_solution(False) is None


def test_missing_cache_without_solving_plays_on(tmp_path: Path) -> None:
    assert solutions.prepare(tmp_path, solve_if_missing=False) is None
    assert installed_solution(False) is None


def test_solver_command_line_needs_an_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert solutions.main([]) == 2
    assert "usage" in capsys.readouterr().err


def test_solver_is_not_started_when_switched_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The test suite (conftest) and any caller can switch the background solver off."""
    monkeypatch.setenv(solutions.SOLVE_ENV, "0")
    assert solutions.prepare(tmp_path) is None
    assert not (tmp_path / solutions.CACHE_NAME).exists()


def test_a_solver_stopped_on_shutdown_is_not_reported_as_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The appliance terminates an unfinished solver when it stops (it starts again
    next time); that is a normal shutdown, not an error in the journal."""
    import threading

    monkeypatch.setenv(solutions.SOLVE_ENV, "1")
    with caplog.at_level("INFO", logger="controller.solutions"):
        process = solutions.prepare(tmp_path)
        assert process is not None
        process.terminate()
        process.wait(timeout=30)
        for thread in threading.enumerate():
            if thread.name == "minimaki-solver":
                thread.join(timeout=30)
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
    assert "stopped" in caplog.text
    assert not (tmp_path / solutions.CACHE_NAME).exists()
