"""What the first-start step writes on a card whose root is read-only, in a temporary
directory laid out like the card: the time zone goes to the data partition's link (not
``/etc/localtime``), and the ws2812 panel's root drop-in to ``/run``, made and removed
as the config's panel asks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.appliance import first_boot
from controller.appliance.first_boot import Commands, FakeSystem, Paths, write_zone, zone_dir
from controller.cli import main

CONFIG = '[display]\ntype = "{panel}"\nwidth = 16\nheight = 16\n\n[input]\ntype = "gpio"\n'
DROPIN = "[Service]\nUser=root\nCapabilityBoundingSet=CAP_SYS_RAWIO\n"


def zoned_card(tmp_path: Path) -> tuple[Path, Path, Path]:
    """``etc/localtime`` -> ``data/system/zone/localtime`` -> ``zoneinfo/Etc/UTC``, as the
    image build lays them out; returns (etc/localtime, the zone directory, zoneinfo)."""
    zoneinfo = tmp_path / "zoneinfo"
    for name in ("Etc/UTC", "Europe/Berlin", "America/New_York"):
        (zoneinfo / name).parent.mkdir(parents=True, exist_ok=True)
        (zoneinfo / name).write_bytes(b"TZif2 " + name.encode())
    zone = tmp_path / "data" / "system" / "zone"
    zone.mkdir(parents=True)
    (zone / "localtime").symlink_to(zoneinfo / "Etc" / "UTC")
    (zone / "timezone").write_text("Etc/UTC\n")
    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "localtime").symlink_to(zone / "localtime")
    return etc / "localtime", zone, zoneinfo


def test_the_time_zone_is_written_to_the_data_partitions_link(tmp_path: Path) -> None:
    localtime, zone, zoneinfo = zoned_card(tmp_path)
    assert zone_dir(localtime) == zone
    Commands(localtime, zoneinfo).set_timezone("Europe/Berlin")
    # /etc/localtime (the read-only root's) is the same link; what it leads to changed
    assert os.readlink(localtime) == str(zone / "localtime")
    assert localtime.resolve() == zoneinfo / "Europe" / "Berlin"
    assert localtime.read_bytes() == b"TZif2 Europe/Berlin"
    assert (zone / "timezone").read_text() == "Europe/Berlin\n"
    assert sorted(p.name for p in zone.iterdir()) == ["localtime", "timezone"]


def test_a_cut_zone_change_leaves_a_zone_and_the_next_start_finishes(tmp_path: Path) -> None:
    localtime, zone, zoneinfo = zoned_card(tmp_path)
    # a cut after the new link was made, before its rename: the old zone still holds
    os.symlink(zoneinfo / "Europe" / "Berlin", zone / ".localtime.new")
    assert localtime.read_bytes() == b"TZif2 Etc/UTC"
    write_zone(zone, "America/New_York", zoneinfo)
    assert localtime.read_bytes() == b"TZif2 America/New_York"
    assert not os.path.lexists(zone / ".localtime.new")


def test_a_zone_with_no_file_changes_nothing(tmp_path: Path) -> None:
    localtime, zone, zoneinfo = zoned_card(tmp_path)
    for bad in ("Mars/Olympus", "../zoneinfo/Etc/UTC"):
        with pytest.raises(OSError):
            write_zone(zone, bad, zoneinfo)
    assert localtime.read_bytes() == b"TZif2 Etc/UTC"


def test_an_ordinary_system_is_left_to_timedatectl(tmp_path: Path) -> None:
    zoneinfo = tmp_path / "zoneinfo"
    (zoneinfo / "Etc").mkdir(parents=True)
    (zoneinfo / "Etc" / "UTC").write_bytes(b"TZif2")
    (tmp_path / "localtime").symlink_to(zoneinfo / "Etc" / "UTC")
    assert zone_dir(tmp_path / "localtime") is None
    assert zone_dir(tmp_path / "missing") is None


def test_the_settings_files_time_zone_reaches_the_card_through_the_first_start(
    tmp_path: Path,
) -> None:
    localtime, _zone, zoneinfo = zoned_card(tmp_path)
    boot = tmp_path / "boot"
    boot.mkdir()
    (boot / "spieltisch.toml").write_text('[table]\ntimezone = "Europe/Berlin"\n')
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(panel="none"))
    paths = Paths(boot / "spieltisch.toml", config, tmp_path / "boot-data")
    assert first_boot.apply(paths, Commands(localtime, zoneinfo)) == []
    assert localtime.read_bytes() == b"TZif2 Europe/Berlin"


def dropin_card(tmp_path: Path, panel: str) -> Paths:
    boot = tmp_path / "boot"
    boot.mkdir(exist_ok=True)
    settings = boot / "spieltisch.toml"
    settings.write_text("")
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(panel=panel))
    source = tmp_path / "release" / "ws2812.conf"
    source.parent.mkdir(exist_ok=True)
    source.write_text(DROPIN)
    dropin = tmp_path / "run" / "systemd" / "system" / "spieltisch.service.d" / "ws2812.conf"
    return Paths(settings, config, tmp_path / "data", dropin, source)


def test_the_ws2812_drop_in_is_written_to_run_and_removed_with_the_panel(
    tmp_path: Path,
) -> None:
    paths = dropin_card(tmp_path, "none")
    system = FakeSystem()
    assert first_boot.apply(paths, system) == []
    assert paths.panel_dropin is not None and not paths.panel_dropin.exists()
    assert system.done == []
    # the settings file chooses ws2812: the drop-in in /run, and systemd told
    paths.settings.write_text('[table]\npanel = "ws2812"\n')
    system = FakeSystem()
    assert first_boot.apply(paths, system) == []
    assert paths.panel_dropin.read_text() == DROPIN
    assert system.done == ["systemd daemon-reload"]
    # the next start: the same drop-in, nothing to reload
    system = FakeSystem()
    first_boot.apply(paths, system)
    assert system.done == [] and paths.panel_dropin.read_text() == DROPIN
    # the page chose the bridge since: the drop-in goes, systemd is told
    paths.config.write_text(CONFIG.format(panel="bridge"))
    system = FakeSystem()
    first_boot.apply(paths, system)
    assert not paths.panel_dropin.exists() and system.done == ["systemd daemon-reload"]


def test_the_command_writes_no_drop_in_when_told_to_change_nothing(tmp_path: Path) -> None:
    paths = dropin_card(tmp_path, "ws2812")
    argv = ["appliance", "first-boot", "--fake", "--settings", str(paths.settings)]
    argv += ["--config", str(paths.config), "--data", str(paths.data)]
    argv += ["--status", str(tmp_path / "network.json")]
    assert main(argv) == 0
    assert not (tmp_path / "run").exists()
