"""The optional compiled build (docs/install.md, "The compiled build").

Everything else about the package lives in pyproject.toml. This file only decides whether
the wheel carries the hot rules modules compiled by mypyc as well:

* without ``SPIELTISCH_COMPILE=1`` nothing changes: the pure-Python package, no compiler,
  no extra build requirement;
* with it, pip's isolated build environment also gets mypy (mypyc ships inside it, see
  ``setup_requires`` below) and, if a C compiler with the Python headers works, the
  modules in ``COMPILED_MODULES`` become extension modules next to their ``.py`` files;
* with it but without a working compiler (or without mypyc, in a build that skips the
  isolated environment), one line on stderr says so and the pure package is built;
* ``SPIELTISCH_COMPILE=kernel`` builds only the Backgammon evaluation's C kernel
  (``rules/backgammon/_kernel.c``, seconds where mypyc takes many minutes), for a
  machine where the mypyc build does not finish, and for development and the tests.

The kernel comes with the compiled build too. It is an optional extension: if it alone
fails to compile, the build goes on without it, and the rules then evaluate in Python
(rules/backgammon/native.py says None, and the bot uses numpy or the pure path).

The pure Python stays the reference: tests/test_compiled.py checks that both builds play
the same games, and ``spieltisch selftest`` says which one runs.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from setuptools import Extension, setup

COMPILED_MODULES = [
    "rules/core.py",
    "rules/budget.py",
    "rules/playout.py",
    "rules/track/kernel.py",
    "rules/track/boards.py",
    "rules/track/presets.py",
    "rules/track/engine.py",
    "rules/backgammon/ids.py",
    "rules/backgammon/moves.py",
    "rules/backgammon/engine.py",
    "rules/backgammon/features.py",
    "rules/backgammon/net.py",
    "rules/backgammon/pubeval.py",
    "rules/backgammon/bearoff.py",
    "rules/backgammon/evaluation.py",
    "rules/backgammon/bot.py",
    "rules/minimaki/engine.py",
]
"""The modules whose speed a game on the Pi feels: states, move generation, playouts and
the Backgammon network. The rest (registry, JSON, bots' glue) runs rarely and stays
Python, and so does rules/build_info.py, which must behave the same in both builds."""

MYPY = "mypy>=1.10"

KERNEL = "kernel"
"""The value of ``SPIELTISCH_COMPILE`` that builds the C kernel alone."""

# CPython does every float operation on its own; a C compiler may fuse a multiply and an
# add into one instruction (aarch64, the Pi, has one), which rounds differently. The
# Backgammon network must give bit-identical results in both builds.
EXTRA_COMPILE_ARGS = ["-ffp-contract=off"]


def compiler_problem() -> str | None:
    """Why no extension module can be built here, or None if a probe compiles."""
    # setuptools provides distutils (imported here after setuptools, as mypyc does)
    from distutils import ccompiler
    from distutils import sysconfig as distutils_sysconfig

    compiler = ccompiler.new_compiler()
    distutils_sysconfig.customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            compiler.compile(
                [str(probe)],
                output_dir=tmp,
                include_dirs=[sysconfig.get_paths()["include"]],
                extra_postargs=EXTRA_COMPILE_ARGS,
            )
        # Whatever stops the probe (no compiler, no headers; setuptools' error classes
        # differ between versions) stops the real build too.
        except Exception as error:
            first_line = (str(error).splitlines() or [type(error).__name__])[0]
            return f"no working C compiler with the Python headers ({first_line})"
    return None


def kernel_extension() -> Extension:
    """The Backgammon evaluation in C (rules/backgammon/native.py), optional: a failure
    to compile it leaves it out and does not fail the build."""
    return Extension(
        "rules.backgammon._kernel",
        ["rules/backgammon/_kernel.c"],
        extra_compile_args=["-O3", "-fno-plt", *EXTRA_COMPILE_ARGS],
        optional=True,
    )


def build_options() -> tuple[dict[str, Any], str | None]:
    """setup() arguments for the chosen build, and a notice if compiling was asked for
    but is not possible."""
    choice = os.environ.get("SPIELTISCH_COMPILE")
    if choice not in ("1", KERNEL):
        return {}, None
    problem = compiler_problem()
    if problem is not None:
        return {}, problem
    if choice == KERNEL:
        return {"ext_modules": [kernel_extension()]}, None
    options: dict[str, Any] = {"setup_requires": [MYPY]}
    try:
        from mypyc.build import mypycify
    except ImportError:
        # pip's first pass only collects setup_requires: it ends inside setup(), before
        # the notice is printed. Reaching the notice means a build without mypy.
        return options, "mypyc (part of mypy) is not installed"
    # mypyc type-checks first; its mypy cache would land in the source tree (unused: a
    # build is not incremental), so it goes nowhere.
    mypy_args = ["--cache-dir", os.devnull, *COMPILED_MODULES]
    extensions = mypycify(mypy_args, opt_level="3", group_name="spieltisch_rules")
    for extension in extensions:
        extension.extra_compile_args = [*extension.extra_compile_args, *EXTRA_COMPILE_ARGS]
    options["ext_modules"] = [*extensions, kernel_extension()]
    return options, None


options, notice = build_options()
setup(**options)
if notice is not None:
    choice = os.environ.get("SPIELTISCH_COMPILE")
    print(
        f"spieltisch: SPIELTISCH_COMPILE={choice}, but {notice}: pure-Python build", file=sys.stderr
    )
