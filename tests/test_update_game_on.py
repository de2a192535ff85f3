"""An update waits for no game: the table in its menu (also after a finished game, whose
final position stays in the save) is not playing, so an update goes ahead from the
command line and from the page alike; a game being played refuses it in one line on
both, with nothing changed. The updater read any save holding a game as "playing", so a
table back in its menu after a finished game refused every update from the command line
(and from the page, whose upload the root unit applies), while the page said it was
free.

The table is the real appliance on mock pins and a dummy panel, bots playing, its page
served on a real socket; ``spieltisch update apply`` installs a real toy release
(tests/update_fixtures.py) from the same state directory the table saves to.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from controller.machine import Mode
from controller.release.layout import ReleaseLayout
from controller.release.notice import read_notice
from controller.session import Session
from controller.testing.files import write_bot_game
from controller.testing.rig import SHORT_ANIMATIONS, ApplianceRig
from controller.testing.toy_release import toy_bundle
from controller.web.attach import mirrored, serve
from controller.web.server import WebServer
from tests.test_web import client_session, pair, run
from tests.update_fixtures import installed_table, update

STEPS = 100_000
"""Loop steps a random bots' game must end within (one takes about a thousand)."""


class PlayedTable:
    """Two bots playing at a table whose panel the page mirrors; the buttons wired, so
    a press can take it from the game's end to its menu."""

    def __init__(self, state: Path, keys: Path) -> None:
        self.rig = ApplianceRig(state, seats=("bot", "bot"), options=SHORT_ANIMATIONS)
        tee, publisher = mirrored(self.rig.app.loop.display)
        self.rig.app.loop.display = tee
        server = serve(self.rig.app, publisher, 0, [0])
        assert server is not None
        assert server.web is not None
        self.server: WebServer = server
        self.maintenance = server.web.maintenance
        self.maintenance.keys_dir = keys  # the keys this table trusts
        self.url = f"http://127.0.0.1:{self.server.port}"

    def play_until(self, mode: Mode) -> None:
        for _ in range(STEPS):
            if self.rig.table.state is mode:
                return
            self.rig.advance()
        raise AssertionError(f"no {mode} within {STEPS} steps: {self.rig.table.state}")

    def close(self) -> None:
        self.server.stop()
        self.rig.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[PlayedTable, dict[str, Path]]]:
    installed = installed_table(tmp_path, history=True)
    played = PlayedTable(installed["state"], installed["state"] / "keys")
    # the page keeps backups and takes bundles only where it knows the config
    played.maintenance.config_path = tmp_path / "config.toml"
    played.rig.start(Session.start("maedn", "classic", ["bot", "bot"], seed=1, bot="random"))
    yield played, installed
    played.close()


def upload(played: PlayedTable, bundle: Path) -> tuple[int, dict[str, Any]]:
    """The bundle posted as the Care page posts it: the file as the body."""

    async def flow() -> tuple[int, dict[str, Any]]:
        async with client_session() as client:
            csrf = await pair(client, played)  # type: ignore[arg-type]
            headers = {"X-CSRF-Token": csrf, "Content-Type": "application/octet-stream"}
            async with client.post(
                played.url + "/api/update", data=bundle.read_bytes(), headers=headers
            ) as response:
                return response.status, await response.json()

    result: tuple[int, dict[str, Any]] = run(flow())
    return result


def test_the_menu_after_a_finished_game_takes_an_update_from_the_page_and_the_root_unit(
    table: tuple[PlayedTable, dict[str, Path]],
) -> None:
    played, installed = table
    played.play_until(Mode.GAME_OVER)
    played.rig.press(0, "ok")
    assert played.rig.table.state is Mode.MENU
    saved = json.loads((installed["state"] / "session.json").read_text(encoding="utf-8"))
    assert saved["game"] == "maedn", "the finished game's final position stays in the save"

    bundle = toy_bundle(installed["tmp"] / "b2.tar", installed["private"], "0.2.0")
    status, answer = upload(played, bundle)
    assert status == 200, answer
    assert (installed["state"] / "inbox" / "update.tar").is_file()
    # what spieltisch-update.service runs as root when the page left the bundle
    applied = update(installed, "apply", "--inbox")
    assert applied.returncode == 0, applied.stderr
    assert "switched to 0.2.0 (was 0.1.0)" in applied.stdout
    assert ReleaseLayout(installed["prefix"]).current_name() == "0.2.0"


def test_a_game_being_played_refuses_the_update_on_the_page_and_the_command_line(
    table: tuple[PlayedTable, dict[str, Path]],
) -> None:
    played, installed = table
    for _ in range(40):  # a few moves in: the save holds the game
        played.rig.advance()
    assert played.rig.table.state not in (Mode.MENU, Mode.GAME_OVER)
    layout = ReleaseLayout(installed["prefix"])
    bundle = toy_bundle(installed["tmp"] / "b2.tar", installed["private"], "0.2.0")

    status, answer = upload(played, bundle)
    assert status == 409 and answer["error"] == "a game is being played: finish it first"
    assert not (installed["state"] / "inbox" / "update.tar").exists()

    refused = update(installed, "apply", str(bundle))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "refused: a game is in progress" in refused.stderr
    assert layout.names() == ["0.1.0"] and layout.current_name() == "0.1.0"


def test_a_bundle_left_by_the_page_is_refused_with_a_notice_when_a_game_began(
    tmp_path: Path,
) -> None:
    """The page took the bundle in the menu; a game began before the root unit ran:
    the unit refuses, and the page and the panel read why, in their own words."""
    installed = installed_table(tmp_path, history=True)
    bundle = toy_bundle(tmp_path / "b2.tar", installed["private"], "0.2.0")
    (installed["state"] / "inbox").mkdir()
    (installed["state"] / "inbox" / "update.tar").write_bytes(bundle.read_bytes())
    write_bot_game(installed["state"], "maedn", "classic", 2, seed=1)
    refused = update(installed, "apply", "--inbox")
    assert refused.returncode == 2 and "a game is in progress" in refused.stderr
    notice = read_notice(installed["state"])
    assert notice is not None and notice["kind"] == "refused" and notice["time"]
    assert ReleaseLayout(installed["prefix"]).names() == ["0.1.0"]


def test_a_game_begun_while_the_update_installed_stops_it_before_the_switch(
    tmp_path: Path,
) -> None:
    """Installing takes minutes; a game started from the menu meanwhile is not cut by
    the restart: the update stops before the switch, and the new release goes again.
    The venv's Python here is a real program that starts a game at the table (writes
    its save) as the install begins."""
    installed = installed_table(tmp_path, history=True)
    starter = tmp_path / "python-that-starts-a-game"
    starter.write_text(
        f"#!{sys.executable}\n"
        "import os, sys\n"
        "from controller.testing.files import write_bot_game\n"
        f"write_bot_game({str(installed['state'])!r}, 'maedn', 'classic', 2, seed=1)\n"
        f"os.execv({sys.executable!r}, [{sys.executable!r}, *sys.argv[1:]])\n",
        encoding="utf-8",
    )
    starter.chmod(starter.stat().st_mode | stat.S_IXUSR)
    bundle = toy_bundle(tmp_path / "b2.tar", installed["private"], "0.2.0")
    refused = update(installed, "apply", "--python", str(starter), str(bundle))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "a game is in progress (it began while the update was installed)" in refused.stderr
    layout = ReleaseLayout(installed["prefix"])
    assert layout.names() == ["0.1.0"] and layout.current_name() == "0.1.0"
    assert not os.path.exists(installed["state"] / "update" / "state.json")
