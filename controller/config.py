"""The appliance's TOML config: read with tomllib, validated into frozen dataclasses.

Every problem becomes one line naming the key, the value and what is allowed, and all
problems are reported at once (``ConfigError.errors``), so a builder fixes the file in
one go. ``load_config`` never starts anything. ``spieltisch config check FILE`` and
``spieltisch run`` both call :func:`load_table_config` (``load_config`` plus what the
table alone needs), so what one passes the other starts. ``sim`` and ``selftest`` call
``load_config`` and exit 2 on a ``ConfigError``; ``run`` shows it on the panel, or
exits 78 (EX_CONFIG) where it cannot.

Sections and keys are documented in ``config.example.toml``; pins in ``wiring.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import rules
from controller import i18n
from controller.config_output import check_output_file
from controller.config_values import TomlTable, describe, join_values, pin_value
from controller.games import first_game
from controller.i18n import _
from controller.input_checks import (
    MAX_TOML_BYTES,
    NotAConfigFile,
    TomlError,
    clip,
    quote,
    read_toml,
)
from controller.voice.speaker import VoiceSettings
from hardware.panels import PANEL_TYPES
from hardware.specs import (
    DISPLAY_TYPES,
    INPUT_TYPES,
    MAPPINGS,
    MONO_SIZES,
    RGB_SIZES,
    ROTATIONS,
    ButtonWiring,
    DisplaySpec,
    HardwareSpec,
    SeatPins,
    SoundSpec,
)
from rules.bots import BOT_KINDS

DEFAULT_PATH = Path("/etc/spieltisch/config.toml")

DEFAULT_SEATS = (SeatPins(17, 27), SeatPins(22, 23), SeatPins(24, 25), SeatPins(5, 6))
DEFAULT_SYSTEM_PIN = 26
"""The wiring.md pin table: 4 seats × (OK, NEXT), the system button; buzzer on 13."""

PLAYERS = ("human", "bot", "phone", "empty", "coached")
"""A "phone" seat is a human seat played from the companion page's two buttons; a
"coached" seat a human seat with the coach (``controller.coach``)."""
BLOCK_ORIENTATIONS = (0, 90, -90, 180)
SECTIONS = ("display", "input", "seats", "sound", "game", "web", "table", "voice")


class ConfigError(ValueError):
    """A config that must not be used; ``errors`` holds one line per problem."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What the menu offers first, the Lingo move timer and the bots' strength."""

    name: str = field(default_factory=first_game)
    preset: str | None = None
    move_timer_s: float = 5.0
    bot: str = "strong"
    physical_dice: bool = False
    """Players roll real dice and enter them with NEXT (count up) and OK (confirm)."""
    bot_delay_s: float = 0.6
    """How long a bot's roll and its chosen move stay in view before they happen."""


@dataclass(frozen=True, slots=True)
class WebConfig:
    """The companion page (``controller.web``): on by default for the appliance."""

    enabled: bool = True
    port: int = 8080


@dataclass(frozen=True, slots=True)
class Config:
    hardware: HardwareSpec
    players: tuple[str, ...]
    """The default setup per seat: "human", "bot", "phone", "empty", "coached" or a bot kind
    (``rules.bots.BOT_KINDS``: a bot seat with a level of its own)."""
    game: GameConfig = field(default_factory=GameConfig)
    source: str = "<defaults>"
    sleep_after_min: float = 10.0
    """Minutes without a press (while the table waits for a person) before the panel
    sleeps: dim and still; 0 never sleeps."""
    web: WebConfig = field(default_factory=WebConfig)
    language: str | None = None
    """The words' language ("de", "en"); None: the locale's (:mod:`controller.i18n`)."""
    voice: VoiceSettings = field(default_factory=VoiceSettings)
    """The spoken prompts (:mod:`controller.voice`)."""

    @property
    def display(self) -> DisplaySpec:
        return self.hardware.display

    @property
    def buttons(self) -> ButtonWiring:
        return self.hardware.buttons

    @property
    def sound(self) -> SoundSpec:
        return self.hardware.sound


