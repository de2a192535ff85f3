"""The Setup page's settings: read from the config file, checked by the config's own
validation, written back atomically.

The page edits a few keys of the file the appliance reads (the game, its preset, the
seats, the bots' strength, the move timer, the brightness, the sleep time and the
language). Everything else in the file is kept as it was. A change is checked by
:func:`controller.config.parse_config` on the whole changed document, exactly as the
appliance will check it at its next start, and each of its one-line errors is shown
beside the field whose key it names. Only then is the file replaced: a temporary file
in the same directory, written and fsynced, renamed over the old one, and the
directory fsynced, so a power cut leaves the old file or the new one, never half.

The path is the one the appliance was started with; nothing of it comes from a request.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from controller import config as config_module
from controller.config import DEFAULT_SEATS, PLAYERS, Config, ConfigError, parse_config
from controller.i18n import LANGUAGES
from controller.input_checks import TomlError, read_toml
from controller.web.toml_out import TomlWriteError, dumps
from hardware.atomic_file import write_text_atomically
from rules.bots import BOT_KINDS

SIMPLE = {
    "game": ("game", "name"),
    "preset": ("game", "preset"),
    "bot": ("game", "bot"),
    "move_timer_s": ("game", "move_timer_s"),
    "brightness": ("display", "brightness"),
    "sleep_after_min": ("display", "sleep_after_min"),
    "language": ("table", "language"),
}
"""Form field -> (section, key) in the config file. Seats are ``seats[i].player``."""
OPTIONAL = ("preset", "language")
"""Fields whose empty value means "leave the key out" (the config's default)."""
GENERAL = "form"
"""Where an error about a part of the file the page does not edit is shown."""


class SettingsError(ValueError):
    """The settings cannot be read or written (one line for the page)."""


@dataclass
class Checked:
    """A form checked against the config: the document to write, or the errors."""

    document: dict[str, Any]
    config: Config | None
    errors: dict[str, list[str]]


def choices() -> dict[str, Any]:
    """What the page's fields offer."""
    return {
        "games": {name: list(rules.presets(name)) for name in rules.game_names()},
        "default_presets": {name: rules.default_preset(name) for name in rules.game_names()},
        # the games' own names (Mensch ärgere dich nicht), as the panel's menu shows them
        "titles": {name: rules.game_info(name).title for name in rules.game_names()},
        "bots": list(BOT_KINDS),
        # a seat may be a bot with a level of its own (the page names it "bot (beginner)")
        "players": [*PLAYERS, *BOT_KINDS],
        "languages": list(LANGUAGES),
        "language_key": "table" in config_module.SECTIONS,
    }


def read_document(path: Path | None) -> dict[str, Any]:
    """The config file as TOML data; the simulator without ``--config`` has none."""
    if path is None:
        return {"display": {"type": "pygame"}, "input": {"type": "keyboard"}}
    try:
        return read_toml(path)
    except (OSError, UnicodeDecodeError, TomlError) as exc:
        raise SettingsError(f"cannot read the config: {exc}") from None


def seats_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    raw = document.get("seats")
    if isinstance(raw, list) and all(isinstance(seat, dict) for seat in raw):
        return [dict(seat) for seat in raw]
    return [{"ok": pins.ok, "next": pins.next} for pins in DEFAULT_SEATS]


def current(document: dict[str, Any]) -> dict[str, Any]:
    """The form's values as the file has them (defaults for what it leaves out)."""
    values: dict[str, Any] = {}
    try:
        config: Config | None = parse_config(document)
    except ConfigError:
        config = None
    for field, (section, name) in SIMPLE.items():
        table = document.get(section)
        values[field] = table.get(name) if isinstance(table, dict) else None
    if config is not None:
        values.update(
            game=config.game.name,
            preset=config.game.preset or "",
            bot=config.game.bot,
            move_timer_s=config.game.move_timer_s,
            brightness=config.display.brightness,
            sleep_after_min=config.sleep_after_min,
        )
    values["seats"] = [seat.get("player", "human") for seat in seats_of(document)]
    for field in OPTIONAL:
        if values.get(field) is None:
            values[field] = ""
    return values


def apply(document: dict[str, Any], form: dict[str, Any]) -> dict[str, Any]:
    """``document`` with the form's values in it (the form is not trusted: whatever it
    holds goes to the config's validation, which names what is wrong)."""
    changed = copy.deepcopy(document)
    for field, (section, name) in SIMPLE.items():
        if field not in form:
            continue
        value = form[field]
        table = changed.setdefault(section, {})
        if not isinstance(table, dict):
            continue  # the validation reports the broken section
        if field in OPTIONAL and value in ("", None):
            table.pop(name, None)
            if not table:
                del changed[section]
            continue
        table[name] = value
    seats = form.get("seats")
    if seats is not None:
        tables = seats_of(document)
        if not isinstance(seats, list) or len(seats) != len(tables):
            raise SettingsError(f"seats: send one kind per seat ({len(tables)} seats)")
        for table, player in zip(tables, seats, strict=True):
            table["player"] = player
        changed["seats"] = tables
    return changed


def field_of(line: str) -> str:
    """The form field a config error line is about (``game.move_timer_s: ...``)."""
    for field, (section, name) in SIMPLE.items():
        if line.startswith(f"{section}.{name}:") or (
            section != "game" and line.startswith(f"[{section}]:")
        ):
            return field
    if line.startswith("seats[") and "]" in line:
        index = line[len("seats[") : line.index("]")]
        if index.isdigit():
            return f"seat{index}"
    return GENERAL


def check(document: dict[str, Any], form: dict[str, Any], source: str) -> Checked:
    """Apply ``form`` and run the config's validation on the result."""
    errors: dict[str, list[str]] = {}
    try:
        changed = apply(document, form)
    except SettingsError as exc:
        return Checked(document, None, {"seats": [str(exc)]})
    try:
        config = parse_config(changed, source)
    except ConfigError as exc:
        prefix = f"{source}: "
        for line in exc.errors:
            text = line.removeprefix(prefix)
            errors.setdefault(field_of(text), []).append(text)
        return Checked(changed, None, errors)
    return Checked(changed, config, errors)


DECIMAL = re.compile(r"(?<![\w.])(-?\d+)\.(\d+)(?![\w.])")
DECIMAL_MARK = {"de": ","}
"""The languages that write a decimal comma (the config's own errors write a point)."""


def for_the_page(field: str, line: str, language: str) -> str:
    """A config error ``line`` as the Setup page shows it beside ``field``: without the
    config's key (``game.move_timer_s: ``), which means nothing to a family and is
    shown beside its field anyway, and with its numbers as the page's language writes
    them ("-4" for "-4.0", "0,5" in German)."""
    if field != GENERAL:
        key, sep, rest = line.partition(": ")
        if sep and " " not in key:
            line = rest
    mark = DECIMAL_MARK.get(language, ".")

    def number(match: re.Match[str]) -> str:
        whole, fraction = match.group(1), match.group(2).rstrip("0")
        return whole if not fraction else f"{whole}{mark}{fraction}"

    return DECIMAL.sub(number, line)


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``: temp file in the same directory, fsync, rename,
    fsync of the directory. The file keeps its permission bits (a new one: 0644)."""
    write_text_atomically(
        path, text, durable=True, mode=0o644, keep_mode=True, prefix=f".{path.name}.", suffix=".tmp"
    )


def save(path: Path, document: dict[str, Any]) -> None:
    """Write ``document`` (already checked) to ``path``; one line on failure."""
    try:
        text = dumps(document)
    except TomlWriteError as exc:
        raise SettingsError(f"cannot write the config: {exc}") from None
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise SettingsError(f"cannot write {path}: {exc.strerror or exc}") from None
