"""The Backgammon evaluation's optional C kernel gives the pure path's numbers.

rules/backgammon/_kernel.c does the arithmetic of rules/backgammon/net.py for many
positions at once: the same fixed-point first layer, libm's exp, the output sums in
the same order, no fused multiply-add. So its figures are the same whole numbers, its
chances and equities the same floats to the last bit, and the bot plays the same moves
with it (benchmarks/backgammon_fast_path.py, on fewer games here).

The kernel is built where a C compiler works (setup.py, ``SPIELTISCH_COMPILE=kernel`` or
the compiled build). These tests use the installed one, or else compile ``_kernel.c`` into
a temporary directory with this interpreter's compiler and load it from there (without
putting it into ``sys.modules``, so that no other test sees it); with no compiler at all
they skip. Without the kernel the rules import and play as before: checked in a
subprocess where it cannot be imported, and with a build whose compiler does not work.
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import backgammon_fast_path as bench

import rules
from rules.backgammon import evaluation, features, native
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.engine import START, BackgammonGame
from rules.backgammon.net import Network, equity, shipped, shipped_race
from rules.budget import Budget
from tests.backgammon_boards import boards
from tests.checkout import ROOT, copy_checkout

SOURCE = ROOT / "rules" / "backgammon" / "_kernel.c"

BUILD = """
import sys
from setuptools import Distribution, Extension
extension = Extension(
    "rules.backgammon._kernel", [sys.argv[1]], extra_compile_args=["-O3", "-ffp-contract=off"]
)
distribution = Distribution({"ext_modules": [extension]})
command = distribution.get_command_obj("build_ext")
command.build_lib = sys.argv[2]
command.build_temp = sys.argv[2] + "/tmp"
distribution.run_command("build_ext")
print(command.get_ext_fullpath("rules.backgammon._kernel"))
"""


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The installed kernel, or one compiled from the checkout's source now."""
    installed = native.kernel()
    if installed is not None:
        return installed
    out = tmp_path_factory.mktemp("kernel")
    built = subprocess.run(
        [sys.executable, "-c", BUILD, str(SOURCE), str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if built.returncode != 0:
        pytest.skip(f"no C compiler to build the kernel with: {built.stderr[-300:]}")
    spec = importlib.util.spec_from_file_location(native.KERNEL, built.stdout.strip())
    assert spec is not None and spec.loader is not None
    had = sys.modules.get(native.KERNEL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # an extension module of single-phase init enters sys.modules as it loads: out again,
    # or every later test in this process would take the kernel for installed
    if had is None:
        sys.modules.pop(native.KERNEL, None)
    else:
        sys.modules[native.KERNEL] = had
    return module


def test_the_figures_are_the_same_whole_numbers(kernel: ModuleType) -> None:
    for a, b in boards():
        for blocks in (1, 2, 3):
            assert kernel.counts(a, b, blocks) == features.counts(a, b, blocks), (a, b)


def test_the_chances_and_equities_are_the_pure_ones_to_the_last_bit(kernel: ModuleType) -> None:
    positions_ = boards()
    # shuffled, so that the kernel's kept sides (from the position before) change often
    random.Random(3).shuffle(positions_)
    fast = native.KernelEvaluator(kernel, shipped(), shipped_race())
    assert fast.probabilities(positions_) == [evaluation.probabilities(a, b) for a, b in positions_]
    assert fast.equities(positions_) == [
        equity(evaluation.probabilities(a, b)) for a, b in positions_
    ]
    # without the bear-off database, and the main network for races too
    alone = native.KernelEvaluator(kernel, shipped(), shipped(), exact_bearoff=False)
    assert alone.probabilities(positions_) == [
        evaluation.probabilities(a, b, shipped(), False, shipped()) for a, b in positions_
    ]
    assert fast.probabilities([]) == [] and fast.equities([]) == []


def test_an_older_network_with_fewer_figures_too(kernel: ModuleType) -> None:
    """A network that reads one block of figures (207 inputs) through the kernel: the
    figures it does not read are left out there as in the pure path."""
    net = shipped()
    older = Network(net.rows[:207], net.hidden_bias, net.out_rows, net.out_bias)
    fast = native.KernelEvaluator(kernel, older, shipped_race())
    positions_ = boards()[:300]
    assert fast.probabilities(positions_) == [
        evaluation.probabilities(a, b, older) for a, b in positions_
    ]


def test_boards_out_of_range_are_refused(kernel: ModuleType) -> None:
    fast = native.KernelEvaluator(kernel, shipped(), shipped_race())
    with pytest.raises(ValueError, match="25 places"):
        fast.equities([(START[:24], START)])
    with pytest.raises(ValueError, match="more than 15"):
        fast.equities([((2,) * 25, START)])
    with pytest.raises(TypeError):
        fast.equities([[START, START]])  # a list, not an (on roll, other) tuple
    # the kernel keeps each side's sums from one call to the next: a call that failed
    # halfway leaves none behind that would give the next one other numbers
    positions_ = boards()[:200]
    before = [*positions_[:50], ((2,) * 25, START)]
    with pytest.raises(ValueError, match="more than 15"):
        fast.equities(before)
    assert fast.equities(positions_) == [
        equity(evaluation.probabilities(a, b)) for a, b in positions_
    ]


def check(comparison: bench.Comparison) -> None:
    """The same move at every decision, the same equities to the last bit."""
    assert comparison.decisions > 0
    assert comparison.max_equity_difference == 0.0
    assert comparison.same == comparison.decisions, comparison.differences


def test_seeded_games_get_the_same_moves(kernel: ModuleType) -> None:
    fast = native.KernelEvaluator(kernel, shipped(), shipped_race())
    check(bench.compare(games=3, seed=1, lookahead=False, evaluator=fast))


def test_the_lookahead_gets_the_same_moves(kernel: ModuleType) -> None:
    fast = native.KernelEvaluator(kernel, shipped(), shipped_race())
    check(bench.compare(games=1, seed=2, lookahead=True, evaluator=fast))


@pytest.mark.slow
def test_many_seeded_games_get_the_same_moves(kernel: ModuleType) -> None:
    fast = native.KernelEvaluator(kernel, shipped(), shipped_race())
    check(bench.compare(games=40, seed=3, lookahead=False, evaluator=fast))
    check(bench.compare(games=4, seed=4, lookahead=True, evaluator=fast))


NO_KERNEL = """
import random, sys
sys.modules["rules.backgammon._kernel"] = None  # as if it were not built
{numpy}
import rules
from rules.backgammon import native
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.evaluation import batch_evaluator
from rules.budget import Budget
assert native.kernel() is None
print(type(batch_evaluator()).__module__)
bot = BackgammonBot(Budget(clock=lambda: 0.0, seconds=60.0), lookahead=True)
state = rules.get_game("backgammon", "money").state_from_position_id("{position}")
print(bot.choose(state, random.Random(0)).notation)
print(bot.full)
"""


@pytest.mark.parametrize("numpy", [True, False])
def test_without_the_kernel_the_rules_import_and_play_as_before(numpy: bool) -> None:
    """The kernel not built: numpy's fast path where numpy is there, else none; either
    way the pure path's move."""
    if numpy:
        pytest.importorskip("numpy")
    position = "xOvgATDgc/ABMA:MIEJAAAAAAAE"
    blocked = "" if numpy else 'sys.modules["numpy"] = None'
    result = subprocess.run(
        [sys.executable, "-c", NO_KERNEL.format(numpy=blocked, position=position)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    module, move, full = result.stdout.strip().splitlines()
    assert module == ("rules.backgammon.batch" if numpy else "builtins")  # None's type
    assert full == "False"  # the full search is the default only with the kernel
    game = rules.get_game("backgammon", "money")
    assert isinstance(game, BackgammonGame)
    state = game.state_from_position_id(position)
    pure = BackgammonBot(Budget(nodes=10**12), lookahead=True, fast=False)
    assert move == pure.choose(state, random.Random(0)).notation


def test_the_full_search_is_the_default_with_the_kernel() -> None:
    """With the kernel installed and a clock (the table's bot) the lookahead is the full
    one-roll search unless ``full=False``; without a clock the pure path, no search."""
    if native.kernel() is None:
        pytest.skip("the C kernel is not installed here (SPIELTISCH_COMPILE=kernel)")
    bot = BackgammonBot(Budget(clock=lambda: 0.0))
    assert isinstance(bot.batch, native.KernelEvaluator) and bot.full
    assert not BackgammonBot(Budget(clock=lambda: 0.0), full=False).full
    assert not BackgammonBot(Budget()).full


def wheel(tmp: Path, env: dict[str, str]) -> tuple[Path, str]:
    """The wheel pip builds from a clean copy of the checkout, and pip's output."""
    source = tmp / "clone"
    copy_checkout(source)
    out = tmp / "dist"
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(out), str(source)]
    built = subprocess.run(
        command,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (found,) = out.glob("spieltisch-*.whl")
    return found, built.stdout + built.stderr


@pytest.mark.slow
def test_the_kernel_build_needs_no_compiler(tmp_path: Path) -> None:
    """``SPIELTISCH_COMPILE=kernel`` with a compiler that does not work: the build
    succeeds, pure Python, and says why."""
    found, output = wheel(tmp_path, {"SPIELTISCH_COMPILE": "kernel", "CC": "/bin/false"})
    assert found.name.endswith("-py3-none-any.whl")
    assert "spieltisch: SPIELTISCH_COMPILE=kernel, but no working C compiler" in output


@pytest.mark.slow
def test_the_kernel_build_ships_the_kernel(tmp_path: Path) -> None:
    if not sysconfig.get_config_var("CC"):
        pytest.skip("no C compiler configured for this interpreter")
    found, output = wheel(tmp_path, {"SPIELTISCH_COMPILE": "kernel"})
    if found.name.endswith("-py3-none-any.whl"):
        pytest.skip(next((line for line in output.splitlines() if "spieltisch:" in line), output))
    with zipfile.ZipFile(found) as archive:
        names = archive.namelist()
    assert [n for n in names if n.startswith("rules/backgammon/_kernel.") and n.endswith(".so")]
    assert "rules/backgammon/_kernel.c" not in names
