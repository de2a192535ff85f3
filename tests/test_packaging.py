"""The product as it is delivered, not as the editable checkout runs it.

The sdist is built from a clean copy of the checkout (only the files git tracks), the
wheel from that sdist, and the wheel is installed (not editable) into a fresh venv.
Its console script then runs from ``/``, where nothing of the checkout is importable:
the rules CLI, a whole text bot game, the selftest's help and the appliance itself on
fake hardware (luma's dummy panel, gpiozero's MockFactory pins), which must come up,
save and exit 0 on SIGTERM. A module the package discovery missed fails here with
ModuleNotFoundError, as it would for a user.

Slow (a build and a venv with dependencies from PyPI, once per module); CI runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.cli import main
from controller.persistence import SaveStore
from controller.testing.files import capture_config, lit, write_bot_game, write_config
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess, wait_for_saves
from tests.checkout import copy_checkout, tracked_files

pytestmark = pytest.mark.slow

PACKAGES = ("rules", "controller", "hardware")
NEUTRAL = Path("/")  # a working directory from which the checkout is not importable


def package_files(names: list[str]) -> set[str]:
    """The modules and data files under rules/, controller/ and hardware/."""
    return {name for name in names if name.split("/", 1)[0] in PACKAGES}


def run_cmd(
    command: list[str], cwd: Path = NEUTRAL, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    # The default build is the pure one, whatever the developer's shell asks for.
    env = {k: v for k, v in os.environ.items() if k != "SPIELTISCH_COMPILE"}
    return subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, check=False, timeout=timeout, env=env
    )


@dataclass(frozen=True)
class Delivered:
    sdist: Path
    wheel: Path
    venv: Path

    @property
    def spieltisch(self) -> Path:
        return self.venv / "bin" / "spieltisch"


@pytest.fixture(scope="module")
def delivered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Delivered]:
    """sdist and wheel built from a clean copy, the wheel installed into a fresh venv."""
    work = tmp_path_factory.mktemp("packaging")
    clean = work / "clone"
    copy_checkout(clean)
    out = work / "dist"
    # No --sdist/--wheel: build makes the sdist, then the wheel from the unpacked
    # sdist, so a file missing from the sdist is missing from the wheel too.
    built = run_cmd([sys.executable, "-m", "build", "--outdir", str(out), str(clean)])
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (sdist,) = out.glob("spieltisch-*.tar.gz")
    (wheel,) = out.glob("spieltisch-*.whl")
    venv = work / "venv"
    made = run_cmd([sys.executable, "-m", "venv", str(venv)])
    assert made.returncode == 0, made.stderr
    # The sim extra brings luma.emulator, whose capture device records the panel.
    installed = run_cmd([str(venv / "bin" / "python"), "-m", "pip", "install", f"{wheel}[sim]"])
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    yield Delivered(sdist, wheel, venv)


def version(delivered: Delivered) -> str:
    """The version in the wheel's file name (spieltisch-VERSION-py3-none-any.whl)."""
    return delivered.wheel.name.split("-")[1]


def test_the_checkout_lists_files_in_every_package() -> None:
    """Guards the comparisons below against an empty listing."""
    found = package_files(tracked_files())
    for package in PACKAGES:
        assert f"{package}/__init__.py" in found
        assert f"{package}/py.typed" in found  # PEP 561: the packages' type hints are theirs
    assert "controller/views/__init__.py" in found  # the subpackage a hand-kept list missed


BUILT_NOT_SHIPPED = {"rules/backgammon/_kernel.c"}
"""C sources in the packages: in the sdist, to build from; in a wheel only compiled (the
compiled build), never as source."""


def test_the_wheel_ships_every_module_and_data_file_and_nothing_else(
    delivered: Delivered,
) -> None:
    expected = package_files(tracked_files()) - BUILT_NOT_SHIPPED
    with zipfile.ZipFile(delivered.wheel) as wheel:
        names = [name for name in wheel.namelist() if not name.endswith("/")]
    shipped = package_files(names)
    assert sorted(expected - shipped) == []
    # pure Python unless SPIELTISCH_COMPILE=1 asks for the compiled build
    assert delivered.wheel.name.endswith("-py3-none-any.whl")
    assert not [name for name in names if name.endswith((".so", ".pyd", ".c"))]
    # nothing untracked (the clean copy has no caches) and no tests or tools
    assert sorted(shipped - expected) == []
    tops = {name.split("/", 1)[0] for name in names}
    assert tops - set(PACKAGES) == {f"spieltisch-{version(delivered)}.dist-info"}
    with zipfile.ZipFile(delivered.wheel) as wheel:
        entry_points = wheel.read(f"spieltisch-{version(delivered)}.dist-info/entry_points.txt")
    assert "spieltisch = controller.cli:main" in entry_points.decode()


def test_a_type_checker_reads_the_installed_packages_hints(delivered: Delivered) -> None:
    """The wheel marks its packages typed (``py.typed``): mypy, pointed at the installed
    venv, checks a script against their hints instead of refusing them as untyped."""
    script = (
        "import rules\n"
        "import hardware.specs\n"
        "from controller.config import load_config\n"
        "game: int = rules.get_game('maedn')\n"
    )
    checked = run_cmd(
        [
            sys.executable,
            "-m",
            "mypy",
            "--python-executable",
            str(delivered.venv / "bin" / "python"),
            "--no-incremental",
            "--follow-imports=silent",
            "-c",
            script,
        ]
    )
    assert "missing library stubs or py.typed marker" not in checked.stdout, checked.stdout
    assert checked.stdout.count("error:") == 1, checked.stdout
    assert 'Incompatible types in assignment (expression has type "Game"' in checked.stdout


