"""The TOML config: the shipped example is valid, and every bad config gives one clear
line naming the key, the value and what is allowed (exit 2 from ``config check``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from controller.config import ConfigError, default_config, load_config, parse_config

ROOT = Path(__file__).resolve().parent.parent
BASE = '[display]\ntype = "ws2812"\nwidth = 16\nheight = 16\n'

# (name, TOML text, the one expected error line's substring)
BAD_CONFIGS = [
    ("syntax error", "[display\n", "TOML syntax error"),
    ("unknown section", BASE + "[lights]\nx = 1\n", "[lights]: unknown section; allowed: display"),
    ("unknown key", BASE + "colour = 1\n", "display.colour: unknown key; allowed: type"),
    ("missing type", "[display]\nwidth = 16\n", "display.type: missing; allowed: 'ws2812'"),
    ("unknown type", '[display]\ntype = "oled"\n', "display.type: 'oled' is not allowed"),
    (
        "width as string",
        BASE.replace("16\nh", '"16"\nh'),
        "display.width: expected an integer, got '16'",
    ),
    (
        "width as float",
        BASE.replace("width = 16", "width = 16.0"),
        "display.width: expected an integer",
    ),
    (
        "bool for int",
        BASE + "max_current_ma = true\n",
        "display.max_current_ma: expected an integer, got True",
    ),
    ("size without layout", BASE.replace("width = 16", "width = 20"), "display.width: 20x16"),
    (
        "rotated mono size",
        '[display]\ntype = "max7219"\nwidth = 32\nheight = 8\nrotation = 90\n',
        "8x32 (after rotation 90)",
    ),
    (
        "mono at rgb size",
        '[display]\ntype = "max7219"\nwidth = 16\nheight = 16\n',
        "allowed: 32x8, 8x8",
    ),
    (
        "unicorn size",
        '[display]\ntype = "unicornhathd"\nwidth = 32\nheight = 32\n',
        "unicornhathd is 16x16",
    ),
    (
        "bad rotation",
        BASE + "rotation = 45\n",
        "display.rotation: 45 is not allowed; allowed: 0, 90, 180, 270",
    ),
    (
        "brightness range",
        BASE + "brightness = 1.5\n",
        "display.brightness: 1.5 is out of range; allowed: 0.0 to 1.0",
    ),
    ("bad mapping", BASE + 'mapping = "zigzag"\n', "display.mapping: 'zigzag' is not allowed"),
    (
        "mapping on emulator",
        '[display]\ntype = "pygame"\nmapping = "serpentine"\n',
        "display.mapping: 'serpentine' is not allowed for pygame",
    ),
    (
        "partial tiles",
        BASE.replace("16\nh", "32\nh").replace("height = 16", "height = 32")
        + 'mapping = "tiled"\ntile_width = 12\n',
        "not a whole number of 12x16 tiles",
    ),
    (
        "bad block orientation",
        '[display]\ntype = "max7219"\nwidth = 32\nheight = 8\nblock_orientation = 45\n',
        "display.block_orientation: 45",
    ),
    (
        "pin above 27",
        BASE + "[[seats]]\nok = 30\nnext = 27\n",
        "seats[0].ok: 30 is out of range; allowed: 0 to 27",
    ),
    ("negative pin", BASE + "[input]\nsystem_pin = -1\n", "input.system_pin: -1 is out of range"),
    (
        "pin used twice",
        BASE + "[[seats]]\nok = 17\nnext = 17\n",
        "seats[0].next: GPIO 17 is already used by seats[0].ok",
    ),
    (
        "button on ws2812 pin",
        BASE + "[[seats]]\nok = 18\nnext = 27\n",
        "seats[0].ok: GPIO 18 is already used by the ws2812 display",
    ),
    (
        "buzzer on spi pin",
        '[display]\ntype = "max7219"\nwidth = 32\nheight = 8\n[sound]\nbuzzer_pin = 10\n',
        "sound.buzzer_pin: GPIO 10 is already used by the max7219 display (SPI0 MOSI)",
    ),
    (
        "buzzer on system pin",
        BASE + "[sound]\nbuzzer_pin = 26\n",
        "sound.buzzer_pin: GPIO 26 is already used by input.system_pin",
    ),
    (
        "seat missing next",
        BASE + "[[seats]]\nok = 17\n",
        "seats[0].next: missing; allowed: an integer from 0 to 27",
    ),
    (
        "seat unknown key",
        BASE + "[[seats]]\nok = 17\nnext = 27\nroll = 4\n",
        "seats[0].roll: unknown key; allowed: ok, next, player",
    ),
    (
        "too many seats",
        BASE + "".join(f"[[seats]]\nok = {p}\nnext = {p + 1}\n" for p in (2, 4, 6, 12, 20)),
        "seats: 5 seats configured; allowed: 1 to 4",
    ),
    ("seats not tables", BASE + "seats = 4\n", "display.seats: unknown key"),
    ("seats as a value", "seats = 4\n" + BASE, "seats: expected [[seats]] tables, got 4"),
    (
        "bad player",
        BASE + '[[seats]]\nok = 17\nnext = 27\nplayer = "robot"\n',
        "seats[0].player: 'robot' is not allowed; allowed: 'human', 'bot', 'phone', 'empty'",
    ),
    (
        "unknown input type",
        BASE + '[input]\ntype = "joystick"\n',
        "input.type: 'joystick' is not allowed; allowed: 'gpio', 'keyboard', 'bridge'",
    ),
    (
        "debounce too long",
        BASE + "[input]\ndebounce_ms = 900\n",
        "input.debounce_ms: 900 is out of range",
    ),
    (
        "pull_up as string",
        BASE + '[input]\npull_up = "yes"\n',
        "input.pull_up: expected true or false, got 'yes'",
    ),
    (
        "unknown bot",
        BASE + '[game]\nbot = "genius"\n',
        "game.bot: 'genius' is not allowed; allowed: ",
    ),
    ("unknown game", BASE + '[game]\nname = "chess"\n', "game.name: 'chess' is not allowed"),
    (
        "unknown preset",
        BASE + '[game]\nname = "maedn"\npreset = "turbo"\n',
        "game.preset: 'turbo' is not a preset of maedn",
    ),
    (
        "negative move timer",
        BASE + "[game]\nmove_timer_s = -5\n",
        "game.move_timer_s: -5.0 is out of range",
    ),
    (
        "negative bot delay",
        BASE + "[game]\nbot_delay_s = -1\n",
        "game.bot_delay_s: -1.0 is out of range",
    ),
    (
        "sleep time as text",
        BASE.replace("[display]\n", '[display]\nsleep_after_min = "soon"\n', 1),
        "display.sleep_after_min: expected a number, got 'soon'",
    ),
    (
        "section as value",
        'display = "ws2812"\n',
        "display: expected a table [display], got 'ws2812'",
    ),
]


@pytest.mark.parametrize(("name", "text", "expected"), BAD_CONFIGS, ids=[c[0] for c in BAD_CONFIGS])
def test_bad_config_gives_one_clear_line(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    errors = info.value.errors
    assert len(errors) == 1, errors
    assert expected in errors[0], errors[0]
    assert errors[0].startswith(f"{path}: ")


def test_at_least_twenty_bad_configs_are_covered() -> None:
    assert len(BAD_CONFIGS) >= 20


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        load_config(tmp_path / "nope.toml")


def test_all_errors_are_reported_at_once() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({"display": {"type": "oled", "width": "x"}, "sound": {"buzzer_pin": 99}})
    assert len(info.value.errors) == 3


def test_the_example_config_is_valid() -> None:
    config = load_config(ROOT / "config.example.toml")
    assert config.display.type == "ws2812"
    assert config.display.mapping == "serpentine"
    assert config.display.max_current_ma == 3600
    assert len(config.buttons.seats) == 4
    assert config.buttons.system == 26
    assert config.sound.buzzer_pin == 13
    assert config.players == ("human", "human", "bot", "bot")
    assert config.game.move_timer_s == 5


def test_pace_and_sleep_reach_the_table() -> None:
    """[game] bot_delay_s paces the bots; [display] sleep_after_min puts the panel to
    sleep (minutes; 0: never)."""
    from controller.app import table_options

    config = parse_config(
        {"display": {"type": "dummy", "sleep_after_min": 2.5}, "game": {"bot_delay_s": 0.2}}
    )
    options = table_options(config)
    assert options.bot_delay_s == pytest.approx(0.2)
    assert options.sleep_after_s == pytest.approx(150.0)
    defaults = table_options(parse_config({"display": {"type": "dummy"}}))
    assert defaults.sleep_after_s == pytest.approx(600.0)
    never = parse_config({"display": {"type": "dummy", "sleep_after_min": 0}})
    assert table_options(never).sleep_after_s == 0


def test_defaults_fill_everything_but_the_display_type() -> None:
    config = parse_config({"display": {"type": "ws2812"}})
    assert [(s.ok, s.next) for s in config.buttons.seats] == [(17, 27), (22, 23), (24, 25), (5, 6)]
    assert config.buttons.debounce_s == pytest.approx(0.02)
    assert config.hardware.input_type == "gpio"
    assert default_config().display.type == "pygame"


def test_rotation_swaps_the_drawn_size() -> None:
    config = parse_config(
        {"display": {"type": "max7219", "width": 8, "height": 32, "rotation": 90}}
    )
    assert config.display.logical_size == (32, 8)


def test_tiled_32x32_of_16x16_panels_is_valid() -> None:
    config = parse_config(
        {"display": {"type": "ws2812", "width": 32, "height": 32, "mapping": "tiled"}}
    )
    assert (config.display.tile_width, config.display.tile_height) == (16, 16)


def test_spi_chip_select_1_frees_gpio_8() -> None:
    display = {"type": "max7219", "width": 32, "height": 8, "spi_device": 1}
    parse_config({"display": display, "input": {"system_pin": 8}})
    with pytest.raises(ConfigError, match="GPIO 7 is already used by the max7219 display"):
        parse_config({"display": display, "input": {"system_pin": 7}})


def test_config_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(ROOT / "config.example.toml")]) == 0
    assert "ok: ws2812 16x16, input gpio, 4 seats, buzzer GPIO 13" in capsys.readouterr().out


def test_config_check_exits_2_with_one_line_per_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(BASE + "rotation = 45\ncolour = 1\n", encoding="utf-8")
    assert main(["config", "check", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    assert all(line.startswith("spieltisch: error: ") for line in lines)
    assert "Traceback" not in "".join(lines)


def test_config_check_missing_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", "/nonexistent/config.toml"]) == 2
    assert "config file not found" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "size_error"),
    [
        ('[display]\ntype = "ws2811"\nwidth = 20\n', "20x16 (after rotation 0) has no game layout"),
        ("[display]\nwidth = 20\n", "20x16 (after rotation 0) has no game layout"),
        ('[display]\ntype = "ws2811"\nwidth = 32\nheight = 8\nmapping = "serpentine"\n', None),
        ("[display]\ntype = 2812\nwidth = 32\nheight = 32\n", None),
    ],
)
def test_a_bad_display_type_is_not_followed_by_errors_about_a_display_never_configured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, size_error: str | None
) -> None:
    """The type was rejected: nothing may then blame the "dummy" placeholder; a size
    that no display at all could draw is still reported (one run fixes the file)."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["config", "check", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert "display.type: " in lines[0]
    assert not any("dummy" in line.split("allowed:")[0] for line in lines)
    if size_error is None:
        assert len(lines) == 1, lines
    else:
        assert len(lines) == 2 and size_error in lines[1]
        assert lines[1].endswith("on any display; allowed: 16x16, 32x32, 32x8, 8x8")
