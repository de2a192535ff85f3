"""The card image's releases: the factory release stays on the read-only root, the
releases and the ``current`` link live on the data partition, and a data partition that
is fresh, emptied or lost its ``current`` still starts the factory release.

Laid out as on the card, in a temporary directory: ``root/usr/lib/spieltisch/factory``
(the built-in release, with a real venv), ``data/releases`` (the data partition's
prefix) and ``root/opt/spieltisch``, a symlink to it. An update is applied through the
symlinked prefix with a real bundle (tests/update_fixtures.py), as the card's update
unit does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.release.layout import (
    LayoutError,
    ReleaseLayout,
    adopt_factory,
    prune,
    switch,
    switch_back,
)
from tests.update_fixtures import fake_systemctl, keys, spieltisch, toy_bundle

NAME = "0.1.0-factory"


def card(tmp_path: Path, *, venv: bool = False) -> tuple[ReleaseLayout, Path]:
    """A card: the factory release on the "root", the prefix on the "data partition"
    (empty, as a fresh or wiped one), and /opt/spieltisch as the link between them."""
    factory = tmp_path / "root" / "usr" / "lib" / "spieltisch" / "factory"
    factory.mkdir(parents=True)
    if venv:
        subprocess.run([sys.executable, "-m", "venv", str(factory / "venv")], check=True)
    else:
        (factory / "venv" / "bin").mkdir(parents=True)
        (factory / "venv" / "bin" / "python").write_text("#!/bin/sh\n", encoding="utf-8")
    (factory / "src").mkdir()
    (factory / "RELEASE").write_text(json.dumps({"release": NAME, "version": "0.1.0"}))
    data = tmp_path / "data" / "releases"
    data.mkdir(parents=True)
    opt = tmp_path / "root" / "opt" / "spieltisch"
    opt.parent.mkdir(parents=True)
    opt.symlink_to(data)
    return ReleaseLayout(opt), factory


def test_a_fresh_data_partition_starts_the_factory_release(tmp_path: Path) -> None:
    layout, factory = card(tmp_path)
    changed = adopt_factory(layout, factory)
    assert layout.current_name() == NAME
    # the links are on the data partition, the release's files on the root
    data = tmp_path / "data" / "releases"
    assert os.readlink(data / "current") == f"releases/{NAME}"
    assert os.readlink(data / "releases" / NAME) == str(factory)
    assert (layout.prefix / "venv" / "bin" / "python").resolve() == (
        factory / "venv" / "bin" / "python"
    )
    assert (layout.prefix / "src").resolve() == factory / "src"
    assert len(changed) == 3
    # every later start: nothing to do, nothing written
    assert adopt_factory(layout, factory) == []


def test_a_data_partition_whose_current_is_gone_falls_back_to_the_factory(
    tmp_path: Path,
) -> None:
    layout, factory = card(tmp_path)
    adopt_factory(layout, factory)
    (layout.releases / "0.2.0" / "venv").mkdir(parents=True)
    switch(layout, "0.2.0")
    assert adopt_factory(layout, factory) == []  # an update's release is left running
    assert layout.current_name() == "0.2.0"
    # the release's directory lost (a card repaired by fsck, a hand that deleted it)
    (layout.releases / "0.2.0" / "venv").rmdir()
    (layout.releases / "0.2.0").rmdir()
    assert layout.current_name() is None
    adopt_factory(layout, factory)
    assert layout.current_name() == NAME
    # the links themselves gone: made again
    for link in ("current", "venv", "src"):
        (layout.prefix / link).unlink()
    adopt_factory(layout, factory)
    assert (layout.prefix / "venv").resolve() == factory / "venv"


def test_a_cut_while_the_links_were_made_is_finished_at_the_next_start(tmp_path: Path) -> None:
    layout, factory = card(tmp_path)
    layout.releases.mkdir()
    # the new symlink made, the rename over "current" not done
    os.symlink(f"releases/{NAME}", layout.prefix / ".current.new")
    adopt_factory(layout, factory)
    assert layout.current_name() == NAME
    assert not os.path.lexists(layout.prefix / ".current.new")


def test_a_factory_without_its_release_file_is_refused_in_one_line(tmp_path: Path) -> None:
    layout, factory = card(tmp_path)
    (factory / "RELEASE").unlink()
    with pytest.raises(LayoutError, match="RELEASE"):
        adopt_factory(layout, factory)
    assert not os.path.lexists(layout.current)


def test_pruning_keeps_the_factory_link_and_the_factory_release(tmp_path: Path) -> None:
    layout, factory = card(tmp_path)
    adopt_factory(layout, factory)
    for name in ("0.2.0", "0.3.0"):
        (layout.releases / name / "venv").mkdir(parents=True)
        switch(layout, name)
    assert layout.previous_name() == "0.2.0"
    assert prune(layout) == []
    assert (layout.releases / NAME).is_symlink() and (factory / "venv" / "bin").is_dir()
    # the way back still works from the factory release, and to it
    switch(layout, NAME)
    assert switch_back(layout) == (NAME, "0.3.0")


def test_an_update_through_the_symlinked_prefix_lands_on_the_data_partition(
    tmp_path: Path,
) -> None:
    layout, factory = card(tmp_path, venv=True)
    adopt_factory(layout, factory)
    private, public = keys(tmp_path / "builder")
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "project.pub").write_bytes(public.read_bytes())
    bundle = toy_bundle(tmp_path / "b2.tar", private, "0.2.0")
    systemctl = fake_systemctl(tmp_path / "systemd")
    prefix = tmp_path / "root" / "opt" / "spieltisch"
    common = ["--prefix", str(prefix), "--state-dir", str(tmp_path / "state")]
    common += ["--keys", str(tmp_path / "keys"), "--config", str(tmp_path / "none.toml")]
    applied = spieltisch("update", *common, "--systemctl", systemctl, "apply", str(bundle))
    assert applied.returncode == 0, applied.stderr
    assert f"switched to 0.2.0 (was {NAME})" in applied.stdout
    assert layout.current_name() == "0.2.0" and layout.previous_name() == NAME
    # the new release is a real directory on the data partition; the root is untouched
    assert (tmp_path / "data" / "releases" / "releases" / "0.2.0" / "venv").is_dir()
    assert sorted(p.name for p in factory.iterdir()) == ["RELEASE", "src", "venv"]
    # the factory step at the next start leaves the update running
    started = spieltisch("update", "--prefix", str(prefix), "factory", str(factory))
    assert started.returncode == 0, started.stderr
    assert started.stdout == "releases: nothing to do\n"
    assert layout.current_name() == "0.2.0"


def test_the_start_step_runs_as_a_module_that_imports_no_more_than_it_needs(
    tmp_path: Path,
) -> None:
    """What the card's unit runs: a fresh data partition gets its links, and the step
    imports nothing of the program beyond the releases' layout."""
    layout, factory = card(tmp_path)
    probe = (
        "import runpy, sys\n"
        "sys.argv = ['layout', sys.argv[1], sys.argv[2]]\n"
        "try:\n"
        "    runpy.run_module('controller.release.layout', run_name='__main__')\n"
        "except SystemExit as end:\n"
        "    mods = sorted(m for m in sys.modules if m.startswith(('controller', 'rules')))\n"
        "    print(mods)\n"
        "    raise\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", probe, str(factory), str(layout.prefix)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert f"{layout.current} -> releases/{NAME} (the factory release)" in ran.stdout
    assert layout.current_name() == NAME
    loaded = ran.stdout.strip().splitlines()[-1]
    assert "controller.persistence" not in loaded and "rules" not in loaded
