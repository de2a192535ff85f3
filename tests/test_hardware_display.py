"""Display backends over real luma devices: dummy, the emulators, and the Pi drivers
with luma's own test seams (``noop()`` serial interface; a ``Mock`` for the ws2812
DMA module, which is how luma's own tests drive it)."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path
from unittest import mock

import pytest
from luma.core.interface.serial import noop
from PIL import Image, ImageDraw

from hardware.display import DisplayClosed, FrameError, open_display
from hardware.interfaces import HardwareError
from hardware.layout import PixelOrderError, build_mapping
from hardware.power import PowerModel, limit_frame
from hardware.specs import DisplaySpec
from tests.file_events import DirectoryEvents

WHITE = (255, 255, 255)


def test_pattern(size: tuple[int, int] = (16, 16)) -> Image.Image:
    image = Image.new("RGB", size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((2, 2, size[0] - 3, size[1] - 3), outline=(255, 0, 0))
    draw.point((0, 0), fill=(0, 255, 0))
    draw.line((0, size[1] - 1, size[0] - 1, 0), fill=(0, 0, 255))
    return image


test_pattern.__test__ = False  # type: ignore[attr-defined]


# --- layout -----------------------------------------------------------------------


def test_row_mapping_is_identity() -> None:
    assert build_mapping("row", 4, 2) == list(range(8))


def test_serpentine_rows_snake() -> None:
    # row 0 left to right, row 1 right to left, row 2 left to right
    assert build_mapping("serpentine", 3, 3) == [0, 1, 2, 5, 4, 3, 6, 7, 8]


def test_tiled_2x2_of_16x16_makes_32x32_in_reading_order() -> None:
    m = build_mapping("tiled", 32, 32, 16, 16)
    assert sorted(m) == list(range(1024)), "every LED exactly once"
    assert m[0] == 0  # top-left pixel: first LED of tile 0
    assert m[16] == 256  # first pixel of the top-right tile: first LED of tile 1
    assert m[16 * 32] == 512  # first pixel of the bottom-left tile
    assert m[16 * 32 + 16] == 768  # bottom-right tile
    assert m[32 + 15] == 16  # row 1 of tile 0 runs right to left: its last pixel is LED 16


def test_tiled_mapping_rejects_partial_tiles() -> None:
    with pytest.raises(PixelOrderError, match="whole number"):
        build_mapping("tiled", 24, 16, 16, 16)


# --- power limiter ----------------------------------------------------------------


def test_full_white_16x16_ws2812_estimate_is_about_15_a() -> None:
    """A full-white 16×16 WS2812 panel draws about 15 A (20 mA per colour, 1 mA idle)."""
    white = Image.new("RGB", (16, 16), WHITE)
    assert PowerModel().estimate_ma(white) == pytest.approx(256 * 1 + 256 * 3 * 20)


def test_limiter_scales_full_white_into_the_budget() -> None:
    white = Image.new("RGB", (16, 16), WHITE)
    limited = limit_frame(white, 4000)
    assert PowerModel().estimate_ma(limited) <= 4000
    assert PowerModel().estimate_ma(limited) > 3900, "scaled to fit, not blacked out"
    assert limited.getpixel((5, 5)) == (62, 62, 62)


def test_limiter_keeps_hue() -> None:
    orange = Image.new("RGB", (16, 16), (255, 128, 0))
    r, g, b = limit_frame(orange, 2000).getpixel((0, 0))  # type: ignore[misc]
    assert b == 0 and abs(g / r - 128 / 255) < 0.05


def test_limiter_passes_frames_within_budget_unchanged() -> None:
    image = test_pattern()
    assert limit_frame(image, 4000) is image
    assert limit_frame(Image.new("RGB", (16, 16), WHITE), 0).getpixel((0, 0)) == WHITE


def test_limiter_counts_brightness() -> None:
    white = Image.new("RGB", (16, 16), WHITE)
    assert limit_frame(white, 4000, brightness=0.2).getpixel((0, 0)) == WHITE  # ~3.3 A
    assert limit_frame(white, 4000, brightness=0.5).getpixel((0, 0)) != WHITE


def test_budget_below_idle_draw_goes_black() -> None:
    white = Image.new("RGB", (16, 16), WHITE)
    assert limit_frame(white, 100).getextrema() == ((0, 0), (0, 0), (0, 0))


# --- dummy ------------------------------------------------------------------------


def test_dummy_shows_frames_at_their_size_and_mode() -> None:
    display = open_display(DisplaySpec(type="dummy", width=16, height=16))
    assert (display.width, display.height, display.mode) == (16, 16, "RGB")
    frame = test_pattern()
    display.show(frame)
    assert display.device.image.tobytes() == frame.tobytes()
    display.close()


def test_rotation_turns_the_picture_clockwise() -> None:
    display = open_display(DisplaySpec(type="dummy", width=32, height=32, rotation=90))
    frame = Image.new("RGB", (32, 32))
    frame.putpixel((0, 0), WHITE)  # top-left of the picture ...
    display.show(frame)
    assert display.device.image.getpixel((31, 0)) == WHITE  # ... is top-right on the panel


def test_wrong_size_or_mode_is_a_one_line_frame_error() -> None:
    display = open_display(DisplaySpec(type="dummy"))
    with pytest.raises(FrameError, match="frame is 8x8, display dummy is 16x16"):
        display.show(Image.new("RGB", (8, 8)))
    with pytest.raises(FrameError, match="mode"):
        display.show(Image.new("1", (16, 16)))


def test_brightness_and_night_mode() -> None:
    display = open_display(DisplaySpec(type="dummy", brightness=0.8, night_brightness=0.1))
    assert display.brightness == 0.8
    display.night(True)
    assert display.brightness == 0.1
    display.night(False)
    assert display.brightness == 0.8
    with pytest.raises(ValueError, match="outside"):
        display.set_brightness(1.5)


def test_power_limit_applies_at_the_current_brightness() -> None:
    display = open_display(DisplaySpec(type="dummy", brightness=1.0, max_current_ma=4000))
    display.show(Image.new("RGB", (16, 16), WHITE))
    assert display.last_frame is not None
    assert display.estimate_ma(display.last_frame) <= 4000
    display.night(True)  # 0.1: full white fits the budget again
    display.show(Image.new("RGB", (16, 16), WHITE))
    assert display.device.image.getpixel((0, 0)) == WHITE


# --- Pi drivers with luma's test seams ---------------------------------------------


def test_ws2812_without_rpi_ws281x_says_what_to_install() -> None:
    if "_rpi_ws281x" in sys.modules:
        pytest.skip("running on a Pi with rpi_ws281x")
    with pytest.raises(HardwareError) as info:
        open_display(DisplaySpec(type="ws2812"))
    message = str(info.value)
    assert "rpi_ws281x" in message and "pip install" in message and "\n" not in message


def test_ws2812_serpentine_panel_gets_pixels_in_chain_order() -> None:
    ws = mock.Mock(unsafe=True)
    ws.ws2811_init.return_value = 0
    ws.ws2811_render.return_value = 0
    spec = DisplaySpec(type="ws2812", width=16, height=16, mapping="serpentine")
    display = open_display(spec, interface=ws)
    ws.ws2811_led_set.reset_mock()
    frame = Image.new("RGB", (16, 16))
    frame.putpixel((0, 1), (255, 0, 0))  # row 1 runs right to left: LED 31
    display.show(frame)
    lit = [c.args[1:] for c in ws.ws2811_led_set.call_args_list if c.args[2]]
    assert lit == [(31, 0xFF0000)]


def test_ws2812_frames_are_power_limited_before_the_driver() -> None:
    ws = mock.Mock(unsafe=True)
    ws.ws2811_init.return_value = 0
    ws.ws2811_render.return_value = 0
    spec = DisplaySpec(type="ws2812", brightness=1.0, max_current_ma=4000)
    display = open_display(spec, interface=ws)
    ws.ws2811_led_set.reset_mock()
    display.show(Image.new("RGB", (16, 16), WHITE))
    colours = {c.args[2] for c in ws.ws2811_led_set.call_args_list}
    assert colours == {(62 << 16) | (62 << 8) | 62}
    # brightness is the driver's global brightness (0..255)
    ws.ws2811_channel_t_brightness_set.assert_called_with(mock.ANY, 255)


def test_max7219_cascaded_4_is_32x8_monochrome() -> None:
    spec = DisplaySpec(type="max7219", width=32, height=8, block_orientation=90)
    display = open_display(spec, interface=noop())
    assert (display.width, display.height, display.mode) == (32, 8, "1")
    assert display.device.cascaded == 4
    frame = Image.new("1", (32, 8))
    frame.putpixel((3, 3), 1)
    display.show(frame)
    display.close()


def test_unicornhathd_takes_rgb_frames_and_converts_to_rgba() -> None:
    serial = mock.Mock()
    display = open_display(DisplaySpec(type="unicornhathd", brightness=1.0), interface=serial)
    assert display.mode == "RGB"
    frame = Image.new("RGB", (16, 16))
    frame.putpixel((0, 0), (255, 0, 0))
    display.show(frame)
    payload = serial.data.call_args.args[0]
    assert payload[:4] == [0x72, 255, 0, 0]


def test_apa102_serpentine_strip() -> None:
    serial = mock.Mock()
    spec = DisplaySpec(type="apa102", width=16, height=16, mapping="serpentine")
    display = open_display(spec, interface=serial)
    frame = Image.new("RGB", (16, 16))
    frame.putpixel((0, 1), (0, 0, 255))  # LED 31 in the chain
    display.show(frame)
    buf = serial.data.call_args.args[0]
    offset = 4 + 31 * 4
    assert buf[offset + 1 : offset + 4] == [255, 0, 0]  # APA102 order: B, G, R


def test_spi_device_missing_is_a_one_line_error() -> None:
    with pytest.raises(HardwareError) as info:
        open_display(DisplaySpec(type="max7219", width=32, height=8))
    assert "\n" not in str(info.value) and "max7219" in str(info.value)


def test_bridge_is_left_to_the_bridge_module() -> None:
    with pytest.raises(HardwareError, match=r"hardware\.bridge"):
        open_display(DisplaySpec(type="bridge"))


# --- emulators --------------------------------------------------------------------


def test_capture_writes_one_png_per_frame(tmp_path: Path) -> None:
    spec = DisplaySpec(type="capture", scale=8, brightness=1.0, file=str(tmp_path / "f{0:03}.png"))
    display = open_display(spec)
    display.show(test_pattern())
    display.show(Image.new("RGB", (16, 16), (0, 255, 0)))
    display.close()
    first = Image.open(tmp_path / "f001.png").convert("RGB")
    assert first.size == (128, 128)
    assert first.getpixel((4, 4)) == (0, 255, 0)  # pixel (0, 0), scaled by 8
    assert first.getpixel((2 * 8 + 4, 6 * 8 + 4)) == (255, 0, 0)  # the red frame
    assert Image.open(tmp_path / "f002.png").convert("RGB").getpixel((60, 60)) == (0, 255, 0)


def test_captured_frames_and_recordings_appear_whole_under_their_names(tmp_path: Path) -> None:
    """A script collecting the frames opened each as soon as its name appeared, and
    luma wrote it in place: half a PNG. Each frame (also the one luma draws again at a
    brightness change) and the GIF are now written beside their names and renamed: the
    kernel sees each name appear by a rename, never written, and nothing is left over."""
    events = DirectoryEvents(tmp_path)
    try:
        capture = open_display(
            DisplaySpec(type="capture", scale=2, file=str(tmp_path / "f{0:03}.png"))
        )
        gif = open_display(DisplaySpec(type="gifanim", scale=2, file=str(tmp_path / "a.gif")))
        for colour in ((255, 0, 0), (0, 255, 0)):
            capture.show(Image.new("RGB", (16, 16), colour))
            gif.show(Image.new("RGB", (16, 16), colour))
        capture.set_brightness(0.5)  # luma draws the last frame again: a third file
        capture.close()
        gif.close()
        names = events.names()
    finally:
        events.close()
    finals = ["a.gif", "f001.png", "f002.png", "f003.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == finals
    assert {name: names.get(name) for name in finals} == {name: ["moved_to"] for name in finals}
    dimmed = Image.open(tmp_path / "f003.png").convert("RGB").getpixel((0, 0))
    assert dimmed[1] < 200  # type: ignore[index]
    assert Image.open(tmp_path / "a.gif").n_frames == 2  # type: ignore[attr-defined]


def test_capture_shows_brightness(tmp_path: Path) -> None:
    spec = DisplaySpec(type="capture", scale=1, brightness=0.5, file=str(tmp_path / "f{0}.png"))
    display = open_display(spec)
    display.show(Image.new("RGB", (16, 16), (200, 0, 0)))
    red = Image.open(tmp_path / "f1.png").convert("RGB").getpixel((0, 0))
    assert 95 <= red[0] <= 105  # type: ignore[index]


def test_gifanim_writes_the_animation_on_close(tmp_path: Path) -> None:
    target = tmp_path / "anim.gif"
    display = open_display(DisplaySpec(type="gifanim", scale=4, file=str(target)))
    for colour in ((255, 0, 0), (0, 255, 0), (0, 0, 255)):
        display.show(Image.new("RGB", (16, 16), colour))
    display.close()
    gif = Image.open(target)
    assert gif.n_frames == 3  # type: ignore[attr-defined]
    assert gif.size == (64, 64)


def test_pygame_window_close_raises_display_closed() -> None:
    import pygame

    display = open_display(DisplaySpec(type="pygame", scale=2))
    display.show(test_pattern())
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    with pytest.raises(DisplayClosed, match="window was closed"):
        display.show(test_pattern())


def test_asciiblock_draws_half_blocks_on_a_terminal(tmp_path: Path) -> None:
    """luma's asciiblock writes to the process's own terminal, so it runs in a child
    process on a pseudo-terminal (its exit hook then clears that terminal, not ours)."""
    config = tmp_path / "ascii.toml"
    config.write_text('[display]\ntype = "asciiblock"\n[input]\ntype = "keyboard"\n')
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 32, 0, 0))
    args = ["selftest", "--config", str(config), "--skip-buttons", "--step-ms", "0"]
    child = subprocess.Popen(
        [sys.executable, "-m", "controller", *args, "--colour-s", "0"],
        stdin=slave,
        stdout=slave,
        stderr=subprocess.PIPE,
    )
    os.close(slave)
    output = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    assert child.wait(timeout=60) == 0, child.stderr.read() if child.stderr else ""
    os.close(master)
    text = output.decode("utf-8", "replace")
    assert text.count("▄") >= 16 * 8 * 256, "one 16x8 block picture per LED of the walk"
    assert "\x1b[38;5;" in text
    assert "selftest: 256 LEDs walked" in text
