"""Helpers for the update and backup tests: small real wheels and bundles
(controller.testing.toy_release), keys, a recording ``systemctl``, and hostile tar files
made byte by byte with ``tarfile``."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

from controller.cli import main
from controller.release.keys import make_key_pair
from controller.testing.toy_release import toy_bundle as toy_bundle
from controller.testing.toy_release import toy_wheel as toy_wheel


def keys(directory: Path, name: str = "project") -> tuple[Path, Path]:
    """A fresh key pair (private, public) in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    private, public = directory / f"{name}.key", directory / f"{name}.pub"
    make_key_pair(private, public)
    return private, public


FAKE_SYSTEMCTL = """
import sys
from pathlib import Path
here = Path(__file__).parent
with open(here / "systemctl.log", "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
if sys.argv[1:2] == ["show"]:
    print((here / "unit-state").read_text())
"""


def fake_systemctl(directory: Path, state: str = "ActiveState=active\nNRestarts=0") -> str:
    """A ``systemctl`` stand-in (a real program) that logs its arguments to
    ``directory/systemctl.log`` and answers ``show`` from ``directory/unit-state``."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "systemctl.py").write_text(FAKE_SYSTEMCTL, encoding="utf-8")
    (directory / "unit-state").write_text(state, encoding="utf-8")
    return f"{sys.executable} {directory / 'systemctl.py'}"


def systemctl_calls(directory: Path) -> list[str]:
    log = directory / "systemctl.log"
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def tar_with(out: Path, members: list[tuple[tarfile.TarInfo, bytes | None]], gz: bool) -> Path:
    with tarfile.open(out, "w:gz" if gz else "w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            else:
                tar.addfile(info)
    return out


def regular(name: str, data: bytes = b"x") -> tuple[tarfile.TarInfo, bytes]:
    return tarfile.TarInfo(name), data


def special(name: str, kind: bytes, target: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info, None


def manifest_bytes(data: dict[str, object]) -> bytes:
    return json.dumps(data).encode()


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def installed_table(tmp_path: Path, history: bool = False) -> dict[str, Path]:
    """An installed table in ``tmp_path``: release 0.1.0 current in ``opt/``, a state
    directory trusting a fresh project key (its private half in ``builder/``), and with
    ``history`` an empty history database; a recording ``systemctl`` in ``systemd/``."""
    from controller.history.store import HistoryStore
    from controller.release.layout import ReleaseLayout, switch

    prefix = tmp_path / "opt"
    (prefix / "releases" / "0.1.0" / "venv").mkdir(parents=True)
    switch(ReleaseLayout(prefix), "0.1.0")
    state = tmp_path / "state"
    private, public = keys(tmp_path / "builder")
    (state / "keys").mkdir(parents=True)
    (state / "keys" / "project.pub").write_bytes(public.read_bytes())
    if history:
        store = HistoryStore(state)
        store.open()
        store.close()
    fake_systemctl(tmp_path / "systemd")
    return {
        "prefix": prefix,
        "state": state,
        "private": private,
        "tmp": tmp_path,
        "systemd": tmp_path / "systemd",
    }


def update_args(table: dict[str, Path], *args: str) -> list[str]:
    """``update --prefix ... ARGS`` for the table of :func:`installed_table`: its places,
    no config, and its recording ``systemctl``."""
    return [
        "update",
        "--prefix",
        str(table["prefix"]),
        "--state-dir",
        str(table["state"]),
        "--keys",
        str(table["state"] / "keys"),
        "--config",
        str(table["tmp"] / "no-config.toml"),
        "--systemctl",
        f"{sys.executable} {table['systemd'] / 'systemctl.py'}",
        "--trial-dropin",
        str(table["systemd"] / "run" / "update-trial.conf"),
        *args,
    ]


def update(table: dict[str, Path], *args: str) -> Ran:
    """``spieltisch update ... ARGS`` (:func:`update_args`) in this process."""
    return spieltisch(*update_args(table, *args))


def spieltisch(*args: str) -> Ran:
    """``spieltisch ARGS`` in this process (the same ``main`` the console script runs),
    with what it prints caught; the subprocesses it starts are real."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return Ran(code, out.getvalue(), err.getvalue())
