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


def test_writing_reports_progress_and_never_leaves_a_partial_file(
    tmp_path: Path, fake_clock: FakeClock
) -> None:
    """While the GIF is written, ``progress`` hears every frame; the target keeps its
    older content until the new file is whole (no 0-byte file meanwhile), and no
    temporary file is left behind."""
    path = tmp_path / "game.gif"
    path.write_bytes(b"an older recording")
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        assert path.read_bytes() == b"an older recording"

    recorder = GifRecorder(path, 16, 16, "RGB", scale=4, clock=fake_clock, progress=progress)
    for index in range(40):
        fake_clock.advance(0.1)
        recorder.show(Image.new("RGB", (16, 16), (index * 6, 255 - index * 6, 90)))
    recorder.close()
    assert seen == [(done, 40) for done in range(1, 41)]
    with Image.open(path) as gif:
        assert gif.n_frames == 40
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.gif"]


def test_record_progress_on_a_terminal_and_in_a_pipe() -> None:
    import os
    import pty

    from controller.record_progress import RecordProgress

    master, slave = pty.openpty()
    read, write = os.pipe()
    try:
        for fd in (slave, write):
            report = RecordProgress(Path("game.gif"), fd=fd)
            for done in range(1, 101):
                report(done, 100)
        os.close(slave)
        os.close(write)
        on_tty = b""
        while chunk := _read(master):
            on_tty += chunk
        in_pipe = os.read(read, 65536).decode()
    finally:
        os.close(master)
        os.close(read)
    lines = on_tty.decode().replace("\r\n", "\n").split("\r")  # the pty adds \r to \n
    assert lines[1].startswith("spieltisch sim: writing game.gif: 1/100 frames (1 %)")
    assert any("49/100 frames (49 %)" in line for line in lines), "the count goes up"
    assert len(lines) < 60, "at most every 2 %"
    assert lines[-1].startswith("spieltisch sim: writing game.gif: 100/100 frames, done")
    assert in_pipe == (
        "spieltisch sim: writing game.gif: 100 frames\nspieltisch sim: wrote game.gif\n"
    )


def _read(fd: int) -> bytes:
    import os
    import select

    if not select.select([fd], [], [], 0.2)[0]:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""


def test_each_frame_plays_back_as_the_picture_shown(tmp_path: Path, fake_clock: FakeClock) -> None:
    """The frames are encoded as they arrive (so closing takes only the writing): each
    one comes back pixel for pixel, with its own colours, however many colours the
    others have."""
    import random

    rng = random.Random(3)
    shown = []
    for count in (1, 2, 17, 200):
        picture = Image.new("RGB", (16, 16))
        for _ in range(count):
            spot = (rng.randrange(16), rng.randrange(16))
            picture.putpixel(spot, (rng.randrange(256), rng.randrange(256), 255))
        shown.append(picture)
    path = tmp_path / "game.gif"
    recorder = GifRecorder(path, 16, 16, "RGB", scale=2, clock=fake_clock)
    for picture in shown:
        fake_clock.advance(0.5)
        recorder.show(picture)
    recorder.close()
    with Image.open(path) as gif:
        assert gif.n_frames == len(shown) and gif.info.get("loop") == 0
        for index, picture in enumerate(shown):
            gif.seek(index)
            expected = picture.resize((32, 32), Image.Resampling.NEAREST)
            assert picture.getcolors(256) is not None  # a palette holds it without loss
            assert gif.convert("RGB").tobytes() == expected.tobytes()
