"""systemd/install.sh run for real, into a staging root instead of the machine.

``install.sh --root DIR`` writes every file under DIR (venv and source copy in
DIR/opt/spieltisch, unit and drop-ins, polkit rule, config, state directory) and records
the steps that need the real system (apt-get, users, chown, systemctl) in
DIR/install-actions.log instead of running them. One test walks an owner's whole
lifecycle: install, start the installed program the way the unit's ExecStart does (on
fake hardware), install again over it (an upgrade), uninstall.

The installer runs from a throw-away git clone of this checkout, so the upgrade can
change files there and commit, as ``git pull`` would. It uses the system's python3 (as
on Raspberry Pi OS) and pip downloads the dependencies, so this is slow; CI runs it.
pip reads its usual PIP_* environment variables (an index mirror, --find-links).
"""

from __future__ import annotations

import os
import platform
import pwd
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from controller.persistence import SaveStore
from controller.testing.files import write_bot_game, write_config
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess, wait_for_saves
from tests.checkout import copy_checkout, tracked_files

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
ACTIONS = "install-actions.log"
GIT = ["git", "-c", "user.name=spieltisch tests", "-c", "user.email=tests@spieltisch.invalid"]


def system_python_usable() -> bool:
    python = shutil.which("python3", path=SYSTEM_PATH)
    if python is None:
        return False
    code = "import sys, tomllib, venv, ensurepip; assert sys.version_info >= (3, 11)"
    probe = [python, "-c", code]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not system_python_usable(),
        reason="install.sh needs the system's python3 (3.11+, with venv), as on Raspberry Pi OS",
    ),
    pytest.mark.skipif(shutil.which("git") is None, reason="the test clones with git"),
]


