"""The bot tables and network weights ship as checked binary package data.

Each file has a provenance sidecar (generator command, inputs, figures, sha256). The
digest is checked here and on every load, so a damaged file is a clear error and never
a silently weaker bot.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rules.data import DataFileError, provenance_name, read_checked

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for p in (ROOT / "rules").rglob("*.bin"))


def provenance_of(path: Path) -> dict[str, object]:
    """A data file's provenance: its own sidecar, or its entry in the one provenance
    file that describes a family of tables (Mini-Maki's ``policy.json``)."""
    sidecar = path.with_name(provenance_name(path.name))
    if sidecar.exists():
        record: dict[str, object] = json.loads(sidecar.read_text(encoding="utf-8"))
        return record
    for shared in path.parent.glob("*.json"):
        data = json.loads(shared.read_text(encoding="utf-8"))
        for entry in data.get("tables", {}).values():
            if entry.get("file") == path.name:
                return {"command": data["generator"], "figures": entry, **entry}
    raise AssertionError(f"{path} has no provenance")


def test_every_shipped_file_has_a_provenance() -> None:
    assert SHIPPED, "no data files found"
    for path in SHIPPED:
        record = provenance_of(path)
        assert str(record["command"]).startswith("python benchmarks/"), path
        assert record["bytes"] == path.stat().st_size, path
        assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest(), path
        assert record.get("figures"), f"{path.name}: provenance without figures"


def test_git_treats_the_data_as_binary() -> None:
    attributes = (ROOT / ".gitattributes").read_text(encoding="utf-8")
    assert "*.bin binary" in attributes


SIDECARS = [p for p in SHIPPED if p.with_name(provenance_name(p.name)).exists()]


@pytest.mark.parametrize("path", SIDECARS, ids=[p.name for p in SIDECARS])
def test_loads_through_importlib_resources(path: Path) -> None:
    package = ".".join(path.parent.relative_to(ROOT).parts)
    assert read_checked(package, path.name) == path.read_bytes()


def copy_of_the_rules(tmp_path: Path) -> Path:
    """A copy of the rules package to damage (the checkout stays untouched)."""
    shutil.copytree(
        ROOT / "rules", tmp_path / "rules", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path


def run_in(root: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120
    )


BACKGAMMON_BOT = (
    "import random, rules\n"
    "from rules.backgammon.bot import BackgammonBot\n"
    "state = rules.get_game('backgammon').new_state().roll((3, 1))\n"
    "state = state.roll((5, 2)) if state.is_chance() else state\n"
    "print(BackgammonBot().choose(state, random.Random(1)).notation)\n"
)


def test_a_corrupt_weights_file_is_an_error_not_a_weaker_bot(tmp_path: Path) -> None:
    root = copy_of_the_rules(tmp_path)
    weights = root / "rules" / "backgammon" / "weights.bin"
    data = bytearray(weights.read_bytes())
    data[100] ^= 0xFF
    weights.write_bytes(bytes(data))
    result = run_in(root, BACKGAMMON_BOT)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("rules.data.DataFileError: rules/backgammon/weights.bin is corrupt")


def test_a_missing_policy_file_is_an_error_not_a_weaker_bot(tmp_path: Path) -> None:
    root = copy_of_the_rules(tmp_path)
    (root / "rules" / "track" / "kleiner_aerger_policy.bin").unlink()
    code = (
        "import random, rules\n"
        "from rules.track.kleiner_aerger_bot import KleinerAergerBot\n"
        "from rules.playout import sample_roll\n"
        "state = rules.get_game('kleiner_aerger').new_state(players=2, first='red')\n"
        "rng = random.Random(3)\n"
        "bot = KleinerAergerBot()\n"
        "for _ in range(400):\n"
        "    if state.is_terminal(): break\n"
        "    state = state.roll(sample_roll(state.chance_outcomes(), rng)) if state.is_chance() "
        "else state.apply(bot.choose(state, rng))\n"
    )
    result = run_in(root, code)
    assert result.returncode != 0
    assert "DataFileError: cannot read rules/track/kleiner_aerger_policy.bin" in result.stderr


def test_the_error_is_a_rules_error() -> None:
    with pytest.raises(DataFileError, match="cannot read"):
        read_checked("rules", "no-such-file.bin")
    assert issubclass(DataFileError, ValueError)
