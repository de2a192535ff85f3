"""Broken configs at the edges: NaN and infinity, nesting too deep for the parser, an
emulator file that cannot be written, a byte order mark, an endless number.

One table of broken configs is fed to ``config check``, to ``sim`` (the text board,
which used to play a bot game over a broken file) and to a real ``run`` process: all
three must name the same problem in the same line, so that what ``check`` passes is
what ``run`` starts (a NaN passed every range check and stopped the table later).
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest

from controller.cli import main
from controller.config import ConfigError, load_config
from controller.testing.files import config_text
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess, spieltisch_command

HEAD = '[display]\ntype = "dummy"\n'

# (name, the config's text after HEAD, what its one error line must say)
BROKEN: list[tuple[str, str, str]] = [
    *(
        (f"{key} nan", f"{key} = nan\n", f"display.{key}: nan is not a finite number")
        for key in ("brightness", "night_brightness", "ma_per_channel", "idle_ma_per_led")
    ),
    ("sleep nan", "sleep_after_min = nan\n", "display.sleep_after_min: nan is not a finite"),
    ("sleep inf", "sleep_after_min = inf\n", "display.sleep_after_min: inf is not a finite"),
    ("brightness -inf", "brightness = -inf\n", "display.brightness: -inf is not a finite"),
    ("bot delay nan", "[game]\nbot_delay_s = nan\n", "game.bot_delay_s: nan is not a finite"),
    ("bot delay +nan", "[game]\nbot_delay_s = +nan\n", "game.bot_delay_s: nan is not a finite"),
    ("move timer nan", "[game]\nmove_timer_s = nan\n", "game.move_timer_s: nan is not a finite"),
    ("move timer inf", "[game]\nmove_timer_s = inf\n", "game.move_timer_s: inf is not a finite"),
    ("hold nan", "[input]\nhold_s = nan\n", "input.hold_s: nan is not a finite number"),
    ("hold -nan", "[input]\nhold_s = -nan\n", "input.hold_s: nan is not a finite number"),
    ("width 4000 digits", "width = 1" + "0" * 4000 + "\n", "display.width: 1000000000"),
    ("deep array", "[game]\nx = " + "[" * 1000 + "]" * 1000 + "\n", "nested too deeply"),
    ("deep table", "[game]\nx = " + "{a=" * 1000 + "1" + "}" * 1000 + "\n", "nested too deeply"),
    (
        "capture into a missing directory",
        'type = "capture"\nfile = "/nonexistent/frames/f{0}.png"\n',
        "display.file: '/nonexistent/frames/f{0}.png': the directory '/nonexistent/frames' "
        "does not exist",
    ),
    (
        "capture with a bad field",
        'type = "capture"\nfile = "f{1}{x}.png"\n',
        "display.file: 'f{1}{x}.png' is not a file name template",
    ),
    (
        "capture with a named field",
        'type = "capture"\nfile = "f{frame}.png"\n',
        "display.file: 'f{frame}.png' is not a file name template",
    ),
    (
        "capture with a bad conversion",
        'type = "capture"\nfile = "f{0!z}.png"\n',
        "display.file: 'f{0!z}.png' is not a file name template",
    ),
    (
        "gifanim into a missing directory",
        'type = "gifanim"\nfile = "/nonexistent/play.gif"\n',
        "display.file: '/nonexistent/play.gif': the directory '/nonexistent' does not exist",
    ),
    (
        # as root, os.access says /proc and /sys are writable; every frame then failed
        "capture into /proc",
        'type = "capture"\nfile = "/proc/f{0}.png"\n',
        "display.file: '/proc/f{0}.png': the directory '/proc' is in /proc or /sys",
    ),
    (
        "capture into /sys",
        'type = "capture"\nfile = "/sys/kernel/f{0}.png"\n',
        "display.file: '/sys/kernel/f{0}.png': the directory '/sys/kernel' is in /proc or /sys",
    ),
    (
        "gifanim onto a device",
        'type = "gifanim"\nfile = "/dev/null"\n',
        "display.file: '/dev/null' is a device or another special file, not a file name",
    ),
    (
        "gifanim onto a directory",
        'type = "gifanim"\nfile = "/tmp"\n',
        "display.file: '/tmp' is a directory",
    ),
]


def _merge(body: str) -> str:
    if body.startswith("type = "):
        return "[display]\n" + body
    return HEAD + body


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(_merge(body), encoding="utf-8")
    return path


def check_line(path: Path, expected: str, capsys: pytest.CaptureFixture[str]) -> str:
    """``config check``: exit 2 and exactly one line, the one ``load_config`` gives."""
    code = main(["config", "check", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert expected in lines[0], lines[0]
    assert len(lines[0]) < 300, f"the line quotes too much: {len(lines[0])} characters"
    return lines[0].removeprefix("spieltisch: error: ")


IDS = [row[0] for row in BROKEN]


@pytest.mark.parametrize(("name", "body", "expected"), BROKEN, ids=IDS)
def test_config_check_names_the_problem_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, body: str, expected: str
) -> None:
    path = write(tmp_path, body)
    line = check_line(path, expected, capsys)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.errors == [line]


@pytest.mark.parametrize(("name", "body", "expected"), BROKEN, ids=IDS)
def test_sim_text_refuses_the_same_config_with_the_same_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, body: str, expected: str
) -> None:
    path = write(tmp_path, body)
    line = check_line(path, expected, capsys)
    code = main(["sim", "--display", "text", "--config", str(path), "--delay", "0", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", "the text board played over a broken config"
    assert err == f"spieltisch: error: {line}\n"


@pytest.mark.process
def test_run_refuses_every_config_that_check_refuses_with_the_same_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real ``run``, one process per broken config, all at once: each logs the line
    ``check`` printed; with a usable panel it waits there for a fixed file (until
    SIGTERM), else it exits with EX_CONFIG (78), which systemd does not restart."""
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONUNBUFFERED": "1"}
    env.pop("NOTIFY_SOCKET", None)
    runs = []
    for index, (_name, body, expected) in enumerate(BROKEN):
        case = tmp_path / f"case{index}"
        case.mkdir()
        path = write(case, body)
        line = check_line(path, expected, capsys)
        log = (case / "stderr.log").open("wb")
        process = subprocess.Popen(
            [*spieltisch_command(), "run", "--config", str(path), "--state-dir", str(case / "s")],
            stdout=subprocess.DEVNULL,
            stderr=log,
            env=env,
            cwd=case,
        )
        runs.append((process, log, case / "stderr.log", line))
    try:
        deadline = time.monotonic() + 120
        for process, _log, log_path, line in runs:
            text = ""
            while time.monotonic() < deadline and process.poll() is None:
                text = log_path.read_text(errors="replace")
                if "waiting for a fixed" in text:
                    break
                time.sleep(0.1)
            if process.poll() is None:  # a usable panel shows the error until SIGTERM
                process.send_signal(signal.SIGTERM)
                assert process.wait(30) == 0, log_path.read_text()
            else:
                text = log_path.read_text(errors="replace")
                assert process.returncode == 78, text
                assert text.splitlines()[-1].startswith("spieltisch: error: cannot start")
            text = log_path.read_text(errors="replace")
            assert f"config error: {line}" in text, text
            assert "Traceback" not in text, text
    finally:
        for process, log, _path, _line in runs:
            if process.poll() is None:
                process.kill()
                process.wait(10)
            log.close()


