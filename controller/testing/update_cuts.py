"""Power cuts during an update: SIGKILL a real ``spieltisch update apply`` at random
moments, boot, and check that the table came up on one whole release with its data.

Each cut starts from a fresh copy of one installed table (a temporary root): release
``0.1.0`` current (installed from a bundle, as an update installs it), a state
directory with a real history database holding games, a save and the last setups, and
a config. ``spieltisch update apply`` of release ``0.2.0`` runs as its own process
group; after a delay it is killed with SIGKILL, itself and every child it started (the
venv's ``python -m venv``, ``pip``, the new release's checks), as a power cut would.
Then the table "boots": ``spieltisch update check`` runs as the check unit does after
every boot (the table's unit reported as up), and the table is looked at:

* ``current`` names ``0.1.0`` or ``0.2.0``, not a half-made release: the directory
  has no ``INCOMPLETE`` marker, has its ``RELEASE`` file, its Python imports the
  program, and every file pip installed matches the hash in the installed ``RECORD``
  (the release's manifest); ``venv`` in the prefix leads to ``current``'s venv;
* the config, the save and the setups are byte for byte what they were, and the
  history passes ``PRAGMA integrity_check`` and holds the same games.

When to kill is timing, drawn from a seeded RNG: the uncut apply is run once first and
the time each phase began is noted from its progress lines; each cut then takes a phase
in turn, waits for the process to print that phase's line, and kills it after a delay
drawn from 0 to 1.2 times that phase's length in the uncut run. Where the kill actually
landed is read from the killed process's own progress lines (its last one), not
assumed: a kill meant for a phase of 10 ms often lands in the next.

What this cannot show: a process kill leaves the page cache to the kernel, so writes
that were not yet on the disk survive it. The fsyncs of the switch (the new link, its
directory) are what a real power cut needs; the VM tier (vm/) cuts a machine's power.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.release import keys as keyring
from controller.release.apply import UpdatePlaces, base_python, install_release
from controller.release.bundle import check_bundle
from controller.release.layout import ReleaseLayout, switch
from controller.testing.toy_release import toy_bundle

OLD, NEW = "0.1.0", "0.2.0"
STEPS = [
    ("unpacking and checking the bundle", "unpacking and checking the bundle"),
    ("making the venv of", "installing beside"),
    ("installing the wheels of", "installing beside"),
    ("checking ", "checking the new release"),
    ("copying the history", "copying the history"),
    ("switching to", "switching"),
    ("restarting the table", "restarting"),
    ("switched to", "finished"),
]
"""A progress line's beginning, and the phase it starts."""
PHASES = ["starting", *dict.fromkeys(phase for _, phase in STEPS), "after it finished"]
FAKE_SYSTEMCTL = (
    "import sys\n"
    "if sys.argv[1:2] == ['show']:\n"
    "    print('ActiveState=active')\n"
    "    print('NRestarts=0')\n"
)
"""The table's unit as the check unit sees it after a boot: up."""
GAMES = ["a", "b", "c", "d", "e"]


@dataclass
class CutStats:
    cuts: int = 0
    on_old: int = 0
    on_new: int = 0
    data_lost: int = 0
    broken_release: int = 0
    phases: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        landed = ", ".join(f"{p}: {self.phases[p]}" for p in PHASES if self.phases[p])
        return (
            f"cuts: {self.cuts}, came up on old: {self.on_old}, on new: {self.on_new}, "
            f"half a release: {self.broken_release}, data lost: {self.data_lost} "
            f"(landed in: {landed})"
        )


@dataclass(frozen=True)
class CutTable:
    root: Path

    @property
    def prefix(self) -> Path:
        return self.root / "opt"

    @property
    def state(self) -> Path:
        return self.root / "state"

    @property
    def keys(self) -> Path:
        return self.root / "keys"

    @property
    def config(self) -> Path:
        return self.root / "etc" / "config.toml"

    def update(self, *args: str) -> list[str]:
        return [
            sys.executable,
            "-I",
            "-m",
            "controller",
            "update",
            "--prefix",
            str(self.prefix),
            "--state-dir",
            str(self.state),
            "--keys",
            str(self.keys),
            "--config",
            str(self.config),
            "--systemctl",
            f"{sys.executable} -I {self.root / 'systemctl.py'}",
            "--trial-dropin",
            str(self.root / "run" / "update-trial.conf"),
            *args,
        ]

    def data(self) -> dict[str, bytes]:
        """The files that must come through byte for byte."""
        return {
            name: path.read_bytes()
            for name, path in (
                ("config", self.config),
                ("save", self.state / "session.json"),
                ("setups", self.state / "setups.json"),
            )
        }


