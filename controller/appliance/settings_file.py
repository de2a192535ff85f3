"""``spieltisch.toml`` on the boot partition: the settings a family can edit on any laptop.

The card's FAT partition is the one place a person can write to before the table has
ever started, so it carries what the first start needs: the home Wi-Fi (name, password,
country), the panel type, the language, the time zone and an SSH key. This module only
reads and checks: every problem is one line naming the key, what was found and what is
allowed, in the config's own words (:class:`~controller.config_values.TomlTable`), and
the panel and language go through the config's own choices, so the file can never hold
a value the table's config would refuse. An empty string means "not set", so the file
shipped on the image can list every key with nothing filled in.

The Wi-Fi password leaves the file once NetworkManager has stored it:
:func:`without_password` rewrites the text with that one line blanked and every other
line (comments too) kept, and :func:`write_fat` replaces the file so that a power cut
leaves the old text or the new one (:func:`recover` finishes the job at the next start).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import re
import zoneinfo
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller import i18n
from controller.config_values import TomlTable
from controller.i18n import _
from controller.input_checks import TomlError, quote, read_toml
from hardware.atomic_file import sync_directory, write_text_atomically
from hardware.specs import DISPLAY_TYPES

FILE_NAME = "spieltisch.toml"
DEFAULT_PATH = Path("/boot/firmware") / FILE_NAME
SECTIONS = ("wifi", "table", "ssh")
SSH_KEY_TYPES = (
    "ssh-ed25519",
    "ssh-rsa",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
)
COUNTRY_TABLE = Path("/usr/share/zoneinfo/iso3166.tab")


@dataclass(frozen=True, slots=True)
class BootSettings:
    """The file's settings; "" where a key is missing, empty or wrong."""

    wifi_name: str = ""
    wifi_password: str = ""
    country: str = ""
    panel: str = ""
    language: str = ""
    timezone: str = ""
    ssh_key: str = ""


@dataclass(frozen=True, slots=True)
class CheckedSettings:
    """The usable settings and one line per problem (a wrong value is left out, the
    rest is still applied)."""

    settings: BootSettings
    errors: tuple[str, ...] = ()


def countries(table: Path = COUNTRY_TABLE) -> frozenset[str]:
    """ISO 3166 codes from tzdata's table; empty if it is missing (then the shape alone
    is checked)."""
    try:
        lines = table.read_text(encoding="utf-8").splitlines()
    except OSError:
        return frozenset()
    return frozenset(line[:2] for line in lines if len(line) > 2 and not line.startswith("#"))


def read(path: Path) -> CheckedSettings:
    """The file's settings; a missing file is no error (nothing to apply)."""
    try:
        data = read_toml(path)
    except FileNotFoundError:
        return CheckedSettings(BootSettings())
    except OSError as exc:
        reason = exc.strerror or str(exc)
        message = _("{path}: cannot read the settings file: {reason}")
        return CheckedSettings(BootSettings(), (message.format(path=path.name, reason=reason),))
    except UnicodeDecodeError as exc:
        message = _("{path}: not UTF-8 text (byte {byte})")
        return CheckedSettings(BootSettings(), (message.format(path=path.name, byte=exc.start),))
    except TomlError as exc:
        return CheckedSettings(BootSettings(), (f"{path.name}: {exc}",))
    return check(data, path.name)


