"""Applying an update: installed beside the running release, checked, switched; confirmed
or rolled back (with the history copy that fits the old release); never during a game;
and the migration of an older install into the releases layout.

The releases are real venvs made from small real wheels (tests/update_fixtures.py);
``systemctl`` is a real program that records what it was asked and answers ``show``
from a file the test writes, as the unit's state would.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from controller.history.store import HistoryStore
from controller.release.layout import ReleaseLayout, migrate, switch
from controller.release.notice import read_notice
from controller.testing.files import write_bot_game
from tests.update_fixtures import (
    fake_systemctl,
    installed_table,
    spieltisch,
    systemctl_calls,
    toy_bundle,
    update,
)


@pytest.fixture
def table(tmp_path: Path) -> dict[str, Path]:
    return installed_table(tmp_path, history=True)


def unit_state(table: dict[str, Path], text: str) -> None:
    (table["systemd"] / "unit-state").write_text(text, encoding="utf-8")


def test_update_confirm_then_a_broken_release_is_refused_before_the_switch(
    table: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = ReleaseLayout(table["prefix"])
    bundle = toy_bundle(table["tmp"] / "b2.tar", table["private"], "0.2.0")
    # relative paths, as typed in a shell: the new release's checks still find it
    monkeypatch.chdir(table["tmp"])
    fake_systemctl(table["systemd"])
    result = spieltisch(
        "update",
        "--prefix",
        "opt",
        "--state-dir",
        "state",
        "--keys",
        "state/keys",
        "--config",
        "no-config.toml",
        "--systemctl",
        f"{sys.executable} {table['systemd'] / 'systemctl.py'}",
        "--trial-dropin",
        "systemd/run/update-trial.conf",
        "apply",
        "b2.tar",
    )
    assert result.returncode == 0, result.stderr
    assert "switched to 0.2.0 (was 0.1.0)" in result.stdout
    assert layout.current_name() == "0.2.0" and layout.previous_name() == "0.1.0"
    assert (table["prefix"] / "venv").resolve() == layout.release("0.2.0") / "venv"
    assert not (layout.release("0.2.0") / "INCOMPLETE").exists()
    ran = subprocess.run(
        [str(table["prefix"] / "venv" / "bin" / "spieltisch"), "x"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "toy spieltisch 0.2.0" in ran.stdout
    assert "restart --no-block spieltisch.service" in systemctl_calls(table["systemd"])
    # the trial's start limit, where it was told to go (not the host's /run)
    dropin = table["systemd"] / "run" / "update-trial.conf"
    assert "StartLimitBurst=4" in dropin.read_text()
    state = json.loads((table["state"] / "update" / "state.json").read_text())
    assert (state["phase"], state["from"], state["to"]) == ("trial", "0.1.0", "0.2.0")
    assert Path(state["history_copy"]).is_file()

    again = update(table, "apply", str(bundle))
    assert again.returncode == 2 and "still being tried" in again.stderr

    unit_state(table, "ActiveState=active\nNRestarts=0")
    confirmed = update(table, "check", "--settle", "0")
    assert confirmed.returncode == 0, confirmed.stderr
    assert "update to 0.2.0 confirmed" in confirmed.stdout
    assert not dropin.exists()
    assert read_notice(table["state"]) is not None

    broken = toy_bundle(table["tmp"] / "b3.tar", table["private"], "0.3.0", broken=True)
    refused = update(table, "apply", str(broken))
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1
    assert "fails its self-test" in refused.stderr
    assert layout.current_name() == "0.2.0" and layout.previous_name() == "0.1.0"
    assert layout.names() == ["0.1.0", "0.2.0"]


def test_a_release_from_a_bundle_has_what_an_installed_one_has(table: dict[str, Path]) -> None:
    """The docs the units name and the config example come with the bundle: the prefix's
    ``src`` link leads to them after the switch, as after an install; and the new venv
    sees the system's packages when the running one did."""
    checkout = table["tmp"] / "checkout"
    (checkout / "docs").mkdir(parents=True)
    (checkout / "docs" / "install.md").write_text("# Install\n")
    (checkout / "config.example.toml").write_text("[game]\n")
    sources = {
        "docs/install.md": checkout / "docs" / "install.md",
        "config.example.toml": checkout / "config.example.toml",
    }
    bundle = toy_bundle(table["tmp"] / "b2.tar", table["private"], "0.2.0", sources=sources)
    # the installer's venv sees the system's packages (Debian's lgpio and spidev)
    old_venv = table["prefix"] / "releases" / "0.1.0" / "venv"
    (old_venv / "pyvenv.cfg").write_text("home = /usr/bin\ninclude-system-site-packages = true\n")
    result = update(table, "apply", str(bundle), "--no-restart")
    assert result.returncode == 0, result.stderr
    new_venv = table["prefix"] / "releases" / "0.2.0" / "venv"
    assert "include-system-site-packages = true" in (new_venv / "pyvenv.cfg").read_text()
    assert (table["prefix"] / "src" / "docs" / "install.md").read_text() == "# Install\n"
    assert (table["prefix"] / "src" / "config.example.toml").read_text() == "[game]\n"
    # a bundle without any: the release still has its (empty) src, no link dangles
    bare = toy_bundle(table["tmp"] / "b3.tar", table["private"], "0.3.0")
    (table["state"] / "update" / "state.json").unlink()
    assert update(table, "apply", str(bare), "--no-restart").returncode == 0
    assert (table["prefix"] / "src").resolve().is_dir()


