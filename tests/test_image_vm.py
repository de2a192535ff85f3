"""The card image built and booted: image/build.sh, then image/vmtest.py under qemu
(boot to READY, power cuts in the first boot, a stranger's look, bots playing on a
read-only root, an update and a broken update that rolls back by itself; the same
through the page, with a backup, a factory reset and the backup restored), and
image/vmtest_ramdata.py (a card whose data partition cannot be read still starts).

Needs root, qemu, OVMF and an hour or more under emulation, so it is a tier of its own,
skipped unless asked for:

    SPIELTISCH_IMAGE=1 sudo -E .venv/bin/python -m pytest -n 0 -m image tests/test_image_vm.py

SPIELTISCH_IMAGE_FILE names a built .img.xz to test instead of building one (the
build takes long; the boots do not depend on how the image got there).
SPIELTISCH_IMAGE_CUTS sets the number of power cuts (default 20).
SPIELTISCH_SIGNING_KEY names the private key whose public half the image trusts
(systemd/keys/): the update and care tests sign their bundles with it, and are skipped
without it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.image,
    pytest.mark.skipif(
        os.environ.get("SPIELTISCH_IMAGE") != "1", reason="the image tier: set SPIELTISCH_IMAGE=1"
    ),
]


@pytest.fixture(scope="module")
def image() -> Path:
    given = os.environ.get("SPIELTISCH_IMAGE_FILE")
    if given:
        return Path(given)
    subprocess.run(["bash", str(ROOT / "image" / "build.sh"), "amd64"], check=True)
    built = sorted(
        (ROOT / "out").glob("spieltisch-*-amd64.img.xz"), key=lambda p: p.stat().st_mtime
    )
    assert built, "image/build.sh made no image"
    return built[-1]


def run_vmtest(*args: str, script: str = "vmtest.py") -> list[dict[str, Any]]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "image" / script), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [
        json.loads(line[len("IMGTEST ") :])
        for line in result.stdout.splitlines()
        if line.startswith("IMGTEST ")
    ]
    assert lines, result.stderr[-3000:]
    return lines


def test_the_image_boots_to_ready_and_again(image: Path) -> None:
    (boot,) = run_vmtest("boot", str(image))
    assert boot["first_boot_ready_s"] is not None, boot["console_tail"]
    assert boot["second_boot_ready_s"] is not None


def test_every_card_boots_after_a_power_cut_in_its_first_boot(image: Path) -> None:
    cuts = int(os.environ.get("SPIELTISCH_IMAGE_CUTS", "20"))
    lines = run_vmtest("cuts", str(image), "--cuts", str(cuts))
    summary = lines[-1]
    assert summary["kind"] == "cuts"
    failed = [line for line in lines if line["kind"] == "cut" and not line["ok"]]
    assert summary["ready"] == cuts, failed
    # every card made its own identity and key (the 4-hex-digit host names may collide,
    # one pair in about 300 runs of 20 cards, so they are not counted here)
    assert summary["distinct"]["machine_id"] == cuts
    assert summary["distinct"]["host_key"] == cuts


def test_a_stranger_finds_no_shared_secret_no_password_and_only_the_page(image: Path) -> None:
    lines = run_vmtest("stranger", str(image))
    findings, verdict = lines[0], lines[-1]
    assert findings["shared"] == []
    assert findings["card-a"]["passwords"] == [] and findings["card-a"]["empty_passwords"] == []
    assert findings["card-a"]["root_host_keys"] == []
    assert findings["card-a_ssh_banner_without_key"] == ""
    # the page (8080) while a panel is chosen, and sshd, which the test turned on
    assert set(verdict["tcp_ports"]) <= {"22", "8080"}, findings["listening_tcp"]
    assert all(findings["root_unchanged_after_all_boots"])
    assert verdict["ok"], findings


def test_bots_play_on_a_card_and_nothing_is_written_to_its_root(image: Path) -> None:
    (play,) = run_vmtest("play", str(image))
    assert play["ready_s"] is not None
    assert max(play["moves"]) > 0, play
    assert play["root_unchanged"]


def test_a_card_whose_data_partition_cannot_be_read_starts_and_says_so(image: Path) -> None:
    """The data partition wiped (no label) or with a feature no kernel mounts: READY on a
    RAM /data, the status saying that games are not saved, the partition left alone."""
    lines = run_vmtest(str(image), script="vmtest_ramdata.py")
    assert [line["how"] for line in lines] == ["wiped", "unmountable"], lines
    for line in lines:
        assert line["ready_s"] is not None, line.get("console_tail")
        assert line["status"], line.get("console_tail")
        assert not line["partition_grown"] and not line["emergency"]
        assert line["ok"], line


@pytest.mark.skipif(
    not os.environ.get("SPIELTISCH_SIGNING_KEY"),
    reason="the update tier signs its bundles: set SPIELTISCH_SIGNING_KEY to the private key"
    " whose public half the image trusts",
)
def test_an_update_installs_and_a_broken_one_rolls_back_by_itself(image: Path) -> None:
    lines = run_vmtest("update", str(image))
    verdict = lines[-1]
    assert verdict["kind"] == "update-verdict", lines
    # the second release: running, and what "current" names
    assert verdict["second_current"] == verdict["second"], lines
    assert verdict["second_link"].endswith(verdict["second"])
    # the broken third: rolled back by systemd, the table back on the second, in words
    assert verdict["final_phase"] == "rolled-back", lines
    assert verdict["final_current"] == verdict["second"]
    assert f"update to {verdict['third']} failed" in verdict["notice"]
    assert f"back on {verdict['second']}" in verdict["notice"]
    # and the table, back on the second, showed the notice on its (dummy) panel
    assert verdict["notice_shown_on_panel"], lines
    assert verdict["ok"], lines


@pytest.mark.skipif(
    not os.environ.get("SPIELTISCH_SIGNING_KEY"),
    reason="the care tier signs its bundles: set SPIELTISCH_SIGNING_KEY to the private key"
    " whose public half the image trusts",
)
def test_the_page_updates_rolls_back_backs_up_resets_and_restores(image: Path) -> None:
    lines = run_vmtest("care", str(image))
    verdict = lines[-1]
    assert verdict["kind"] == "care-verdict", lines
    # through the page: the second release confirmed, the broken third rolled back, in
    # words on the page and shown on the panel
    assert verdict["second_ok"] and verdict["back_ok"], lines
    assert f"update to {verdict['third']} failed" in verdict["page_words"]
    assert verdict["notice_shown_on_panel"]
    # the games: gone after the factory reset, back game by game after the restore
    assert verdict["games"] > 0 and verdict["games_after_reset"] == 0
    assert verdict["same_game_by_game"] == [True] * verdict["games"], lines
    assert verdict["ok"], lines