def check(data: dict[str, Any], source: str = FILE_NAME) -> CheckedSettings:
    """Validate an already parsed document."""
    errors: list[str] = []
    for name in data:
        if name not in SECTIONS:
            allowed = ", ".join(SECTIONS)
            message = _("[{name}]: unknown section; allowed: {allowed}")
            errors.append(message.format(name=name, allowed=allowed))
    wifi = TomlTable("wifi", data.get("wifi", {}), errors)
    name = wifi.get("name", str, "")
    password = wifi.get("password", str, "")
    country = wifi.get("country", str, "")
    wifi.finish()
    name = _wifi_name(wifi, name)
    password = _wifi_password(wifi, password)
    if country:
        country = _country(wifi, country)
    if password and not name:
        wifi.error("password", _("a password needs the network's name in wifi.name"))
        password = ""
    table = TomlTable("table", data.get("table", {}), errors)
    panel = _optional_choice(table, "panel", DISPLAY_TYPES)
    language = _optional_choice(table, "language", i18n.LANGUAGES)
    timezone = table.get("timezone", str, "")
    table.finish()
    if timezone and timezone not in _timezones():
        message = _("{value} is not a time zone; allowed: e.g. 'Europe/Berlin' or 'UTC'")
        table.error("timezone", message.format(value=quote(timezone)))
        timezone = ""
    ssh = TomlTable("ssh", data.get("ssh", {}), errors)
    key = ssh.get("key", str, "").strip()
    ssh.finish()
    if key and (problem := ssh_key_problem(key)):
        ssh.error("key", problem)
        key = ""
    settings = BootSettings(name, password, country, panel, language, timezone, key)
    return CheckedSettings(settings, tuple(f"{source}: {line}" for line in errors))


def _optional_choice(table: TomlTable, key: str, choices: tuple[str, ...]) -> str:
    """A key whose empty string means "leave as it is"."""
    if table.table.get(key) == "":
        table.known.append(key)
        return ""
    value: str = table.get(key, str, "", choices=choices)
    return value


def _wifi_name(table: TomlTable, name: str) -> str:
    """An SSID is 1 to 32 bytes."""
    if len(name.encode("utf-8")) > 32:
        message = _("{value} is too long; allowed: at most 32 bytes")
        table.error("name", message.format(value=quote(name)))
        return ""
    return name


def _wifi_password(table: TomlTable, password: str) -> str:
    """WPA2's pass phrase: 8 to 63 printable ASCII characters, or 64 hex digits."""
    if not password:
        return ""
    printable = all(" " <= c <= "~" for c in password)
    if (printable and 8 <= len(password) <= 63) or re.fullmatch(r"[0-9a-fA-F]{64}", password):
        return password
    table.error(
        "password",
        _(
            "a password of {count} characters is not allowed; allowed: 8 to 63 letters, "
            "digits and signs (no accents)"
        ).format(count=len(password)),
    )
    return ""


def _country(table: TomlTable, country: str) -> str:
    known = countries()
    if re.fullmatch(r"[A-Z]{2}", country) and (not known or country in known):
        return country
    message = _("{value} is not a country code; allowed: two capital letters, e.g. 'DE'")
    table.error("country", message.format(value=quote(country)))
    return ""


def _timezones() -> set[str]:
    return set(zoneinfo.available_timezones()) | {"UTC"}


def ssh_key_problem(key: str) -> str:
    """Why ``key`` is no OpenSSH public key line ("" if it is one): its type, then its
    base64 blob, which starts with the same type name."""
    parts = key.split()
    if "\n" in key or len(parts) < 2:
        return _("expected one line 'TYPE KEY [comment]', e.g. from ~/.ssh/id_ed25519.pub")
    kind, blob = parts[0], parts[1]
    if kind not in SSH_KEY_TYPES:
        allowed = ", ".join(SSH_KEY_TYPES[:3])
        return _("{kind} is not a public key type; allowed: {allowed}").format(
            kind=quote(kind), allowed=allowed
        )
    try:
        raw = base64.b64decode(blob, validate=True)
    except (binascii.Error, ValueError):
        return _("the key is not base64")
    name = kind.encode()
    if raw[:4] != len(name).to_bytes(4, "big") or raw[4 : 4 + len(name)] != name:
        return _("the key does not match its type {kind}").format(kind=quote(kind))
    return ""


# --- removing the password --------------------------------------------------------

_SECTION = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")
_PASSWORD = re.compile(r'^(\s*(?:password|"password")\s*=\s*)(.*)$')