def test_the_sdist_ships_every_module_and_data_file(delivered: Delivered) -> None:
    expected = package_files(tracked_files())
    prefix = f"spieltisch-{version(delivered)}/"
    with tarfile.open(delivered.sdist) as sdist:
        names = [m.name.removeprefix(prefix) for m in sdist.getmembers() if m.isfile()]
    assert sorted(expected - package_files(names)) == []
    assert {"pyproject.toml", "README.md"} <= set(names)


def test_the_installed_program_is_the_wheel_not_the_checkout(delivered: Delivered) -> None:
    where = run_cmd(
        [
            str(delivered.venv / "bin" / "python"),
            "-c",
            "import controller.views, hardware, rules; print(controller.views.__file__)",
        ]
    )
    assert where.returncode == 0, where.stderr
    location = Path(where.stdout.strip())
    assert location.is_relative_to(delivered.venv), location
    assert "site-packages" in location.parts


def test_rules_games_from_the_wheel(
    delivered: Delivered, capsys: pytest.CaptureFixture[str]
) -> None:
    """The installed rules CLI lists the same games and presets as the checkout."""
    result = run_cmd([str(delivered.spieltisch), "rules", "games"])
    assert result.returncode == 0, result.stderr
    assert main(["rules", "games"]) == 0
    assert json.loads(result.stdout) == json.loads(capsys.readouterr().out)
    names = {game["name"] for game in json.loads(result.stdout)["games"]}
    assert {"maedn", "kleiner_aerger", "backgammon", "minimaki"} <= names


def test_a_whole_text_bot_game_from_the_wheel(
    delivered: Delivered, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seeded bot game to its end, move for move the game the checkout plays."""
    args = ["sim", "--display", "text", "--game", "maedn", "--seed", "7", "--delay", "0"]
    result = run_cmd([str(delivered.spieltisch), *args], timeout=300)
    assert result.returncode == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert " wins after " in last and last.endswith("moves (seed 7)")
    assert main(args) == 0
    assert result.stdout == capsys.readouterr().out


def test_selftest_help_from_the_wheel(delivered: Delivered) -> None:
    result = run_cmd([str(delivered.spieltisch), "selftest", "--help"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: spieltisch selftest")


HARNESS_FROM_THE_WHEEL = """
import controller.testing.kill_loop  # the process harness the benchmarks use
from controller.testing.rig import ApplianceRig

rig = ApplianceRig(None, seats=("human", "human"))
rig.start()
rig.press(0, "next")
print(rig.table.menu.index, rig.frame().getbbox() is not None)
rig.close()
"""


def test_the_testing_harness_ships_in_the_wheel(delivered: Delivered) -> None:
    """``controller.testing`` (what the benchmarks drive the program with) works from an
    installed copy alone: a table on mock pins takes a press and lights the panel."""
    result = run_cmd([str(delivered.venv / "bin" / "python"), "-c", HARNESS_FROM_THE_WHEEL])
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "True"]


def test_the_appliance_from_the_wheel_on_fake_hardware(
    delivered: Delivered, tmp_path: Path
) -> None:
    """``spieltisch run`` with a dummy panel and mock GPIO pins: READY for systemd, then
    a bot game that is saved move by move, then SIGTERM: saved, exit 0."""
    config = write_config(tmp_path, seats=("bot",) * 4)
    state = tmp_path / "state"
    start = write_bot_game(state, "maedn", "classic", 4, seed=13)
    notify = NotifySocket()
    app = ApplianceProcess(config, state, notify, program=[str(delivered.spieltisch)], cwd=NEUTRAL)
    try:
        assert notify.wait_for("READY=1", timeout=120) is not None, app.stderr()
        seen = wait_for_saves(state, beyond=len(start.history))
        assert seen is not None, app.stderr()
        code, _ = app.terminate()
        assert code == 0, app.stderr()
        assert notify.wait_for("STOPPING=1", timeout=10) is not None
    finally:
        app.close()
        notify.close()
    saved = SaveStore(state).load()
    assert saved is not None
    assert len(saved.history) >= seen
    assert saved.history[: len(start.history)] == start.history
    assert "Traceback" not in app.stderr()
    assert "starting; rules: pure Python" in app.stderr()


def test_a_bad_game_key_lights_the_panel_from_the_wheel(
    delivered: Delivered, tmp_path: Path
) -> None:
    """A wrong ``[game] bot`` does not leave the table dark: the installed program shows
    the error on the panel (recorded by luma.emulator's capture device) and waits."""
    config = capture_config(tmp_path, '[game]\nbot = "grandmaster"\n')
    notify = NotifySocket()
    app = ApplianceProcess(
        config, tmp_path / "state", notify, program=[str(delivered.spieltisch)], cwd=NEUTRAL
    )
    try:
        assert notify.wait_for("READY=1", timeout=120) is not None, app.stderr()
        frames = tmp_path / "frames"
        for _ in range(600):
            shots = sorted(frames.glob("*.png"))
            if len(shots) >= 4 and any(lit(shot) for shot in shots[:-1]):
                break
            time.sleep(0.05)
        else:
            pytest.fail("the panel stayed dark:\n" + app.stderr())
        assert "game.bot: 'grandmaster' is not allowed" in app.stderr()
        assert app.process.poll() is None, "it exited instead of waiting for a fixed file"
        code, _ = app.terminate()
        assert code == 0, app.stderr()
    finally:
        app.close()
        notify.close()
