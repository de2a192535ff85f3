"""The page's Update and Backup sections: the running release, a bundle's upload, a
backup's download, a restore and a factory reset.

Reading the running release needs nothing; everything else needs a paired phone and its
CSRF token, and restore and reset also the header ``X-Confirm`` naming the action (the
page asks the family first). None of it happens during a game.

The table runs unprivileged and cannot install a release itself: an uploaded bundle is
checked here (so a bad one is refused at once, in one line), then left in the state
directory's ``inbox/update.tar``, where ``spieltisch-update.path`` hands it to the root
unit that checks it again and applies it. A restore or reset is staged for the table's
next start (controller.backup.staged), and the table restarts to do it.

Uploads are streamed to a file with their own limit (the server's small body limit is
for JSON); the checks run on a worker thread, one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from controller.events import EventQueue, ShutdownEvent
from controller.i18n import N_
from controller.web.replies import json_error

MAX_UPLOAD = 900 << 20
BUSY = N_("the table is busy with another upload: try again")
UPDATE_INBOX = "update.tar"


class CareServer(Protocol):
    events: EventQueue

    def paired(self, request: web.Request) -> bool: ...
    def say(self, request: web.Request, message: str, **values: object) -> str: ...
    def page_language(self, request: web.Request) -> str: ...
    def game_on(self) -> bool: ...


class MaintenanceRoutes:
    def __init__(self, app: CareServer, config_path: Path | None, state_dir: Path | None) -> None:
        from controller.release.layout import KEYS_DIR, SHIPPED_KEYS_DIR

        self.app = app
        self.config_path = config_path
        self.state_dir = state_dir
        self.keys_dir = KEYS_DIR
        """The keys the table trusts (root's; a staging table, or a test, names its own)."""
        self.shipped_keys_dir: Path | None = SHIPPED_KEYS_DIR
        """The keys the card image ships on its read-only root, trusted too."""
        self.lock = asyncio.Lock()

    def add(self, router: web.UrlDispatcher) -> None:
        router.add_get("/api/update", self.status)
        router.add_post("/api/update", self.upload_bundle)
        router.add_post("/api/backup", self.download)
        router.add_post("/api/backup/restore", self.restore)
        router.add_post("/api/backup/reset", self.reset)

    def places(self) -> Any:
        from controller.backup.archive import BackupPlaces

        assert self.state_dir is not None and self.config_path is not None
        return BackupPlaces(self.state_dir, self.config_path, self.keys_dir)

    def refusal(self, request: web.Request, confirm: str | None = None) -> web.Response | None:
        """Why this change may not happen now, or None."""
        if not self.app.paired(request):
            return json_error(
                403, self.app.say(request, N_("pair this phone with the table first"))
            )
        if self.state_dir is None or self.config_path is None:
            return json_error(409, self.app.say(request, N_("the simulator keeps no backups")))
        if self.app.game_on():
            return json_error(
                409, self.app.say(request, N_("a game is being played: finish it first"))
            )
        if confirm is not None and request.headers.get("X-Confirm") != confirm:
            return json_error(400, f"send the header X-Confirm: {confirm}")
        if self.lock.locked():
            return json_error(503, self.app.say(request, BUSY))
        return None

    async def status(self, request: web.Request) -> web.Response:
        from controller.release.apply import UpdatePlaces, status

        places = UpdatePlaces(keys_dir=self.keys_dir, shipped_keys_dir=self.shipped_keys_dir)
        if self.state_dir is not None:
            places.state_dir = self.state_dir
        info = await asyncio.to_thread(status, places)
        if info.get("notice"):
            from controller import i18n
            from controller.release.notice import words

            # the last update's outcome in the page's language, as the panel says it
            catalog = i18n.translations(self.app.page_language(request))
            info["notice_words"] = words(info["notice"], catalog.gettext)
        from importlib.metadata import PackageNotFoundError, version

        try:
            info["program"] = version("spieltisch")
        except PackageNotFoundError:
            info["program"] = None
        return web.json_response(info)

    async def receive(self, request: web.Request, into: Path) -> None:
        """The request's body as the file ``into``, refused beyond :data:`MAX_UPLOAD`."""
        size = 0
        with into.open("wb") as out:
            while chunk := await request.content.read(1 << 16):
                size += len(chunk)
                if size > MAX_UPLOAD:
                    raise web.HTTPRequestEntityTooLarge(max_size=MAX_UPLOAD, actual_size=size)
                out.write(chunk)

    async def upload_bundle(self, request: web.Request) -> web.Response:
        refused = self.refusal(request)
        if refused is not None:
            return refused
        assert self.state_dir is not None
        async with self.lock:
            inbox = self.state_dir / "inbox"
            inbox.mkdir(exist_ok=True)
            with tempfile.TemporaryDirectory(dir=self.state_dir) as work:
                upload = Path(work) / "bundle.tar"
                await self.receive(request, upload)
                problem = await asyncio.to_thread(
                    precheck_bundle, upload, Path(work), self.keys_dir, self.shipped_keys_dir
                )
                if problem is not None:
                    return json_error(400, problem)
                partial = inbox / f".{UPDATE_INBOX}.part"
                shutil.move(str(upload), partial)
                os.replace(partial, inbox / UPDATE_INBOX)
        words = N_("bundle received: the table checks it, installs it and restarts")
        return web.json_response({"ok": True, "message": self.app.say(request, words)})

    async def download(self, request: web.Request) -> web.StreamResponse:
        refused = self.refusal(request)
        if refused is not None:
            return refused
        from controller.backup.archive import BackupError, create

        async with self.lock:
            with tempfile.TemporaryDirectory() as work:
                file = Path(work) / "spieltisch-backup.tar.gz"
                try:
                    await asyncio.to_thread(create, self.places(), file)
                except BackupError as exc:
                    return json_error(500, str(exc))
                body = file.read_bytes()
        return web.Response(
            body=body,
            content_type="application/gzip",
            headers={"Content-Disposition": 'attachment; filename="spieltisch-backup.tar.gz"'},
        )

    async def restore(self, request: web.Request) -> web.Response:
        refused = self.refusal(request, confirm="restore")
        if refused is not None:
            return refused
        from controller.backup.archive import BackupError
        from controller.backup.staged import stage_restore

        assert self.state_dir is not None
        async with self.lock:
            with tempfile.TemporaryDirectory(dir=self.state_dir) as work:
                upload = Path(work) / "backup.tar.gz"
                await self.receive(request, upload)
                try:
                    await asyncio.to_thread(stage_restore, self.places(), upload)
                except BackupError as exc:
                    return json_error(400, str(exc))
        self.app.events.put(ShutdownEvent("restore a backup"))
        words = N_("backup checked: the table restarts and restores it")
        return web.json_response({"ok": True, "message": self.app.say(request, words)})

    async def reset(self, request: web.Request) -> web.Response:
        refused = self.refusal(request, confirm="factory-reset")
        if refused is not None:
            return refused
        from controller.backup.staged import stage_reset

        await asyncio.to_thread(stage_reset, self.places())
        self.app.events.put(ShutdownEvent("factory reset"))
        words = N_("the table restarts and returns to new (a backup is kept)")
        return web.json_response({"ok": True, "message": self.app.say(request, words)})


def precheck_bundle(
    bundle: Path, work: Path, keys_dir: Path, shipped_keys_dir: Path | None = None
) -> str | None:
    """The bundle's one-line refusal, or None; checked against the keys this table
    trusts, as the root unit will check it again."""
    from controller.release.bundle import BundleError, check_bundle
    from controller.release.keys import trusted_keys

    into = work / "unpacked"
    into.mkdir()
    try:
        shipped = [shipped_keys_dir] if shipped_keys_dir is not None else []
        check_bundle(bundle, into, trusted_keys(*shipped, keys_dir))
    except BundleError as exc:
        return str(exc)
    except OSError as exc:
        return f"cannot read the bundle: {exc.strerror or exc}"
    finally:
        with contextlib.suppress(OSError):
            shutil.rmtree(into)
    return None
