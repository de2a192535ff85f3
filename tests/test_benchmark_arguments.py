"""The benchmark scripts refuse counts, budgets and shares that make no sense.

Zero games had ended in a division by zero, zero jobs in a process-pool error, a NaN
budget or tolerance in a loop that never ends, and zero trials or kills in a ``PASS``
over nothing. Each is now argparse's one-line error that names the option, before any
work starts (``benchmarks/arguments.py``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from arguments import counted, positive_type, seconds_type, share_type  # noqa: E402


@pytest.mark.parametrize(
    ("parse", "good", "bad"),
    [
        (counted(1), {"1": 1, "2000": 2000}, ["0", "-3", "two", "1.5", "", "nan"]),
        (counted(0, 32), {"0": 0, "32": 32}, ["-1", "33", "1e3"]),
        (seconds_type, {"0.0833": 0.0833, "5": 5.0}, ["0", "-1", "nan", "inf", "3600", "x"]),
        (share_type, {"0": 0.0, "1": 1.0, "0.25": 0.25}, ["nan", "-0.1", "1.01", "inf"]),
        (positive_type, {"1e-10": 1e-10, "3": 3.0}, ["0", "nan", "inf", "-inf", "-2"]),
    ],
)
def test_each_type_takes_the_sensible_and_refuses_the_rest(
    parse: object, good: dict[str, float], bad: list[str]
) -> None:
    assert callable(parse)
    for text, value in good.items():
        assert parse(text) == value
    for text in bad:
        with pytest.raises(argparse.ArgumentTypeError, match=repr(text)):
            parse(text)


WORST = [
    ("bots.py", "--bg-games", "0"),
    ("bots.py", "--seconds", "nan"),
    ("backgammon_match_errors.py", "--jobs", "0"),
    ("backgammon_lookahead.py", "--decisions", "0"),
    ("backgammon_decision_times.py", "--games", "0"),
    ("backgammon_analysis.py", "--games", "0"),
    ("backgammon_phases.py", "--games", "-1"),
    ("backgammon_teacher_depth.py", "--decisions", "0"),
    ("backgammon_network_speed.py", "--seconds", "nan"),
    ("backgammon_throughput.py", "--seconds", "-1"),
    ("rules_throughput.py", "--seconds", "inf"),
    ("cube_agreement.py", "--positions", "0"),
    ("bridge_roundtrip.py", "--size", "33"),
    ("footprint.py", "--starts", "0"),
    ("full_disk_loop.py", "--trials", "0"),
    ("kill_loop.py", "--kills", "0"),
    ("kill_loop.py", "--after-record", "nan"),
    ("kleiner_aerger_optimum.py", "--tolerance", "nan"),
    ("latency.py", "--presses", "0"),
    ("level_pr.py", "--games", "1"),
    ("level_pr.py", "--jobs", "0"),
    ("coach_losses.py", "--games", "0"),
    ("make_bearoff.py", "--check", "-5"),
    ("minimaki_solution.py", "--jobs", "0"),
    ("relabel_backgammon.py", "--shard", "0"),
    ("startup.py", "--runs", "0"),
    ("train_backgammon_net.py", "--rate", "nan"),
    ("web_load.py", "--clients", "0"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("script", "option", "value"), WORST)
def test_a_script_given_its_worst_value_stops_with_one_line(
    script: str, option: str, value: str
) -> None:
    """Run as its users run it, a separate process from the checkout."""
    extra = ["--data", "x.npz", "--out", "y.npz"] if script == "relabel_backgammon.py" else []
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), option, value, *extra],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2, done.stderr[-400:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"{script}: error: argument {option}:"), last
    assert "Traceback" not in done.stderr
