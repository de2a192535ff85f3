"""Signals in the first second of ``spieltisch run``: kept for the table, never fatal.

``docs/install.md`` tells builders to ``systemctl kill -s HUP`` the table to re-read its
config, and systemd stops it with SIGTERM whenever it likes. Both used to take their
default action for the ~0.35 s the program spent importing before its handlers were
installed: SIGHUP killed a starting table (9 of 12 tries), SIGTERM ended it without a
word. The handlers now come first, before any heavy import (``controller.early_signals``).

Each signal is sent to a real process at a sweep of delays after its start. What may
still happen is the interpreter's own start-up, before the first line of the program
runs: a signal there takes the default action, as for any Python program. To tell the
two apart the child runs with ``PYTHONVERBOSE``, which writes ``import 'controller' #``
once the package's ``__init__`` (which installs the handlers) has run: a process killed
by the signal must not have got that far. No time is asserted; the delays only spread
the signals over the start.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from controller.testing.files import write_config
from controller.testing.notify import NotifySocket
from controller.testing.process import spieltisch_command

DELAYS = (0.0, 0.01, 0.03, 0.06, 0.1, 0.15, 0.25, 0.35, 0.5, 0.75, 1.0)
PACKAGE_RAN = "import 'controller' #"
"""PYTHONVERBOSE's line once ``controller/__init__.py`` has run."""

pytestmark = pytest.mark.process


def start(config: Path, state: Path, notify: NotifySocket, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "GPIOZERO_PIN_FACTORY": "mock",
        "PYTHONUNBUFFERED": "1",
        "PYTHONVERBOSE": "1",
        "NOTIFY_SOCKET": str(notify.path),
    }
    for name in ("WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY"):
        env.pop(name, None)
    with log.open("wb") as err:
        return subprocess.Popen(
            [*spieltisch_command(), "run", "--config", str(config), "--state-dir", str(state)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )


def ready_or_gone(process: subprocess.Popen[bytes], notify: NotifySocket) -> float | None:
    """When the table said READY=1, or None once the process has ended (or after a
    generous timeout, so that a hang fails the test)."""
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        ready = notify.wait_for("READY=1", timeout=0.5)
        if ready is not None:
            return ready
    return None


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_a_signal_in_the_first_second_is_kept_for_the_table(
    tmp_path: Path, signum: signal.Signals, record_property: pytest.RecordProperty
) -> None:
    """SIGHUP: the table starts and plays on (READY, then a clean SIGTERM). SIGTERM:
    the table stops cleanly with exit 0. Never killed once the program runs."""
    config = write_config(tmp_path, seats=("bot", "bot"))
    outcomes = []
    for number, delay in enumerate(DELAYS):
        notify = NotifySocket()
        log = tmp_path / f"stderr-{number}.log"
        process = start(config, tmp_path / f"state-{number}", notify, log)
        try:
            # The delay is what the test varies, not a wait for something to happen.
            time.sleep(delay)
            process.send_signal(signum)
            if signum == signal.SIGHUP:
                ready = ready_or_gone(process, notify)
                if process.poll() is None:
                    assert ready is not None, log.read_text(errors="replace")[-3000:]
                    process.send_signal(signal.SIGTERM)
            code = process.wait(120)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(10)
            notify.close()
        text = log.read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]
        if code == -signum:
            # killed by the default action: only while the interpreter itself started
            assert PACKAGE_RAN not in text, f"killed at {delay} s after the program ran"
            outcomes.append((delay, "before the program"))
            continue
        assert code == 0, f"at {delay} s: exit {code}\n{text[-3000:]}"
        assert "stopped (SIGTERM)" in text, text[-3000:]
        outcomes.append((delay, "kept"))
    record_property("outcomes", outcomes)
    assert any(outcome == "kept" for _delay, outcome in outcomes), outcomes
