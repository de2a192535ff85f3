"""A card whose data partition could not be mounted plays with /data in RAM, and the
table says so: the marker the initramfs leaves, its words, and the status that carries
them (image/files/initramfs-data makes the marker; tests/test_image.py runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import i18n
from controller.appliance import ram_data
from controller.sdnotify import Notifier
from controller.testing.files import capture_config
from controller.testing.notify import NotifySocket
from controller.testing.process import ApplianceProcess


def test_no_marker_is_a_data_partition_that_was_mounted(tmp_path: Path) -> None:
    assert ram_data.reason(tmp_path / ".in-ram") is None
    # a system that is not the card image: no /data at all, or a file named so
    (tmp_path / "data").write_text("not a directory")
    assert ram_data.reason(tmp_path / "data" / ".in-ram") is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("missing\nno partition labelled spieltisch-data\n", "missing"),
        ("unreadable\ncannot mount /dev/vda3 (e2fsck exit 8)\n", "unreadable"),
        ("", "unreadable"),
        ("something newer\n", "unreadable"),
    ],
)
def test_the_markers_first_line_says_why(tmp_path: Path, text: str, key: str) -> None:
    marker = tmp_path / ".in-ram"
    marker.write_text(text)
    assert ram_data.reason(marker) == key


def test_the_words_say_that_games_are_not_saved_in_the_tables_language() -> None:
    before = i18n.active_language()
    try:
        i18n.use("en")
        assert ram_data.words("missing") == "games are not saved: the card has no data partition"
        assert ram_data.words("unreadable") == (
            "games are not saved: the card's data partition could not be read"
        )
        i18n.use("de")
        assert ram_data.words("unreadable") == (
            "Spiele werden nicht gespeichert: die Datenpartition der Karte ist nicht lesbar"
        )
        assert ram_data.words("missing").startswith("Spiele werden nicht gespeichert: ")
    finally:
        i18n.use(before)


def test_the_standing_notice_goes_before_every_status_systemd_hears() -> None:
    sock = NotifySocket()
    try:
        notifier = Notifier({"NOTIFY_SOCKET": str(sock.path)})
        notifier.standing = "games are not saved"
        notifier.ready()
        notifier.set_status("panel not connected")
        notifier.notify("READY=1\nSTATUS=no panel chosen yet")
        notifier.watchdog()
        assert sock.wait_for("WATCHDOG=1", timeout=10) is not None
        assert [message for _, message in sock.messages] == [
            "READY=1\nSTATUS=games are not saved; playing",
            "STATUS=games are not saved; panel not connected",
            "READY=1\nSTATUS=games are not saved; no panel chosen yet",
            "WATCHDOG=1",
        ]
    finally:
        sock.close()


@pytest.mark.process
def test_the_table_starts_on_a_ram_data_and_its_status_says_that_games_are_not_saved(
    tmp_path: Path,
) -> None:
    """The real ``spieltisch run`` with the marker in place: READY (it plays), its status
    in the config's language, and the reason in the journal."""
    config = capture_config(tmp_path, '[game]\nbot = "random"\n[table]\nlanguage = "de"\n')
    marker = tmp_path / ".in-ram"
    marker.write_text("missing\nno partition labelled spieltisch-data\n")
    notify = NotifySocket()
    app = ApplianceProcess(config, tmp_path / "state", notify, data_marker=marker)
    try:
        assert notify.wait_for("READY=1", timeout=120) is not None, app.stderr()
        (ready,) = [m for _, m in notify.messages if "READY=1" in m.split("\n")]
        code, _seconds = app.terminate()
        log = app.stderr()
    finally:
        app.close()
        notify.close()
    assert code == 0, log
    words = "Spiele werden nicht gespeichert: die Karte hat keine Datenpartition"
    assert f"STATUS={words}; playing" in ready.split("\n")
    assert "(missing): nothing is kept past a power-off" in log