def without_password(text: str) -> str:
    """``text`` with the ``password`` of ``[wifi]`` set to "" and every other line kept.

    Line based, because tomllib drops comments and the family's own notes stay.
    :func:`remove_password` reads the result back and refuses it if a password is still
    there (one written in a form this does not recognise)."""
    lines = text.splitlines(keepends=True)
    section = ""
    out: list[str] = []
    for line in lines:
        if match := _SECTION.match(line):
            section = match.group(1)
        elif section == "wifi" and (match := _PASSWORD.match(line)):
            end = "\n" if line.endswith("\n") else ""
            line = f'{match.group(1)}""' + (" # stored in the table, removed here" + end)
        out.append(line)
    return "".join(out)


def _password_of(text: str) -> str:
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(str(exc)) from None
    wifi = data.get("wifi", {})
    return str(wifi.get("password", "")) if isinstance(wifi, dict) else ""


def remove_password(path: Path) -> bool:
    """Blank the stored password in the file on the card; True if the file changed."""
    text = path.read_text(encoding="utf-8")
    new = without_password(text)
    if _password_of(new):
        raise ValueError(f"{path.name}: the password could not be removed")
    if new == text:
        return False
    write_fat(path, new)
    return True


def fat_copy(path: Path) -> Path:
    """Where :func:`write_fat` keeps the new text whole while it replaces ``path``."""
    return path.with_name(f".{path.name}.new")


def write_fat(path: Path, text: str) -> None:
    """Replace ``path`` on a FAT partition so that a power cut at any moment leaves the
    old text or the new one readable.

    FAT has no journal, and Linux's rename over an existing file there is several
    writes (the target's directory entry pointed at the new clusters, the source's
    entry removed, the old clusters freed), so a cut inside it can leave the file's
    entry damaged or gone. Hence three steps, each synced before the next:

    1. the new text, whole, as a copy under its own name (:func:`fat_copy`);
    2. the new text written beside the file and renamed over it;
    3. once the file reads back as the new text, the copy is removed.

    The rename in step 2 never touches the copy's entry or clusters, so while the file
    may be damaged, the copy is whole; :func:`recover`, run before the file is read,
    puts it in place. The copy holds the new text only (for the Wi-Fi password, the
    text without it): nothing removed from the file survives in it. FAT keeps no
    permission bits, so none are copied."""
    directory = path.parent
    for stray in directory.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            stray.unlink()
    copy = fat_copy(path)
    _write_synced(copy, text)
    sync_directory(directory)
    # vfat may refuse an fsync of the directory: the writer leaves that to it
    write_text_atomically(
        path, text, durable=True, mode=0o600, prefix=f".{path.name}.", suffix=".tmp"
    )
    if _readable(path) == text:
        copy.unlink()
        sync_directory(directory)


def recover(path: Path) -> bool:
    """Finish or undo a :func:`write_fat` that a power cut interrupted; True if the
    copy was put in place. The file readable (UTF-8, TOML, not empty) is the old text
    or the new: the copy is no longer needed. The file missing or damaged means the cut
    came during the rename, after the copy was written whole: the copy becomes the file."""
    for stray in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            stray.unlink()  # a temp file never renamed: the file or the copy has its text
    copy = fat_copy(path)
    if not copy.exists():
        return False
    if _readable(path) is not None:
        copy.unlink()
        sync_directory(path.parent)
        return False
    if _readable(copy) is None:
        return False  # no write of ours left this: nothing to choose
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # a damaged entry first: a rename over it would be a rename on FAT
    os.replace(copy, path)
    sync_directory(path.parent)
    return True


def _readable(path: Path) -> str | None:
    """The file's text if it is whole as far as can be told: UTF-8, TOML, not empty."""
    import tomllib

    try:
        text = path.read_text(encoding="utf-8")
        tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return text if text.strip() else None


def _write_synced(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
