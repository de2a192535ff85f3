"""Whether the rules run compiled (mypyc) or as plain Python.

Why: the bots may search deeper only where the engines are fast enough to finish the
deeper search inside the per-move budget on a Raspberry Pi (:func:`rules.budget.
deeper_search_fits`). The compiled build is that fast; plain Python is not. The answer
comes from how the engines were loaded, not from a setting, so it cannot go stale: a
compiled module is an extension module, whose file name ends in one of the
interpreter's extension suffixes (``.cpython-311-x86_64-linux-gnu.so``, ``.pyd``).
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES


def compiled_module(path: str | None) -> bool:
    """True when ``path`` (a module's ``__file__``) is an extension module."""
    return path is not None and path.endswith(tuple(EXTENSION_SUFFIXES))


def is_compiled() -> bool:
    """True when the search's hot path, the Backgammon engine, runs compiled."""
    from rules.backgammon import engine

    return compiled_module(engine.__file__)
