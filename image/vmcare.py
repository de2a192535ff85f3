"""The card looked after from its page, in a VM: updates, a rollback, a backup, a factory
reset and the backup restored, each through the page as a phone's browser sends it.

    sudo SPIELTISCH_SIGNING_KEY=KEY python3 image/vmtest.py care out/spieltisch-V-amd64.img.xz

A card boots with an SSH key (for looking, never for acting), a dummy panel of 32x32,
two bot seats playing Mini-Maki and the page on port 8080, forwarded to this host. On
the host, two signed bundles are built as ``vmtest update`` builds them: a second
release and a broken third. Then, through the page only (HTTP, the requests the Care
page's own script sends: the file as the request's body, the CSRF token, the
confirmation header):

1. pair: ask for a code, read it off the panel, send it back;
2. upload the second release: the page checks it and leaves it for the root unit; it
   must become current and be confirmed, and the page say so;
3. upload the broken third: systemd rolls it back; the page must say "update to … failed
   …; back on …" and the panel show it (the table marks a notice shown in
   ``update-notice.seen`` with the notice's time);
4. start bot games from the page's Setup until three are in the history; read each game
   (``/api/history/N/game.json``); download a backup; do a factory reset (the history
   must be empty after it); restore the backup; read every game again and compare them
   one by one.

**The panel camera.** The code the table shows is never logged or sent to the page (a
watcher could pair with it), so it is read where a person reads it: off the panel.
The card's table runs with a ``sitecustomize`` in ``/run`` (for ``spieltisch.service``
only, a drop-in as the mock pins are) that saves every frame luma's dummy panel is
given as ``/run/spieltisch-camera/panel.png``, as a camera in front of a real panel
would see it. Beside the code's digits the panel shows a QR code of the page's address
with the code (``HTTP://…/P/123456``), one pixel a module; the code is read from that:
the picture's modules unmasked with each of QR's eight masks and read in QR's
placement order as alphanumeric data (a small reader here: no QR library on the
card), until one gives the address.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vmtest import (
    REPO,
    Machine,
    card_status,
    default_deps,
    emit,
    free_port,
    give_key,
    make_bundle,
    new_card,
    phase,
    ssh,
    unit_show,
    unpack,
    wait_for,
    workdir,
)

GAMES = 3

CARE = r"""
set -e
/opt/spieltisch/venv/bin/python - /etc/spieltisch/config.toml <<'PY'
import sys
from controller.testing.files import config_text
text = config_text(seats=("bot", "bot"), size=32)
text = text.replace("height = 32", "height = 32\nsleep_after_min = 0", 1)
text = text.replace('name = "maedn"', 'name = "minimaki"', 1)
text = text.replace('bot = "random"', 'bot = "random"\nbot_delay_s = 0.2', 1)
text += "[web]\nenabled = true\nport = 8080\n"
open(sys.argv[1], "w").write(text)
PY
/opt/spieltisch/venv/bin/spieltisch config check /etc/spieltisch/config.toml
install -d -o spieltisch -g spieltisch -m 0755 /run/spieltisch-camera
cat >/run/spieltisch-camera/sitecustomize.py <<'PY'
# the panel camera (image/vmcare.py): every frame the dummy panel is given, as a picture
import os

from luma.core.device import dummy

_shown = dummy.display


def display(self, image):
    _shown(self, image)
    self.image.save("/run/spieltisch-camera/.panel.png", "PNG")
    os.replace("/run/spieltisch-camera/.panel.png", "/run/spieltisch-camera/panel.png")


dummy.display = display
PY
mkdir -p /run/systemd/system/spieltisch.service.d
printf '[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=mock\n' \
    >/run/systemd/system/spieltisch.service.d/mock-pins.conf
printf '[Service]\nEnvironment=PYTHONPATH=%s\nReadWritePaths=%s\n' \
    /run/spieltisch-camera /run/spieltisch-camera \
    >/run/systemd/system/spieltisch.service.d/camera.conf
