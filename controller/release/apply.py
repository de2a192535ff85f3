"""Applying a bundle: unpack beside, check, switch, restart; and the way back.

The steps of :func:`apply`, each leaving the table whole if the power goes:

1. refused while a game is in progress (a save with a game in the state directory):
   an update restarts the table, and a family mid-game must not lose its turn;
2. the bundle is checked whole (:mod:`controller.release.bundle`) in a new directory;
3. the release is installed beside the running one: ``releases/<name>`` holds an
   ``INCOMPLETE`` marker until its venv is made from the bundle's wheels alone
   (``pip --no-index``) and it passed its check: it imports, its build says which rules
   it runs, it accepts this table's config, and it plays a bot game on the text board
   (no hardware). Anything failing here removes the new directory: nothing changed;
4. the history database is copied (SQLite's backup API) into the state directory's
   ``update/`` before the new release can migrate it forward;
5. ``update/state.json`` says "trial: from A to B" (written before the switch, so a
   power cut between the two is recognised at the next boot), then ``current`` is
   switched and the service restarted, with a start limit only for the trial.

The trial ends in :func:`confirm` (the service reached READY and stayed up for its
first minute: ``previous`` is kept, the ones before it removed) or in :func:`rollback`
(``current`` back to ``previous``, the history copy put back if the new release had
migrated the database, and the notice "update to B failed: …; back on A" for the panel
and the page). Who decides is systemd: the unit's ``OnFailure=`` runs the rollback
unit when the start limit is hit, and a one-shot check unit (after the restart and
after every boot) confirms or rolls back (systemd/).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from controller.persistence import SAVE_NAME, sync_directory, unfinished_game
from controller.release import keys as keyring
from controller.release.bundle import Bundle, BundleError, check_bundle
from controller.release.checks import check_commands
from controller.release.dbcopy import copy_database, restore_database, schema_version
from controller.release.layout import (
    KEYS_DIR,
    SHIPPED_KEYS_DIR,
    LayoutError,
    ReleaseLayout,
    check_release_name,
    prune,
    switch,
    switch_back,
)
from controller.release.notice import read_notice
from controller.release.state_file import UpdateError, not_ours, read_json, untrusted, write_json

UPDATE_DIR = "update"
STATE_FILE = "state.json"
NOTICE_FILE = "notice.json"
INBOX_DIR = "inbox"
INBOX_NAME = "update.tar"
INCOMPLETE = "INCOMPLETE"
RELEASE_INFO = "RELEASE"
HISTORY_DB = "history.sqlite3"
SERVICE = "spieltisch.service"
CHECK_UNIT = "spieltisch-update-check.service"
TRIAL_DROPIN = Path("/run/systemd/system/spieltisch.service.d/update-trial.conf")
TRIAL_LIMITS = (
    "# Written by spieltisch update apply, removed when the update is confirmed or rolled\n"
    "# back; in /run, so a reboot forgets it. A new release that keeps failing to start\n"
    "# makes the unit fail, and its OnFailure= rolls back.\n"
    "[Unit]\nStartLimitIntervalSec=300\nStartLimitBurst=4\n"
)
CHECK_TIMEOUT_S = 600.0
CHECK_TIMEOUT = 180.0


FAILED_TO_START = "the table failed to start"
NOT_READY = "the table was not ready in time"
NO_SWITCH = "the switch did not happen"


@dataclass
class UpdatePlaces:
    """Where an installed table keeps things (all overridable, for tests and staging)."""

    layout: ReleaseLayout = field(default_factory=ReleaseLayout)
    state_dir: Path = Path("/var/lib/spieltisch")
    keys_dir: Path = KEYS_DIR
    shipped_keys_dir: Path | None = SHIPPED_KEYS_DIR
    config: Path = Path("/etc/spieltisch/config.toml")
    systemctl: Sequence[str] = ("systemctl",)
    trial_dropin: Path = TRIAL_DROPIN

    def trusted_keys(self) -> dict[str, Ed25519PublicKey]:
        """The image's shipped keys, then the keys added on the table (which win)."""
        shipped = [self.shipped_keys_dir] if self.shipped_keys_dir is not None else []
        return keyring.trusted_keys(*shipped, self.keys_dir)

    @property
    def update_dir(self) -> Path:
        return self.state_dir / UPDATE_DIR

    @property
    def inbox(self) -> Path:
        return self.state_dir / INBOX_DIR / INBOX_NAME


# -- small files ------------------------------------------------------------------------