def load_config(path: str | Path) -> Config:
    """Read and validate ``path``; raises ``ConfigError`` listing every problem."""
    path = Path(path)
    try:
        data = read_toml(path)
    except FileNotFoundError:
        raise ConfigError(
            [
                _(
                    "{path}: config file not found; name another with --config FILE, or start "
                    "from config.example.toml (in the spieltisch source) copied to this path"
                ).format(path=path)
            ]
        ) from None
    except NotAConfigFile as exc:
        raise ConfigError([not_a_config_file(path, exc)]) from None
    except OSError as exc:
        reason = exc.strerror or exc
        raise ConfigError(
            [_("{path}: cannot read config file: {reason}").format(path=path, reason=reason)]
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            [
                _("{path}: cannot read config file: not UTF-8 text (byte {byte})").format(
                    path=path, byte=exc.start
                )
            ]
        ) from None
    except TomlError as exc:
        raise ConfigError([f"{path}: {exc}"]) from None
    return parse_config(data, str(path))


def load_table_config(path: str | Path) -> Config:
    """``load_config`` for the table itself: what ``spieltisch run`` starts and what
    ``spieltisch config check`` passes, so that the two always agree.

    The table runs under systemd, with no terminal and no screen, so beyond a valid
    file it needs buttons it can read there: ``input.type = "keyboard"`` is the
    simulator's (``spieltisch sim``, ``selftest --input keyboard``), and is refused here
    as a config error, said the same way by both commands."""
    config = load_config(path)
    if config.hardware.input_type == "keyboard":
        line = _(
            "input.type: 'keyboard' is for the simulator (spieltisch sim); the table "
            "reads its buttons from 'gpio' or 'bridge'"
        )
        raise ConfigError([f"{config.source}: {line}"])
    return config


