"""The loop and the appliance drive devices through their interfaces, never by probing.

A method a device may or may not have (``getattr(display, "show_status", None)``) is a
method the interface lacks: mypy cannot check its callers, and a wrapper (a mirror, a
recorder) that forgets to pass it on drops it silently. The interfaces say it instead:
``InputBackend.poll_interval`` and ``poll``, and the loop's ``status_view``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from controller.sim.terminal import UntilPressed
from hardware.interfaces import InputBackend, ThreadedInput
from hardware.keyboard import TerminalKeys

ROOT = Path(__file__).resolve().parent.parent
DRIVERS = ("controller/loop.py", "controller/app.py", "hardware/tee.py", "controller/selftest.py")


def probes(path: Path) -> list[str]:
    """``getattr``/``hasattr`` calls in ``path`` that ask an object for a method by name
    (the ``signal`` module's optional signals are the platform's, not a probe)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and ast.unparse(node.args[0]) != "signal"
        ):
            found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_loop_and_the_appliance_probe_no_device(tmp_path: Path) -> None:
    assert [found for name in DRIVERS for found in probes(ROOT / name)] == []
    sample = tmp_path / "sample.py"
    sample.write_text(
        "show = getattr(display, 'show_status', None)\nhasattr(signal, 'SIGHUP')\n",
        encoding="utf-8",
    )
    assert probes(sample) == ["sample.py:1: getattr(display, 'show_status', None)"]


class Pumped:
    """A backend read on the loop's thread, as the pygame keys are."""

    poll_interval = 0.02

    def __init__(self) -> None:
        self.polls = 0

    def start(self, sink: object) -> None:
        pass

    def poll(self) -> None:
        self.polls += 1

    def close(self) -> None:
        pass


def test_a_wrapped_backend_is_polled_as_it_asks() -> None:
    """The terminal's notice wrapper passes its keys' polling on: a terminal is read on
    a thread of its own, a pumped backend behind the same wrapper still gets pumped."""
    terminal: InputBackend = UntilPressed(TerminalKeys(), lambda: None)
    assert terminal.poll_interval is None
    pumped = Pumped()
    wrapped: InputBackend = UntilPressed(pumped, lambda: None)
    assert wrapped.poll_interval == 0.02
    wrapped.poll()
    assert pumped.polls == 1


def test_a_threaded_backend_is_never_polled() -> None:
    class Callbacks(ThreadedInput):
        def start(self, sink: object) -> None:
            self.sink = sink

        def close(self) -> None:
            pass

    backend: InputBackend = Callbacks()
    assert backend.poll_interval is None