def _refuse_others_directory(places: UpdatePlaces) -> None:
    """Before anything changes: the state must be writable where only we can write."""
    reason = not_ours(places.update_dir)
    if reason is not None:
        raise UpdateError(f"{reason}: refused")


def read_state(places: UpdatePlaces) -> dict[str, Any] | None:
    """The update's state, if the updater wrote it (:func:`untrusted`): another's file is
    ignored, with one line on stderr (the unit's journal), as if there were none."""
    path = places.update_dir / STATE_FILE
    reason = untrusted(path)
    if reason is not None:
        sys.stderr.write(f"spieltisch update: ignored {path}: {reason}\n")
        return None
    return read_json(path)


def _notice(places: UpdatePlaces, text: str, ok: bool, **fields: str | None) -> None:
    """The outcome for the panel and the page: ``text`` in English for logs and the
    command line, ``fields`` (kind, to, back, reason) for the table to say in its
    language (controller.release.notice)."""
    write_json(
        places.update_dir / NOTICE_FILE,
        {"text": text, "ok": ok, "time": time.time(), **fields},
    )


def game_in_progress(state_dir: Path) -> bool:
    """A save holding an unfinished game: the one the table plays, or resumes when it
    starts. A finished game's save (kept after the game ends, while the table waits in
    its menu) and a save carrying only records for the history are no game."""
    return unfinished_game(state_dir) is not None


def refuse_during_a_game(places: UpdatePlaces, when: str = "") -> None:
    if game_in_progress(places.state_dir):
        raise UpdateError(
            f"a game is in progress{when} (saved in {places.state_dir / SAVE_NAME}): "
            "finish it or go back to the menu, then update"
        )


# -- the history copy -------------------------------------------------------------------


def history_copy(places: UpdatePlaces, release: str) -> Path:
    """Where the history is copied before ``release`` runs: computed from the checked
    release name, never read from a file the service user could have written."""
    return places.update_dir / f"history-before-{check_release_name(release)}.sqlite3"


# -- installing a release ---------------------------------------------------------------


def base_python() -> str:
    """The system Python that the running venv was made from."""
    return str(getattr(sys, "_base_executable", sys.executable))


def _run(command: Sequence[str], what: str, timeout: float = 900.0) -> None:
    try:
        done = subprocess.run(
            list(command),
            capture_output=True,
            text=True,
            check=False,
            timeout=timeout,
            cwd="/",
        )
    except subprocess.TimeoutExpired:
        raise UpdateError(f"{what}: no answer within {timeout:.0f} s") from None
    except OSError as exc:
        raise UpdateError(f"{what}: {exc.strerror or exc}") from None
    if done.returncode != 0:
        lines = [ln for ln in (done.stderr + done.stdout).splitlines() if ln.strip()]
        last = lines[-1].strip() if lines else f"exit {done.returncode}"
        raise UpdateError(f"{what}: {last}")


Progress = Callable[[str], None]
"""Told each step's name as it begins (the command line prints them, so the journal of
the update unit shows where an update stopped, e.g. at a power cut)."""


def _quiet(step: str) -> None:
    return None


def install_release(
    bundle: Bundle, places: UpdatePlaces, name: str, python: str, progress: Progress = _quiet
) -> Path:
    """Make ``releases/<name>`` from the checked bundle and check it; on any failure the
    directory is removed again. Returns the release directory."""
    release = places.layout.release(name).absolute()  # its checks run from /
    if release.exists():
        shutil.rmtree(release)
    release.mkdir(parents=True)
    (release / INCOMPLETE).write_text("being installed\n", encoding="utf-8")
    try:
        venv = release / "venv"
        progress(f"making the venv of {name}")
        shared = ["--system-site-packages"] if _sees_system_packages(places) else []
        _run([python, "-m", "venv", *shared, str(venv)], "making the new release's venv")
        requirement = f"spieltisch[{bundle.extras}]" if bundle.extras else "spieltisch"
        progress(f"installing the wheels of {name}")
        _run(
            [
                str(venv / "bin" / "python"),
                "-m",
                "pip",
                "install",
                "-q",
                "--no-index",
                "--disable-pip-version-check",
                "--find-links",
                str(bundle.wheels),
                requirement,
            ],
            "installing the new release's wheels",
        )
        progress(f"checking {name} (imports, a bot game, the config)")
        for command, what in check_commands(venv / "bin" / "spieltisch", places.config):
            _run(command, what, timeout=300.0)
        # the release's source copy (docs, config example; the units' Documentation=):
        # from the bundle, or an empty one, so that the prefix's src link always leads
        # somewhere
        if bundle.sources.is_dir():
            shutil.copytree(bundle.sources, release / "src")
        else:
            (release / "src").mkdir()
        write_json(
            release / RELEASE_INFO,
            {
                "release": name,
                "version": bundle.version,
                "compiled": bundle.compiled,
                "key": bundle.key,
            },
        )
        (release / INCOMPLETE).unlink()
        sync_directory(release)
    except BaseException:
        shutil.rmtree(release, ignore_errors=True)
        raise
    return release


