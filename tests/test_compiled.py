"""The compiled build plays the same games as the pure-Python reference.

The wheel is built as a user builds it (``SPIELTISCH_COMPILE=1``, from a clean copy of
the checkout) and unpacked into a directory of its own. Both builds then run under this
interpreter, told apart only by ``PYTHONPATH``: the clean copy's plain modules, or the
wheel's extension modules. They must print identical JSON for the games of
tests/compiled_games.py (every game and preset: the conformance suite's random games step
by step, the fast playouts, strong players' games, the Backgammon network's numbers),
and the conformance suite must pass against the compiled build.

Without a C compiler the test skips; CI sets ``SPIELTISCH_REQUIRE_COMPILED=1`` so that
there a missing compiler fails instead (docs/install.md, "The compiled build").
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.checkout import ROOT, copy_checkout

pytestmark = pytest.mark.slow

GAMES_SCRIPT = ROOT / "tests" / "compiled_games.py"


def listed_modules() -> list[str]:
    """setup.py's COMPILED_MODULES, read without running setup.py."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "COMPILED_MODULES":
            modules: list[str] = ast.literal_eval(node.value)
            return modules
    raise AssertionError("setup.py lists no COMPILED_MODULES")


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


@dataclass(frozen=True)
class Builds:
    wheel: Path
    pure: Path
    """A clean copy of the checkout: the rules as plain Python modules."""
    compiled: Path
    """The compiled wheel, unpacked."""
    work: Path


def run_python(
    code_or_script: list[str], path: Path, cwd: Path, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """This interpreter with only ``path`` in front of its site-packages."""
    environment = {**os.environ, **(env or {}), "PYTHONPATH": str(path)}
    return subprocess.run(
        [sys.executable, *code_or_script],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Builds:
    work = tmp_path_factory.mktemp("compiled")
    pure = work / "clone"
    copy_checkout(pure)
    out = work / "dist"
    env = {**os.environ, "SPIELTISCH_COMPILE": "1"}
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(out), str(pure)]
    built = subprocess.run(
        command, cwd=work, env=env, capture_output=True, text=True, check=False, timeout=1800
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = out.glob("spieltisch-*.whl")
    shutil.rmtree(pure / "build", ignore_errors=True)  # pip builds inside the copy
    if wheel.name.endswith("-py3-none-any.whl"):
        output = (built.stdout + built.stderr).splitlines()
        notices = [line for line in output if "spieltisch: SPIELTISCH_COMPILE" in line]
        reason = notices[0].strip() if notices else "SPIELTISCH_COMPILE=1 built pure Python"
        if os.environ.get("SPIELTISCH_REQUIRE_COMPILED") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    compiled = work / "compiled"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(compiled)
    return Builds(wheel, pure, compiled, work)


def test_the_wheel_holds_each_listed_module_compiled_and_as_source(builds: Builds) -> None:
    """The .py files ship too: they are the reference, and tracebacks show their lines."""
    with zipfile.ZipFile(builds.wheel) as archive:
        names = archive.namelist()
    listed = listed_modules()
    assert listed
    for path in listed:
        stem = path.removesuffix(".py")
        assert [n for n in names if n.startswith(f"{stem}.") and n.endswith(".so")], path
        assert path in names
    compiled = {n.split(".", 1)[0] for n in names if n.endswith(".so")}
    # beside mypyc's shared library, the Backgammon evaluation's C kernel
    assert compiled - {p.removesuffix(".py") for p in listed} == {
        "spieltisch_rules__mypyc",
        "rules/backgammon/_kernel",
    }


def test_each_build_names_itself(builds: Builds) -> None:
    code = (
        "import json; from rules.build_info import build_variant, compiled_modules, "
        "describe_build; print(json.dumps([build_variant(), compiled_modules(), "
        "describe_build()]))"
    )
    answers = {}
    for name, path in (("pure", builds.pure), ("compiled", builds.compiled)):
        result = run_python(["-c", code], path, cwd=builds.work)
        assert result.returncode == 0, result.stderr
        answers[name] = json.loads(result.stdout)
    listed = sorted(module_name(path) for path in listed_modules())
    assert answers["pure"] == ["pure Python", [], "rules: pure Python"]
    assert answers["compiled"] == [
        "compiled (mypyc)",
        listed,
        f"rules: compiled (mypyc), {len(listed)} modules",
    ]


def games(path: Path, cwd: Path) -> dict[str, Any]:
    result = run_python([str(GAMES_SCRIPT)], path, cwd=cwd)
    assert result.returncode == 0, result.stderr[-3000:]
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def test_both_builds_play_identical_games(builds: Builds) -> None:
    pure = games(builds.pure, builds.work)
    compiled = games(builds.compiled, builds.work)
    assert (pure.pop("build"), compiled.pop("build")) == ("pure Python", "compiled (mypyc)")
    assert pure.pop("compiled") == []
    assert compiled.pop("compiled")
    assert sorted(pure) == sorted(compiled)
    assert any(key.startswith("strong/backgammon/") for key in pure)
    different = [key for key in pure if pure[key] != compiled[key]]
    assert different == []


def test_the_conformance_suite_passes_compiled(builds: Builds) -> None:
    """The suite file alone, in a directory without the rules, so that it imports the
    compiled ones; it checks first that it got them."""
    suite = builds.work / "suite"
    (suite / "tests").mkdir(parents=True)
    for name in ("pyproject.toml", "tests/__init__.py", "tests/test_conformance.py"):
        shutil.copy2(ROOT / name, suite / name)
    check = "import rules.core, sys; sys.exit(not rules.core.__file__.endswith('.so'))"
    assert run_python(["-c", check], builds.compiled, cwd=suite).returncode == 0
    result = run_python(
        ["-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "tests/test_conformance.py"],
        builds.compiled,
        cwd=suite,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and " failed" not in result.stdout
