"""Signals that reach ``spieltisch run`` before it can act on them are kept, not fatal.

systemd may stop the table (SIGTERM), or a builder ask it to read its config again
(``systemctl kill -s HUP spieltisch``), at any moment, also while Python is still
importing the program: a good part of a second on a loaded machine, several on a Pi.
Until a handler is installed, such a signal takes its default action and ends the
process at once, without a word (SIGHUP then restarted the table instead of letting it
start). So the first thing the ``controller`` package does in a ``run`` process is to
install handlers that only note the signal, before anything heavy is imported;
:func:`controller.app.install_signal_handlers` takes over later and acts on each noted
signal as if it had arrived then.

Only the standard library's ``signal``, and nothing of the program: this runs first.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from types import FrameType

HELD = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name)
)
"""The signals ``run`` handles itself (:func:`controller.app.install_signal_handlers`)."""

_noted: list[int] = []


def _note(signum: int, frame: FrameType | None) -> None:
    _noted.append(signum)


def hold(argv: Sequence[str]) -> bool:
    """Note :data:`HELD` signals from now on if ``argv`` is a ``spieltisch run``
    command line (the subcommand is the first argument: there are no global options).
    Every other command keeps the default actions (``rules`` in a pipe, ``sim`` in a
    terminal). True if the signals are now held."""
    if list(argv[1:2]) != ["run"]:
        return False
    try:
        for signum in HELD:
            signal.signal(signum, _note)
    except ValueError:  # not the main thread: nobody is starting the table here
        return False
    return True


def take() -> list[int]:
    """The signals noted so far, oldest first; they are forgotten here."""
    noted = list(_noted)
    del _noted[: len(noted)]
    return noted
