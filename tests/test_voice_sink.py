"""``spieltisch sim --voice-to DIR``: every prompt of a game as a numbered wav file, in
the order the table asked for it, with ``prompts.txt`` naming each file's words; so a
game's voice can be checked without a loudspeaker. Real espeak-ng, real files, a real
simulator process."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.cli import main
from controller.testing.files import fill
from controller.voice.catalog import Prompt
from controller.voice.render import Renderer
from controller.voice.sink import LIST, FileSink
from controller.voice.speaker import Speaker, VoiceSettings
from tests.test_voice import WAIT_S, sox_stat

ROOT = Path(__file__).resolve().parent.parent

needs_speech = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="espeak-ng and sox are needed to render and measure speech",
)


def listed(folder: Path) -> list[list[str]]:
    path = folder / LIST
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return [line.split("\t") for line in text.splitlines()]


@needs_speech
def test_the_sink_keeps_every_prompt_in_order_even_those_the_table_would_cut(
    tmp_path: Path,
) -> None:
    (tmp_path / "said").mkdir()
    (tmp_path / "said" / "0009.wav").write_bytes(b"an earlier run's")
    renderer = Renderer(tmp_path / "cache")
    sink = FileSink(tmp_path / "said", renderer.path)
    speaker = Speaker(VoiceSettings(cache=renderer.cache), sink, renderer)
    prompts = [Prompt("turn", "red"), Prompt("roll", dice=(6,)), Prompt("six"), Prompt("again")]
    for prompt in prompts:  # at once: the table would cut the first three short
        speaker.say(prompt)
    speaker.close()
    rows = listed(tmp_path / "said")
    assert [row[0] for row in rows] == ["0001.wav", "0002.wav", "0003.wav", "0004.wav"]
    assert [row[3] for row in rows] == ["red, your turn.", "6.", "A six!", "Roll again!"]
    assert sorted(p.name for p in (tmp_path / "said").glob("*.wav")) == [r[0] for r in rows]
    for name, asked, length, _text in rows:
        assert float(length) > 0.3 and float(asked) >= 0.0
        assert sox_stat(tmp_path / "said" / name)["RMS     amplitude"] > 0.01


def test_the_text_board_refuses_voice_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["sim", "--display", "text", "--voice-to", str(tmp_path / "said")])
    err = capsys.readouterr().err
    assert code == 2 and "--voice-to" in err and err.count("\n") == 1
    assert not (tmp_path / "said").exists()


@pytest.mark.parametrize("where", ["a-file", "a-file/said"])
def test_voice_to_a_file_is_refused_in_one_line_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """It was an errno line ("[Errno 17] File exists") once the window had opened."""
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    code = main(["sim", "--display", "window", "--voice-to", str(tmp_path / where)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "--voice-to" in err and "is a file, not a folder" in err and "Errno" not in err


def test_voice_to_a_read_only_disk_is_refused_in_one_line(
    small_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        code = main(["sim", "--display", "window", "--voice-to", str(small_disk / "said")])
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "no permission to write in" in err and "Errno" not in err
    assert not (small_disk / "said").exists()


@needs_speech
def test_a_full_disk_costs_the_prompts_said_once_and_leaves_no_empty_files(
    tmp_path: Path, small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The game goes on; the log says once why nothing is written (it said it for
    every prompt), and no empty wav is left that the list does not name."""
    renderer = Renderer(tmp_path / "cache")
    texts = ["red, your turn.", "6.", "A six!", "Roll again!"]
    for text in texts:
        renderer.path("en", text)
    sink = FileSink(small_disk / "said", renderer.path)
    fill(small_disk)
    with caplog.at_level(logging.WARNING, logger="controller.voice.sink"):
        for text in texts:
            sink.play("en", text)
        sink.close()
    said = [r.getMessage() for r in caplog.records if r.name == "controller.voice.sink"]
    assert len(said) == 2, said
    assert "0001.wav and later prompts not written" in said[0]
    assert "4 of 4 prompts not written" in said[1]
    assert not list((small_disk / "said").glob("*.wav"))
    assert listed(small_disk / "said") == []


@needs_speech
@pytest.mark.process
def test_a_simulated_game_writes_its_prompts(tmp_path: Path) -> None:
    pytest.importorskip("pygame")
    folder = tmp_path / "said"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "controller", "sim", "--display", "window", "--fast"]
    command += ["--lang", "de", "--game", "maedn", "--seats", "bot,bot", "--seed", "3"]
    command += ["--voice-to", str(folder)]
    sim = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + WAIT_S * 4
        while len(listed(folder)) < 6:
            assert sim.poll() is None and time.monotonic() < deadline, "no prompts written"
            time.sleep(0.2)
        sim.send_signal(signal.SIGTERM)
        _out, err = sim.communicate(timeout=WAIT_S * 4)
    finally:
        if sim.poll() is None:
            sim.kill()
    assert sim.returncode == 0, err
    rows = listed(folder)
    texts = [row[3] for row in rows]
    assert texts[0] in ("rot, du bist dran.", "grün, du bist dran."), texts
    assert any(text.endswith("du bist dran.") for text in texts[1:]), texts
    for name, *_rest in rows:
        assert sox_stat(folder / name)["RMS     amplitude"] > 0.01