def _sees_system_packages(places: UpdatePlaces) -> bool:
    """Whether the running release's venv sees the system's packages: the installer
    makes it so, for the pin and SPI libraries Raspberry Pi OS ships as Debian packages
    (python3-lgpio, python3-spidev). A new release must see them too, or its unit,
    which names the lgpio pin factory, would fail on hardware its check never touched."""
    current = places.layout.current_name()
    if current is None:
        return False
    try:
        text = (places.layout.release(current) / "venv" / "pyvenv.cfg").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    settings = dict(line.partition("=")[::2] for line in text.splitlines())
    settings = {key.strip(): value.strip() for key, value in settings.items()}
    return settings.get("include-system-site-packages", "").lower() == "true"


def systemctl(places: UpdatePlaces, *args: str) -> bool:
    done = subprocess.run([*places.systemctl, *args], capture_output=True, check=False)
    return done.returncode == 0


def _trial_limits(places: UpdatePlaces, on: bool) -> None:
    try:
        if on:
            places.trial_dropin.parent.mkdir(parents=True, exist_ok=True)
            places.trial_dropin.write_text(TRIAL_LIMITS, encoding="utf-8")
        else:
            places.trial_dropin.unlink(missing_ok=True)
    except OSError:
        return  # not root, or no /run/systemd: the check unit still decides
    systemctl(places, "daemon-reload")


def apply(
    bundle_path: Path,
    places: UpdatePlaces,
    *,
    python: str | None = None,
    restart: bool = True,
    progress: Progress = _quiet,
) -> str:
    """Apply ``bundle_path`` (see the module's docstring); returns the line to print.
    ``progress`` is told each step as it begins."""
    refuse_during_a_game(places)
    _refuse_others_directory(places)
    state = read_state(places)
    if state is not None and state.get("phase") == "trial":
        raise UpdateError(f"the update to {state.get('to')} is still being tried: wait for it")
    layout = places.layout
    layout.releases.mkdir(parents=True, exist_ok=True)
    trusted = places.trusted_keys()
    work = Path(tempfile.mkdtemp(prefix=".bundle-", dir=layout.releases)).absolute()
    try:
        progress("unpacking and checking the bundle")
        try:
            bundle = check_bundle(bundle_path, work, trusted)
        except OSError as exc:
            raise UpdateError(f"cannot read {bundle_path}: {exc.strerror or exc}") from None
        except BundleError as exc:
            raise UpdateError(str(exc)) from None
        running = layout.current_name()
        if bundle.release == running:
            raise UpdateError(f"release {bundle.release} is already running")
        if running is None:
            raise UpdateError(f"no release is current in {layout.prefix}: install first")
        release = install_release(bundle, places, bundle.release, python or base_python(), progress)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    try:
        # installing takes minutes, in which the family may have started a game from
        # the menu: the restart would cut into it, so the new release goes again
        refuse_during_a_game(places, " (it began while the update was installed)")
    except UpdateError:
        shutil.rmtree(release, ignore_errors=True)
        raise
    history = places.state_dir / HISTORY_DB
    copy: Path | None = None
    if history.is_file():
        progress("copying the history")
        copy = history_copy(places, bundle.release)
        copy_database(history, copy)
    write_json(
        places.update_dir / STATE_FILE,
        {
            "phase": "trial",
            "from": running,
            "to": bundle.release,
            "since": time.time(),
            "history_copy": str(copy) if copy else None,
            "history_version": schema_version(copy) if copy else None,
        },
    )
    progress(f"switching to {bundle.release}")
    switch(layout, bundle.release)
    if restart:
        progress("restarting the table")
        _trial_limits(places, True)
        systemctl(places, "reset-failed", SERVICE)
        systemctl(places, "restart", "--no-block", SERVICE)
        systemctl(places, "start", "--no-block", CHECK_UNIT)
    return f"switched to {bundle.release} (was {running}); it is being tried"


