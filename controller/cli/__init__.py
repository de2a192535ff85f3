"""The command lines: ``spieltisch`` and its subcommands, one module each.

``controller.cli:main`` is the console script (pyproject.toml); it lives in
:mod:`controller.cli.command` and is handed on here so that the entry point keeps its name.
"""

from controller.cli.command import build_parser, main

__all__ = ["build_parser", "main"]
