"""The emulators that write files (``capture``, ``gifanim``): is ``display.file`` a
name the table can write its frames to, checked while the config is read?

``run`` would otherwise start and fail at the first frame (or, for a recording, at the
end, losing it). Part of the config's checks (:mod:`controller.config`), kept apart
because it is the one check that looks at the file system.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from controller.config_values import TomlTable
from controller.i18n import _
from controller.input_checks import quote
from hardware.specs import DisplaySpec


def check_output_file(t: TomlTable, spec: DisplaySpec) -> None:
    """The emulators that write files: ``capture`` formats ``file`` with the frame
    number (``frame_{0:06}.png``), ``gifanim`` writes ``file`` itself. The name must
    format and its directory must exist and be writable, or ``run`` would fail at the
    first frame (or at the end, losing the recording)."""
    name = spec.file
    if spec.type == "capture":
        try:
            name = spec.file.format(1)
        except (ValueError, IndexError, KeyError, AttributeError, TypeError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            t.error(
                "file",
                _(
                    "{file} is not a file name template ({reason}); allowed: a name "
                    "with one number field, e.g. {example}"
                ).format(file=quote(spec.file), reason=reason, example="'frame_{0:06}.png'"),
            )
            return
    target = Path(name)
    directory = target.parent
    where = quote(str(directory))
    if not directory.is_dir():
        problem = (
            _("{file}: the directory {directory} is not a directory")
            if directory.exists()
            else _("{file}: the directory {directory} does not exist")
        )
        t.error("file", problem.format(file=quote(spec.file), directory=where))
    elif kernel_tree(directory):
        message = _("{file}: the directory {directory} is in /proc or /sys, which hold no files")
        t.error("file", message.format(file=quote(spec.file), directory=where))
    elif not os.access(directory, os.W_OK | os.X_OK):
        message = _("{file}: the directory {directory} is not writable")
        t.error("file", message.format(file=quote(spec.file), directory=where))
    elif target.is_dir():
        t.error("file", _("{file} is a directory, not a file name").format(file=quote(spec.file)))
    elif target.exists() and not target.is_file():
        message = _("{file} is a device or another special file, not a file name")
        t.error("file", message.format(file=quote(spec.file)))
    elif (why := cannot_create_in(directory)) is not None:
        refused = _("{file}: cannot create a file in the directory {directory}: {reason}")
        t.error("file", refused.format(file=quote(spec.file), directory=where, reason=why))


def kernel_tree(directory: Path) -> bool:
    """``directory`` is in /proc or /sys: kernel interfaces, where root is "allowed" to
    write (``os.access`` says yes) but no frame file can ever be created."""
    resolved = directory.resolve()
    return any(resolved.is_relative_to(root) for root in ("/proc", "/sys"))


def cannot_create_in(directory: Path) -> str | None:
    """Why no file can be created in ``directory`` (None: one can). ``os.access``
    answers from the permission bits alone, and for root almost always yes, so this
    creates a file (and removes it again) as the first frame will: a read-only mount,
    a full disk of inodes or a file system that takes no new files says so here, in
    one line, instead of at every frame."""
    try:
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".spieltisch-check-"):
            pass
    except OSError as exc:
        return str(exc.strerror or exc)
    return None
