"""The terminal display in pseudo-terminals of 80×24, 120×40 and 40×20.

Its output is replayed into pyte (a terminal emulator), and the test reads the screen
as a person would: every LED row of the matrix is there in its colour, the status
line and the key legend are below it, and nothing is cut off. Resizing redraws; a
terminal too small says how large it must be.
"""

from __future__ import annotations

import fcntl
import math
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from controller.sim.legend import legend_lines
from controller.sim.status import TableStatus, idle_status
from controller.sim.terminal import (
    ENTER,
    LEAVE,
    OFF_LEVEL,
    TerminalDisplay,
    colour_depth,
    minimum_size,
    plan_layout,
    xterm256,
)
from hardware.display import FrameError
from hardware.interfaces import HardwareError
from tests.terminal_screen import Terminal, find_matrix

SIZES = [(80, 24), (120, 40), (40, 20)]
STATUS = "red (seat 1): 5 — piece on 12 → 17 · move 1 of 3: NEXT shows another, OK plays it"


def set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


OPEN: list[Terminal] = []


@pytest.fixture
def pty_pair() -> Iterator[tuple[int, int]]:
    master, slave = pty.openpty()
    yield master, slave
    while OPEN:
        OPEN.pop().close()
    os.close(master)
    os.close(slave)


def reader(master: int, columns: int, rows: int) -> Terminal:
    terminal = Terminal.open(master, columns, rows)
    OPEN.append(terminal)
    return terminal


def pattern(size: int) -> Image.Image:
    """Every LED its own colour (row in red, column in green), a few unlit (black)."""
    image = Image.new("RGB", (size, size))
    for y in range(size):
        for x in range(size):
            lit = (x + y) % 5 != 0
            image.putpixel((x, y), (8 * y + 5, 8 * x + 5, 200) if lit else (0, 0, 0))
    return image