def confirm(places: UpdatePlaces) -> str:
    """The new release reached READY and stayed up: end the trial, keep ``previous``,
    remove the releases before it and the older history copies."""
    state = read_state(places) or {}
    to = state.get("to")
    removed = prune(places.layout)
    copy = str(history_copy(places, str(to))) if to else None
    for old in places.update_dir.glob("history-before-*.sqlite3"):
        if str(old) != copy:
            old.unlink(missing_ok=True)
    write_json(
        places.update_dir / STATE_FILE, {**state, "phase": "confirmed", "ended": time.time()}
    )
    _notice(places, f"updated to {to}", True, kind="confirmed", to=to)
    _trial_limits(places, False)
    gone = f"; removed {', '.join(removed)}" if removed else ""
    return f"update to {to} confirmed{gone}"


def rollback(places: UpdatePlaces, reason: str, *, restart: bool = True) -> str:
    """Back to ``previous`` (see the module's docstring); returns the notice's words."""
    _refuse_others_directory(places)
    layout = places.layout
    state = read_state(places) or {}
    current = layout.current_name()
    if state.get("phase") == "trial" and current == state.get("from"):
        # the power went between "trial" and the switch: the old release never left
        text = f"update to {state.get('to')} did not finish; still on {current}"
        kind, failed, back = "unfinished", state.get("to"), current
    else:
        try:
            failed, back = switch_back(layout)
        except LayoutError as exc:
            raise UpdateError(str(exc)) from None
        copy = history_copy(places, failed)
        history = places.state_dir / HISTORY_DB
        if copy.is_file() and not copy.is_symlink() and history.is_file():
            old = state.get("history_version")
            if isinstance(old, int) and schema_version(history) > old:
                # the new release migrated the history: the old one cannot read it
                restore_database(copy, history)
        text = f"update to {failed} failed: {reason}; back on {back}"
        kind = "rolled-back"
    write_json(
        places.update_dir / STATE_FILE,
        {**state, "phase": "rolled-back", "ended": time.time(), "reason": reason},
    )
    _notice(places, text, False, kind=kind, to=failed, back=back, reason=reason)
    _trial_limits(places, False)
    if restart:
        systemctl(places, "reset-failed", SERVICE)
        systemctl(places, "restart", "--no-block", SERVICE)
    return text


@dataclass
class UnitState:
    active: str
    restarts: int


def unit_state(places: UpdatePlaces) -> UnitState:
    done = subprocess.run(
        [*places.systemctl, "show", "-p", "ActiveState", "-p", "NRestarts", SERVICE],
        capture_output=True,
        text=True,
        check=False,
    )
    values = dict(line.partition("=")[::2] for line in done.stdout.splitlines())
    try:
        restarts = int(values.get("NRestarts", "0") or 0)
    except ValueError:
        restarts = 0
    return UnitState(values.get("ActiveState", "unknown"), restarts)


def check(
    places: UpdatePlaces,
    *,
    settle: float = 60.0,
    timeout: float = CHECK_TIMEOUT_S,
    clock: Callable[[], float] = time.monotonic,
    poll: float = 2.0,
    wait: Callable[[float], None] = time.sleep,
) -> str:
    """The check unit's job: during a trial, wait until the service has been active
    (Type=notify: READY) for ``settle`` seconds without a restart, then confirm; if it
    fails, or ``timeout`` passes first, roll back. Outside a trial: nothing to do."""
    state = read_state(places)
    if state is None or state.get("phase") != "trial":
        return "no update is being tried"
    if places.layout.current_name() != state.get("to"):
        return rollback(places, NO_SWITCH)
    start = clock()
    up_since: float | None = None
    restarts: int | None = None
    while clock() - start < timeout:
        now = unit_state(places)
        if now.active == "failed":
            return rollback(places, FAILED_TO_START)
        if now.active == "active" and (restarts is None or now.restarts == restarts):
            up_since = clock() if up_since is None else up_since
            if clock() - up_since >= settle:
                return confirm(places)
        else:
            up_since = None
        restarts = now.restarts
        wait(poll)
    return rollback(places, NOT_READY)


def status(places: UpdatePlaces) -> dict[str, Any]:
    """What ``update status`` and the page show."""
    layout = places.layout
    current = layout.current_name()
    info = read_json(layout.release(current) / RELEASE_INFO) if current else None
    return {
        "current": current,
        "previous": layout.previous_name(),
        "releases": layout.names(),
        "version": (info or {}).get("version"),
        "state": read_state(places),
        "notice": read_notice(places.state_dir),
        "trusted_keys": sorted(places.trusted_keys()),
    }
