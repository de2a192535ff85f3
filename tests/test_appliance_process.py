"""The appliance as systemd runs it: a real ``spieltisch run``
process on fake hardware, sd_notify READY/WATCHDOG on a datagram socket, SIGTERM,
SIGKILL and resume, and the held system button's shutdown.

Wall-clock times are reported (``record_property``), never asserted: the machine is
shared and noisy. Waits have generous timeouts only so that a hang fails the test.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from controller import views
from controller.app import Appliance as InProcess
from controller.app import table_options
from controller.config import load_config
from controller.persistence import SaveStore
from controller.sdnotify import Notifier
from controller.session import Session
from controller.testing.files import read_save, write_bot_game, write_config
from controller.testing.kill_loop import kill_loop, reference_history
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess
from controller.views import palette
from hardware.build import build_display
from hardware.buttons import GpioButtons

Record = Callable[[str, object], None]


def wait_until(condition: Callable[[], bool], timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def history_length(state_dir: Path) -> int:
    try:
        data = read_save(state_dir)
    except json.JSONDecodeError:
        return -1
    return len(data["history"]) if data else -1


@pytest.fixture
def notify() -> Iterator[NotifySocket]:
    sock = NotifySocket()
    yield sock
    sock.close()


# -- sd_notify ---------------------------------------------------------------------------


def test_ready_after_the_first_frame_then_watchdog_pings_from_the_idle_loop(
    tmp_path: Path, notify: NotifySocket, record_property: Record
) -> None:
    """Type=notify: READY=1 comes once the first frame is on the panel, then the loop
    thread pings WATCHDOG=1 at half of WATCHDOG_USEC, also while it idles at the menu
    (so a hung loop, not just a dead process, misses its pings); SIGTERM sends
    STOPPING=1."""
    config = write_config(tmp_path, seats=("human", "human"))
    app = ApplianceProcess(config, tmp_path / "state", notify, watchdog_usec=200_000)
    try:
        ready = notify.wait_for("READY=1", timeout=60)
        assert ready is not None, app.stderr()
        record_property("start_to_ready_s", round(ready - app.started, 3))
        first = notify.messages[0][1].split("\n")
        assert "READY=1" in first and "STATUS=playing" in first
        for _ in range(4):
            notify.messages.clear()
            assert notify.wait_for("WATCHDOG=1", timeout=30) is not None, app.stderr()
        code, seconds = app.terminate()
        record_property("sigterm_exit_s", round(seconds, 3))
        assert code == 0
        assert notify.wait_for("STOPPING=1", timeout=5) is not None
    finally:
        app.close()


def test_notifier_sends_datagrams_to_abstract_and_path_sockets(tmp_path: Path) -> None:
    """sd_notify(3): NOTIFY_SOCKET is a path or, with a leading "@", an abstract name."""
    name = f"@spieltisch-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name[1:])
        notifier = Notifier({"NOTIFY_SOCKET": name, "WATCHDOG_USEC": "3000000"})
        assert notifier.watchdog_interval == 1.5
        assert notifier.ready()
        notifier.watchdog()
        sock.settimeout(5)
        assert sock.recv(100) == b"READY=1\nSTATUS=playing"
        assert sock.recv(100) == b"WATCHDOG=1"


def test_notifier_pings_only_for_its_own_pid_and_logs_a_broken_socket(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """WATCHDOG_PID names the process that must ping (sd_watchdog_enabled(3)); a dead
    NOTIFY_SOCKET is logged once, not swallowed."""
    other = Notifier({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid() + 1)})
    assert other.watchdog_interval is None
    mine = Notifier({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid())})
    assert mine.watchdog_interval == 0.5
    broken = Notifier({"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")})
    assert not broken.ready()
    assert not broken.ready()
    errors = [r for r in caplog.records if "sd_notify" in r.getMessage()]
    assert len(errors) == 1
    assert Notifier({}).ready() is False  # not under systemd: nothing to tell


def test_a_receiver_that_reads_nothing_costs_notifications_never_the_loop(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A real datagram socket nobody reads: its queue fills after a few datagrams
    (net.unix.max_dgram_qlen), and a blocking send then stopped the game until it was
    read. Every notification returns at once; what does not fit is dropped, the rest
    arrive whole, and once the socket is read notifications are delivered again."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as receiver:
        receiver.bind(str(path))
        notifier = Notifier({"NOTIFY_SOCKET": str(path)})
        sent = 1000
        results: list[bool] = []

        def send_all() -> None:
            for _ in range(sent):
                results.append(notifier.notify("WATCHDOG=1"))

        sender = threading.Thread(target=send_all, daemon=True)
        sender.start()
        sender.join(timeout=60)
        blocked = sender.is_alive()
        if blocked:
            receiver.close()  # the blocked send fails, and the thread ends
        assert not blocked, f"the sender blocked after {len(results)} notifications"
        assert notifier.dropped > 0 and notifier.dropped == results.count(False)
        received = []
        receiver.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            while True:
                received.append(receiver.recv(100))
        assert received == [b"WATCHDOG=1"] * results.count(True)
        assert len(received) + notifier.dropped == sent
        assert notifier.notify("STATUS=playing")
        assert receiver.recv(100) == b"STATUS=playing"
    said = [r.getMessage() for r in caplog.records if "sd_notify" in r.getMessage()]
    assert len([line for line in said if "dropped WATCHDOG=1" in line]) == 1, said


# -- SIGTERM ------------------------------------------------------------------------------


def test_sigterm_mid_game_saves_and_exits_zero(
    tmp_path: Path, notify: NotifySocket, record_property: Record
) -> None:
    """SIGTERM means save and exit cleanly within 2 s (the time is recorded,
    not asserted): exit code 0, the save holds every roll and move made so far."""
    state_dir = tmp_path / "state"
    config = write_config(tmp_path, seats=("bot",) * 4)
    first = write_bot_game(state_dir, "maedn", "classic", 4, seed=21).to_json()
    app = ApplianceProcess(config, state_dir, notify)
    try:
        assert notify.wait_for("READY=1", timeout=60) is not None, app.stderr()
        assert wait_until(lambda: history_length(state_dir) >= 3), app.stderr()
        seen = history_length(state_dir)
        code, seconds = app.terminate()
        record_property("sigterm_exit_s", round(seconds, 3))
        assert code == 0, app.stderr()
        log = app.stderr()
        assert "stopped (SIGTERM)" in log and "Traceback" not in log
        session = SaveStore(state_dir).load()
        assert session is not None
        assert len(session.history) >= seen
        assert session.history == reference_history(first, len(session.history))
        assert list(state_dir.glob(".session-*")) == []
    finally:
        app.close()


def test_sigterm_at_the_menu_exits_zero_without_a_save(
    tmp_path: Path, notify: NotifySocket
) -> None:
    config = write_config(tmp_path, seats=("human", "bot"))
    state_dir = tmp_path / "state"
    app = ApplianceProcess(config, state_dir, notify)
    try:
        assert notify.wait_for("READY=1", timeout=60) is not None, app.stderr()
        assert app.terminate()[0] == 0
        assert [p.name for p in state_dir.iterdir()] == [".reserve"]  # only the spare room
    finally:
        app.close()


# -- resume after a kill, in the middle of each game ---------------------------------------

GAMES = [
    ("maedn", "classic", 4),
    ("maedn", "lingo", 4),
    ("maedn", "schmidt", 2),
    ("kleiner_aerger", "standard", 2),
    ("backgammon", "single", 2),
    ("backgammon", "match5", 2),
    ("minimaki", "standard", 1),
    ("minimaki", "two_player", 2),
]


def kill_and_resume(work: Path, game: str, preset: str, players: int) -> dict[str, Any]:
    """Play until the save has grown by 3 entries, SIGKILL, restart, play on, SIGTERM."""
    state_dir = work / "state"
    config = write_config(work, seats=("bot",) * players)
    first = write_bot_game(state_dir, game, preset, players, seed=5).to_json()
    result: dict[str, Any] = {"first": first}
    notify = NotifySocket()
    app = ApplianceProcess(config, state_dir, notify, log_dir=work)
    try:
        result["ready1"] = notify.wait_for("READY=1", timeout=90) is not None
        result["grew1"] = wait_until(lambda: history_length(state_dir) >= 3, timeout=90)
        app.kill()
    finally:
        app.close()
        notify.close()
    result["after_kill"] = read_save(state_dir)
    result["store_after_kill"] = SaveStore(state_dir).load()
    killed = len(result["after_kill"]["history"])
    notify = NotifySocket()
    app = ApplianceProcess(config, state_dir, notify, log_dir=work)
    try:
        result["ready2"] = notify.wait_for("READY=1", timeout=90) is not None
        result["grew2"] = wait_until(lambda: history_length(state_dir) > killed, timeout=90)
        result["exit"] = app.terminate()[0]
        result["log2"] = app.stderr()
    finally:
        app.close()
        notify.close()
    result["final"] = read_save(state_dir)
    return result


@pytest.fixture(scope="module")
def resumed_games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """All games killed and resumed at the same time (one thread each; the processes
    do the work), so the whole set costs about as much as its slowest game."""
    results: dict[str, dict[str, Any]] = {}
    # made here, in one thread: pytest's tmp_path_factory is not thread-safe (two threads
    # that make the first directory of a session race for its base directory)
    works = {
        (game, preset): tmp_path_factory.mktemp(f"{game}-{preset}") for game, preset, _ in GAMES
    }

    def one(game: str, preset: str, players: int) -> None:
        work = works[game, preset]
        try:
            results[f"{game}/{preset}"] = kill_and_resume(work, game, preset, players)
        except Exception as exc:  # reported by the test of that game
            results[f"{game}/{preset}"] = {"error": repr(exc)}

    threads = [threading.Thread(target=one, args=g) for g in GAMES]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.parametrize(("game", "preset", "players"), GAMES)
def test_resume_after_a_kill_in_the_middle_of_each_game(
    resumed_games: dict[str, dict[str, Any]], game: str, preset: str, players: int
) -> None:
    """A pulled plug loses at most the move in flight: after SIGKILL mid-game
    the save is intact, the restart resumes that very game (same player to move, same
    dice), and play continues from there exactly as it would have without the kill."""
    result = resumed_games[f"{game}/{preset}"]
    assert "error" not in result, result.get("error")
    assert result["ready1"] and result["grew1"]
    killed = result["after_kill"]
    assert result["store_after_kill"] is not None  # loads: not corrupt, not finished
    assert result["ready2"] and result["grew2"] and result["exit"] == 0
    session = Session.from_json(killed)
    resumed_line = f"resuming {game}/{preset}, {session.player} to play"
    assert resumed_line in result["log2"], result["log2"]
    final = result["final"]["history"]
    assert final[: len(killed["history"])] == killed["history"]
    assert len(final) > len(killed["history"])
    assert final == reference_history(result["first"], len(final))


# -- the kill -9 loop, short (benchmarks/kill_loop.py runs 200) -----------------------------


def test_kill_loop_short(tmp_path: Path, record_property: Record) -> None:
    """The kill -9 loop of ``benchmarks/kill_loop.py``, 10 kills here: SIGKILL at random
    moments (some during start-up), restart each time; every save loads, extends the one
    before, keeps every entry the process had saved, and equals the uninterrupted game. The
    history database stays sound (SQLite's integrity check) and keeps every game finished
    before a kill."""
    stats = kill_loop(
        tmp_path,
        kills=10,
        seed=7,
        game=("minimaki", "standard", 1),
        after_record=0.3,
        record_wait=120.0,  # a Mini-Maki game ends well within it
    )
    record_property("kill_loop", stats.summary())
    assert stats.problems == []
    assert stats.kills == 10
    assert stats.corrupt == 0 and stats.lost == 0 and stats.diverged == 0
    assert stats.database_damaged == 0 and stats.records_lost == 0
    assert stats.finished_unrecorded == 0
    assert stats.resumed + stats.early_kills >= 10
    assert stats.entries > 0
    # a kill right after the final save finds the record in it (the next start writes
    # it; written twice, a record replaces itself): finished games are recorded or carried
    assert stats.record_kills > 0 and stats.games_finished > 0 and stats.games_back == 0


def test_kills_aimed_between_the_record_and_the_final_save_bring_no_game_back(
    tmp_path: Path, record_property: Record
) -> None:
    """Every kill waits for a game's end and lands as it is being recorded (right after
    the final save carrying the record, or right after the record). The next start
    never resumes a game that is already in the history, and loses no record."""
    stats = kill_loop(
        tmp_path,
        kills=6,
        seed=3,
        game=("minimaki", "standard", 1),
        early=0.0,
        after_record=1.0,
        record_wait=120.0,
    )
    record_property("kill_loop_at_the_record", stats.summary())
    assert stats.problems == []
    assert stats.record_kills == 6 and stats.games_finished > 0
    assert stats.games_back == 0 and stats.finished_unrecorded == 0
    assert stats.records_lost == 0 and stats.database_damaged == 0


# -- the system button: shutdown animation, save, poweroff ----------------------------------


def test_very_long_system_press_animates_saves_then_powers_off(tmp_path: Path) -> None:
    """A very long press of the system button shows a shutdown animation, saves and
    runs ``systemctl poweroff``. The real loop runs on its thread with the
    real clock; frames go to luma's capture device. When poweroff is called the game is
    saved and the last frames on the panel were the shutdown scene."""
    state_dir = tmp_path / "state"
    session = write_bot_game(state_dir, "maedn", "classic", 2, seed=9)
    config = load_config(write_config(tmp_path, seats=("human", "human")))
    config = replace(
        config,
        hardware=replace(
            config.hardware,
            display=replace(
                config.display, type="capture", file=str(tmp_path / "frame_{0:05}.png")
            ),
        ),
    )
    factory = MockFactory()
    calls: list[dict[str, Any]] = []

    def poweroff() -> None:
        frames = sorted(tmp_path.glob("frame_*.png"))
        calls.append({"save": SaveStore(state_dir).load(), "frames": frames})

    app = InProcess(
        config,
        display=build_display(config.display),
        inputs=[GpioButtons(config.buttons, pin_factory=factory)],
        sound=None,
        state_dir=state_dir,
        render=views.render,
        poweroff=poweroff,
        options=table_options(config, shutdown_hold_s=0.4),
        farewell_s=0.3,
    )
    runner = threading.Thread(target=app.run)
    runner.start()
    try:
        assert wait_until(lambda: app.loop.frames > 0, timeout=30)
        factory.pin(26).drive_low()  # the system button, held down
        runner.join(timeout=30)
        assert not runner.is_alive()
    finally:
        factory.pin(26).drive_high()
        if runner.is_alive():
            app.events.put(app_shutdown())
            runner.join(timeout=10)
    assert len(calls) == 1  # poweroff exactly once, after the loop ended
    saved = calls[0]["save"]
    assert saved is not None and saved.state == session.state
    frames = calls[0]["frames"]
    shutdown_frames = [f for f in frames if is_shutdown_frame(Image.open(f).convert("RGB"))]
    assert len(shutdown_frames) >= 2  # shown for a while, frame after frame
    assert frames[-1] in shutdown_frames  # the last picture before poweroff


def is_shutdown_frame(image: Image.Image) -> bool:
    """The shutdown message has a top border in the "shutdown" colour (sky blue, dimmed
    by the configured brightness): one uniform colour with blue > green > red > 0."""
    row = {image.getpixel((x, 0)) for x in range(image.width)}
    if len(row) != 1:
        return False
    r, g, b = next(iter(row))  # type: ignore[misc]
    sky = palette.SEAT["sky"]
    return 0 < r < g < b and abs(r / b - sky[0] / sky[2]) < 0.05


def app_shutdown() -> Any:
    from controller.events import ShutdownEvent

    return ShutdownEvent(reason="test cleanup")


def test_poweroff_runs_systemctl_poweroff_as_an_argument_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shutdown runs ``systemctl poweroff`` as an argument list, never a shell string.
    A stand-in ``systemctl`` first on PATH records the argv it was given; a shell
    string would arrive as one argument or be word-split by a shell."""
    from controller.cli import run as run_cli

    record = tmp_path / "argv"
    fake = tmp_path / "systemctl"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$#" "$@" > {record}\n')
    fake.chmod(0o755)
    assert run_cli.POWEROFF == ["systemctl", "poweroff"]
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    run_cli.poweroff()
    assert record.read_text().split("\n")[:2] == ["1", "poweroff"]


def test_a_refused_poweroff_is_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """If polkit refuses, the failure is in the log (and systemd restarts the table)."""
    from controller.cli import run as run_cli

    fake = tmp_path / "systemctl"
    fake.write_text("#!/bin/sh\necho 'Access denied' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    run_cli.poweroff()
    assert any("exit code 1" in r.getMessage() for r in caplog.records if r.levelname == "ERROR")
