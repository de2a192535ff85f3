"""The page's Care section: the running release, a bundle's upload, a backup's download,
a restore and a factory reset; changes only paired, restore and reset only confirmed,
hostile files refused in one line, and what was staged carried out at the next start."""

from __future__ import annotations

import io
import sqlite3
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from controller.backup.staged import INBOX, RESET, RESTORE, at_start
from controller.events import ShutdownEvent
from controller.history.store import HistoryStore
from tests.test_web import ServedTable, client_session, pair, run
from tests.test_web_pages import config_file


@pytest.fixture
def care(tmp_path: Path) -> Iterator[tuple[ServedTable, Path, Path]]:
    state = tmp_path / "state"
    state.mkdir()
    store = HistoryStore(state)
    store.open()
    store.close()
    connection = sqlite3.connect(state / "history.sqlite3")
    connection.execute(
        "INSERT INTO records (uid, game, preset, ended, outcome, places, result, rolls, moves,"
        " start_state, final_state, history) VALUES ('kept', 'maedn', 'classic', '2026-01-01',"
        " 'finished', '[]', '{}', 1, 1, '{}', '{}', '[]')"
    )
    connection.commit()
    connection.close()
    config = config_file(tmp_path)
    table = ServedTable(state_dir=state, config_path=config)
    table.rig.start()  # the menu: no game
    table.rig.app.loop.draw()
    yield table, state, config
    table.close()


async def post(
    client: Any, url: str, csrf: str | None, body: bytes | None = None, **headers: str
) -> tuple[int, Any, bytes]:
    sent = {"X-CSRF-Token": csrf} if csrf else {}
    sent.update({k.replace("_", "-"): v for k, v in headers.items()})
    async with client.post(url, data=body, headers=sent) as response:
        raw = await response.read()
        kind = response.headers.get("Content-Type", "")
        return response.status, (await response.json() if "json" in kind else None), raw


def shutdowns(table: ServedTable) -> list[ShutdownEvent]:
    found = []
    while len(table.rig.app.events):
        event = table.rig.app.events.get(0)
        if isinstance(event, ShutdownEvent):
            found.append(event)
    return found


def test_the_care_page_and_the_running_release_are_for_everyone(
    care: tuple[ServedTable, Path, Path],
) -> None:
    table, _state, _config = care

    async def read() -> tuple[int, str, Any]:
        async with client_session() as client:
            async with client.get(table.url + "/care", headers={"Accept-Language": "de"}) as r:
                page = (r.status, await r.text())
            async with client.get(table.url + "/api/update") as r:
                return page[0], page[1], await r.json()

    status, html, info = run(read())
    assert status == 200 and "Sicherung herunterladen" in html
    assert "program" in info and "current" in info


def test_a_backup_restored_from_the_page_at_the_next_start(
    care: tuple[ServedTable, Path, Path],
) -> None:
    table, state, config = care

    async def flow() -> list[Any]:
        async with client_session() as client:
            unpaired = await post(client, table.url + "/api/backup", None)
            csrf = await pair(client, table)
            backup = await post(client, table.url + "/api/backup", csrf)
            strange = client_session()
            async with strange as other:  # not paired: refused before its body is read
                unpaired_upload = await post(
                    other, table.url + "/api/backup/restore", None, backup[2]
                )
            unconfirmed = await post(client, table.url + "/api/backup/restore", csrf, backup[2])
            restored = await post(
                client, table.url + "/api/backup/restore", csrf, backup[2], X_Confirm="restore"
            )
            return [unpaired, backup, unconfirmed, restored, unpaired_upload]

    unpaired, backup, unconfirmed, restored, unpaired_upload = run(flow())
    assert unpaired[0] == 403 and unpaired_upload[0] == 403
    assert backup[0] == 200
    with tarfile.open(fileobj=io.BytesIO(backup[2])) as tar:
        assert "history.sqlite3" in tar.getnames()
    assert unconfirmed[0] == 400 and "X-Confirm" in unconfirmed[1]["error"]
    assert restored[0] == 200, restored
    assert (state / INBOX / RESTORE).is_file()
    assert [e.reason for e in shutdowns(table)] == ["restore a backup"]
    # the next start: the history replaced by the backup's, what it replaced kept
    (state / "history.sqlite3").unlink()
    said = at_start(state, config)
    assert said is not None and said.startswith("restored the backup from the page")
    connection = sqlite3.connect(state / "history.sqlite3")
    assert [r[0] for r in connection.execute("SELECT uid FROM records")] == ["kept"]
    connection.close()
    assert not (state / INBOX / RESTORE).exists()
    assert list((state / "backups").glob("before-restore-*.tar.gz"))


def test_a_hostile_backup_or_bundle_is_refused_at_once_in_one_line(
    care: tuple[ServedTable, Path, Path],
) -> None:
    table, state, _config = care
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo("../../etc/passwd")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))

    async def flow() -> list[Any]:
        async with client_session() as client:
            csrf = await pair(client, table)
            backup = await post(
                client,
                table.url + "/api/backup/restore",
                csrf,
                buffer.getvalue(),
                X_Confirm="restore",
            )
            bundle = await post(client, table.url + "/api/update", csrf, b"not a bundle")
            return [backup, bundle]

    backup, bundle = run(flow())
    assert backup[0] == 400 and "escapes" in backup[1]["error"]
    assert "\n" not in backup[1]["error"]
    assert bundle[0] == 400 and "\n" not in bundle[1]["error"]
    assert not (state / INBOX / RESTORE).exists()
    assert not (state / INBOX / "update.tar").exists()
    assert shutdowns(table) == []


def test_a_factory_reset_from_the_page_needs_its_confirmation(
    care: tuple[ServedTable, Path, Path],
) -> None:
    table, state, config = care

    async def flow() -> list[Any]:
        async with client_session() as client:
            csrf = await pair(client, table)
            bare = await post(client, table.url + "/api/backup/reset", csrf)
            confirmed = await post(
                client, table.url + "/api/backup/reset", csrf, X_Confirm="factory-reset"
            )
            return [bare, confirmed]

    bare, confirmed = run(flow())
    assert bare[0] == 400
    assert confirmed[0] == 200
    assert (state / INBOX / RESET).is_file()
    said = at_start(state, config)
    assert said is not None and said.startswith("factory reset done")
    assert not (state / "history.sqlite3").exists()
    assert list((state / "backups").glob("before-factory-reset-*.tar.gz"))


def test_the_last_update_is_said_in_the_pages_language(
    care: tuple[ServedTable, Path, Path],
) -> None:
    """The rollback's words on the page as on the panel: a German page reads them in
    German (the notice file keeps the English line for the journal)."""
    import json

    table, state, _config = care
    (state / "update").mkdir()
    (state / "update" / "notice.json").write_text(
        json.dumps(
            {
                "text": "update to 0.3.0 failed: the table failed to start; back on 0.2.1",
                "ok": False,
                "time": 1.0,
                "kind": "rolled-back",
                "to": "0.3.0",
                "back": "0.2.1",
                "reason": "the table failed to start",
            }
        )
    )

    async def read(language: str) -> Any:
        async with client_session() as client:
            headers = {"Accept-Language": language}
            async with client.get(table.url + "/api/update", headers=headers) as r:
                return await r.json()

    german, english = run(read("de")), run(read("en"))
    assert german["notice_words"] == (
        "Update auf 0.3.0 fehlgeschlagen: der Spieltisch startete nicht; zurück auf 0.2.1"
    )
    assert english["notice_words"] == english["notice"]["text"]
