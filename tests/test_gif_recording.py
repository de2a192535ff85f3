"""The simulator's GIF recording keeps time: each frame lasts as long as it was shown,
so ten seconds of a scrolling menu play back as ten seconds."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from controller.table import TableOptions
from controller.testing.clock import FakeClock
from hardware.gif_recording import GifRecorder
from hardware.interfaces import HardwareError
from hardware.tee import TeeDisplay
from tests.timeline import Timeline


def durations(path: Path) -> list[int]:
    with Image.open(path) as gif:
        found = []
        for index in range(gif.n_frames):
            gif.seek(index)
            found.append(int(gif.info["duration"]))
        return found


def test_frames_last_as_long_as_they_were_shown(tmp_path: Path, fake_clock: FakeClock) -> None:
    path = tmp_path / "game.gif"
    recorder = GifRecorder(path, 16, 16, "RGB", scale=4, clock=fake_clock)
    for wait, colour in ((0.0, (255, 0, 0)), (1.0, (0, 255, 0)), (0.25, (0, 0, 255))):
        fake_clock.advance(wait)
        recorder.show(Image.new("RGB", (16, 16), colour))
    fake_clock.advance(2.0)
    recorder.close()
    assert durations(path) == [1000, 250, 2000]
    with Image.open(path) as gif:
        assert gif.size == (64, 64)


def test_ten_seconds_of_menu_play_back_as_ten_seconds(tmp_path: Path) -> None:
    line = Timeline(TableOptions(bot="random"))
    path = tmp_path / "menu.gif"
    recorder = GifRecorder(path, 16, 16, "RGB", clock=line.clock)
    line.loop.display = TeeDisplay(line.display, recorder)
    line.loop.last_image = None
    line.loop.draw()
    line.run_for(10.0)
    recorder.close()
    shown = durations(path)
    assert len(shown) > 50, "the label scrolls: many different pictures"
    assert sum(shown) == pytest.approx(10_000, abs=10 * len(shown))


def test_an_unwritable_recording_is_one_clear_error(tmp_path: Path) -> None:
    recorder = GifRecorder(tmp_path / "missing" / "x.gif", 8, 8, "1")
    recorder.show(Image.new("1", (8, 8), 1))
    with pytest.raises(HardwareError, match="cannot write the recording"):
        recorder.close()