def shown(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """How an LED's colour appears: unlit LEDs are drawn faint grey."""
    r, g, b = rgb
    return (max(r, OFF_LEVEL), max(g, OFF_LEVEL), max(b, OFF_LEVEL))


def xterm_palette(index: int) -> tuple[int, int, int]:
    if index >= 232:
        level = 8 + 10 * (index - 232)
        return (level, level, level)
    index -= 16
    levels = (0, 95, 135, 175, 215, 255)
    return (levels[index // 36], levels[index // 6 % 6], levels[index % 6])


def draw(
    master: int, slave: int, columns: int, rows: int, size: int, depth: int, status: str = STATUS
) -> tuple[Terminal, TerminalDisplay, Image.Image]:
    set_size(slave, columns, rows)
    terminal = reader(master, columns, rows)
    display = TerminalDisplay(size, size, fd=slave, status=lambda: TableStatus(status), depth=depth)
    frame = pattern(size)
    display.show(frame)
    assert terminal.read_until(lambda t: "Ctrl+C" in t.text(), timeout=30)
    return terminal, display, frame


def assert_whole_matrix(
    terminal: Terminal, display: TerminalDisplay, frame: Image.Image, depth: int
) -> None:
    layout = display.layout
    assert layout is not None and layout.scale >= 1
    scale = layout.scale
    matrix = find_matrix(terminal.screen)
    assert matrix is not None
    assert matrix.columns == frame.width * scale, "every LED column, each `scale` cells wide"
    assert len(matrix.pixels) == frame.height * scale, "every LED row, `scale` half-rows tall"
    assert matrix.top >= 0 and matrix.top + matrix.rows <= terminal.screen.lines
    for y in range(frame.height):
        for x in range(frame.width):
            want = shown(frame.getpixel((x, y)))  # type: ignore[arg-type]
            if depth == 256:
                want = xterm_palette(xterm256(want))
            for dy in range(scale):
                for dx in range(scale):
                    got = matrix.pixels[y * scale + dy][x * scale + dx]
                    assert got == want, (x, y, dx, dy)
    # the largest whole scale was chosen: one more would not fit
    text_rows = 2 + len(legend_lines(terminal.screen.columns))
    bigger = scale + 1
    assert (
        frame.width * bigger > terminal.screen.columns
        or math.ceil(frame.height * bigger / 2) + text_rows > terminal.screen.lines
    )


def text_below(terminal: Terminal, after_row: int) -> str:
    return " ".join(line.strip() for line in terminal.lines()[after_row:] if line.strip())


@pytest.mark.parametrize(("columns", "rows"), SIZES)
@pytest.mark.parametrize("size", [16, 32])
def test_the_whole_matrix_status_and_legend_fit(
    pty_pair: tuple[int, int], columns: int, rows: int, size: int
) -> None:
    master, slave = pty_pair
    terminal, display, frame = draw(master, slave, columns, rows, size, depth=24)
    assert_whole_matrix(terminal, display, frame, 24)
    matrix = find_matrix(terminal.screen)
    assert matrix is not None
    below = text_below(terminal, matrix.top + matrix.rows)
    if columns >= len(STATUS):
        assert STATUS in below
    else:  # wrapped onto its second line, words intact, cut with "…" only if needed
        assert "red (seat 1): 5 — piece on 12 → 17" in below
    assert all(line in below for line in legend_lines(columns))
    display.close()


@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_256_colours_when_the_terminal_has_no_truecolor(
    pty_pair: tuple[int, int], columns: int, rows: int
) -> None:
    master, slave = pty_pair
    terminal, display, frame = draw(master, slave, columns, rows, 16, depth=256)
    assert b"\x1b[38;5;" in terminal.raw and b"38;2;" not in terminal.raw
    assert_whole_matrix(terminal, display, frame, 256)
    display.close()


def test_colour_depth_follows_colorterm() -> None:
    assert colour_depth({"COLORTERM": "truecolor"}) == 24
    assert colour_depth({"COLORTERM": "24bit"}) == 24
    assert colour_depth({"COLORTERM": ""}) == 256
    assert colour_depth({}) == 256
    assert xterm256((255, 0, 0)) == 196 and xterm256((128, 128, 128)) == 244


def test_resize_redraws_the_whole_picture_at_the_new_scale(pty_pair: tuple[int, int]) -> None:
    master, slave = pty_pair
    woken: list[str] = []
    terminal, display, frame = draw(master, slave, 120, 40, 16, depth=24)
    display.on_resize = lambda: woken.append("resize")
    first = display.layout
    assert first is not None and first.scale == 4
    set_size(slave, 40, 20)
    os.kill(os.getpid(), signal.SIGWINCH)  # what the terminal sends; the handler wakes the loop
    assert woken == ["resize"]
    terminal.screen.resize(20, 40)
    display.show(frame)  # the frame the woken loop draws
    assert terminal.read_until(lambda t: "Ctrl+C" in t.text() and display.frames == 2)
    assert display.layout is not None and display.layout.scale == 2
    assert_whole_matrix(terminal, display, frame, 24)
    display.close()


def test_a_too_small_terminal_says_how_large_it_must_be(pty_pair: tuple[int, int]) -> None:
    master, slave = pty_pair
    set_size(slave, 30, 12)
    terminal = reader(master, 30, 12)
    display = TerminalDisplay(32, 32, fd=slave, status=lambda: idle_status(4, "menu"), depth=24)
    display.show(pattern(32))
    columns, rows = minimum_size(32, 32)
    assert (columns, rows) == (40, 20)
    assert terminal.read_until(lambda t: "40x20" in t.text().replace("\n", " "))
    assert find_matrix(terminal.screen) is None
    display.close()


def test_the_terminal_is_given_back_as_it_was(pty_pair: tuple[int, int]) -> None:
    master, slave = pty_pair
    terminal, display, _ = draw(master, slave, 80, 24, 16, depth=24)
    display.close()
    display.close()  # once is enough
    assert terminal.read_until(lambda t: t.raw.endswith(LEAVE.encode()))
    assert terminal.raw.startswith(ENTER.encode())
    assert terminal.raw.count(LEAVE.encode()) == 1


def test_layout_keeps_two_status_rows_so_the_scale_never_jumps() -> None:
    short = plan_layout(80, 24, 16, 16, "menu")
    long = plan_layout(80, 24, 16, 16, STATUS + " and a lot more words" * 6)
    assert short.scale == long.scale == 2 and short.text_top == long.text_top
    assert len(long.status) == 2 and long.status[1].endswith("…")


def test_bad_frames_and_no_terminal_are_clear_errors(pty_pair: tuple[int, int]) -> None:
    master, slave = pty_pair
    set_size(slave, 80, 24)
    reader(master, 80, 24)
    display = TerminalDisplay(16, 16, fd=slave, depth=24)
    with pytest.raises(FrameError, match="8x8"):
        display.show(Image.new("RGB", (8, 8)))
    with pytest.raises(FrameError, match="mode"):
        display.show(Image.new("1", (16, 16)))
    display.close()
    read, write = os.pipe()
    try:
        with pytest.raises(HardwareError, match="needs a terminal"):
            TerminalDisplay(16, 16, fd=write)
    finally:
        os.close(read)
        os.close(write)


# -- `spieltisch sim` itself in a pseudo-terminal --------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_sim(
    args: list[str], columns: int, rows: int
) -> tuple[subprocess.Popen[bytes], Terminal, int]:
    master, slave = pty.openpty()
    set_size(slave, columns, rows)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(COLORTERM="truecolor", TERM="xterm-256color")
    child = subprocess.Popen(
        [sys.executable, "-m", "controller", "sim", "--display", "terminal", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    terminal = Terminal.open(master, columns, rows)
    return child, terminal, master


def stop_sim(
    child: subprocess.Popen[bytes], terminal: Terminal, master: int, terminate: bool = True
) -> int:
    if terminate and child.poll() is None:
        child.send_signal(signal.SIGTERM)
    code = child.wait(timeout=60)
    terminal.read_until(lambda t: False, timeout=5)  # the rest, up to the closed terminal
    terminal.close()
    os.close(master)
    return code


@pytest.mark.parametrize(("columns", "rows"), SIZES)
def test_sim_shows_the_whole_board_status_and_legend(columns: int, rows: int) -> None:
    size = 32 if columns == 40 else 16  # the larger panel in the smallest terminal
    child, terminal, master = start_sim(
        ["--game", "maedn", "--seats", "bot,bot,bot,bot", "--seed", "1", "--size", str(size)],
        columns,
        rows,
    )
    try:
        seen = terminal.read_until(
            lambda t: "Ctrl+C" in t.text() and "(bot)" in t.text(), timeout=90
        )
        assert seen, terminal.text()
        matrix = find_matrix(terminal.screen)
        assert matrix is not None
        scale = matrix.columns // size
        assert scale >= 1 and matrix.columns == size * scale
        assert len(matrix.pixels) == size * scale, "every LED row is on screen"
        below = text_below(terminal, matrix.top + matrix.rows)
        assert "(bot)" in below
        assert all(line in below for line in legend_lines(columns))
        assert b"Traceback" not in terminal.raw
    finally:
        code = stop_sim(child, terminal, master)
    assert code == 0
    assert terminal.raw.rstrip(b"\r\n").endswith(LEAVE.encode()), "the terminal is given back"


def test_a_seats_typo_leaves_its_error_on_screen() -> None:
    child, terminal, master = start_sim(["--game", "maedn", "--seats", "human,bto"], 80, 24)
    code = stop_sim(child, terminal, master, terminate=False)
    assert code == 2
    raw = bytes(terminal.raw)
    error = b"spieltisch: error: --seats"
    assert error in raw
    if ENTER.encode() in raw:  # a board was drawn first: it was taken away before the error
        assert raw.index(LEAVE.encode()) < raw.index(error)
    after = raw[raw.index(error) :].decode()
    assert after.strip().count("\n") == 0, "nothing is drawn over the error"


def test_logs_wait_until_the_terminal_is_back(tmp_path: Path) -> None:
    """A damaged save is logged as an error while the board is up: the line must not land
    in the drawn matrix, and must be on screen after exit."""
    (tmp_path / "session.json").write_text("{ not json")
    child, terminal, master = start_sim(["--state-dir", str(tmp_path)], 80, 24)
    try:
        assert terminal.read_until(lambda t: "Ctrl+C" in t.text(), timeout=90)
        assert terminal.read_until(lambda t: find_matrix(t.screen) is not None)
        assert b"ERROR controller.persistence" not in terminal.raw
    finally:
        code = stop_sim(child, terminal, master)
    assert code == 0
    raw = bytes(terminal.raw)
    assert raw.index(LEAVE.encode()) < raw.index(b"ERROR controller.persistence")
    assert list(tmp_path.glob("session.json.bad-*"))


HOLDER = """
import logging, subprocess, sys
from controller.held_output import held_output
logging.basicConfig(stream=sys.stderr, format="%(levelname)s %(message)s")
with held_output() as terminal:
    import os
    os.write(terminal, b"BOARD\\r\\n")
    logging.getLogger("x").warning("a log line")
    print("a print")
    subprocess.run([sys.executable, "-c", "import sys; sys.stderr.write('a child line\\\\n')"])
    os.write(terminal, b"BOARD AGAIN\\r\\n")
os.write(1, b"AFTER\\r\\n")
"""


def test_held_output_keeps_logs_prints_and_child_processes_until_exit() -> None:
    master, slave = pty.openpty()
    set_size(slave, 80, 24)
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER], stdin=slave, stdout=slave, stderr=slave, cwd=ROOT
    )
    os.close(slave)
    terminal = Terminal.open(master, 80, 24)
    assert child.wait(timeout=60) == 0
    terminal.read_until(lambda t: b"AFTER" in t.raw, timeout=30)
    terminal.close()
    os.close(master)
    raw = bytes(terminal.raw).replace(b"\r\n", b"\n")
    board_done = raw.index(b"BOARD AGAIN")
    for line in (b"WARNING a log line", b"a print", b"a child line"):
        assert raw.index(line) > board_done, line
    assert raw.index(b"AFTER") > raw.index(b"a child line")


def test_the_resume_notice_is_on_screen_from_the_start_until_a_key(tmp_path: Path) -> None:
    """Printed before the board took the terminal, the notice was hidden until the game
    was quit; now the board shows it under the legend, in the table's language, until
    the first key."""
    from controller.testing.files import write_bot_game

    state = tmp_path / "state"
    write_bot_game(state, "maedn", "classic", 4, seed=1)
    child, terminal, master = start_sim(["--state-dir", str(state), "--lang", "de"], 80, 30)
    try:
        notice = "setze das maedn (classic)-Spiel fort"
        seen = terminal.read_until(lambda t: "Strg+C" in t.text() and notice in t.text(), 90)
        assert seen, terminal.text()
        matrix = find_matrix(terminal.screen)
        assert matrix is not None
        assert notice in text_below(terminal, matrix.top + matrix.rows)
        os.write(master, b"w")  # a key: the notice has been seen
        gone = terminal.read_until(lambda t: notice not in t.text(), timeout=60)
        assert gone, terminal.text()
    finally:
        code = stop_sim(child, terminal, master)
    assert code == 0


@pytest.mark.parametrize(("size", "games"), [("32x8", 2), ("8x8", 1)])
def test_the_one_colour_panels_builders_wire_are_simulated(size: str, games: int) -> None:
    """``--size 32x8`` and ``8x8``: the one-colour layouts the views have, and a menu of
    the games that can be drawn there (choosing MÄDN on 32×8 ended the table)."""
    width, height = map(int, size.split("x"))
    child, terminal, master = start_sim(["--size", size, "--seed", "1"], 80, 24)
    try:
        seen = terminal.read_until(lambda t: "Ctrl+C" in t.text() and " of " in t.text(), 90)
        assert seen, terminal.text()
        matrix = find_matrix(terminal.screen)
        assert matrix is not None
        scale = matrix.columns // width
        assert matrix.columns == width * scale and len(matrix.pixels) == height * scale
        colours = {pixel for row in matrix.pixels for pixel in row}
        assert len(colours) == 2, "one colour: every LED on or off"
        assert f" (1 of {games}) · NEXT: next game" in terminal.text()
    finally:
        code = stop_sim(child, terminal, master)
    assert code == 0


def test_a_game_without_a_layout_for_the_panel_is_one_line() -> None:
    child, terminal, master = start_sim(["--size", "8x8", "--game", "maedn"], 80, 24)
    code = stop_sim(child, terminal, master, terminate=False)
    assert code == 2
    assert b"spieltisch: error: --game maedn cannot be drawn on the 8x8 panel; there: minimaki" in (
        terminal.raw
    )
