"""One record per panel type (hardware/panels.py), read by everything that needs it.

The display opener picks its opener by the record's driver, the config check takes the
sizes, the chain order and the bus pins from it, and the installer asks the module
(``python3 -I hardware/panels.py --shell``) instead of keeping a list. These tests hold
each reader to the record: if one of them kept its own idea of a panel type, they would
differ and fail here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import luma.core.device
import luma.emulator.device
import luma.led_matrix.device
import pytest

from controller.config import ConfigError, parse_config
from hardware import display
from hardware.panels import MONO_SIZES, PANEL_TYPES, RGB_SIZES, offered, shell
from hardware.specs import DISPLAY_TYPES, PANELS

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "systemd" / "install.sh"
ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}


def test_every_type_has_an_opener_and_every_opener_a_type() -> None:
    assert {t.driver for t in PANEL_TYPES.values()} == set(display._OPENERS)
    assert tuple(PANEL_TYPES) == DISPLAY_TYPES


def test_the_drivers_are_lumas_devices() -> None:
    """As luma's own command line does: a device is a name its module exports."""
    for panel in PANEL_TYPES.values():
        if panel.kind == "panel" and panel.bus != "usb":
            assert panel.name in luma.led_matrix.device.__all__, panel.name
            assert panel.driver in luma.led_matrix.device.__all__, panel.name
        elif panel.kind == "emulator":
            assert panel.driver in luma.emulator.device.__all__, panel.name
        elif panel.kind == "stand-in":
            assert panel.driver == "dummy" and hasattr(luma.core.device, "dummy")


def check(toml: str) -> list[str]:
    try:
        parse_config(tomllib.loads(toml))
    except ConfigError as exc:
        return exc.errors
    return []


@pytest.mark.parametrize("name", [name for name in PANEL_TYPES if name != "none"])
def test_the_config_takes_the_records_sizes_and_chain_order(name: str) -> None:
    panel = PANEL_TYPES[name]
    for width, height in RGB_SIZES + MONO_SIZES:
        errors = check(f'[display]\ntype = "{name}"\nwidth = {width}\nheight = {height}\n')
        fits = (width, height) in panel.sizes and panel.built_size in (None, (width, height))
        assert (errors == []) == fits, (name, width, height, errors)
    width, height = panel.built_size or panel.sizes[0]
    chained = f'[display]\ntype = "{name}"\nwidth = {width}\nheight = {height}\n'
    errors = check(chained + 'mapping = "serpentine"\n')
    assert (errors == []) == panel.mapping, (name, errors)


@pytest.mark.parametrize("name", [t.name for t in PANEL_TYPES.values() if t.bus])
@pytest.mark.parametrize("spi_device", [0, 1])
def test_the_config_keeps_the_records_bus_pins_free(name: str, spi_device: int) -> None:
    panel = PANEL_TYPES[name]
    width, height = panel.built_size or panel.sizes[0]
    taken = {
        pin
        for pin in range(2, 28)
        if check(
            f'[display]\ntype = "{name}"\nwidth = {width}\nheight = {height}\n'
            f"spi_device = {spi_device}\n[sound]\nbuzzer_pin = {pin}\n"
        )
    }
    # the seats' and the system button's default pins are taken too
    defaults = {17, 27, 22, 23, 24, 25, 5, 6, 26}
    assert taken - defaults == set(panel.bus_pins(spi_device)), name


def installer_variables(*, root: Path = ROOT) -> dict[str, str]:
    """The installer's panel variables, as bash holds them after reading the record."""
    script = (
        f'eval "$(python3 -I {root}/hardware/panels.py --shell)"\n'
        'echo "${PANELS[*]}"; echo "${SPI_PANELS[*]}"; echo "${ROOT_PANELS[*]}"\n'
        'for k in "${!PANEL_SIZES[@]}"; do printf "%s=%s " "$k" "${PANEL_SIZES[$k]}"; done; echo\n'
        'for k in "${!PANEL_USB_VENDORS[@]}"; do\n'
        '    printf "%s=%s " "$k" "${PANEL_USB_VENDORS[$k]}"\n'
        "done\n"
    )
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, check=True, env=ENV, timeout=60
    )
    lines = done.stdout.split("\n")
    names = ("PANELS", "SPI_PANELS", "ROOT_PANELS", "PANEL_SIZES", "PANEL_USB_VENDORS")
    return dict(zip(names, lines, strict=False))


def test_the_installer_reads_the_record() -> None:
    """The system's Python runs the module from the checkout, with nothing installed
    (-I: no site packages, no working directory on the path)."""
    found = installer_variables()
    assert found["PANELS"].split() == [*offered(), "none"] == [*PANELS, "none"]
    spi = [t.name for t in PANEL_TYPES.values() if t.bus == "spi"]
    assert found["SPI_PANELS"].split() == spi
    assert found["ROOT_PANELS"].split() == [t.name for t in PANEL_TYPES.values() if t.needs_root]
    assert found["PANEL_SIZES"].split() == ["max7219=32x8"]
    assert found["PANEL_USB_VENDORS"].split() == ["2e8a=bridge"]
    assert shell().count("\n") == 4


def test_the_installer_keeps_no_list_of_its_own() -> None:
    """No panel type is named in install.sh's code (its comments may, and the ws2812
    drop-in's file name); the usage text names exactly what it offers."""
    code = [
        line
        for line in INSTALL.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("#")
    ]
    named = sorted(
        {
            name
            for line in code
            for name in PANEL_TYPES
            if name != "none"
            and name in line.replace("ws2812.conf", "").replace("ws2812 drop-in", "")
        }
    )
    assert named == []
    usage = subprocess.run(
        ["bash", str(INSTALL), "--help"], capture_output=True, text=True, env=ENV, timeout=60
    ).stdout
    said = usage.split("--panel TYPE")[1].split("--rebuild")[0]
    assert [n for n in [*PANEL_TYPES] if f" {n}" in said or f" {n}," in said] == sorted(
        [*offered(), "none"], key=[*PANEL_TYPES].index
    )


def test_a_panel_type_offered_in_the_record_is_offered_by_the_installer(tmp_path: Path) -> None:
    """Change the record in a copy of the checkout: the installer offers what it says."""
    (tmp_path / "hardware").mkdir()
    (tmp_path / "systemd").mkdir()
    shutil.copy(INSTALL, tmp_path / "systemd" / "install.sh")
    record = (ROOT / "hardware" / "panels.py").read_text(encoding="utf-8")
    neopixel = re.compile(r'(PanelType\(\s*"neopixel",[^)]*needs_root=True)')
    offered_too, found = neopixel.subn(r"\1, install_place=6", record)
    assert found == 1
    (tmp_path / "hardware" / "panels.py").write_text(offered_too, encoding="utf-8")

    def install(root: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(root / "systemd" / "install.sh"), "--panel", "neopixel", "--help"],
            capture_output=True,
            text=True,
            env=ENV,
            timeout=60,
        )

    refused = install(ROOT)
    assert refused.returncode == 2 and "--panel neopixel is not a panel" in refused.stderr
    accepted = install(tmp_path)
    assert accepted.returncode == 0, accepted.stderr
    assert installer_variables(root=tmp_path)["PANELS"].split()[-2:] == ["neopixel", "none"]
