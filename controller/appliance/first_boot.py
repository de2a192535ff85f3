"""Apply the boot partition's settings file: read at every start, each value applied once.

"Once" is kept in a small record on the data partition (``boot-settings.json``): a
value is applied when it differs from the one applied last time, so a family that
later changes the panel or the language on the companion page's Setup is not
overruled at the next start by an old line on the card, and a power cut in the middle
only means the same step is done again next time (every step may be repeated). The
order for the Wi-Fi is: store it in NetworkManager, note it in the record, and only
then blank the password in the file, so the password is never lost and never stays
(except on a card whose data partition is in RAM: there the file keeps it).

The country (Wi-Fi's regulatory domain) is not kept by the kernel across a restart, so
it is set at every start; SSH is started at every start while a key is installed.

The card's root is read-only, so two things the system keeps under ``/etc`` are written
elsewhere. The time zone: ``/etc/localtime`` on the card is a link to a link on the data
partition (``/data/system/zone/localtime``), which :func:`write_zone` replaces with one
rename (``timedatectl`` would try to replace ``/etc/localtime`` itself, and fail). The
ws2812 panel's root drop-in for the table's unit: it is written at every start to
``/run/systemd/system`` (gone at the next start, made again from the config then) when
the config chooses a panel that needs root, and removed when it does not.

Everything here works on paths it is given and on a :class:`System` (the few commands
that need root), so the whole sequence runs in tests against a temporary directory and
:class:`FakeSystem`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from controller import config as config_module
from controller.appliance import settings_file
from controller.appliance.settings_file import BootSettings
from controller.i18n import _
from controller.input_checks import TomlError, read_toml
from controller.persistence import sync_directory
from controller.web.settings import write_atomic
from controller.web.toml_out import TomlWriteError, dumps

log = logging.getLogger(__name__)

RECORD_NAME = "boot-settings.json"
SSH_KEYS = Path("ssh") / "authorized_keys"
"""Under the data directory; the image's sshd reads it (``AuthorizedKeysFile``), for root
alone: there is no password and no other login."""


LOCALTIME = Path("/etc/localtime")
ZONEINFO = Path("/usr/share/zoneinfo")
PANEL_DROPIN = Path("/run/systemd/system/spieltisch.service.d/ws2812.conf")
"""Runtime: the card's root is read-only, and the config decides at every start."""
PANEL_DROPIN_SOURCE = Path("/opt/spieltisch/src/systemd/ws2812.conf")
"""The running release's own drop-in (the one systemd/install.sh installs)."""
ROOT_PANELS = ("ws2812", "neopixel")
"""The panels whose driver needs root (rpi_ws281x maps /dev/mem)."""


class System(Protocol):
    def store_wifi(self, name: str, password: str) -> None:
        """Keep the network in NetworkManager, to join whenever in reach (OSError if not)."""
        ...

    def set_country(self, country: str) -> None: ...

    def set_timezone(self, timezone: str) -> None: ...

    def start_ssh(self) -> None: ...

    def reload_units(self) -> None:
        """Have systemd read the units again (a drop-in changed)."""
        ...


