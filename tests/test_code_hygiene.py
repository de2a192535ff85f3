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


def test_phases_are_compared_by_name_not_by_number() -> None:
    """``phase == 4`` says nothing and breaks silently when a game's phases change; the
    rules name every phase (``MOVE``, ``OPENING``, ...)."""
    bare: list[str] = []
    for path, tree in modules().items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            about_phase = any(
                (isinstance(side, ast.Attribute) and side.attr == "phase")
                or (isinstance(side, ast.Name) and side.id == "phase")
                for side in sides
            )
            numbers = [s for s in sides if isinstance(s, ast.Constant) and type(s.value) is int]
            for item in (s for s in sides if isinstance(s, ast.Tuple | ast.List | ast.Set)):
                numbers += [e for e in item.elts if isinstance(e, ast.Constant)]
            if about_phase and numbers:
                bare.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    assert bare == []
