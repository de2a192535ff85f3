"""A wrong config lights the panel with its error instead of leaving the table dark.

``spieltisch run`` under systemd is restarted whenever it exits; exiting on a bad key
would spin for ever with a black panel. These tests run the real process on fake
hardware (luma.emulator's ``capture`` device writes every frame as a PNG, gpiozero's
MockFactory stands in for the buttons) and play systemd's side of sd_notify.
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from controller.config import ConfigError, display_section, load_config
from controller.config_wait import EX_CONFIG, ConfigWait, panel_text
from controller.events import EventQueue, ReloadEvent, ShutdownEvent
from controller.sdnotify import Notifier
from controller.testing.clock import FakeClock
from controller.testing.files import capture_config, lit
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess, spieltisch_command
from controller.views import render
from hardware.build import build_display

BAD_GAME_KEY = '[game]\nbot = "grandmaster"\n'
GOOD_GAME = '[game]\nbot = "random"\n'


def wait_until(predicate: object, timeout: float = 30.0) -> bool:
    """Poll a condition that another process makes true (files it writes)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


# -- the waiting loop, in process --------------------------------------------------------


def test_panel_text_names_the_key_and_what_is_allowed_without_the_path() -> None:
    error = ConfigError(
        ["/etc/spieltisch/config.toml: game.bot: 'x' is not allowed; allowed: 'random', 'strong'"]
    )
    assert panel_text(error) == "config: game.bot: 'x' is not allowed; allowed: 'random', 'strong'"


def test_display_section_is_usable_when_only_the_game_section_is_wrong(tmp_path: Path) -> None:
    path = capture_config(tmp_path, BAD_GAME_KEY)
    with pytest.raises(ConfigError):
        load_config(path)
    spec = display_section(path)
    assert spec is not None and spec.type == "capture"
    path.write_text('[display]\ntype = "ws2811"\n', encoding="utf-8")
    assert display_section(path) is None
    path.write_text("[display\n", encoding="utf-8")
    assert display_section(path) is None


