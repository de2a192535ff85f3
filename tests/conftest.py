"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# The firmware checks run under MicroPython too, so they use plain asserts; under
# CPython pytest should still explain a failing one. Must happen before any import.
pytest.register_assert_rewrite("tests.firmware_checks")

# Off a Raspberry Pi gpiozero must use its mock pins; set before any test imports it.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# Imported after the environment is set: the harness builds gpiozero pins.
from controller.testing.clock import FakeClock  # noqa: E402
from controller.testing.files import MountUnavailable, tmpfs  # noqa: E402
from controller.testing.rig import ApplianceRig  # noqa: E402

# -- the fake clock and the appliance harness -------------------------------------------
# Both live in the package (controller/testing/), so the benchmarks use the same ones.
# Tests take them as fixtures; helpers that build state for a module-scoped fixture
# construct them directly.


@pytest.fixture
def fake_clock() -> FakeClock:
    """A monotonic clock the test moves by hand (``advance``, ``advance_to``, ``now``)."""
    return FakeClock()


@pytest.fixture
def appliance_rig(fake_clock: FakeClock) -> Iterator[Callable[..., ApplianceRig]]:
    """Builds in-process appliances on mock pins and a dummy panel, all on the test's
    ``fake_clock``: ``appliance_rig(state_dir, seats=..., buttons=..., options=...)``
    (see :class:`controller.testing.rig.ApplianceRig`). Each one is closed when the test
    ends, even if the test closed it already."""
    rigs: list[ApplianceRig] = []

    def build(state_dir: Path | None, **settings: Any) -> ApplianceRig:
        rig = ApplianceRig(state_dir, clock=fake_clock, **settings)
        rigs.append(rig)
        return rig

    yield build
    for rig in rigs:
        rig.close()


# -- speed tiers --------------------------------------------------------------------------
# `pytest -m "not slow and not process"` is the quick tier a developer runs while working;
# CI runs everything. The lists live here, in one place, rather than as decorators spread
# over the files: a test module that grows slow is moved by adding one line.

SLOW = (
    "tests/test_packaging.py",  # builds the wheel, installs it with its dependencies
    "tests/test_install.py",  # runs the installer into a staging root
    # makes a venv and installs a release into it
    "tests/test_update_apply.py::test_update_confirm_then_a_broken_release_is_refused_before_the_switch",
    "tests/test_update_apply.py::test_a_release_from_a_bundle_has_what_an_installed_one_has",
    "tests/test_update_power_cuts.py",  # 20 updates cut short, each making a venv
    "tests/test_compiled.py",  # compiles the rules with mypyc
    "tests/test_conformance.py::test_random_games_keep_invariants",  # thousands of games
    "tests/test_conformance.py::test_fast_random_playout_matches_generic_driver",
    "tests/test_end_to_end.py",  # whole games by pressing mock pins, frame by frame
    "tests/test_bots.py",  # bot strength over hundreds of games
    "tests/test_bots_backgammon.py::test_beats_its_yardstick",
    "tests/test_backgammon_gnubg.py",  # against GNU Backgammon's move generator
    "tests/test_checker_entry.py",  # every play of 2,000 positions entered by buttons
    "tests/test_minimaki_policy.py",  # re-derives the shipped policy's values
    "tests/test_docs_pictures.py",  # draws every picture of the docs anew
    "tests/test_untranslated.py::test_a_",  # whole games of every preset, read in words
    "tests/test_untranslated.py::test_menu_",
    "tests/test_german_screens.py",  # whole German games, read in words
    "tests/test_message_passes.py",  # whole German games, every text's time on the panel
    "tests/test_backgammon_analysis.py::test_error_rates_rank_like_gnu_backgammons_analysis",
    "tests/test_cube_agreement.py::test_gnubg_answers_every_collected_position",
    "tests/test_web_browser.py",  # the companion page in headless Chromium
    "tests/test_setup_portal_browser.py",  # the hotspot's setup page in headless Chromium
    "tests/test_rules_fuzz.py::test_every_mutated_line_gets_one_answer",  # 20 000 lines
    "tests/test_rules_fuzz.py::test_the_bots_answer_mutated_lines_too",
    "tests/test_voice.py::test_every_sentence_renders",  # espeak-ng: every sentence, twice
    "tests/test_voice.py::test_missing_sentences_are_rendered",  # a language's all, in the back
)
PROCESS = (
    "tests/test_config_on_panel.py::test_no_panel_chosen_yet",
    "tests/test_match_survival.py::test_kill_9_",  # spieltisch run killed mid-match
    "tests/test_appliance_process.py",
    "tests/test_update_power_cuts.py",  # spieltisch update apply, killed with SIGKILL
    "tests/test_corrupt_saves.py",
    "tests/test_sim_terminal.py",
    "tests/test_sim_record_path.py::test_a_recording_that_cannot",  # a sim process, SIGTERM
    "tests/test_sim_signals.py",  # the simulator in tmux and ptys, hung up and terminated
    "tests/test_sim_window_x11.py",  # the simulator's window in Xvfb, keys sent by xdotool
    "tests/test_bridge_e2e.py",
    "tests/test_firmware_checks.py",
    "tests/test_history_cli.py",
    "tests/test_state_dir.py::test_run_",  # spieltisch run on odd state directories
    "tests/test_bridge_handshake.py::test_the_unit_status",  # spieltisch run on a hostile Pico
    "tests/test_style.py",  # ruff and mypy over the whole tree
    "tests/test_language_process.py",  # spieltisch --lang xx, as a shell starts it
    "tests/test_rules_fuzz.py::test_a_real_stream_of_the_nastiest_lines",
    "tests/test_network_supervisor.py::test_a_running_table_",  # spieltisch run, a status file
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
        if item.nodeid.startswith(PROCESS):
            item.add_marker(pytest.mark.process)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs (:func:`controller.testing.files.tmpfs`) to fill with
    :func:`~controller.testing.files.fill`; skipped where this process may not mount."""
    try:
        with tmpfs(tmp_path / "disk") as mount_point:
            yield mount_point
    except MountUnavailable as exc:
        pytest.skip(str(exc))