def make_table(root: Path, key: Path, bundles: Path, config: str) -> CutTable:
    """The installed table every cut starts from (see the module's docstring)."""
    table = CutTable(root)
    (root / "systemctl.py").parent.mkdir(parents=True, exist_ok=True)
    (root / "systemctl.py").write_text(FAKE_SYSTEMCTL, encoding="utf-8")
    table.keys.mkdir(parents=True)
    (table.keys / "project.pub").write_bytes(
        keyring.public_pem(keyring.load_private(key).public_key())
    )
    table.config.parent.mkdir(parents=True)
    table.config.write_text(config, encoding="utf-8")
    table.state.mkdir(parents=True)
    history = sqlite3.connect(table.state / "history.sqlite3")
    history.executescript(
        "PRAGMA journal_mode=WAL;"
        "CREATE TABLE records (id INTEGER PRIMARY KEY, uid TEXT UNIQUE, played TEXT);"
    )
    for uid in GAMES:
        history.execute("INSERT INTO records (uid, played) VALUES (?, ?)", (uid, uid * 100))
    history.commit()
    history.close()
    (table.state / "session.json").write_text(
        '{"version": 3, "game": null, "records": []}\n', encoding="utf-8"
    )
    (table.state / "setups.json").write_text('{"maedn": {"seats": 4}}\n', encoding="utf-8")
    places = UpdatePlaces(
        layout=ReleaseLayout(table.prefix), state_dir=table.state, keys_dir=table.keys
    )
    work = root / "unpacked"
    work.mkdir()
    bundle = check_bundle(bundles / f"{OLD}.tar", work, keyring.trusted_keys(table.keys))
    install_release(bundle, places, OLD, python=base_python())
    shutil.rmtree(work)
    switch(places.layout, OLD)
    return table


def phase_of(lines: list[str]) -> str:
    """The phase the last progress line began ("starting" before the first)."""
    phase = "starting"
    for line in lines:
        for start, name in STEPS:
            if line.startswith(start):
                phase = name
                break
    return phase


def whole_release(table: CutTable) -> str | None:
    """What is wrong with the release ``current`` names, or None if it is whole."""
    layout = ReleaseLayout(table.prefix)
    name = layout.current_name()
    if name not in (OLD, NEW):
        return f"current names {name!r}"
    release = layout.release(name)
    if (release / "INCOMPLETE").exists() or not (release / "RELEASE").is_file():
        return f"{name} is not a finished release"
    if (table.prefix / "venv").resolve() != (release / "venv").resolve():
        return f"venv leads to {(table.prefix / 'venv').resolve()}"
    records = list(release.glob("venv/lib/python*/site-packages/spieltisch-*.dist-info/RECORD"))
    if len(records) != 1:
        return f"{name} has {len(records)} installed spieltisch records"
    site = records[0].parent.parent
    with records[0].open(newline="", encoding="utf-8") as fh:
        for row in csv.reader(fh):
            if len(row) < 2 or not row[1].startswith("sha256="):
                continue
            path = (site / row[0]).resolve()
            try:
                digest = hashlib.sha256(path.read_bytes()).digest()
            except OSError:
                return f"{name}: {row[0]} is missing"
            if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != row[1][7:]:
                return f"{name}: {row[0]} does not match its hash"
    imported = subprocess.run(
        [str(release / "venv" / "bin" / "python"), "-I", "-c", "import controller.cli"],
        capture_output=True,
        check=False,
        cwd="/",
    )
    if imported.returncode != 0:
        return f"{name} does not import"
    return None


def data_problem(table: CutTable, before: dict[str, bytes]) -> str | None:
    after = table.data()
    for name, content in before.items():
        if after.get(name) != content:
            return f"the {name} changed"
    connection = sqlite3.connect(table.state / "history.sqlite3")
    try:
        check = [row[0] for row in connection.execute("PRAGMA integrity_check")]
        uids = [row[0] for row in connection.execute("SELECT uid FROM records ORDER BY id")]
    except sqlite3.Error as exc:
        return f"the history: {exc}"
    finally:
        connection.close()
    if check != ["ok"]:
        return f"the history's integrity check: {check[0]}"
    if uids != GAMES:
        return f"the history holds {uids}, not {GAMES}"
    return None


