"""Which build of the rules runs: the pure-Python reference or the compiled one.

``pip install .`` installs the rules as plain Python. With ``SPIELTISCH_COMPILE=1`` and a
working C compiler, setup.py compiles the hot rules modules with mypyc into extension
modules instead (docs/install.md, "The compiled build"). Both play the same games; the
compiled one is faster on a Raspberry Pi. The selftest and the start-up log name the
variant, so a slow table can be told apart from a table that fell back to pure Python.

This module itself is never compiled: it must run unchanged in both builds, and it is
where the pure package gets a stand-in for the one compile-time hint the rules use.
"""

from __future__ import annotations

import importlib.util
import pkgutil
import sys
from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

_Class = TypeVar("_Class", bound=type)

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:

    def mypyc_attr(*_names: str, **_flags: bool) -> Callable[[_Class], _Class]:
        """mypyc reads this class decorator at compile time (it is how a compiled class
        lets plain Python subclass it). The pure package has no mypy_extensions to import
        it from, and needs none: here it returns the class unchanged."""
        return lambda cls: cls


__all__ = ["build_variant", "compiled_modules", "describe_build", "mypyc_attr"]

KERNEL = "rules.backgammon._kernel"
"""The Backgammon evaluation's optional C kernel (rules/backgammon/native.py): an
extension module in C, not a compiled rules module, built with either build or alone."""
PURE = "pure Python"
COMPILED = "compiled (mypyc)"


def _is_extension(path: str | None) -> bool:
    return path is not None and path.endswith(tuple(EXTENSION_SUFFIXES))


def _origin(module: str) -> str | None:
    spec = importlib.util.find_spec(module)
    return None if spec is None else spec.origin


def compiled_modules() -> list[str]:
    """The rules modules that are installed as compiled extension modules, by name.

    Asks the import system where each module of this package lives, without importing
    the ones not loaded yet (the bots' modules load on first use)."""
    here = str(Path(__file__).parent)
    return sorted(
        info.name
        for info in pkgutil.walk_packages([here], f"{__package__}.")
        if info.name != KERNEL and _is_extension(_origin(info.name))
    )


def build_variant() -> str:
    """``"compiled (mypyc)"`` if the core rules module is an extension module, else
    ``"pure Python"`` (a compiled build compiles the core with the other modules)."""
    return COMPILED if _is_extension(_origin(f"{__package__}.core")) else PURE


def describe_build() -> str:
    """One line for the selftest and the log, such as ``rules: compiled (mypyc), 14
    modules`` or ``rules: pure Python``."""
    variant = build_variant()
    if variant == PURE:
        return f"rules: {PURE}"
    return f"rules: {variant}, {len(compiled_modules())} modules"


def compiled_module(path: str | None) -> bool:
    """True when ``path`` (a module's ``__file__``) is an extension module."""
    return _is_extension(path)


def is_compiled() -> bool:
    """True when the bots' hot path, the Backgammon engine, runs compiled.

    The bots may search deeper only where the engines finish that search inside the
    per-move budget on a Raspberry Pi (:func:`rules.budget.deeper_search_fits`); the
    compiled build is that fast, plain Python is not. Read from the loaded module's
    file, not from a setting, so the answer cannot go stale. Looked up by name, not
    imported: the core imports this module, and the engine imports the core."""
    name = "rules.backgammon.engine"
    loaded = sys.modules.get(name)
    return compiled_module(loaded.__file__ if loaded is not None else _origin(name))