def trial(table: dict[str, Path], migrate_history: bool) -> ReleaseLayout:
    """The state right after applying 0.2.0 over 0.1.0 (made here without a venv), with
    the history copied before, and the new release having migrated it (or not)."""
    layout = ReleaseLayout(table["prefix"])
    (layout.releases / "0.2.0" / "venv").mkdir(parents=True)
    history = table["state"] / "history.sqlite3"
    copy = table["state"] / "update" / "history-before-0.2.0.sqlite3"
    copy.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(history)
    connection.backup(sqlite3.connect(copy))
    old_version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    if migrate_history:
        connection.execute(f"PRAGMA user_version = {old_version + 1}")
    connection.execute("CREATE TABLE IF NOT EXISTS played_during_trial (x)")
    connection.commit()
    connection.close()
    (table["state"] / "update" / "state.json").write_text(
        json.dumps(
            {
                "phase": "trial",
                "from": "0.1.0",
                "to": "0.2.0",
                "history_copy": str(copy),
                "history_version": old_version,
            }
        )
    )
    switch(layout, "0.2.0")
    return layout


def tables_of(path: Path) -> set[str]:
    connection = sqlite3.connect(path)
    try:
        return {r[0] for r in connection.execute("SELECT name FROM sqlite_master")}
    finally:
        connection.close()


def test_a_release_that_fails_is_rolled_back_with_the_history_that_fits(
    table: dict[str, Path],
) -> None:
    layout = trial(table, migrate_history=True)
    fake_systemctl(table["systemd"], "ActiveState=failed\nNRestarts=4")
    result = update(table, "check", "--settle", "60")
    assert result.returncode == 0, result.stderr
    words = "update to 0.2.0 failed: the table failed to start; back on 0.1.0"
    assert words in result.stdout
    assert layout.current_name() == "0.1.0" and layout.previous_name() == "0.2.0"
    assert (table["prefix"] / "venv").resolve() == layout.release("0.1.0") / "venv"
    assert "played_during_trial" not in tables_of(table["state"] / "history.sqlite3")
    assert HistoryStore(table["state"]).open(create=False) is None  # the old one reads it
    notice = read_notice(table["state"])
    assert notice is not None and notice["text"] == words and notice["ok"] is False
    assert "restart --no-block spieltisch.service" in systemctl_calls(table["systemd"])
    status = update(table, "status")
    assert f"last update: {words}" in status.stdout


def test_a_rollback_keeps_games_played_when_nothing_was_migrated(table: dict[str, Path]) -> None:
    layout = trial(table, migrate_history=False)
    fake_systemctl(table["systemd"], "ActiveState=activating\nNRestarts=0")
    result = update(table, "check", "--timeout", "0")
    assert "not ready in time; back on 0.1.0" in result.stdout
    assert layout.current_name() == "0.1.0"
    assert "played_during_trial" in tables_of(table["state"] / "history.sqlite3")


def test_on_failure_rolls_back_only_during_a_trial(table: dict[str, Path]) -> None:
    fake_systemctl(table["systemd"])
    calm = update(table, "rollback", "--if-trial")
    assert calm.returncode == 0 and "nothing to roll back" in calm.stdout
    assert ReleaseLayout(table["prefix"]).current_name() == "0.1.0"
    layout = trial(table, migrate_history=False)
    result = update(table, "rollback", "--if-trial", "--reason", "the table failed to start")
    assert "back on 0.1.0" in result.stdout
    assert layout.current_name() == "0.1.0"


def test_a_power_cut_before_the_switch_is_recognised(table: dict[str, Path]) -> None:
    layout = trial(table, migrate_history=False)
    # as if the power went after "trial" was written but before current was switched
    switch(layout, "0.1.0")
    fake_systemctl(table["systemd"])
    result = update(table, "check", "--settle", "0")
    assert "update to 0.2.0 did not finish; still on 0.1.0" in result.stdout
    assert layout.current_name() == "0.1.0"


def test_no_update_during_a_game(table: dict[str, Path]) -> None:
    write_bot_game(table["state"], "maedn", "classic", 2, seed=1)  # an unfinished game
    bundle = toy_bundle(table["tmp"] / "b2.tar", table["private"], "0.2.0")
    result = update(table, "apply", str(bundle))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "a game is in progress" in result.stderr
    assert ReleaseLayout(table["prefix"]).names() == ["0.1.0"]