def timed_apply(table: CutTable, bundle: Path) -> dict[str, float]:
    """The uncut apply, with the moment each phase began (s after the start)."""
    began: dict[str, float] = {}
    start = time.monotonic()
    with subprocess.Popen(
        table.update("apply", str(bundle)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            began.setdefault(phase_of([line]), time.monotonic() - start)
        error = process.stderr.read() if process.stderr else ""
    if process.returncode != 0:
        raise RuntimeError(f"the uncut update failed: {error.strip()}")
    began.setdefault("end", time.monotonic() - start)
    return began


def cut_once(table: CutTable, bundle: Path, phase: str, delay: float) -> str:
    """Start ``update apply``; once its progress says ``phase`` began (at once for
    "starting"), SIGKILL its process group ``delay`` seconds later, unless it finished
    first. Returns the phase the kill landed in, from the process's own lines."""
    process = subprocess.Popen(
        table.update("apply", str(bundle)),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    assert process.stdout is not None
    seen: list[str] = []
    while phase != "starting" and phase_of(seen) != phase:
        line = process.stdout.readline()
        if not line:
            break  # it ended (or failed) before that phase
        seen.append(line)
    try:
        process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return phase_of(seen + process.stdout.read().splitlines())
    process.stdout.read()
    return "after it finished"


def boot(table: CutTable) -> None:
    """What a boot does for the update: the check unit confirms or rolls back."""
    subprocess.run(
        table.update("check", "--settle", "0", "--timeout", "60"),
        capture_output=True,
        check=False,
        timeout=300,
    )


def update_cuts(
    work: Path,
    cuts: int,
    seed: int,
    config: str,
    *,
    ballast_mb: int = 2,
    report: Callable[[str], None] = lambda line: None,
) -> CutStats:
    """``cuts`` power cuts during the update from ``0.1.0`` to ``0.2.0`` (see the
    module's docstring); ``config`` is the table's config (TOML)."""
    rng = random.Random(seed)
    bundles = work / "bundles"
    bundles.mkdir(parents=True)
    key = work / "project.key"
    keyring.make_key_pair(key, work / "project.pub")
    for version in (OLD, NEW):
        toy_bundle(bundles / f"{version}.tar", key, version, ballast_mb=ballast_mb)
    template = make_table(work / "template", key, bundles, config)
    timing = CutTable(work / "timing")
    shutil.copytree(template.root, timing.root, symlinks=True)
    began = timed_apply(timing, bundles / f"{NEW}.tar")
    shutil.rmtree(timing.root)
    phases = ", ".join(f"{phase} {t:.2f} s" for phase, t in began.items())
    report(f"the uncut update's phases began at: {phases}")
    times = list(began.values())
    windows = [("starting", times[0])] + [
        (phase, after - before)
        for phase, before, after in zip(began, times, times[1:], strict=False)
        if phase != "finished"
    ]
    stats = CutStats()
    for number in range(cuts):
        phase, length = windows[number % len(windows)]
        delay = rng.uniform(0.0, length * 1.2)
        table = CutTable(work / f"cut{number}")
        shutil.copytree(template.root, table.root, symlinks=True)
        before = table.data()
        landed = cut_once(table, bundles / f"{NEW}.tar", phase, delay)
        boot(table)
        stats.cuts += 1
        stats.phases[landed] += 1
        running = ReleaseLayout(table.prefix).current_name()
        stats.on_old += running == OLD
        stats.on_new += running == NEW
        wrong = whole_release(table)
        lost = data_problem(table, before)
        if wrong:
            stats.broken_release += 1
            stats.problems.append(f"cut {number} ({landed}): {wrong}")
        if lost:
            stats.data_lost += 1
            stats.problems.append(f"cut {number} ({landed}): {lost}")
        report(
            f"cut {number}: {delay:.3f} s into {phase}, landed in {landed}: came up on {running}"
            + (f"; {wrong}" if wrong else "")
            + (f"; {lost}" if lost else "")
        )
        shutil.rmtree(table.root)
    return stats
