"""Code a maintainer reads: names that do not hide what they mean.

Like the layering tests these read the source, so a regression fails here whether or
not a test happens to run the line.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("controller", "hardware", "rules")
"""The host program. firmware/ is a separate MicroPython program for the Pico that
mirrors a few host classes on purpose (its debouncer, its packet decoder)."""


def modules() -> dict[str, ast.Module]:
    return {
        str(path.relative_to(ROOT)): ast.parse(path.read_text(encoding="utf-8"))
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def test_no_two_classes_share_a_name() -> None:
    """Two classes of one name (a GPIO button wiring and a button the serial bridge
    reports; a pixel order and a view layout that cannot fit) get mixed up in imports."""
    homes: dict[str, list[str]] = defaultdict(list)
    for path, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                homes[node.name].append(path)
    shared = {name: paths for name, paths in homes.items() if len(paths) > 1}
    assert shared == {}