systemctl daemon-reload
systemctl restart spieltisch
"""

READ_CODE = r"""
import re
from PIL import Image

ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
MASKS = (
    lambda i, j: (i + j) % 2 == 0,
    lambda i, j: i % 2 == 0,
    lambda i, j: j % 3 == 0,
    lambda i, j: (i + j) % 3 == 0,
    lambda i, j: (i // 2 + j // 3) % 2 == 0,
    lambda i, j: (i * j) % 2 + (i * j) % 3 == 0,
    lambda i, j: ((i * j) % 2 + (i * j) % 3) % 2 == 0,
    lambda i, j: ((i + j) % 2 + (i * j) % 3) % 2 == 0,
)


def function_module(n, i, j):
    if (i <= 8 and j <= 8) or (i <= 8 and j >= n - 8) or (i >= n - 8 and j <= 8):
        return True
    if i == 6 or j == 6:
        return True
    return n > 21 and n - 9 <= i <= n - 5 and n - 9 <= j <= n - 5


def order(n):
    j, up = n - 1, True
    while j > 0:
        if j == 6:
            j -= 1
        rows = range(n - 1, -1, -1) if up else range(n)
        for i in rows:
            for jj in (j, j - 1):
                if not function_module(n, i, jj):
                    yield i, jj
        j -= 2
        up = not up


def alnum(bits):
    def take(k):
        nonlocal bits
        value, bits = int(bits[:k], 2), bits[k:]
        return value
    if take(4) != 2:
        return None
    count = take(9)
    out = ""
    while len(out) + 2 <= count:
        pair = take(11)
        out += ALNUM[pair // 45] + ALNUM[pair % 45]
    if len(out) < count:
        out += ALNUM[take(6)]
    return out


def qr_texts(rows):
    n = len(rows)
    cells = list(order(n))
    for mask in MASKS:
        bits = "".join(str(int(rows[i][j] == "1") ^ int(mask(i, j))) for i, j in cells)
        try:
            text = alnum(bits)
        except (ValueError, IndexError):
            continue
        if text:
            yield text


image = Image.open("/run/spieltisch-camera/panel.png").convert("RGB")
for size in (21, 25, 29):
    x0, y0 = (image.width - size) // 2, (image.height - size) // 2
    if x0 < 1:
        continue
    # light and dark told apart halfway between the square's darkest and lightest
    # pixel (a power limit may dim the whole picture); the quiet zone must be light
    seen = [sum(image.getpixel((x0 + x, y0 + y))) for x in range(size) for y in range(size)]
    middle = (min(seen) + max(seen)) / 2
    if max(seen) - min(seen) < 60 or sum(image.getpixel((x0 - 1, y0 - 1))) < middle:
        continue  # no QR code on the panel now
    rows = [
        "".join(
            "1" if sum(image.getpixel((x0 + x, y0 + y))) < middle else "0" for x in range(size)
        )
        for y in range(size)
    ]
    for text in qr_texts(rows):
        found = re.fullmatch(r"HTTP://.*/P/(\d{6})", text)
        if found:
            print(found.group(1))
            raise SystemExit(0)
"""


class Page:
    """The card's page as a phone's browser talks to it: a cookie jar (the pairing's
    session cookie) and the CSRF token the pairing answered with."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""

    def call(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 600,
    ) -> tuple[int, bytes]:
        sent = dict(headers or {})
        if self.csrf and method == "POST":
            sent["X-CSRF-Token"] = self.csrf
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=sent)
        try:
            with self.opener.open(request, timeout=timeout) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()
        except OSError as exc:  # the table restarting: no page for a moment
            return 0, str(exc).encode()

    def json(self, method: str, path: str, data: Any = None) -> tuple[int, Any]:
        body = None if data is None else json.dumps(data).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        status, raw = self.call(method, path, body, headers)
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode(errors="replace")[:200]

    def upload(self, path: str, data: bytes, **headers: str) -> tuple[int, Any]:
        """A file posted as the Care page posts it: its bytes as the body."""
        sent = {"Content-Type": "application/octet-stream", **headers}
        status, raw = self.call("POST", path, data, sent)
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw

    def up(self) -> bool:
        try:
            return self.call("GET", "/api/update", timeout=20)[0] == 200
        except OSError:
            return False


def read_code(port: int, work: Path) -> str | None:
    """The pairing code, from the QR code on the panel's picture (None: not on it now)."""
    out = ssh(port, work, "/opt/spieltisch/venv/bin/python -", stdin=READ_CODE, check=False)
    found = re.fullmatch(r"\d{6}", out.strip())
    return found.group(0) if found else None


def pair(page: Page, port: int, work: Path, timeout: float = 240) -> float | None:
    """Pair with a code read off the panel; seconds it took, or None."""
    t = time.monotonic()
    page.jar.clear()
    page.csrf = ""
    while time.monotonic() - t < timeout:
        status, answer = page.json("POST", "/api/pair/code", {})
        if status != 200:
            time.sleep(6)  # one code per 5 s
            continue
        shown = time.monotonic()
        while time.monotonic() - shown < 30:
            code = read_code(port, work)
            if code is not None:
                status, answer = page.json("POST", "/api/pair", {"code": code})
                if status == 200 and isinstance(answer, dict) and answer.get("csrf"):
                    page.csrf = str(answer["csrf"])
                    return round(time.monotonic() - t, 1)
                emit("pair-refused", code=code, status=status, answer=answer)
                break
            time.sleep(1)
    return None


def page_update(page: Page) -> dict[str, Any]:
    status, info = page.json("GET", "/api/update")
    return info if status == 200 and isinstance(info, dict) else {}


def table_back(page: Page, port: int, work: Path, pid: str, timeout: float) -> float | None:
    """Seconds until the table runs as a new process and its page answers."""
    return wait_for(
        lambda: (
            (u := unit_show(port, work)).get("ActiveState") == "active"
            and u.get("MainPID") not in ("", "0", pid)
            and page.up()
        ),
        timeout,
    )


def history(page: Page) -> list[dict[str, Any]]:
    """Every game the page lists, each as its own ``game.json`` (the record whole)."""
    status, listing = page.json("GET", "/api/history")
    if status != 200 or not isinstance(listing, dict):
        return []
    games = []
    for entry in listing.get("games", []):
        code, raw = page.call("GET", f"/api/history/{entry['id']}/game.json")
        games.append(json.loads(raw) if code == 200 else {"id": entry["id"], "status": code})
    return games


def count_games(page: Page) -> int:
    status, listing = page.json("GET", "/api/history")
    if status != 200 or not isinstance(listing, dict):
        return -1
    return len(listing.get("games", []))


def update_from_page(
    page: Page, port: int, work: Path, bundle: Path, timeout: float
) -> tuple[dict[str, Any], float | None]:
    """The bundle uploaded on the Care page (paired); returns the page's answer with
    its seconds, and the seconds until the root unit switched."""
    before = page_update(page).get("notice")
    t = time.monotonic()
    status, answer = page.upload("/api/update", bundle.read_bytes())
    sent = {"status": status, "answer": answer, "upload_s": round(time.monotonic() - t, 1)}
    if status != 200:
        return sent, None

    def refused() -> str | None:
        """The root unit's refusal, as the page reads it (a new notice)."""
        info = page_update(page)
        notice = info.get("notice")
        if notice and notice != before and str(notice.get("text", "")).startswith("update refused"):
            return str(info.get("notice_words") or notice.get("text"))
        return None

    switched = wait_for(
        lambda: phase(card_status(port, work)) == "trial" or refused() is not None, timeout, 2
    )
    if refused() is not None:
        sent["refused"] = refused()
        return sent, None
    return sent, switched


def cmd_care(args: argparse.Namespace) -> int:
    if args.key is None or not args.key.is_file():
        print("vmtest care: give the signing key the image trusts (--key)", file=sys.stderr)
        return 2
    args.deps = args.deps or default_deps()
    if args.deps is None:
        print("vmtest care: no dependency wheels (--deps; build the image first)", file=sys.stderr)
        return 2
    if args.card is not None:
        return again(args)
    with workdir(args.keep) as work:
        raw = unpack(args.image, work.parent)
        card = new_card(raw, work / "card-care.img")
        give_key(card, work)
        m = Machine(args.arch, card, work, "card-care", ports={22: free_port(), 8080: free_port()})
        port, page = m.ports[22], Page(m.ports[8080])
        m.start()
        base = re.search(r'(?m)^version = "([^"]*)"', (REPO / "pyproject.toml").read_text())
        assert base
        second, third = f"{base.group(1)}.post1", f"{base.group(1)}.post2"
        good, _ = make_bundle(args, work, second, broken=False)
        bad, _ = make_bundle(args, work, third, broken=True)
        ready = m.wait_ready(args.timeout)
        emit("boot", arch=args.arch, ready_s=ready)
        if ready is None:
            print(m.console.read_bytes()[-1500:].decode(errors="replace"), file=sys.stderr)
            m.cut()
            return 1
        wait_for(lambda: ssh(port, work, "echo up", check=False).strip() == "up", 180, 2)
        ssh(port, work, CARE)
        page_up = wait_for(page.up, 300)
        emit("page", up_after_s=page_up, status=unit_show(port, work).get("StatusText"))
        result: dict[str, Any] = {"second": second, "third": third}
        try:
            ok = care_steps(args, m, page, work, good, bad, result)
        finally:
            m.poweroff()
            m.cut()
        emit("care-verdict", ok=ok, **result)
        return 0 if ok else 1


def care_steps(
    args: argparse.Namespace,
    m: Machine,
    page: Page,
    work: Path,
    good: Path,
    bad: Path,
    result: dict[str, Any],
) -> bool:
    """The second release first, on a card that has played no game yet (the release the
    image was built with counted a finished game's save as a game in progress, and
    refused updates and resets after any game); then the backup's round on the second
    release; then the broken third."""
    port = m.ports[22]
    cared: list[bool] = []
    updated = update_steps(
        args,
        m,
        page,
        work,
        good,
        bad,
        result,
        between=lambda: cared.append(backup_steps(page, port, work, args.timeout, result)),
    )
    return bool(cared) and cared[0] and updated


def backup_steps(page: Page, port: int, work: Path, timeout: float, result: dict[str, Any]) -> bool:
    """Games from the page's Setup, a backup downloaded, a factory reset, the backup
    restored: the history compared game by game."""
    result["pair_games_s"] = pair(page, port, work)
    emit("paired", seconds=result["pair_games_s"])
    t = time.monotonic()
    for n in range(1, GAMES + 1):
        status, setup = page.json("GET", "/api/setup")
        values = setup.get("values") if isinstance(setup, dict) else None
        start = {"action": "start", "values": values}
        started = wait_for(
            lambda start=start: page.json("POST", "/api/setup", start)[0] == 200, 120
        )
        ended = wait_for(lambda n=n: count_games(page) >= n, 600)
        emit("game", n=n, started_after_s=started, recorded_after_s=ended)
        if ended is None:
            return False
    before = history(page)
    result["games_s"] = round(time.monotonic() - t, 1)
    status, backup = page.call("POST", "/api/backup", b"")
    emit("backup", status=status, bytes=len(backup), games=len(before))
    if status != 200 or not before:
        return False
    pid = unit_show(port, work).get("MainPID", "")
    status, answer = page.json("POST", "/api/backup/reset", None)
    unconfirmed = status
    status, raw = page.call("POST", "/api/backup/reset", b"", {"X-Confirm": "factory-reset"})
    reset_back = table_back(page, port, work, pid, timeout)
    after_reset = count_games(page)
    emit("factory-reset", unconfirmed_status=unconfirmed, status=status,
         answer=raw.decode(errors="replace"), back_after_s=reset_back,
         games_after=after_reset)  # fmt: skip
    result["pair_restore_s"] = pair(page, port, work)
    pid = unit_show(port, work).get("MainPID", "")
    status, answer = page.upload("/api/backup/restore", backup, **{"X-Confirm": "restore"})
    restore_back = table_back(page, port, work, pid, timeout)
    after = history(page)
    same = [a == b for a, b in zip(before, after, strict=False)]
    emit("restored", status=status, answer=answer, back_after_s=restore_back,
         games_before=len(before), games_after=len(after), same_game_by_game=same,
         notice=page_update(page).get("notice_words"))  # fmt: skip
    result.update(
        games=len(before),
        games_after_reset=after_reset,
        games_after_restore=len(after),
        same_game_by_game=same,
    )
    care_ok = after_reset == 0 and len(after) == len(before) and all(same)
    result.update(care_ok=care_ok)
    return care_ok


def update_steps(
    args: argparse.Namespace,
    m: Machine,
    page: Page,
    work: Path,
    good: Path,
    bad: Path,
    result: dict[str, Any],
    between: Callable[[], None] = lambda: None,
) -> bool:
    port = m.ports[22]
    second, third = result["second"], result["third"]
    # 1. pair, 2. the second release from the page
    result["pair_s"] = pair(page, port, work)
    emit("paired", seconds=result["pair_s"])
    if result["pair_s"] is None:
        return False
    pid = unit_show(port, work).get("MainPID", "")
    sent, switched = update_from_page(page, port, work, good, args.timeout)
    emit("upload", to=second, switched_after_s=switched, **sent)
    if switched is None:
        result["refused"] = sent
        return False
    back = table_back(page, port, work, pid, args.timeout)
    confirmed = wait_for(lambda: phase(card_status(port, work)) == "confirmed", args.timeout)
    info = page_update(page)
    result.update(
        second_ready_s=back,
        second_confirmed_s=confirmed,
        second_page_current=info.get("current"),
        second_page_words=info.get("notice_words"),
    )
    emit("updated", to=second, ready_after_switch_s=back, confirmed_after_s=confirmed,
         page_current=info.get("current"), page_words=info.get("notice_words"))  # fmt: skip
    second_ok = info.get("current") == second and info.get("notice_words") == (
        f"updated to {second}"
    )
    between()
    # 3. the broken third from the page: rolled back by systemd, said on page and panel
    result["pair_again_s"] = pair(page, port, work)
    sent, switched = update_from_page(page, port, work, bad, args.timeout)
    emit("upload", to=third, switched_after_s=switched, **sent)
    if switched is None:
        result["refused"] = sent
        return False
    rolled = wait_for(lambda: phase(card_status(port, work)) == "rolled-back", args.timeout)
    again = wait_for(
        lambda: (
            unit_show(port, work).get("ActiveState") == "active"
            and page.up()
            and page_update(page).get("current") == second
        ),
        args.timeout,
    )
    info = page_update(page)
    stamp = repr((info.get("notice") or {}).get("time"))
    shown = wait_for(
        lambda: (
            ssh(port, work, "cat /var/lib/spieltisch/update-notice.seen", check=False).strip()
            == stamp
        ),
        120,
    )
    words = str(info.get("notice_words", ""))
    result.update(
        rolled_back_s=rolled,
        back_on_second_s=again,
        page_words=words,
        notice_shown_on_panel=shown is not None,
    )
    emit("rolled-back", to=third, rolled_back_after_s=rolled, page_up_on_second_after_s=again,
         page_current=info.get("current"), page_words=words,
         notice_shown_on_panel_after_s=shown)  # fmt: skip
    back_ok = (
        info.get("current") == second
        and f"update to {third} failed" in words
        and f"back on {second}" in words
        and shown is not None
    )
    result.update(second_ok=second_ok, back_ok=back_ok)
    return second_ok and back_ok


def again(args: argparse.Namespace) -> int:
    """``--card CARD``: a card kept from a run (``--keep``; its key beside it) started
    again: the page's update status read, then the backup's round."""
    card = args.card
    work = card.parent
    m = Machine(args.arch, card, work, "card-again", ports={22: free_port(), 8080: free_port()})
    port, page = m.ports[22], Page(m.ports[8080])
    m.start()
    ready = m.wait_ready(args.timeout)
    emit("boot", arch=args.arch, ready_s=ready, card=str(card))
    if ready is None:
        m.cut()
        return 1
    result: dict[str, Any] = {}
    try:
        wait_for(lambda: ssh(port, work, "echo up", check=False).strip() == "up", 180, 2)
        ssh(port, work, CARE)
        emit("page", up_after_s=wait_for(page.up, 300))
        settled = wait_for(lambda: phase(card_status(port, work)) != "trial", args.timeout)
        info = page_update(page)
        emit("update-status", settled_after_s=settled, page_current=info.get("current"),
             page_words=info.get("notice_words"), phase=phase(card_status(port, work)))  # fmt: skip
        ok = backup_steps(page, port, work, args.timeout, result)
    finally:
        m.poweroff()
        m.cut()
    emit("care-verdict", ok=ok, **result)
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    """``vmtest.py care`` calls :func:`cmd_care`; this runs it alone with vmtest's options."""
    import vmtest

    return vmtest.main(["care", *(argv if argv is not None else sys.argv[1:])])


if __name__ == "__main__":
    sys.exit(main())