def test_the_confirmed_update_prunes_all_but_the_way_back(table: dict[str, Path]) -> None:
    layout = trial(table, migrate_history=False)
    (layout.releases / "0.0.9").mkdir()
    (layout.releases / ".bundle-cut-by-a-power-cut").mkdir()  # an apply's leftover
    fake_systemctl(table["systemd"])
    result = update(table, "confirm")
    assert "removed .bundle-cut-by-a-power-cut, 0.0.9" in result.stdout
    assert layout.entries() == ["0.1.0", "0.2.0"]


def test_an_older_install_is_migrated_in_place(tmp_path: Path) -> None:
    """A venv and src in the prefix (as install.sh made them) become releases/NAME with
    symlinks on the old paths; the venv's own scripts, which name the old path, still run."""
    prefix = tmp_path / "opt"
    prefix.mkdir()
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(prefix / "venv")], check=True
    )
    (prefix / "src").mkdir()
    (prefix / "src" / "README.md").write_text("old\n")
    script = prefix / "venv" / "bin" / "hello"
    script.write_text(f"#!{prefix / 'venv' / 'bin' / 'python'}\nprint('hello')\n")
    script.chmod(0o755)
    layout = ReleaseLayout(prefix)
    assert migrate(layout, "0.1.0-old") is True
    assert os.readlink(prefix / "current") == "releases/0.1.0-old"
    assert os.readlink(prefix / "venv") == "current/venv"
    assert (prefix / "src" / "README.md").read_text() == "old\n"
    assert (
        subprocess.run(
            [str(prefix / "venv" / "bin" / "hello")], capture_output=True, text=True, check=True
        ).stdout
        == "hello\n"
    )
    assert migrate(layout, "0.1.0-old") is False  # a second run changes nothing


def test_a_migration_cut_halfway_is_finished_by_the_next_run(tmp_path: Path) -> None:
    prefix = tmp_path / "opt"
    (prefix / "src").mkdir(parents=True)
    (prefix / "releases" / "r1" / "venv").mkdir(parents=True)  # venv moved, src not yet
    layout = ReleaseLayout(prefix)
    assert migrate(layout, "r1") is True
    assert layout.current_name() == "r1"
    assert (layout.release("r1") / "src").is_dir() and (prefix / "src").is_symlink()


def test_a_state_file_others_could_write_is_ignored_by_the_root_units(
    table: dict[str, Path],
) -> None:
    """The check and rollback units run as root and read ``update/state.json`` in the
    service user's state directory: a state file or directory that another user could
    have written is ignored, with one line saying why, and nothing is rolled back."""
    layout = trial(table, migrate_history=True)
    state = table["state"] / "update" / "state.json"
    fake_systemctl(table["systemd"], "ActiveState=failed\nNRestarts=4")
    state.chmod(0o666)
    result = update(table, "check", "--settle", "60")
    assert "no update is being tried" in result.stdout
    assert f"ignored {state}: {state} may be written by others (mode 666)" in result.stderr
    back = update(table, "rollback", "--if-trial")
    assert "nothing to roll back" in back.stdout
    assert layout.current_name() == "0.2.0"
    assert "played_during_trial" in tables_of(table["state"] / "history.sqlite3")
    state.chmod(0o644)
    (table["state"] / "update").chmod(0o777)
    result = update(table, "check", "--settle", "60")
    assert "may be written by others (mode 777)" in result.stderr
    assert layout.current_name() == "0.2.0"


def test_a_state_directory_that_is_a_symlink_is_ignored(table: dict[str, Path]) -> None:
    layout = trial(table, migrate_history=False)
    elsewhere = table["tmp"] / "elsewhere"
    (table["state"] / "update").rename(elsewhere)
    (table["state"] / "update").symlink_to(elsewhere)
    fake_systemctl(table["systemd"], "ActiveState=failed\nNRestarts=4")
    result = update(table, "check", "--settle", "60")
    assert "no update is being tried" in result.stdout
    assert "is a symlink" in result.stderr
    assert layout.current_name() == "0.2.0"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_state_file_of_another_user_is_ignored_and_never_written_into(
    table: dict[str, Path],
) -> None:
    layout = trial(table, migrate_history=False)
    update_dir = table["state"] / "update"
    os.chown(update_dir / "state.json", 65534, 65534)
    fake_systemctl(table["systemd"], "ActiveState=failed\nNRestarts=4")
    result = update(table, "check", "--settle", "60")
    assert "belongs to uid 65534, not to root" in result.stderr
    assert layout.current_name() == "0.2.0"
    # a directory of the service user's: root writes no state into it
    os.chown(update_dir / "state.json", 0, 0)
    os.chown(update_dir, 65534, 65534)
    refused = update(table, "rollback", "--reason", "asked for")
    assert refused.returncode == 2 and refused.stderr.count("\n") >= 1
    assert "belongs to uid 65534" in refused.stderr
    assert layout.current_name() == "0.2.0"  # refused before anything changed
