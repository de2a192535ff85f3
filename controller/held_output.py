"""Keep everything printed while the terminal shows the board, and print it afterwards.

While the simulator draws the LED matrix into the terminal, any line written to standard
output or standard error (a log warning, a library's notice, the Mini-Maki solver child
process) would land inside the drawn board and be overwritten by the next frame. So for
that time :func:`held_output` points file descriptors 1 and 2, which child processes
inherit, at a temporary file, and hands the display its own copy of the terminal. On
exit it points them back and replays the file to standard error, after the display has
put the terminal back: whatever went wrong is then the last thing on screen.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator


@contextlib.contextmanager
def held_output() -> Iterator[int]:
    """Hold fds 1 and 2 until exit; yields a descriptor of the original standard output.

    The caller must close what draws on the yielded descriptor (restoring the terminal)
    before the ``with`` block ends, so that the replay follows the restore.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    terminal = os.dup(1)
    saved_err = os.dup(2)
    kept = tempfile.TemporaryFile()  # noqa: SIM115 (closed in finally)
    try:
        os.dup2(kept.fileno(), 1)
        os.dup2(kept.fileno(), 2)
        try:
            yield terminal
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(terminal, 1)
            os.dup2(saved_err, 2)
            kept.seek(0)
            text = kept.read()
            if text:
                # A closed terminal (the reason the simulator stopped) cannot take it.
                with contextlib.suppress(OSError):
                    os.write(2, text)
    finally:
        kept.close()
        os.close(terminal)
        os.close(saved_err)
