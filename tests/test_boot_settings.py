"""The boot partition's settings file and the first-start steps, against a temporary
directory: real files, the table's real config rules, a system that only records."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from controller import i18n
from controller.appliance import first_boot, settings_file
from controller.appliance import status as status_file
from controller.appliance.first_boot import FakeSystem, Paths
from controller.appliance.settings_file import check, read, without_password
from controller.appliance.watch import NetworkWatch
from controller.cli import main
from controller.config import load_config
from controller.events import EventQueue

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHqqK4hMOSGBKvkPH0J5VxTbszSTs1ElUrkVmuHHCdVS me@laptop"
GOOD = f"""\
# spieltisch: settings for the first start (any text editor)
[wifi]
name = "Familie Müller"
password = "sehr geheim 42"   # removed once stored
country = "DE"

[table]
panel = "bridge"
language = "de"
timezone = "Europe/Berlin"

[ssh]
key = "{KEY}"
"""
CONFIG = '[display]\ntype = "none"\nwidth = 16\nheight = 16\n\n[input]\ntype = "gpio"\n'


def card(tmp_path: Path, text: str = GOOD) -> Paths:
    boot = tmp_path / "boot"
    data = tmp_path / "data"
    boot.mkdir()
    data.mkdir()
    (boot / "spieltisch.toml").write_text(text, encoding="utf-8")
    (data / "config.toml").write_text(CONFIG, encoding="utf-8")
    return Paths(boot / "spieltisch.toml", data / "config.toml", data)


def test_a_good_file_gives_every_setting() -> None:
    checked = check(tomllib.loads(GOOD))
    assert checked.errors == ()
    s = checked.settings
    assert (s.wifi_name, s.wifi_password, s.country) == ("Familie Müller", "sehr geheim 42", "DE")
    assert (s.panel, s.language, s.timezone, s.ssh_key) == ("bridge", "de", "Europe/Berlin", KEY)


def test_every_bad_value_is_one_line_and_the_rest_still_counts() -> None:
    data = {
        "wifi": {"name": "x" * 33, "password": "kurz", "country": "Germany"},
        "table": {"panel": "plasma", "language": "fr", "timezone": "Mars/Olympus", "size": 3},
        "ssh": {"key": "ssh-ed25519 bm90IGEga2V5"},
        "extra": {},
    }
    checked = check(data)
    text = "\n".join(checked.errors)
    for needle in (
        "[extra]: unknown section",
        "wifi.name: ",
        "at most 32 bytes",
        "wifi.password: a password of 4 characters is not allowed",
        "wifi.country: 'Germany' is not a country code",
        "table.panel: 'plasma' is not allowed; allowed: ",
        "table.language: 'fr' is not allowed; allowed: 'de', 'en'",
        "table.timezone: 'Mars/Olympus' is not a time zone",
        "table.size: unknown key",
        "ssh.key: the key does not match its type 'ssh-ed25519'",
    ):
        assert needle in text
    assert checked.settings == settings_file.BootSettings()
    partly = check({"wifi": {"country": "XX"}, "table": {"language": "en", "panel": ""}})
    assert partly.settings.language == "en" and partly.settings.country == ""
    assert len(partly.errors) == 1  # XX has the shape but is no country


def test_an_ssh_key_must_be_a_public_key_line() -> None:
    assert settings_file.ssh_key_problem(KEY) == ""
    assert "one line" in settings_file.ssh_key_problem("AAAA")
    assert "not a public key type" in settings_file.ssh_key_problem("ssh-dss AAAA x")
    assert "not base64" in settings_file.ssh_key_problem("ssh-ed25519 !!!!")
    private = "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjE="
    assert settings_file.ssh_key_problem(private) != ""


def test_a_missing_file_is_nothing_to_do_and_a_broken_one_is_said(tmp_path: Path) -> None:
    assert read(tmp_path / "none.toml") == settings_file.CheckedSettings(
        settings_file.BootSettings()
    )
    broken = tmp_path / "spieltisch.toml"
    broken.write_text('[wifi]\nname = "open\n', encoding="utf-8")
    assert read(broken).errors[0].startswith("spieltisch.toml: ")
    broken.write_bytes(b'[wifi]\nname = "\xff"\n')
    assert "not UTF-8" in read(broken).errors[0]


def test_only_the_password_line_is_blanked_and_the_notes_stay() -> None:
    text = GOOD.replace("\n", "\r\n") + '[other]\npassword = "not the wifi one"\n'
    out = without_password(text)
    assert "sehr geheim" not in out and "not the wifi one" in out
    assert "# spieltisch: settings" in out and "\r\n" in out
    assert out.count("\n") == text.count("\n")
    assert tomllib.loads(out)["wifi"]["password"] == ""


def test_the_first_start_applies_everything_once(tmp_path: Path) -> None:
    paths = card(tmp_path)
    system = FakeSystem()
    assert first_boot.apply(paths, system) == []
    assert system.done == [
        "country DE",
        "timezone Europe/Berlin",
        "ssh start",
        "wifi Familie Müller sehr geheim 42",
    ]
    config = load_config(paths.config)
    assert (config.display.type, config.language) == ("bridge", "de")
    assert (paths.data / "ssh" / "authorized_keys").read_text(encoding="utf-8") == KEY + "\n"
    assert (paths.data / "ssh" / "authorized_keys").stat().st_mode & 0o777 == 0o600
    on_card = paths.settings.read_text(encoding="utf-8")
    assert "sehr geheim" not in on_card and 'name = "Familie Müller"' in on_card
    assert list(paths.settings.parent.iterdir()) == [paths.settings]  # no temp file left

    again = FakeSystem()  # the next start: only what the kernel forgets, and SSH
    assert first_boot.apply(paths, again) == []
    assert again.done == ["country DE", "ssh start"]


def test_a_later_change_on_the_page_is_not_overruled_by_the_card(tmp_path: Path) -> None:
    paths = card(tmp_path)
    first_boot.apply(paths, FakeSystem())
    paths.config.write_text(
        paths.config.read_text(encoding="utf-8").replace('"de"', '"en"'), encoding="utf-8"
    )
    first_boot.apply(paths, FakeSystem())
    assert load_config(paths.config).language == "en"
    # a new value on the card is applied once
    paths.settings.write_text(
        paths.settings.read_text(encoding="utf-8")
        .replace('language = "de"', 'language = "en"')
        .replace('panel = "bridge"', 'panel = "ws2812"'),
        encoding="utf-8",
    )
    first_boot.apply(paths, FakeSystem())
    assert load_config(paths.config).display.type == "ws2812"


def test_a_failed_store_keeps_the_password_on_the_card_for_the_next_start(
    tmp_path: Path,
) -> None:
    paths = card(tmp_path)
    problems = first_boot.apply(paths, FakeSystem(fail={"wifi"}))
    assert problems == ["spieltisch.toml: wifi.name: could not be applied: wifi failed"]
    assert "sehr geheim" in paths.settings.read_text(encoding="utf-8")
    system = FakeSystem()
    first_boot.apply(paths, system)
    assert "wifi Familie Müller sehr geheim 42" in system.done
    assert "sehr geheim" not in paths.settings.read_text(encoding="utf-8")


def test_a_value_the_config_refuses_is_said_and_the_rest_applied(tmp_path: Path) -> None:
    paths = card(tmp_path, GOOD.replace('"bridge"', '"max7219"'))  # mono, but 16x16 colour
    before = paths.config.read_text(encoding="utf-8")
    problems = first_boot.apply(paths, FakeSystem())
    assert len(problems) == 1 and "display.width" in problems[0] and "max7219" in problems[0]
    assert paths.config.read_text(encoding="utf-8") == before
    assert "sehr geheim" not in paths.settings.read_text(encoding="utf-8")


def test_the_command_leaves_the_problems_for_the_panel(tmp_path: Path) -> None:
    paths = card(tmp_path, '[table]\nlanguage = "fr"\n[wifi]\nname = "Home"\n')
    status = tmp_path / "run" / "network.json"
    argv = ["appliance", "first-boot", "--fake", "--settings", str(paths.settings)]
    argv += ["--config", str(paths.config), "--data", str(paths.data), "--status", str(status)]
    assert main(argv) == 0
    shown = status_file.read(status)
    assert shown is not None and shown.state == "starting"
    assert shown.problems and "table.language: 'fr' is not allowed" in shown.problems[0]
    assert json.loads((paths.data / "boot-settings.json").read_text())["wifi"] == "Home"
    # the running table scrolls it
    notice = NetworkWatch(status, EventQueue()).check()
    assert notice is not None and "table.language: 'fr' is not allowed" in notice.text


@pytest.mark.parametrize("name", ['Café ;:,\\"', "x"])
def test_the_wifi_qr_text_escapes_the_specials(name: str) -> None:
    from controller.appliance.panel import wifi_qr_text

    text = wifi_qr_text(name, "pa;ss")
    assert text.startswith("WIFI:T:WPA;S:") and text.endswith(";P:pa\\;ss;;")
    assert text.count(";") - text.count("\\;") == 4


def test_on_a_card_whose_data_is_in_ram_the_file_keeps_the_wifi_password(tmp_path: Path) -> None:
    """The Wi-Fi stored on a RAM /data is gone at the next power-off: blanking the
    password would lose it for good, so it stays, and is stored again at every start."""
    paths = card(tmp_path)
    marker = tmp_path / ".in-ram"
    marker.write_text("missing\nno partition labelled spieltisch-data\n")
    status = tmp_path / "run" / "network.json"
    argv = ["appliance", "first-boot", "--fake", "--settings", str(paths.settings)]
    argv += ["--config", str(paths.config), "--data", str(paths.data), "--status", str(status)]
    before = i18n.active_language()
    try:  # the command speaks the card's language (German here), for the whole process
        assert main([*argv, "--data-marker", str(marker)]) == 0
        assert "sehr geheim 42" in paths.settings.read_text(encoding="utf-8")
        # on a card whose data partition was mounted, it goes once stored
        assert main([*argv, "--data-marker", str(tmp_path / "no-marker")]) == 0
        assert "sehr geheim" not in paths.settings.read_text(encoding="utf-8")
    finally:
        i18n.use(before)
