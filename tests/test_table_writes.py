"""Nothing writes into the table but the table itself, and every decision on what a
trigger does in a state is the machine's.

The table's helpers (the turns, the presses, the choice, resigning, the analysis...)
are handed what they read and hand back what changes; the table applies it in one
place. So no module of ``controller/table/`` assigns to another object's attribute
(``x.attr = ...``, ``x.attr += ...``, ``setattr(x, ...)``, ``self.room.attr = ...``):
a room changes its own fields (``self.attr``) in its own methods. Outside the table,
the modules that hold one (the loop, the app, the page's start) and the setup rows
write none of its fields either, and no module anywhere writes through a name
``table``. The same scan finds ``Mode`` tests (``state is Mode.X``, ``in (Mode...)``)
outside the machine and the modules that build the picture from the state.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "controller"

HOLDERS = ("app.py", "loop.py", "page_start.py", "setup_rows.py")
"""The modules outside ``controller/table/`` that hold a table or set it up."""

SCENE_BUILDING = ("table/scenes.py", "status_line.py")
"""Pure functions of the table's state into a picture or its words: they may ask which
state it is in, to draw it."""


def targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        found = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For | ast.AsyncFor):
        found = [node.target]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        found = [node.optional_vars]
    else:
        return []
    flat: list[ast.expr] = []
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found.extend(target.elts)
        elif isinstance(target, ast.Starred):
            found.append(target.value)
        else:
            flat.append(target)
    return flat


def line(node: ast.AST) -> int:
    return int(getattr(node, "lineno", 0))


def is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def through_table(node: ast.expr) -> bool:
    """The expression reaches through something named ``table``."""
    return any(
        (isinstance(part, ast.Name) and part.id == "table")
        or (isinstance(part, ast.Attribute) and part.attr == "table")
        for part in ast.walk(node)
    )


def foreign_writes(source: str) -> list[str]:
    """Every write to an attribute of an object other than ``self`` in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        for target in targets(node):
            if isinstance(target, ast.Attribute) and not is_self(target.value):
                found.append(f"{line(node)}: {ast.unparse(target)} =")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
            and node.args
            and not is_self(node.args[0])
        ):
            found.append(f"{line(node)}: {ast.unparse(node)}")
    return found


def table_writes(source: str) -> list[str]:
    """Every write to an attribute reached through something named ``table``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        for target in targets(node):
            if isinstance(target, ast.Attribute) and through_table(target.value):
                found.append(f"{line(node)}: {ast.unparse(target)} =")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
            and node.args
            and through_table(node.args[0])
        ):
            found.append(f"{line(node)}: {ast.unparse(node)}")
    return found


def mode_tests(source: str) -> list[str]:
    """Every comparison of something with ``Mode.X`` or a tuple/list of them."""

    def names_mode(node: ast.expr) -> bool:
        return any(
            isinstance(part, ast.Attribute)
            and isinstance(part.value, ast.Name)
            and part.value.id == "Mode"
            for part in ast.walk(node)
        )

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(names_mode(side) for side in sides):
                found.append(f"{line(node)}: {ast.unparse(node)}")
    return found


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_the_table_s_helpers_write_only_their_own_fields() -> None:
    found = {
        relative(path): writes
        for path in sorted((ROOT / "table").glob("*.py"))
        if (writes := foreign_writes(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_modules_that_hold_a_table_write_none_of_its_fields() -> None:
    found = {
        name: writes
        for name in HOLDERS
        if (writes := foreign_writes((ROOT / name).read_text(encoding="utf-8")))
    }
    assert found == {}


def test_no_module_writes_through_a_table() -> None:
    found = {
        relative(path): writes
        for path in sorted(ROOT.rglob("*.py"))
        if (writes := table_writes(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_only_the_machine_and_the_picture_ask_which_state_the_table_is_in() -> None:
    allowed = {"machine.py", *SCENE_BUILDING}
    found = {
        relative(path): tests
        for path in sorted(ROOT.rglob("*.py"))
        if relative(path) not in allowed and (tests := mode_tests(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_scans_see_what_they_look_for() -> None:
    """Each scan finds the writes and tests of the kinds it forbids (so an empty
    answer above is not a scan that sees nothing)."""
    source = (
        "def f(self, table, x):\n"
        "    self.ok = 1\n"
        "    self.time.now = 2\n"
        "    table.since += 1\n"
        "    x.a, (table.b, self.c) = 1, (2, 3)\n"
        "    setattr(x, 'y', 3)\n"
        "    setattr(self, 'z', 4)\n"
        "    self.table.options.sleep = 5\n"
        "    return table.state is Mode.MENU or x in (Mode.SETUP, Mode.CHOOSE)\n"
    )
    assert sorted(foreign_writes(source)) == [
        "3: self.time.now =",
        "4: table.since =",
        "5: table.b =",
        "5: x.a =",
        "6: setattr(x, 'y', 3)",
        "8: self.table.options.sleep =",
    ]
    assert sorted(table_writes(source)) == sorted(
        ["4: table.since =", "5: table.b =", "8: self.table.options.sleep ="]
    )
    assert len(mode_tests(source)) == 2