def test_a_config_with_a_byte_order_mark_is_read_as_without_one(tmp_path: Path) -> None:
    """Windows editors start UTF-8 files with U+FEFF; TOML forbids it, so the parser
    said only "Invalid statement (at line 1, column 1)". The mark is skipped."""
    text = HEAD + "brightness = 0.25\n[game]\nbot_delay_s = 1.5\n"
    plain = tmp_path / "plain.toml"
    plain.write_text(text, encoding="utf-8")
    marked = tmp_path / "marked.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_config(marked).hardware == load_config(plain).hardware
    assert load_config(marked).game == load_config(plain).game
    assert main(["config", "check", str(marked)]) == 0


def test_a_marked_config_with_an_error_names_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marked = tmp_path / "marked.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + (HEAD + "brightness = nan\n").encode())
    check_line(marked, "display.brightness: nan is not a finite number", capsys)


def test_a_writable_capture_directory_passes(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    path = write(tmp_path, f'type = "capture"\nfile = "{frames}/f{{0:06}}.png"\n')
    assert load_config(path).display.file == f"{frames}/f{{0:06}}.png"


# -- what names no config file: a FIFO, a device, a directory, a huge file ------------


def limited_memory() -> None:
    """In the child: at most 1 GiB of address space, so that a reader without a limit
    fails here instead of taking the machine's memory (it grew to 3 GB in 2 s)."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def spieltisch(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``spieltisch ARGS`` as its own process, stdin not a terminal."""
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONUNBUFFERED": "1"}
    env.pop("NOTIFY_SOCKET", None)
    return subprocess.run(
        [*spieltisch_command(), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        preexec_fn=limited_memory,
        check=False,
    )


def not_a_file(tmp_path: Path, kind: str) -> Path:
    if kind == "fifo":
        path = tmp_path / "config.toml"
        os.mkfifo(path)
        return path
    if kind == "directory":
        return tmp_path
    if kind == "huge":
        path = tmp_path / "config.toml"
        path.write_bytes(b"# a comment line of a config far too long to be one\n" * 40_000)
        return path
    return Path(kind)


NOT_A_FILE = {
    "fifo": "it is a FIFO, not a regular file",
    "/dev/zero": "it is a character device, not a regular file",
    "/dev/urandom": "it is a character device, not a regular file",
    "directory": "it is a directory, not a regular file",
    "huge": "larger than 1024 KiB; a config is a few lines of text",
}


@pytest.mark.parametrize("kind", list(NOT_A_FILE))
def test_check_refuses_what_is_not_a_regular_file_of_a_sane_size_in_one_line(
    tmp_path: Path, kind: str
) -> None:
    """A FIFO hung ``check`` (nobody writes), /dev/zero grew it without end: each is
    one line naming the path and what it is, and nothing is read from it."""
    path = not_a_file(tmp_path, kind)
    result = spieltisch("config", "check", str(path))
    assert result.returncode == 2 and result.stdout == "", result
    lines = result.stderr.splitlines()
    assert lines == [f"spieltisch: error: {path}: cannot read config file: {NOT_A_FILE[kind]}"]


@pytest.mark.process
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_run_ends_with_ex_config_on_what_is_not_a_config_file(tmp_path: Path, kind: str) -> None:
    """``run`` hung on a FIFO (and then ignored SIGTERM); now it says what the path is
    and ends with EX_CONFIG (78), which the unit does not restart."""
    path = not_a_file(tmp_path, kind)
    result = spieltisch("run", "--config", str(path), "--state-dir", str(tmp_path / "state"))
    assert result.returncode == 78, result.stderr
    assert f"config error: {path}: cannot read config file: {NOT_A_FILE[kind]}" in result.stderr
    assert "Traceback" not in result.stderr


# -- the table's own needs: check and run agree -----------------------------------------


KEYBOARD = (
    "input.type: 'keyboard' is for the simulator (spieltisch sim); the table reads its "
    "buttons from 'gpio' or 'bridge'"
)


@pytest.mark.process
def test_a_keyboard_config_is_refused_by_check_and_by_run_with_the_same_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``[input] type = "keyboard"`` passed ``check``, then ``run`` (no terminal under
    systemd) exited 2 every 3 s for ever. Both now refuse it with the same line; ``run``
    shows it on its usable panel and waits for a fixed file, as for any config error,
    and starts the table once the file is fixed."""
    path = write(tmp_path, '[input]\ntype = "keyboard"\n[web]\nenabled = false\n')
    line = check_line(path, KEYBOARD, capsys)
    notify = NotifySocket()
    app = ApplianceProcess(path, tmp_path / "state", notify)
    try:
        ready = notify.wait_for("READY=1", timeout=120)
        assert ready is not None, app.stderr()
        assert f"STATUS=config error: {line}" in notify.messages[-1][1].split("\n")
        assert f"config error: {line}" in app.stderr()
        assert app.process.poll() is None, app.stderr()
        path.write_text(config_text(seats=("bot", "bot")), encoding="utf-8")
        app.process.send_signal(signal.SIGHUP)  # re-read now
        assert notify.wait_for("STATUS=playing", timeout=120) is not None, app.stderr()
        code, _seconds = app.terminate()
        assert code == 0, app.stderr()
    finally:
        app.close()
        notify.close()
    assert "Traceback" not in app.stderr()


def test_the_simulator_still_takes_game_settings_from_a_keyboard_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal is the table's: ``sim`` (which reads keys anyway) takes the file."""
    path = write(tmp_path, '[input]\ntype = "keyboard"\n[game]\nname = "maedn"\n')
    code = main(["sim", "--display", "text", "--config", str(path), "--delay", "0", "--seed", "1"])
    _out, err = capsys.readouterr()
    assert code == 0, err
    assert "keyboard" not in err