def _run(*args: str) -> None:
    try:
        done = subprocess.run(list(args), capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise OSError(f"{args[0]}: {exc}") from None
    if done.returncode != 0:
        raise OSError(f"{' '.join(args[:2])}: {(done.stderr or done.stdout).strip()[:200]}")


def zone_dir(localtime: Path = LOCALTIME) -> Path | None:
    """The directory where this system keeps its time zone link, when ``/etc/localtime``
    leads to a link named ``localtime`` that is itself a link (the card image: the data
    partition's ``zone/``); None for an ordinary system, where timedatectl does it."""
    try:
        target = Path(os.readlink(localtime))
    except OSError:
        return None
    if not target.is_absolute():
        target = localtime.parent / target
    return target.parent if target.name == "localtime" and target.is_symlink() else None


def write_zone(directory: Path, timezone: str, zoneinfo: Path = ZONEINFO) -> None:
    """Point ``directory/localtime`` at the zone's file and write ``directory/timezone``,
    each atomically: a new symlink renamed over the old, a synced file renamed over the
    old. A cut leaves the old zone or the new one."""
    zone = zoneinfo / timezone
    if ".." in Path(timezone).parts or not zone.is_file():
        raise OSError(f"{zone}: no such time zone file")
    temporary = directory / ".localtime.new"
    temporary.unlink(missing_ok=True)
    os.symlink(zone, temporary)
    os.replace(temporary, directory / "localtime")
    write_atomic(directory / "timezone", timezone + "\n")
    sync_directory(directory)


class Commands:
    """The real system: nmcli, iw, timedatectl, systemctl (fixed argument lists)."""

    def __init__(self, localtime: Path = LOCALTIME, zoneinfo: Path = ZONEINFO) -> None:
        self.localtime = localtime
        self.zoneinfo = zoneinfo

    def store_wifi(self, name: str, password: str) -> None:
        with contextlib.suppress(OSError):
            _run("nmcli", "connection", "delete", name)
        args = ["nmcli", "connection", "add", "type", "wifi", "ifname", "*", "con-name", name]
        args += ["ssid", name, "connection.autoconnect", "yes"]
        if password:
            args += ["wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.psk", password]
        _run(*args)

    def set_country(self, country: str) -> None:
        _run("iw", "reg", "set", country)

    def set_timezone(self, timezone: str) -> None:
        directory = zone_dir(self.localtime)
        if directory is None:
            _run("timedatectl", "set-timezone", timezone)
        else:
            write_zone(directory, timezone, self.zoneinfo)

    def start_ssh(self) -> None:
        _run("systemctl", "start", "ssh.service")

    def reload_units(self) -> None:
        _run("systemctl", "daemon-reload")


@dataclass
class FakeSystem:
    """Records what would have been done; ``fail`` names steps that raise OSError."""

    done: list[str] = field(default_factory=list)
    fail: set[str] = field(default_factory=set)

    def _do(self, step: str, value: str) -> None:
        if step in self.fail:
            raise OSError(f"{step} failed")
        self.done.append(f"{step} {value}")

    def store_wifi(self, name: str, password: str) -> None:
        self._do("wifi", f"{name} {password}")

    def set_country(self, country: str) -> None:
        self._do("country", country)

    def set_timezone(self, timezone: str) -> None:
        self._do("timezone", timezone)

    def start_ssh(self) -> None:
        self._do("ssh", "start")

    def reload_units(self) -> None:
        self._do("systemd", "daemon-reload")


@dataclass(frozen=True, slots=True)
class Paths:
    settings: Path
    """The settings file on the boot partition."""
    config: Path
    """The table's config (the panel and the language go there)."""
    data: Path
    """The data partition's directory (the record, the SSH key)."""
    panel_dropin: Path | None = None
    """Where the root drop-in for a ws2812 panel goes (None: not managed here)."""
    panel_dropin_source: Path = PANEL_DROPIN_SOURCE
    data_in_ram: bool = False
    """The data partition could not be mounted and ``data`` is in RAM
    (:mod:`controller.appliance.ram_data`): the Wi-Fi stored there is gone at the next
    power-off, so the settings file keeps its password, to be stored again then."""


def fingerprint(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]


def read_record(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def apply(paths: Paths, system: System) -> list[str]:
    """Apply what is new in the settings file; the problems in words (the table still
    starts with every problem: they are shown on its panel)."""
    with contextlib.suppress(OSError):  # a FAT write a power cut interrupted
        settings_file.recover(paths.settings)
    checked = settings_file.read(paths.settings)
    problems = list(checked.errors)
    settings = checked.settings
    paths.data.mkdir(mode=0o700, parents=True, exist_ok=True)
    record_path = paths.data / RECORD_NAME
    record = read_record(record_path)

    def note(key: str, value: str) -> None:
        record[key] = value
        write_atomic(record_path, json.dumps(record, sort_keys=True) + "\n")

    if settings.country:
        _step(problems, "wifi.country", lambda: system.set_country(settings.country))
    problems += _config_values(paths.config, settings, record, note)
    timezone = settings.timezone
    if (
        timezone
        and record.get("timezone") != timezone
        and _step(problems, "table.timezone", lambda: system.set_timezone(timezone))
    ):
        note("timezone", timezone)
    if settings.ssh_key and record.get("ssh_key") != fingerprint(settings.ssh_key):
        keys = paths.data / SSH_KEYS
        keys.parent.mkdir(mode=0o700, exist_ok=True)
        write_atomic(keys, settings.ssh_key + "\n")
        os.chmod(keys, 0o600)
        note("ssh_key", fingerprint(settings.ssh_key))
    with contextlib.suppress(OSError):
        if (paths.data / SSH_KEYS).stat().st_size > 0:
            _step(problems, "ssh.key", system.start_ssh)
    if settings.wifi_name and (settings.wifi_password or record.get("wifi") != settings.wifi_name):
        name, password = settings.wifi_name, settings.wifi_password
        if _step(problems, "wifi.name", lambda: system.store_wifi(name, password)):
            note("wifi", name)
            if password and not paths.data_in_ram:
                try:
                    settings_file.remove_password(paths.settings)
                except (OSError, ValueError) as exc:
                    message = _("{file}: the Wi-Fi password could not be removed: {reason}")
                    problems.append(message.format(file=paths.settings.name, reason=exc))
    if paths.panel_dropin is not None:
        _step(problems, "table.panel", lambda: panel_dropin(paths, system))
    for line in problems:
        log.warning("%s", line)
    return problems


def panel_dropin(paths: Paths, system: System) -> None:
    """The table's unit runs as root only for a panel that needs it: the drop-in is
    there exactly when the config (as it stands now, after the settings file) chooses
    such a panel; systemd reads the units again only when that changed."""
    assert paths.panel_dropin is not None
    try:
        display = read_toml(paths.config).get("display", {})
    except (OSError, UnicodeDecodeError, TomlError):
        display = {}
    kind = display.get("type") if isinstance(display, dict) else None
    target = paths.panel_dropin
    if kind in ROOT_PANELS:
        text = paths.panel_dropin_source.read_text(encoding="utf-8")
        try:
            if target.read_text(encoding="utf-8") == text:
                return
        except OSError:
            pass
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, text)
    elif os.path.lexists(target):
        target.unlink()
    else:
        return
    system.reload_units()


def _step(problems: list[str], key: str, action: Any) -> bool:
    try:
        action()
    except OSError as exc:
        message = _("{file}: {key}: could not be applied: {reason}")
        problems.append(message.format(file=settings_file.FILE_NAME, key=key, reason=exc))
        return False
    return True


def _config_values(
    path: Path, settings: BootSettings, record: dict[str, str], note: Any
) -> list[str]:
    """The panel and the language into the table's config, checked by the config's own
    rules as a whole before the file is replaced (a config the table would refuse is
    never written; the problem is said instead)."""
    wanted = {
        ("display", "type", "panel"): settings.panel,
        ("table", "language", "language"): settings.language,
    }
    changes = {k: v for k, v in wanted.items() if v and record.get(k[2]) != v}
    if not changes:
        return []
    try:
        document: dict[str, Any] = read_toml(path) if path.exists() else {}
    except (OSError, UnicodeDecodeError, TomlError) as exc:
        message = _("{file}: the table's config cannot be read: {reason}")
        return [message.format(file=settings_file.FILE_NAME, reason=exc)]
    for (section, key, _name), value in changes.items():
        table = document.setdefault(section, {})
        if isinstance(table, dict):
            table[key] = value
    try:
        config_module.parse_config(document, path.name)
        text = dumps(document)
    except config_module.ConfigError as exc:
        return [f"{settings_file.FILE_NAME}: {line}" for line in exc.errors]
    except TomlWriteError as exc:
        return [f"{settings_file.FILE_NAME}: {exc}"]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text)
    for (_section, _key, name), value in changes.items():
        note(name, value)
    return []
