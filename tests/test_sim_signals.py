"""A closed terminal or a SIGTERM stops ``spieltisch sim`` in every display mode.

Real processes, real signals: the simulator runs in a real tmux session that is killed
(tmux hangs up every process in the pane, as a closed terminal window does) or in a
pseudo-terminal and gets SIGTERM. Each time the game it was playing is saved (with
``--state-dir``), the process exits 0, and nothing it started is left running. How long
the exit took is recorded (``sim_exit_s``), not asserted: the target is under 2 s.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.testing.files import read_save

ROOT = Path(__file__).resolve().parent.parent
MODES = ["window", "terminal", "text"]
Record = Callable[[str, object], None]


def sim_command(mode: str, state_dir: Path) -> list[str]:
    args = [sys.executable, "-m", "controller", "sim", "--display", mode, "--game", "maedn"]
    args += ["--seats", "bot,bot,bot,bot", "--seed", "5"]
    if mode == "text":
        return [*args, "--delay", "0.05"]  # the text board keeps no save
    return [*args, "--fast", "--state-dir", str(state_dir)]


def sim_env(mode: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    if mode == "window":
        env["SDL_VIDEODRIVER"] = "dummy"  # a window with no screen: the same event path
    env.update(TERM="xterm-256color", PYTHONPATH=str(ROOT))
    return env


def start_in_pty(
    command: list[str], cwd: Path, mode: str
) -> tuple[subprocess.Popen[bytes], int, Callable[[], str]]:
    """The sim in its own session on a fresh 80×24 pty: the child, the pty's master end,
    and a function that drains the pty (so no write of the sim blocks) and returns
    everything it printed so far."""
    import select

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    child = subprocess.Popen(
        command,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=cwd,
        env=sim_env(mode),
        start_new_session=True,
    )
    os.close(slave)
    output = bytearray()

    def text() -> str:
        while select.select([master], [], [], 0)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            output.extend(chunk)
        return output.decode("utf-8", "replace")

    return child, master, text


def moves_saved(state_dir: Path) -> int:
    try:
        data = read_save(state_dir)
    except ValueError:
        return -1
    return len(data["history"]) if data else -1


def wait_until(condition: Callable[[], bool], timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def alive(pid: int) -> bool:
    """``pid`` runs (a zombie waiting to be reaped has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def in_session(sid: int) -> list[int]:
    """Every live process of session ``sid`` (the sim and anything it started)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def playing(mode: str, state_dir: Path, output: Callable[[], str]) -> Callable[[], bool]:
    """True once the bots have made a few moves (saved, or on the text board)."""

    def ready() -> bool:
        shown = output()  # read it every time: a pty nobody reads blocks the sim
        if mode == "text":  # the board is redrawn move by move: any move on screen
            return re.search(r"move \d+: ", shown) is not None
        return moves_saved(state_dir) >= 4

    return ready


# -- tmux kill-session: SIGHUP ---------------------------------------------------------


@pytest.fixture
def tmux() -> Iterator[list[str]]:
    """A private tmux server (its own socket), killed at the end whatever happened."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    command = ["tmux", "-L", f"spieltisch-{uuid.uuid4().hex[:8]}", "-f", "/dev/null"]
    yield command
    subprocess.run([*command, "kill-server"], capture_output=True, check=False)


def start_in_tmux(tmux: list[str], name: str, command: str, mode: str, cwd: Path) -> int:
    """Start ``command`` as the only program of a new 80x24 tmux session; its pid."""
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", name, "-x", "80", "-y", "24", f"exec {command}"],
        env=sim_env(mode),
        cwd=cwd,
        check=True,
    )
    pane = subprocess.run(
        [*tmux, "list-panes", "-t", name, "-F", "#{pane_pid}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(pane.stdout.split()[0])


@pytest.mark.parametrize("mode", MODES)
def test_tmux_kill_session_saves_and_stops_the_sim(
    mode: str, tmp_path: Path, tmux: list[str], record_property: Record
) -> None:
    state_dir = tmp_path / "state"
    log = tmp_path / "pane.txt"
    command = " ".join(map(str, sim_command(mode, state_dir)))
    pid = start_in_tmux(tmux, "sim", command, mode, tmp_path)

    def screen() -> str:
        shown = subprocess.run(
            [*tmux, "capture-pane", "-p", "-t", "sim"], capture_output=True, text=True
        )
        log.write_text(shown.stdout)
        return shown.stdout

    try:
        assert wait_until(playing(mode, state_dir, screen)), screen()
        seen = moves_saved(state_dir)
        start = time.monotonic()
        subprocess.run([*tmux, "kill-session", "-t", "sim"], check=True)
        assert wait_until(lambda: not alive(pid), timeout=30), f"the sim ({mode}) still runs"
    finally:
        if alive(pid):  # a failed run leaves nothing behind either
            os.kill(pid, signal.SIGKILL)
    record_property("sim_exit_s", round(time.monotonic() - start, 3))
    assert in_session(pid) == [], "a process the sim started is still running"
    if mode != "text":
        assert moves_saved(state_dir) >= seen, "the game played so far is saved"
        assert list(state_dir.glob(".session-*")) == []


# -- SIGTERM in a pseudo-terminal --------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_sigterm_saves_and_stops_the_sim(
    mode: str, tmp_path: Path, record_property: Record
) -> None:
    state_dir = tmp_path / "state"
    child, master, text = start_in_pty(sim_command(mode, state_dir), tmp_path, mode)

    try:
        assert wait_until(playing(mode, state_dir, text)), text()[-2000:]
        seen = moves_saved(state_dir)
        start = time.monotonic()
        child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        while child.poll() is None and time.monotonic() < deadline:
            text()  # keep the pty drained, so no write of the sim blocks
            time.sleep(0.02)
        code = child.wait(timeout=1)
        record_property("sim_exit_s", round(time.monotonic() - start, 3))
        assert code == 0, text()[-2000:]
        assert "Traceback" not in text()
        assert in_session(child.pid) == []
        if mode != "text":
            assert moves_saved(state_dir) >= seen
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(master)


# -- quitting a recording says what it writes --------------------------------------------


@pytest.mark.parametrize("mode", ["terminal", "window"])
def test_quitting_a_recording_says_what_it_writes_with_progress(mode: str, tmp_path: Path) -> None:
    """Ctrl+C (SIGINT) in a ``--record`` session: the board is put away, then the
    terminal says which GIF is written and counts its frames up to "done"; the GIF holds
    as many frames as were counted."""
    import re

    from PIL import Image

    state_dir = tmp_path / "state"
    gif = tmp_path / "game.gif"
    child, master, text = start_in_pty(
        [*sim_command(mode, state_dir), "--record", str(gif)], tmp_path, mode
    )

    try:
        assert wait_until(playing(mode, state_dir, text)), text()[-2000:]
        child.send_signal(signal.SIGINT)
        deadline = time.monotonic() + 60
        while child.poll() is None and time.monotonic() < deadline:
            text()
            time.sleep(0.02)
        assert child.wait(timeout=1) == 0, text()[-2000:]
        shown = text()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(master)
    counts = re.findall(rf"writing {re.escape(str(gif))}: (\d+)/(\d+) frames", shown)
    assert counts, shown[-2000:]
    total = int(counts[-1][1])
    assert int(counts[0][0]) == 1 and f"{total}/{total} frames, done" in shown
    with Image.open(gif) as picture:
        assert picture.n_frames == total
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("mode", ["terminal", "window"])
def test_a_hangup_while_recording_writes_the_save_then_a_whole_gif_and_exits(
    mode: str, tmp_path: Path, tmux: list[str], record_property: Record
) -> None:
    """tmux kill-session hangs up a ``--record`` session (SIGHUP, the terminal gone):
    the process ends, nothing it started is left, the game is saved and loads, and the
    GIF is whole, every frame readable, written after the save. The frames are encoded
    while the game is played, so closing only joins them (the exit time is recorded as
    ``sim_exit_s``, not asserted)."""
    from PIL import Image

    from controller.persistence import SaveStore

    state_dir = tmp_path / "state"
    gif = tmp_path / "game.gif"
    command = " ".join(map(str, [*sim_command(mode, state_dir), "--record", str(gif)]))
    pid = start_in_tmux(tmux, "rec", command, mode, tmp_path)

    def screen() -> str:
        shown = subprocess.run(
            [*tmux, "capture-pane", "-p", "-t", "rec"], capture_output=True, text=True
        )
        return shown.stdout

    try:
        assert wait_until(playing(mode, state_dir, screen)), screen()
        seen = moves_saved(state_dir)
        start = time.monotonic()
        subprocess.run([*tmux, "kill-session", "-t", "rec"], check=True)
        assert wait_until(lambda: not alive(pid), timeout=30), f"the sim ({mode}) still runs"
    finally:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    record_property("sim_exit_s", round(time.monotonic() - start, 3))
    assert in_session(pid) == [], "a process the sim started is still running"
    assert moves_saved(state_dir) >= seen, "the game played so far is saved"
    assert SaveStore(state_dir).load() is not None, "and it loads: the game resumes"
    save = state_dir / "session.json"
    assert save.stat().st_mtime_ns <= gif.stat().st_mtime_ns, "the save comes first"
    with Image.open(gif) as picture:
        assert picture.n_frames > 1
        for index in range(picture.n_frames):
            picture.seek(index)
            picture.convert("RGB").load()  # every frame decodes
            assert picture.info["duration"] >= 20
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