def git(checkout: Path, *args: str) -> str:
    result = subprocess.run(
        [*GIT, "-C", str(checkout), *args], capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def make_checkout(directory: Path) -> str:
    """A git repository holding this checkout's tracked files; returns its revision."""
    copy_checkout(directory)
    git(directory, "init", "-q")
    git(directory, "add", "-A")
    git(directory, "commit", "-q", "-m", "the checkout under test")
    return git(directory, "describe", "--always", "--dirty")


def install(
    checkout: Path, root: Path, *args: str, env_extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = SYSTEM_PATH
    env.update(env_extra or {})
    result = subprocess.run(
        ["bash", str(checkout / "systemd" / "install.sh"), "--root", str(root), *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        # from the clone, as the guide says (cd spieltisch && sudo systemd/install.sh): a
        # python started there must still report the installed build, not the clone's
        cwd=checkout,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return result


def recorded(root: Path, run: str) -> list[str]:
    """The system commands recorded by the installer's last run of kind ``run``
    (install, upgrade or uninstall)."""
    lines = (root / ACTIONS).read_text(encoding="utf-8").splitlines()
    start = len(lines) - 1 - lines[::-1].index(f"# install.sh: {run}")
    section = []
    for line in lines[start + 1 :]:
        if line.startswith("# install.sh:"):
            break
        section.append(line)
    return section


def files_under(directory: Path) -> set[str]:
    return {p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file()}


def exec_start(unit: Path, root: Path) -> list[str]:
    """The unit's ExecStart= with its paths moved into the staging root (%E is the
    configuration directory, /etc)."""
    (line,) = [
        raw.partition("=")[2]
        for raw in unit.read_text(encoding="utf-8").splitlines()
        if raw.startswith("ExecStart=")
    ]
    words = line.replace("%E", "/etc").split()
    return [str(root / w.lstrip("/")) if w.startswith("/") else w for w in words]


def site_packages(venv: Path) -> Path:
    (found,) = venv.glob("lib/python3*/site-packages")
    return found


def test_install_run_upgrade_uninstall_in_a_staging_root(tmp_path: Path) -> None:
    checkout = tmp_path / "spieltisch"
    root = tmp_path / "pi"
    first_revision = make_checkout(checkout)
    user_existed = user_exists("spieltisch")

    check_first_install(
        checkout, root, install(checkout, root, "--panel", "ws2812"), first_revision
    )
    check_a_rerun_reuses_the_venv_and_changes_the_panel(checkout, root)
    save = check_the_unit_runs_the_installed_program(root)
    check_upgrade(checkout, root, first_revision, save)
    check_uninstall(checkout, root, save)

    assert user_exists("spieltisch") == user_existed  # nothing ran on the host


def user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def check_first_install(
    checkout: Path, root: Path, result: subprocess.CompletedProcess[str], revision: str
) -> None:
    """Every file in place, every system step recorded (in order), none run."""
    prefix = root / "opt" / "spieltisch"
    venv, src = prefix / "venv", prefix / "src"
    # the venv, with the system's site packages (Debian's lgpio on a Pi) and the pi extra
    assert (venv / "bin" / "spieltisch").is_file()
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    spidev = subprocess.run([str(venv / "bin" / "python"), "-c", "import spidev"], check=False)
    assert spidev.returncode == 0
    # the pi extra one package at a time, a line each; the ARM-only ones are skipped here
    assert re.search(r"^pi extra: spidev \d", result.stdout, re.MULTILINE)
    if platform.machine() not in ("aarch64", "armv7l", "armv6l"):
        for name in ("lgpio", "rpi_ws281x"):
            assert f"pi extra: {name}: not for this machine ({platform.machine()})" in result.stdout
    assert (site_packages(venv) / "controller" / "views" / "__init__.py").is_file()
    # the source copy: the checkout's files that build and document it, and nothing else
    tracked = set(tracked_files(checkout))
    copied = files_under(src) - {"REVISION"}
    assert copied <= tracked
    needed = {"pyproject.toml", "setup.py", "README.md", "config.example.toml"} | {
        name for name in tracked if name.split("/", 1)[0] in ("rules", "controller", "hardware")
    }
    assert sorted(needed - copied) == []
    assert (src / "REVISION").read_text().strip() == revision
    # the unit, the ws2812 drop-in (the example config chooses ws2812), the polkit rule
    etc = root / "etc"
    unit = etc / "systemd" / "system" / "spieltisch.service"
    assert unit.read_bytes() == (checkout / "systemd" / "spieltisch.service").read_bytes()
    drop_in = etc / "systemd" / "system" / "spieltisch.service.d" / "ws2812.conf"
    assert drop_in.read_bytes() == (checkout / "systemd" / "ws2812.conf").read_bytes()
    rule = etc / "polkit-1" / "rules.d" / "50-spieltisch-poweroff.rules"
    assert rule.read_bytes() == (checkout / "systemd" / "50-spieltisch-poweroff.rules").read_bytes()
    # the config from the example, checked; the state directory, private to the service
    config = etc / "spieltisch" / "config.toml"
    # (--panel ws2812 is what the example chooses: the file is the example byte for byte)
    assert config.read_bytes() == (checkout / "config.example.toml").read_bytes()
    assert f"{config}: ok: ws2812 16x16" in result.stdout
    state = root / "var" / "lib" / "spieltisch"
    assert stat.S_IMODE(state.stat().st_mode) == 0o750
    assert stat.S_IMODE(config.parent.stat().st_mode) == 0o775  # group: the service
    assert list(state.iterdir()) == []
    # what it would have done to the system, in this order
    actions = recorded(root, "install")
    # Raspberry Pi OS's own packages only where the archive has them (asked of this host)
    # (and numpy, for the Backgammon bot's fast path where the C kernel is not built)
    wanted = ("python3-lgpio", "python3-spidev", "python3-numpy")
    optional = [p for p in wanted if in_archive(p)]
    for package in set(wanted) - set(optional):
        assert f"{package}: not in this system's archive" in result.stdout
    expected = [
        "apt-get update",
        " ".join(
            [
                "apt-get install -y --no-install-recommends python3-venv python3-dev",
                "build-essential polkitd espeak-ng alsa-utils",
                *optional,
            ]
        ),
        "groupadd --force --system gpio",
        "groupadd --force --system spi",
        "groupadd --force --system dialout",
        "groupadd --force --system audio",
        "useradd --system --user-group --home-dir /var/lib/spieltisch --no-create-home "
        "--shell /usr/sbin/nologin --comment spieltisch\\ game\\ table spieltisch",
        "usermod --append --groups gpio\\,spi\\,dialout\\,audio spieltisch",
        f"chgrp spieltisch {etc / 'spieltisch'}",  # the page's Setup saves the config
        f"chown spieltisch:spieltisch {state}",
        "systemctl daemon-reload",
        "systemctl enable spieltisch.service spieltisch-update.path "
        "spieltisch-update-check.service",
        "systemctl restart spieltisch.service",
    ]
    assert actions == expected
    # the program is a release beside which the next one will go, chosen by "current"
    name = f"0.1.0-{revision}"
    assert os.readlink(prefix / "current") == f"releases/{name}"
    assert os.readlink(venv) == "current/venv" and os.readlink(src) == "current/src"
    assert not (prefix / "previous").exists()
    for unit in (
        "spieltisch-rollback.service",
        "spieltisch-update-check.service",
        "spieltisch-update.service",
        "spieltisch-update.path",
    ):
        installed = etc / "systemd" / "system" / unit
        assert installed.read_bytes() == (checkout / "systemd" / unit).read_bytes()
    project_key = checkout / "systemd" / "keys" / "spieltisch-project.pub"
    assert (etc / "spieltisch-keys" / project_key.name).read_bytes() == project_key.read_bytes()
    assert f"program: new, 0.1.0 (git {revision})" in result.stdout
    # the rules compiled, as on a Pi (where step 1 installs the compiler)
    report = result.stdout[result.stdout.index("== done") :].splitlines()
    # the build named is the one on disk, though the installer ran from the clone,
    # whose own rules/ a python started there would import
    # (the Backgammon evaluation's C kernel, built beside them, is no mypyc module)
    built = site_packages(venv).glob("rules/**/*.so")
    compiled = len([so for so in built if not so.name.startswith("_kernel.")])
    if shutil.which("cc", path=SYSTEM_PATH) is not None:
        assert compiled > 0
        assert f"rules: compiled (mypyc), {compiled} modules" in report
    else:
        assert compiled == 0
        assert "rules: pure Python" in report
    # GPIO: one line says which pin library the table will use
    (gpio,) = [line for line in report if line.startswith("GPIO: ")]
    lgpio = subprocess.run([str(venv / "bin" / "python"), "-I", "-c", "import lgpio"], check=False)
    if lgpio.returncode == 0:
        assert gpio.startswith("GPIO: lgpio")
    else:
        assert gpio.startswith("GPIO: gpiozero's native pin factory")
        native = etc / "systemd" / "system" / "spieltisch.service.d" / "gpio.conf"
        assert "Environment=GPIOZERO_PIN_FACTORY=native" in native.read_text().splitlines()


def in_archive(package: str) -> bool:
    """Does this host's apt offer ``package``?"""
    result = subprocess.run(
        ["apt-cache", "policy", package], capture_output=True, text=True, check=False
    )
    candidates = [line.split()[1] for line in result.stdout.splitlines() if "Candidate:" in line]
    return bool(candidates) and candidates[0] != "(none)"


def check_a_rerun_reuses_the_venv_and_changes_the_panel(checkout: Path, root: Path) -> None:
    """Nothing new to install: the same venv and build are kept (no venv, no pip), and
    --panel none rewrites only the display type; the unit then waits for a panel."""
    prefix = root / "opt" / "spieltisch"
    venv = prefix / "venv"
    modules = sorted(site_packages(venv).glob("rules/**/*.so")) or [venv / "bin" / "spieltisch"]
    before = [(m, m.stat().st_ino, m.stat().st_mtime_ns) for m in modules]
    config = root / "etc" / "spieltisch" / "config.toml"
    example = config.read_text(encoding="utf-8")
    # As an install from before releases had it: a real venv and src in the prefix. The
    # installer moves them into releases/ (renames: the same files) and reuses them.
    release = prefix / os.readlink(prefix / "current")
    for item in ("venv", "src", "current"):
        (prefix / item).unlink()
    (release / "venv").rename(venv)
    (release / "src").rename(prefix / "src")
    release.rmdir()

    result = install(checkout, root, "--panel", "none")

    assert os.readlink(prefix / "current") == f"releases/{release.name}"
    assert os.readlink(venv) == "current/venv"
    assert f"migrated: {venv} and {prefix / 'src'} into {release}" in result.stdout
    assert "/venv/bin/pip install" not in result.stdout
    assert "-m venv" not in result.stdout
    assert [(m, m.stat().st_ino, m.stat().st_mtime_ns) for m in modules] == before
    report = result.stdout[result.stdout.index("== done") :].splitlines()
    assert any(line.startswith(f"reused: {venv} (inputs ") for line in report), report
    assert any(line.startswith("rules: ") for line in report)
    assert f"updated: {config} (display.type ws2812 -> none, the rest kept)" in report
    assert config.read_text(encoding="utf-8") == example.replace(
        'type = "ws2812"', 'type = "none"', 1
    )
    assert f"{config}: ok: no panel chosen yet (display.type none)" in result.stdout
    drop_in = root / "etc" / "systemd" / "system" / "spieltisch.service.d" / "ws2812.conf"
    assert not drop_in.exists()


def check_the_unit_runs_the_installed_program(root: Path) -> bytes:
    """The installed config pointed at fake hardware (luma's dummy panel, gpiozero's
    mock pins), then the unit's ExecStart with STATE_DIRECTORY as systemd sets it:
    READY, a bot game saved move by move, SIGTERM, exit 0. Returns the save."""
    etc = root / "etc"
    config = write_config(etc / "spieltisch", seats=("bot",) * 4)
    command = exec_start(etc / "systemd" / "system" / "spieltisch.service", root)
    program = root / "opt" / "spieltisch" / "venv" / "bin" / "spieltisch"
    assert command == [str(program), "run", "--config", str(config)]
    state = root / "var" / "lib" / "spieltisch"
    start = write_bot_game(state, "maedn", "classic", 4, seed=21)
    notify = NotifySocket()
    app = ApplianceProcess(
        config, state, notify, program=command[:1], as_unit=True, cwd=Path("/"), log_dir=root.parent
    )
    try:
        assert notify.wait_for("READY=1", timeout=120) is not None, app.stderr()
        assert wait_for_saves(state, beyond=len(start.history)) is not None, app.stderr()
        code, _ = app.terminate()
        assert code == 0, app.stderr()
    finally:
        app.close()
        notify.close()
    assert "resuming" in app.stderr()
    saved = SaveStore(state).load()
    assert saved is not None and len(saved.history) > len(start.history)
    return (state / "session.json").read_bytes()


def check_upgrade(checkout: Path, root: Path, first_revision: str, save: bytes) -> None:
    """After a "git pull" (one module changed, a data file added, a file removed) the
    installer runs again: the new code is installed, the config (edited for fake
    hardware) and the save stay byte for byte, and it says what it changed."""
    cli = checkout / "controller" / "cli" / "command.py"
    cli.write_text(cli.read_text(encoding="utf-8") + "# upgraded\n", encoding="utf-8")
    (checkout / "hardware" / "NOTES.txt").write_text("shipped as package data\n")
    (checkout / "wiring.md").unlink()
    git(checkout, "add", "-A")
    git(checkout, "commit", "-q", "-m", "an upgrade")
    revision = git(checkout, "describe", "--always", "--dirty")
    config = root / "etc" / "spieltisch" / "config.toml"
    edited = config.read_bytes()

    # No compiler this time: the installer falls back to the pure-Python rules and says so.
    result = install(checkout, root, env_extra={"CC": "/nonexistent/cc"})

    no_compiler = (
        "install.sh: the rules run as pure Python: "
        "compiling needs a C compiler and the Python headers"
    )
    assert result.stdout.splitlines().count(no_compiler) == 1
    assert not list(site_packages(root / "opt" / "spieltisch" / "venv").glob("rules/**/*.so"))
    assert config.read_bytes() == edited
    state = root / "var" / "lib" / "spieltisch"
    assert (state / "session.json").read_bytes() == save
    site = site_packages(root / "opt" / "spieltisch" / "venv")
    installed_cli = site / "controller" / "cli" / "command.py"
    assert installed_cli.read_text(encoding="utf-8").endswith("# upgraded\n")
    assert (site / "hardware" / "NOTES.txt").is_file()
    assert not (root / "opt" / "spieltisch" / "src" / "wiring.md").exists()
    report = result.stdout[result.stdout.index("== done") :]
    unit_dir = root / "etc" / "systemd" / "system"
    for line in (
        f"program: 0.1.0 (git {first_revision}) -> 0.1.0 (git {revision})",
        "rules: pure Python",
        "  updated: controller/cli/command.py",
        "  new: hardware/NOTES.txt",
        "  removed: wiring.md",
        f"kept: {config}",
        f"kept: {state} (1 save file(s))",
        f"unchanged: {unit_dir}/spieltisch.service",
        f"unchanged: {root}/etc/polkit-1/rules.d/50-spieltisch-poweroff.rules",
    ):
        assert line in report.splitlines(), f"{line!r} not in\n{report}"
    # the user exists since the first run: not created again
    actions = recorded(root, "upgrade")
    assert not [a for a in actions if a.startswith("useradd")]
    assert actions[-1] == "systemctl restart spieltisch.service"
    # the upgrade is a second release beside the first, which stays as the way back
    prefix = root / "opt" / "spieltisch"
    assert os.readlink(prefix / "current") == f"releases/0.1.0-{revision}"
    assert os.readlink(prefix / "previous") == f"releases/0.1.0-{first_revision}"
    assert sorted(p.name for p in (prefix / "releases").iterdir()) == sorted(
        [f"0.1.0-{revision}", f"0.1.0-{first_revision}"]
    )


def check_uninstall(checkout: Path, root: Path, save: bytes) -> None:
    """Everything goes except the saves (and the staging root's action log); the
    message says where the saves are."""
    state = root / "var" / "lib" / "spieltisch"
    result = install(checkout, root, "--uninstall")
    # the saves, and the table's disk reserve for the save that ends a game
    assert files_under(root) == {
        ACTIONS,
        "var/lib/spieltisch/session.json",
        "var/lib/spieltisch/.reserve",
    }
    assert (state / "session.json").read_bytes() == save
    assert f"kept: the saved games in {state}" in result.stdout
    assert recorded(root, "uninstall") == [
        "systemctl disable --now spieltisch.service",
        "systemctl disable --now spieltisch-rollback.service",
        "systemctl disable --now spieltisch-update-check.service",
        "systemctl disable --now spieltisch-update.service",
        "systemctl disable --now spieltisch-update.path",
        "systemctl daemon-reload",
        "userdel spieltisch",
    ]


def test_the_pi_extra_is_read_from_the_project_file(tmp_path: Path) -> None:
    """The installer and the VM run take the pi extra's list from pyproject.toml alone,
    with the markers for this machine's pip, and bare for fetching another's sources."""
    helper = [sys.executable, str(ROOT / "systemd" / "pi_extra.py")]
    with (ROOT / "pyproject.toml").open("rb") as handle:
        extra = tomllib.load(handle)["project"]["optional-dependencies"]["pi"]
    plain = subprocess.run(
        [*helper, str(ROOT / "pyproject.toml")], capture_output=True, text=True, check=True
    )
    assert plain.stdout.splitlines() == extra
    bare = subprocess.run(
        [*helper, "--bare", str(ROOT / "pyproject.toml")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert [line.split(">=")[0] for line in bare.stdout.splitlines()] == [
        "lgpio",
        "spidev",
        "rpi_ws281x",
    ]
    assert ";" not in bare.stdout
    for wrong in (tmp_path, tmp_path / "missing.toml"):
        failed = subprocess.run([*helper, str(wrong)], capture_output=True, text=True, check=False)
        assert failed.returncode == 1
        assert failed.stdout == ""
        assert len(failed.stderr.splitlines()) == 1 and "no pi extra" in failed.stderr


def test_the_fast_extra_is_read_from_the_project_file() -> None:
    """The installer installs the fast extra (numpy) from the same list as pip would."""
    helper = [sys.executable, str(ROOT / "systemd" / "pi_extra.py"), "--extra", "fast"]
    with (ROOT / "pyproject.toml").open("rb") as handle:
        extra = tomllib.load(handle)["project"]["optional-dependencies"]["fast"]
    listed = subprocess.run(
        [*helper, str(ROOT / "pyproject.toml")], capture_output=True, text=True, check=True
    )
    assert listed.stdout.splitlines() == extra
    assert [line.split(">=")[0] for line in extra] == ["numpy"]
    unknown = subprocess.run(
        [*helper[:-1], "nothing", str(ROOT / "pyproject.toml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert unknown.returncode == 1 and "no nothing extra" in unknown.stderr
