"""``spieltisch sim`` in a real X server (Xvfb), driven by real key presses (xdotool).

F12 without ``--screenshot`` writes a time-stamped PNG of the window into the directory
the simulator was started in and says where on its terminal. Skipped where Xvfb or
xdotool is not installed (Debian: ``xvfb``, ``xdotool``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
    reason="needs Xvfb and xdotool",
)


@pytest.fixture
def x_display(tmp_path: Path) -> Iterator[str]:
    """A private Xvfb, on the first free display number, stopped at the end.

    Ready only once it answers a client: its socket appears before it serves one, and a
    simulator that connects too early under load finds no screen and says so (SDL falls
    back to drawing nowhere). ``-noreset`` keeps it from restarting itself each time its
    last client (an xdotool query) leaves."""
    number = next(n for n in range(90, 190) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while xdotool(f":{number}", "getdisplaygeometry").returncode != 0:
            assert server.poll() is None and time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.05)
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def xdotool(display: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DISPLAY": display}
    return subprocess.run(
        ["xdotool", *args], capture_output=True, text=True, env=env, timeout=30, check=False
    )


def test_f12_in_the_window_writes_a_time_stamped_png_where_it_was_started(
    x_display: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=x_display, PYTHONPATH=str(ROOT))
    log = tmp_path / "stderr.txt"
    with log.open("w") as err:
        sim = subprocess.Popen(
            [sys.executable, "-m", "controller", "sim", "--display", "window", "--seed", "1"],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        window = ""
        deadline = time.monotonic() + 60
        while not window and time.monotonic() < deadline:
            for candidate in xdotool(x_display, "search", "--class", ".").stdout.split():
                if xdotool(x_display, "getwindowname", candidate).stdout.strip() == "spieltisch":
                    window = candidate
            time.sleep(0.1)
        assert window, log.read_text()
        xdotool(x_display, "windowfocus", "--sync", window)
        shots: list[Path] = []
        deadline = time.monotonic() + 60
        while not shots and time.monotonic() < deadline:
            xdotool(x_display, "key", "--window", window, "F12")
            time.sleep(0.3)
            shots = sorted(tmp_path.glob("spieltisch-*.png"))
        assert shots, log.read_text()
        shot = shots[0]
        assert re.fullmatch(r"spieltisch-\d{4}-\d\d-\d\d-\d{6}(-\d+)?\.png", shot.name)
        # The file is finished once the simulator says so (it appears by a rename, whole,
        # but the test reads it only after the word, as a person would).
        deadline = time.monotonic() + 60
        while f"screenshot saved to {shot}" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert f"spieltisch sim: screenshot saved to {shot}" in log.read_text()
        geometry = xdotool(x_display, "getwindowgeometry", window).stdout
        width, height = map(int, re.search(r"Geometry: (\d+)x(\d+)", geometry).groups())  # type: ignore[union-attr]
        picture = Image.open(shot)
        assert picture.size == (width, height)
        assert len(picture.convert("RGB").getcolors(1 << 20) or ()) > 10, "the table is drawn"
    finally:
        sim.send_signal(signal.SIGTERM)
        code = sim.wait(timeout=30)
    assert code == 0, log.read_text()
