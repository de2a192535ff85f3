"""The first start's files for the image (``systemd/image/``): the units verify and
start commands the program has, the settings file shipped on the boot partition reads
cleanly, and the portal's DNS answer names the hotspot's address."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.appliance.network import HOTSPOT_ADDRESS
from controller.appliance.settings_file import read
from controller.cli import build_parser
from hardware.specs import DISPLAY_TYPES

IMAGE = Path(__file__).resolve().parent.parent / "systemd" / "image"
PROGRAM = "/opt/spieltisch/venv/bin/spieltisch"
UNITS = sorted(IMAGE.glob("*.service"))


def exec_starts(unit: Path) -> list[list[str]]:
    return [
        shlex.split(line.split("=", 1)[1])
        for line in unit.read_text(encoding="utf-8").splitlines()
        if line.startswith("ExecStart=")
    ]


def test_each_unit_starts_a_command_the_program_has() -> None:
    assert [u.name for u in UNITS] == ["spieltisch-firstboot.service", "spieltisch-network.service"]
    for unit in UNITS:
        for command in exec_starts(unit):
            assert command[0] == PROGRAM
            build_parser().parse_args(command[1:])  # exits (SystemExit) if it had none


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_the_units_verify(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("spieltisch")
    if not script.exists():
        pytest.skip("no spieltisch console script next to this Python")
    for unit in UNITS:
        text = unit.read_text(encoding="utf-8").replace(PROGRAM, str(script))
        (tmp_path / unit.name).write_text(text, encoding="utf-8")
    result = subprocess.run(
        ["systemd-analyze", "verify", *sorted(str(p) for p in tmp_path.iterdir())],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0 and "spieltisch" not in result.stderr, result.stderr


def test_the_boot_partitions_file_reads_cleanly_and_names_the_real_panels() -> None:
    checked = read(IMAGE / "spieltisch.toml")
    assert checked.errors == () and checked.settings.wifi_password == ""
    text = (IMAGE / "spieltisch.toml").read_text(encoding="utf-8")
    for panel in ("ws2812", "neopixel", "apa102", "bridge", "max7219", "unicornhathd"):
        assert panel in DISPLAY_TYPES and panel in text


def test_the_portals_dns_answer_is_the_hotspots_address() -> None:
    drop_in = IMAGE / "dnsmasq-shared.d" / "spieltisch-portal.conf"
    lines = [line for line in drop_in.read_text(encoding="utf-8").splitlines() if line[:1] != "#"]
    assert lines == [f"address=/#/{HOTSPOT_ADDRESS}"]
