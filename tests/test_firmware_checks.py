"""The firmware's pure modules under both interpreters: CPython and MicroPython.

``tests/firmware_checks.py`` holds the checks (protocol, link, debounce, panel and
the example packets of ``firmware/PROTOCOL.md``) in the language subset both share.
Here every check runs once in-process under CPython and once in the MicroPython
unix port, which runs the file as a script in one subprocess; its per-check report
is turned into one pytest result per check, so a failure names the check and shows
MicroPython's own traceback.
"""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import firmware_checks as checks
from tests.micropython_binary import MicroPython, micropython_or_skip, probe

CHECKS_FILE = Path(checks.__file__).resolve()
FIRMWARE = CHECKS_FILE.parent.parent / "firmware"
CHECKS = checks.all_checks()
NAMES = [name for name, _ in CHECKS]


@dataclass
class Report:
    """What one run of the check script said: per check (verdict, details)."""

    outcomes: dict[str, tuple[str, str]]  # verdict: PASS, SKIP or FAIL
    returncode: int
    stderr: str


def parse_report(stdout: str, returncode: int = 0, stderr: str = "") -> Report:
    """Read the runner's ``PASS name``, ``SKIP name: why``, ``FAIL name`` + traceback."""
    outcomes: dict[str, tuple[str, str]] = {}
    current: tuple[str, str] | None = None
    details: list[str] = []
    for line in [*stdout.splitlines(), "END"]:
        if line.startswith("    ") and current is not None:
            details.append(line[4:])
            continue
        if current is not None:
            outcomes[current[0]] = (current[1], "\n".join(details))
            current, details = None, []
        verdict, _, rest = line.partition(" ")
        if verdict == "SKIP":
            name, _, why = rest.partition(": ")
            outcomes[name] = (verdict, why)
        elif verdict in ("PASS", "FAIL") and rest:
            current = (rest, verdict)
    return Report(outcomes, returncode, stderr)


@pytest.mark.parametrize(("name", "check"), CHECKS, ids=NAMES)
def test_under_cpython(name: str, check: Callable[[], None]) -> None:
    try:
        check()
    except checks.Skip as exc:
        pytest.skip(f"{name}: {exc}")


@pytest.fixture(scope="module")
def micropython_report() -> Report:
    binary = micropython_or_skip()
    result = subprocess.run(
        [binary.path, str(CHECKS_FILE), str(FIRMWARE)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return parse_report(result.stdout, result.returncode, result.stderr)


@pytest.mark.parametrize("name", NAMES)
def test_under_micropython(name: str, micropython_report: Report) -> None:
    outcome = micropython_report.outcomes.get(name)
    if outcome is None:
        pytest.fail(
            f"{name} did not run under MicroPython (exit status "
            f"{micropython_report.returncode}):\n{micropython_report.stderr}",
            pytrace=False,
        )
    verdict, details = outcome
    if verdict == "SKIP":
        pytest.skip(f"{name} under MicroPython: {details}")
    if verdict != "PASS":
        pytest.fail(f"{name} fails under MicroPython:\n{details}", pytrace=False)


def test_micropython_ran_exactly_these_checks_and_its_exit_status_agrees(
    micropython_report: Report,
) -> None:
    assert sorted(micropython_report.outcomes) == NAMES
    failed = [
        name for name, (verdict, _) in micropython_report.outcomes.items() if verdict == "FAIL"
    ]
    assert micropython_report.returncode == (1 if failed else 0), micropython_report.stderr


# -- the runner itself ------------------------------------------------------------------------


def test_the_runner_reports_every_check_and_the_traceback_of_a_failing_one() -> None:
    def check_passes() -> None:
        assert 1 + 1 == 2

    def check_fails() -> None:
        assert [1, 2] == [1, 3], "lists differ"

    def check_raises() -> None:
        raise ValueError("bad value")

    def check_skips() -> None:
        raise checks.Skip("not on this interpreter")

    out = io.StringIO()
    runs = [("check_fails", check_fails), ("check_passes", check_passes)]
    runs += [("check_raises", check_raises), ("check_skips", check_skips)]
    failed = checks.run(runs, out)
    assert failed == 2
    report = parse_report(out.getvalue())
    assert report.outcomes["check_passes"] == ("PASS", "")
    assert report.outcomes["check_skips"] == ("SKIP", "not on this interpreter")
    verdict, details = report.outcomes["check_fails"]
    assert verdict == "FAIL"
    assert "AssertionError: lists differ" in details
    assert "check_fails" in details  # the traceback names the failing function
    assert report.outcomes["check_raises"][0] == "FAIL"
    assert "ValueError: bad value" in report.outcomes["check_raises"][1]


# -- finding the binary ---------------------------------------------------------------------


def test_a_missing_or_unrunnable_binary_gives_a_reason_to_skip(tmp_path: Path) -> None:
    assert probe(str(tmp_path / "absent")) == (
        f"SPIELTISCH_MICROPYTHON={tmp_path / 'absent'} does not exist"
    )
    foreign = tmp_path / "micropython-arm"
    foreign.write_bytes(b"\x7fELF\x01\x01\x01\x00" + bytes(60))  # not this machine's
    foreign.chmod(0o755)
    reason = probe(str(foreign))
    assert isinstance(reason, str)
    assert reason.startswith(f"{foreign} cannot run on this machine: ")
    other = tmp_path / "not-micropython"
    other.write_text("#!/bin/sh\necho cpython\n", encoding="utf-8")
    other.chmod(0o755)
    assert (
        probe(str(other))
        == f"{other} is not MicroPython (its sys.implementation.name is ['cpython'])"
    )


def test_the_binary_found_reports_its_micropython_version() -> None:
    binary = micropython_or_skip()
    assert isinstance(binary, MicroPython)
    assert "MicroPython v1." in binary.version, binary.version