def make_wait(tmp_path: Path, events: EventQueue) -> tuple[ConfigWait, Path]:
    path = tmp_path / "config.toml"
    path.write_text('[display]\ntype = "dummy"\n' + BAD_GAME_KEY, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    spec = display_section(path)
    assert spec is not None
    wait = ConfigWait(
        path,
        caught.value,
        build_display(spec),
        render,
        events,
        Notifier({}),
        clock=FakeClock(100.0),
    )
    return wait, path


def test_the_error_scrolls_on_the_panel(tmp_path: Path) -> None:
    wait, _path = make_wait(tmp_path, EventQueue())
    frames = []
    for t in (100.0, 102.0, 104.0, 106.0):
        wait.draw(t)
        frames.append(wait.display.device.image.copy())  # type: ignore[attr-defined]
    assert all(frame.getbbox() is not None for frame in frames), "a dark frame"
    assert len({frame.tobytes() for frame in frames}) == len(frames), "the text does not move"


def test_a_fixed_file_is_picked_up_on_sighup(tmp_path: Path) -> None:
    events = EventQueue()
    wait, path = make_wait(tmp_path, events)
    assert wait.check(100.0) is None  # still wrong
    path.write_text('[display]\ntype = "dummy"\n' + GOOD_GAME, encoding="utf-8")
    events.put(ReloadEvent())
    config = wait.run()
    assert config is not None and config.game.bot == "random"


def test_a_fixed_file_is_picked_up_without_a_signal(tmp_path: Path) -> None:
    wait, path = make_wait(tmp_path, EventQueue())
    path.write_text('[display]\ntype = "dummy"\n' + GOOD_GAME, encoding="utf-8")
    assert wait.check(wait.next_check) is not None
    assert wait.next_check > 100.0


def test_a_new_error_replaces_the_old_one_on_the_panel(tmp_path: Path) -> None:
    wait, path = make_wait(tmp_path, EventQueue())
    path.write_text('[display]\ntype = "dummy"\n[game]\nmove_timer_s = -4\n', encoding="utf-8")
    assert wait.check(103.0) is None
    assert "move_timer_s" in wait.text and "grandmaster" not in wait.text


def test_shutdown_while_waiting_returns_none(tmp_path: Path) -> None:
    events = EventQueue()
    wait, _path = make_wait(tmp_path, events)
    events.put(ShutdownEvent("SIGTERM"))
    assert wait.run() is None


# -- the real process -----------------------------------------------------------------------


@pytest.mark.process
def test_run_shows_a_bad_game_key_on_the_panel_then_starts_when_fixed(tmp_path: Path) -> None:
    config = capture_config(tmp_path, BAD_GAME_KEY)
    frames = tmp_path / "frames"
    notify = NotifySocket()
    app = ApplianceProcess(config, tmp_path / "state", notify=notify, log_dir=tmp_path)
    try:
        assert notify.wait_for("READY=1") is not None, app.stderr()
        statuses = [m for _, m in notify.messages if "STATUS=config error:" in m]
        assert statuses and "game.bot" in statuses[0]
        assert wait_until(lambda: len(list(frames.glob("*.png"))) >= 3), app.stderr()
        shots = sorted(frames.glob("*.png"))
        assert any(lit(shot) for shot in shots[:-1]), "the panel stayed dark"
        allowed = "'random', 'beginner', 'casual', 'advanced', 'expert', 'strong'"
        assert f"game.bot: 'grandmaster' is not allowed; allowed: {allowed}" in app.stderr()
        assert app.process.poll() is None, "it exited instead of waiting"

        config.write_text(config.read_text(encoding="utf-8").replace("grandmaster", "random"))
        app.process.send_signal(signal.SIGHUP)
        assert notify.wait_for("STATUS=playing") is not None, app.stderr()
        assert "is fixed; starting the table" in app.stderr()
        code, _seconds = app.terminate()
        assert code == 0, app.stderr()
    finally:
        app.close()
        notify.close()


def run_once(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*spieltisch_command(), "run", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env={"GPIOZERO_PIN_FACTORY": "mock", "PATH": "/usr/bin:/bin"},
    )


@pytest.mark.process
def test_an_unusable_display_section_exits_with_ex_config(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[display]\ntype = "ws2811"\n' + BAD_GAME_KEY, encoding="utf-8")
    result = run_once("--config", str(config), "--state-dir", str(tmp_path / "s"), cwd=tmp_path)
    assert result.returncode == EX_CONFIG, result.stderr
    assert "display.type: 'ws2811' is not allowed" in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("spieltisch: error:")


@pytest.mark.process
def test_a_panel_that_cannot_be_opened_exits_with_ex_config(tmp_path: Path) -> None:
    # rpi_ws281x exists only on a Pi: a valid config whose panel cannot be opened here.
    config = tmp_path / "config.toml"
    config.write_text('[display]\ntype = "ws2812"\n[input]\ntype = "gpio"\n', encoding="utf-8")
    result = run_once("--config", str(config), "--state-dir", str(tmp_path / "s"), cwd=tmp_path)
    assert result.returncode == EX_CONFIG, result.stderr
    assert "cannot open the hardware" in result.stderr


@pytest.mark.process
def test_a_missing_config_names_the_option_and_the_example(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    result = run_once("--config", str(missing), "--state-dir", str(tmp_path / "s"), cwd=tmp_path)
    assert result.returncode == EX_CONFIG, result.stderr
    assert "--config" in result.stderr and "config.example.toml" in result.stderr


@pytest.mark.process
def test_no_panel_chosen_yet_starts_and_waits_with_a_status_that_says_what_to_set(
    tmp_path: Path,
) -> None:
    """``display.type = "none"`` (``install.sh --panel none``): READY with a status
    naming the key and the panels, no exit, no restart loop; once the file names a
    panel (here the capture emulator), SIGHUP starts the table."""
    config = tmp_path / "config.toml"
    config.write_text('[display]\ntype = "none"\n' + GOOD_GAME, encoding="utf-8")
    check = subprocess.run(
        [*spieltisch_command(), "config", "check", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert check.returncode == 0 and "no panel chosen yet" in check.stdout, check.stderr
    notify = NotifySocket()
    app = ApplianceProcess(config, tmp_path / "state", notify=notify, log_dir=tmp_path)
    try:
        assert notify.wait_for("READY=1") is not None, app.stderr()
        (status,) = [m for _, m in notify.messages if "READY=1" in m]
        assert f"STATUS=no panel chosen yet: set display.type in {config}" in status
        assert "ws2812, max7219, bridge, unicornhathd, apa102" in status
        assert "Traceback" not in app.stderr()
        time.sleep(1)
        assert app.process.poll() is None, "it exited instead of waiting"

        capture_config(tmp_path, GOOD_GAME)  # the same file, now with a panel
        app.process.send_signal(signal.SIGHUP)
        assert notify.wait_for("STATUS=playing") is not None, app.stderr()
        code, _seconds = app.terminate()
        assert code == 0, app.stderr()
    finally:
        app.close()
        notify.close()