def not_a_config_file(path: Path, exc: NotAConfigFile) -> str:
    """The one line for a config path that names no regular file, or a huge one."""
    if exc.kind is None:
        return _(
            "{path}: cannot read config file: larger than {size} KiB; a config is a few "
            "lines of text"
        ).format(path=path, size=MAX_TOML_BYTES // 1024)
    return _("{path}: cannot read config file: it is a {kind}, not a regular file").format(
        path=path, kind=_(exc.kind)
    )


def parse_config(data: dict[str, Any], source: str = "<config>") -> Config:
    """Validate an already parsed TOML document (a dict)."""
    errors: list[str] = []
    for name in data:
        if name not in SECTIONS:
            allowed = ", ".join(SECTIONS)
            errors.append(
                _("[{name}]: unknown section; allowed: {allowed}").format(
                    name=name, allowed=allowed
                )
            )
    display, sleep_after_min = _display(TomlTable("display", data.get("display", {}), errors))
    input_type, buttons = _input(TomlTable("input", data.get("input", {}), errors))
    seats, players = _seats(data.get("seats"), errors)
    buttons = ButtonWiring(
        seats, buttons.system, buttons.pull_up, buttons.debounce_s, buttons.hold_s
    )
    sound = _sound(TomlTable("sound", data.get("sound", {}), errors))
    game = _game(TomlTable("game", data.get("game", {}), errors))
    web = _web(TomlTable("web", data.get("web", {}), errors))
    voice = _voice(TomlTable("voice", data.get("voice", {}), errors))
    table = TomlTable("table", data.get("table", {}), errors)
    language = table.get("language", str, None, choices=i18n.LANGUAGES)
    table.finish()
    _check_pins(display, buttons, sound, errors)
    if errors:
        raise ConfigError([f"{source}: {line}" for line in errors])
    hardware = HardwareSpec(display, input_type, buttons, sound)
    return Config(hardware, players, game, source, sleep_after_min, web, language, voice)


def display_section(path: str | Path) -> DisplaySpec | None:
    """The ``[display]`` section of ``path`` alone, or None if it cannot be used.

    ``run`` uses this when the whole config is wrong: with a usable display section it
    can still show the error on the panel instead of leaving the table dark. The file
    must parse as TOML and its display section must be free of errors by itself.
    """
    try:
        data = read_toml(Path(path))
    except (OSError, UnicodeDecodeError, TomlError):
        return None
    errors: list[str] = []
    spec, _sleep_after_min = _display(TomlTable("display", data.get("display", {}), errors))
    return None if errors else spec


def default_config() -> Config:
    """The settings an empty file gives, but with the pygame emulator and keyboard."""
    return parse_config({"display": {"type": "pygame"}, "input": {"type": "keyboard"}})


# --- sections --------------------------------------------------------------------


def _display(t: TomlTable) -> tuple[DisplaySpec, float]:
    """The panel, and the minutes of quiet before it sleeps (a controller setting, but
    it belongs with the panel in the file)."""
    d = DisplaySpec()
    kind = t.get("type", str, "dummy", choices=DISPLAY_TYPES, required=True)
    width = t.get("width", int, d.width, lo=1, hi=256)
    height = t.get("height", int, d.height, lo=1, hi=256)
    spec = DisplaySpec(
        type=kind,
        width=width,
        height=height,
        rotation=t.get("rotation", int, d.rotation, choices=ROTATIONS),
        mapping=t.get("mapping", str, d.mapping, choices=MAPPINGS),
        tile_width=t.get("tile_width", int, d.tile_width, lo=1, hi=256),
        tile_height=t.get("tile_height", int, d.tile_height, lo=1, hi=256),
        brightness=t.get("brightness", float, d.brightness, lo=0.0, hi=1.0),
        night_brightness=t.get("night_brightness", float, d.night_brightness, lo=0.0, hi=1.0),
        max_current_ma=t.get("max_current_ma", int, d.max_current_ma, lo=0, hi=100_000),
        ma_per_channel=t.get("ma_per_channel", float, d.ma_per_channel, lo=0.0, hi=100.0),
        idle_ma_per_led=t.get("idle_ma_per_led", float, d.idle_ma_per_led, lo=0.0, hi=10.0),
        spi_port=t.get("spi_port", int, d.spi_port, choices=(0, 1)),
        spi_device=t.get("spi_device", int, d.spi_device, choices=(0, 1)),
        block_orientation=t.get(
            "block_orientation", int, d.block_orientation, choices=BLOCK_ORIENTATIONS
        ),
        reverse_order=t.get("reverse_order", bool, d.reverse_order),
        scale=t.get("scale", int, d.scale, lo=1, hi=64),
        file=t.get("file", str, d.file),
        port=t.get("port", str, d.port),
    )
    sleep_after_min = t.get("sleep_after_min", float, 10.0, lo=0.0, hi=1440.0)
    t.finish()
    _check_size(t, spec, type_ok=t.table.get("type") == kind)
    if t.table.get("type") == kind and kind in ("capture", "gifanim"):
        check_output_file(t, spec)
    return spec, sleep_after_min


def _check_size(t: TomlTable, spec: DisplaySpec, type_ok: bool = True) -> None:
    """The size must be one a view layout exists for, and fit the chosen chain order.

    Without a valid type (``type_ok`` False, already reported) ``spec.type`` is only the
    placeholder default: the checks that depend on the type are left out, rather than
    blaming a display the user never configured; a size no display could draw is still
    reported, so the file can be fixed in one go."""
    size = spec.logical_size
    # display.type "none" (no panel chosen yet) keeps the other keys for the panel still
    # to come: only what no panel could use is an error.
    if not type_ok or spec.type == "none":
        if size not in RGB_SIZES + MONO_SIZES:
            allowed = ", ".join(f"{w}x{h}" for w, h in RGB_SIZES + MONO_SIZES)
            t.error(
                "width",
                _(
                    "{size} (after rotation {rotation}) has no game layout "
                    "on any display; allowed: {allowed}"
                ).format(size=f"{size[0]}x{size[1]}", rotation=spec.rotation, allowed=allowed),
            )
        return
    panel = PANEL_TYPES[spec.type]
    built = panel.built_size
    if built is not None and (spec.width, spec.height) != built:
        message = _("{size} is not allowed; {type} is {built}")
        t.error(
            "width",
            message.format(
                size=f"{spec.width}x{spec.height}", type=spec.type, built=f"{built[0]}x{built[1]}"
            ),
        )
        return
    sizes = panel.sizes
    if size not in sizes:
        allowed = ", ".join(f"{w}x{h}" for w, h in sizes)
        t.error(
            "width",
            (
                _(
                    "{size} (after rotation {rotation}) has no game layout on a monochrome "
                    "{type} display; allowed: {allowed}"
                )
                if spec.mono
                else _(
                    "{size} (after rotation {rotation}) has no game layout on a colour "
                    "{type} display; allowed: {allowed}"
                )
            ).format(
                size=f"{size[0]}x{size[1]}",
                rotation=spec.rotation,
                type=quote(spec.type),
                allowed=allowed,
            ),
        )
    if spec.mapping != "row" and not panel.mapping:
        chained = ", ".join(t.name for t in PANEL_TYPES.values() if t.mapping)
        t.error(
            "mapping",
            _(
                "{mapping} is not allowed for {type}; "
                "allowed: 'row' (chain order is only set for {types})"
            ).format(mapping=repr(spec.mapping), type=spec.type, types=chained),
        )
    if spec.mapping == "tiled" and (spec.width % spec.tile_width or spec.height % spec.tile_height):
        t.error(
            "mapping",
            _("'tiled': {size} is not a whole number of {tile} tiles").format(
                size=f"{spec.width}x{spec.height}", tile=f"{spec.tile_width}x{spec.tile_height}"
            ),
        )


def _input(t: TomlTable) -> tuple[str, ButtonWiring]:
    kind = t.get("type", str, "gpio", choices=INPUT_TYPES)
    spec = ButtonWiring(
        system=pin_value(t, "system_pin", DEFAULT_SYSTEM_PIN),
        pull_up=t.get("pull_up", bool, True),
        debounce_s=t.get("debounce_ms", int, 20, lo=0, hi=500) / 1000,
        hold_s=t.get("hold_s", float, 1.0, lo=0.1, hi=30.0),
    )
    t.finish()
    return kind, spec


def _seats(raw: Any, errors: list[str]) -> tuple[tuple[SeatPins, ...], tuple[str, ...]]:
    if raw is None:
        return DEFAULT_SEATS, ("human",) * len(DEFAULT_SEATS)
    if not isinstance(raw, list) or not all(isinstance(s, dict) for s in raw):
        got = describe(raw)
        errors.append(_("seats: expected [[seats]] tables, got {got}").format(got=got))
        return (), ()
    if not 1 <= len(raw) <= 4:
        errors.append(_("seats: {count} seats configured; allowed: 1 to 4").format(count=len(raw)))
    seats: list[SeatPins] = []
    players: list[str] = []
    for index, table in enumerate(raw):
        t = TomlTable(f"seats[{index}]", table, errors)
        ok = pin_value(t, "ok", None, required=True)
        nxt = pin_value(t, "next", None, required=True)
        # a bot kind (a level) is a bot seat that plays that kind instead of [game] bot
        players.append(t.get("player", str, "human", choices=(*PLAYERS, *BOT_KINDS)))
        t.finish()
        seats.append(SeatPins(ok if ok is not None else -1, nxt if nxt is not None else -1))
    return tuple(seats), tuple(players)


def _sound(t: TomlTable) -> SoundSpec:
    spec = SoundSpec(
        buzzer_pin=pin_value(t, "buzzer_pin", None),
        enabled=t.get("enabled", bool, True),
    )
    t.finish()
    return spec


def _game(t: TomlTable) -> GameConfig:
    names = rules.game_names()
    name = t.get("name", str, first_game(), choices=names)
    preset = t.get("preset", str, None)
    if preset is not None and name in names and preset not in rules.presets(name):
        allowed = join_values(rules.presets(name))
        message = _("{preset} is not a preset of {game}; allowed: {allowed}")
        t.error("preset", message.format(preset=quote(preset), game=name, allowed=allowed))
    spec = GameConfig(
        name=name,
        preset=preset,
        move_timer_s=t.get("move_timer_s", float, 5.0, lo=0.0, hi=600.0),
        bot=t.get("bot", str, "strong", choices=list(BOT_KINDS)),
        physical_dice=t.get("physical_dice", bool, False),
        bot_delay_s=t.get("bot_delay_s", float, 0.6, lo=0.0, hi=30.0),
    )
    t.finish()
    return spec


def _web(t: TomlTable) -> WebConfig:
    spec = WebConfig(
        enabled=t.get("enabled", bool, True),
        port=t.get("port", int, 8080, lo=1, hi=65535),
    )
    t.finish()
    return spec


def _voice(t: TomlTable) -> VoiceSettings:
    spec = VoiceSettings(
        enabled=t.get("enabled", bool, True),
        volume=t.get("volume", int, 80, lo=0, hi=100),
        only_important=t.get("only_important", bool, False),
    )
    t.finish()
    return spec


def _check_pins(
    display: DisplaySpec, buttons: ButtonWiring, sound: SoundSpec, errors: list[str]
) -> None:
    """No pin may serve two purposes: a button, the buzzer and the display bus."""
    taken: dict[int, str] = {}
    panel = PANEL_TYPES.get(display.type)
    bus = {} if panel is None else panel.bus_pins(display.spi_device)
    for bus_pin, role in bus.items():
        taken[bus_pin] = _("the {type} display ({role})").format(type=display.type, role=role)
    uses: list[tuple[str, int | None]] = []
    for index, seat in enumerate(buttons.seats):
        uses += [(f"seats[{index}].ok", seat.ok), (f"seats[{index}].next", seat.next)]
    uses += [("input.system_pin", buttons.system), ("sound.buzzer_pin", sound.buzzer_pin)]
    for key, pin in uses:
        if pin is None or pin < 0:
            continue
        if pin in taken:
            message = _("{key}: GPIO {pin} is already used by {use}")
            errors.append(message.format(key=key, pin=pin, use=taken[pin]))
        else:
            taken[pin] = key


# --- command line: spieltisch config check FILE ------------------------------------


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    p = sub.add_parser("config", help="check a config file")
    config_sub = p.add_subparsers(dest="config_command", required=True, metavar="ACTION")
    check = config_sub.add_parser("check", help="validate FILE without starting anything")
    check.add_argument("file", type=Path, help="the TOML config file")


def run(args: argparse.Namespace, out: IO[str] | None = None, err: IO[str] | None = None) -> int:
    """``config check``: print a one-line summary, or every error (exit 2)."""
    out = out or sys.stdout
    err = err or sys.stderr
    # The errors in the words the panel's config-error screen would show them in.
    i18n.use(i18n.language_from_environment(os.environ))
    try:
        config = load_table_config(args.file)
    except ConfigError as exc:
        for line in exc.errors:
            err.write(f"spieltisch: error: {clip(line)}\n")
        return 2
    d = config.display
    w, h = d.logical_size
    pin = config.sound.buzzer_pin
    buzzer = "none" if pin is None else f"GPIO {pin}"
    panel = "no panel chosen yet (display.type none)" if d.type == "none" else f"{d.type} {w}x{h}"
    out.write(
        f"{args.file}: ok: {panel}, input {config.hardware.input_type}, "
        f"{len(config.buttons.seats)} seats, "
        f"buzzer {buzzer}\n"
    )
    return 0
