"""Data flows one way; the rules are pure standard library (docs/architecture.md, "The
layers").

These tests read the import statements of every module, so a forbidden import fails
here even if no test happens to execute that line.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """The nodes of ``tree`` that run: ``if TYPE_CHECKING:`` blocks are for mypy only."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        found.append(node)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            pending.extend(node.orelse)
        else:
            pending.extend(ast.iter_child_nodes(node))
    return found


def imported_modules(package: str) -> dict[str, set[str]]:
    """The top-level modules each file imports when it runs."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in runtime_nodes(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


OPTIONAL = {"rules/backgammon/batch.py": {"numpy"}}
"""The one rules module that may import an optional dependency: the fast path, which the
others reach only by name (rules.backgammon.evaluation.batch_evaluator), so that without
numpy the rules still import and play as before."""


def test_rules_import_only_stdlib_and_themselves() -> None:
    allowed = set(sys.stdlib_module_names) | {"rules", "__future__"}
    offenders = {
        path: sorted(names - allowed - OPTIONAL.get(path, set()))
        for path, names in imported_modules("rules").items()
        if names - allowed - OPTIONAL.get(path, set())
    }
    assert offenders == {}


def test_no_rules_module_imports_the_optional_fast_path_directly() -> None:
    for path in sorted((ROOT / "rules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            elif isinstance(node, ast.Import):
                names = {alias.name for alias in node.names}
            else:
                continue
            assert "rules.backgammon.batch" not in names, path


def test_rules_never_import_controller_or_hardware() -> None:
    for path, names in imported_modules("rules").items():
        assert not names & {"controller", "hardware"}, path


def test_rules_have_no_clock_io_or_global_random() -> None:
    """The rules never roll, never read a clock and never print."""
    forbidden = {"time", "datetime", "os", "socket", "subprocess", "threading"}
    for path, names in imported_modules("rules").items():
        assert not names & forbidden, (path, names & forbidden)
    for path in (ROOT / "rules").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"print", "open", "input"}, (path, node.func.id)
            # random.Random(...) instances are passed in; module-level draws are not.
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr in {"Random"}, (path, node.attr)


def test_hardware_never_imports_controller_or_rules() -> None:
    for path, names in imported_modules("hardware").items():
        assert not names & {"controller", "rules"}, path


def test_controller_never_touches_pins_or_luma_directly() -> None:
    """The controller talks to hardware interfaces only. Its views may use
    luma's bitmap fonts (``luma.core.legacy``), which are data, not devices, and the
    simulator's window (``controller/sim/``) draws with pygame, a toolkit, not a device."""
    for path in sorted((ROOT / "controller").rglob("*.py")):
        banned = {"gpiozero", "serial", "spidev", "lgpio", "pygame"}
        if path.parent == ROOT / "controller" / "sim":
            banned.discard("pygame")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                assert top not in banned, (
                    path,
                    module,
                )
                if top == "luma":
                    assert module.startswith("luma.core.legacy"), (path, module)


def dotted_imports(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full dotted name (``from a import b`` counts
    as both ``a`` and ``a.b``: b may be a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_benchmarks_import_the_program_never_the_tests() -> None:
    """The benchmarks measure the program as it ships: the harness they drive it with is
    ``controller.testing``, not a module of the test suite."""
    found = imported_modules("benchmarks")
    assert "benchmarks/kill_loop.py" in found and "controller" in found["benchmarks/kill_loop.py"]
    offenders = sorted(path for path, names in found.items() if "tests" in names)
    assert offenders == []


def test_the_running_appliance_never_imports_the_testing_harness() -> None:
    """``controller.testing`` ships for the tests and the benchmarks; nothing else in the
    program may depend on it."""
    harness = ROOT / "controller" / "testing"
    for package in ("rules", "controller", "hardware"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.is_relative_to(harness):
                continue
            names = dotted_imports(path)
            assert not any(
                n == "controller.testing" or n.startswith("controller.testing.") for n in names
            ), path


# -- no import cycles ------------------------------------------------------------------


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_by_running(importer: str, target: str) -> list[str]:
    """The modules Python runs to import ``target`` from module ``importer``: every
    package on the way (``a`` and ``a.b`` for ``a.b.c``: their ``__init__`` runs first),
    then ``target`` itself. The packages ``importer`` lives in are not among them: they
    were entered before ``importer`` could run."""
    parts = target.split(".")
    prefixes = [".".join(parts[: i + 1]) for i in range(len(parts))]
    return [p for p in prefixes if p != importer and not importer.startswith(p + ".")]


def import_graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports, anywhere in its body
    (imports inside functions and under ``TYPE_CHECKING`` count too: a cycle hidden in a
    function is still two modules that cannot be understood one without the other).

    A package counts as the module its ``__init__`` is: ``import a.b.c`` and ``from
    a.b.c import x`` run ``a`` and ``a.b`` first, and ``from a.b import c`` runs ``a``,
    ``a.b``, and ``a.b.c`` too if that is a module."""
    modules = {module_name(path, root): path for path in sorted((root / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                # "from a.b import c" imports module a.b.c if there is one, else names of a.b
                targets = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            else:
                continue
            for target in targets:
                edges.update(m for m in imported_by_running(name, target) if m in modules)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_a_package_init_counts_as_an_import(tmp_path: Path) -> None:
    """A cycle through a package's ``__init__``: ``pkg.views`` hands on ``pkg.views.draw``,
    which needs ``pkg.games``, whose ``__init__`` loads a family, whose view imports a
    helper of ``pkg.views``, and so runs ``pkg.views`` (and ``draw``) again."""
    files = {
        "pkg/__init__.py": "",
        "pkg/views/__init__.py": "from pkg.views.draw import render\n",
        "pkg/views/draw.py": "from pkg.games import lookup\n",
        "pkg/views/ink.py": "RED = 1\n",
        "pkg/games/__init__.py": (
            "from pkg.games import family\nfrom pkg.games.registry import lookup\n"
        ),
        "pkg/games/registry.py": "",
        "pkg/games/family/__init__.py": "import pkg.games.family.view\n",
        "pkg/games/family/view.py": "from pkg.views.ink import RED\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = import_graph("pkg", tmp_path)
    assert graph["pkg.games.family.view"] == {"pkg.views", "pkg.views.ink"}
    assert graph["pkg.games.family"] == {"pkg.games.family.view"}  # its own package is entered
    assert graph["pkg.views.draw"] == {"pkg.games"}
    assert cycles(graph) == [
        ["pkg.games", "pkg.games.family", "pkg.games.family.view", "pkg.views", "pkg.views.draw"]
    ]


@pytest.mark.parametrize("package", ["rules", "controller", "hardware", "firmware"])
def test_no_import_cycle_inside_a_package(package: str) -> None:
    assert cycles(import_graph(package)) == []


# -- each game presents itself -----------------------------------------------------------

FAMILIES = ROOT / "controller" / "games"
RULE_FAMILIES = tuple(
    sorted(p.name for p in (ROOT / "rules").iterdir() if (p / "__init__.py").is_file())
)
"""The game families of the rules (one package each: track, backgammon, minimaki)."""
GAME_NAMES = ("maedn", "kleiner_aerger", "backgammon", "minimaki")
"""The games the product ships (the rules' registry names them; the controller must not)."""
GAME_TITLES = ("Mensch ärgere dich nicht", "Kleiner Ärger", "Backgammon", "Mini-Maki")
"""Their titles: the registry's ``GameInfo.title`` is the only place that says them."""
ENGINES = tuple(f"rules.{family}" for family in RULE_FAMILIES)
PRESENTATIONS = tuple(f"controller.games.{family}" for family in RULE_FAMILIES)
"""A family's own presentation package: the registry finds them, no generic module imports
one (``controller.games.presentation.load_families``)."""
STATE_TYPES = ("Maedn", "Backgammon", "Minimaki", "MiniMaki", "Track", "Play", "CubeAction")
NOT_SCANNED = {
    "controller/testing": "the test harness shipped in the package builds configs and saves",
}
"""Where the scan does not look, and why."""


def generic_modules() -> list[Path]:
    """Every controller module outside a family's own package (controller/games/<family>/)."""
    found = []
    for path in sorted((ROOT / "controller").rglob("*.py")):
        relative = str(path.relative_to(ROOT))
        if path.parent != FAMILIES and FAMILIES in path.parents:
            continue  # inside a family's own package
        if any(relative == skip or relative.startswith(skip + "/") for skip in NOT_SCANNED):
            continue
        found.append(path)
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """Strings that are documentation: docstrings, and the bare strings that document
    an attribute or a constant below its assignment."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def _imports(node: ast.AST) -> list[str]:
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return []


def game_knowledge(path: Path) -> list[str]:
    """Game names or titles in string literals, imports of a game's engine or of a
    family's presentation package, isinstance or type checks against a game's state or
    move type, in one module (docstrings and comments excepted)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings:
                continue
            text = node.value.replace("GNU Backgammon", "a program")  # a program's name
            words = set(re.findall(r"\w+", text.lower()))
            named = [g for g in GAME_NAMES if text == g or g in words]
            named += [t for t in GAME_TITLES if t in text]
            found += [f"line {node.lineno}: names {name!r}" for name in named]
        elif imported := _imports(node):
            module = imported[0]
            if module.startswith(ENGINES):
                found.append(f"line {node.lineno}: imports {module}")
            elif any(name.startswith(PRESENTATIONS) for name in imported):
                found.append(f"line {node.lineno}: imports a family's presentation")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass", "type")
            and node.args
        ):
            kinds = ast.unparse(node.args[-1] if node.func.id != "type" else node.args[0])
            if node.func.id != "type" and any(kind in kinds for kind in STATE_TYPES):
                found.append(f"line {node.lineno}: {node.func.id} against {kinds}")
        elif isinstance(node, ast.Compare) and any(
            isinstance(op, ast.Is | ast.IsNot | ast.Eq | ast.NotEq) for op in node.ops
        ):
            sides = [node.left, *node.comparators]
            if any(
                isinstance(side, ast.Call) and ast.unparse(side.func) == "type" for side in sides
            ):
                named = [ast.unparse(side) for side in sides if not isinstance(side, ast.Call)]
                if any(kind in text for text in named for kind in STATE_TYPES):
                    found.append(f"line {node.lineno}: type check against {named}")
    return found


def test_generic_controller_modules_know_no_game() -> None:
    """Outside a family's presentation package nothing in controller/ names a game,
    imports a game's engine or tests a game's state type: it asks the registration."""
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in generic_modules()
        if (found := game_knowledge(path))
    }
    assert offenders == {}


def test_the_scan_finds_game_knowledge(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""maedn in a docstring is fine."""\n'
        "from rules.backgammon.engine import BackgammonState\n"
        "from controller.games.track import words\n"
        "from controller.games import minimaki\n"
        "def f(state):\n"
        '    return state.game.name == "minimaki" or isinstance(state, BackgammonState)\n'
        "def g(state, move):\n"
        '    title = "Mini-Maki for one"\n'
        '    hint = "no hint (backgammon only)"\n'
        "    return type(state) is MaednState or type(move) == Play\n",
        encoding="utf-8",
    )
    assert sorted(game_knowledge(sample)) == [
        "line 10: type check against ['MaednState']",
        "line 10: type check against ['Play']",
        "line 2: imports rules.backgammon.engine",
        "line 3: imports a family's presentation",
        "line 4: imports a family's presentation",
        "line 6: isinstance against BackgammonState",
        "line 6: names 'minimaki'",
        "line 8: names 'Mini-Maki'",
        "line 9: names 'backgammon'",
    ]


def test_the_rules_families_facts_hold_no_words() -> None:
    """The rules keep typed facts (enums, dataclasses, numbers), never prose for
    players: no string in a family's facts module, beyond its docstrings, has a space."""
    prose = []
    for family in RULE_FAMILIES:
        path = ROOT / "rules" / family / "facts.py"
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and any(char.isspace() for char in node.value)
            ):
                prose.append(f"rules/{family}/facts.py:{node.lineno}: {node.value!r}")
    assert RULE_FAMILIES == ("backgammon", "minimaki", "track")
    assert prose == []


def test_the_loop_and_the_appliance_never_write_the_tables_fields() -> None:
    """The table is handed the time and told what happened; nothing outside assigns
    its fields (``table.now = ...``)."""
    offenders = []
    for name in ("loop.py", "app.py", "cli/run.py"):
        tree = ast.parse((ROOT / "controller" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and ast.unparse(target.value).endswith(
                    "table"
                ):
                    offenders.append(f"{name}:{node.lineno}: {ast.unparse(target)}")
    assert offenders == []


# -- games speak through typed facts -------------------------------------------------------

JSON_READS_ALLOWED: dict[str, str] = {}
"""Generic modules that may read a key of a ``to_json()`` result, and why. None needs
to: the save, the history record and the command line's JSON output serialise whole
values (a ``to_json()`` written, unpacked or compared as it is), which the scan does
not count; what a game's JSON holds is read only in its family's own package."""


def _is_to_json(node: ast.AST | None) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "to_json"
    )


def _json_arguments(tree: ast.AST) -> dict[str, set[str]]:
    """The parameters of this module's functions that some call hands a ``to_json()``."""
    functions = {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    handed: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        function = functions.get(node.func.id)
        if function is None:
            continue
        params = [*function.args.posonlyargs, *function.args.args]
        for param, arg in zip(params, node.args, strict=False):
            if _is_to_json(arg):
                handed.setdefault(function.name, set()).add(param.arg)
        for keyword in node.keywords:
            if keyword.arg is not None and _is_to_json(keyword.value):
                handed.setdefault(function.name, set()).add(keyword.arg)
    return handed


def json_key_reads(source: str) -> list[str]:
    """Reads of a key of a ``to_json()`` result in one module: a subscript, a ``.get``
    (``pop``, ``setdefault``) or an ``in`` test on ``x.to_json()`` itself, on a name
    bound to it in the same function, or on a parameter that a call in the module hands
    it. Writing, unpacking, comparing or printing a whole JSON value is not a read."""
    tree = ast.parse(source)
    handed = _json_arguments(tree)
    scopes: list[ast.AST] = [tree]
    scopes += [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    found: set[tuple[int, str]] = set()
    for scope in scopes:
        nodes = list(ast.walk(scope))
        bound = set(handed.get(getattr(scope, "name", ""), ()))
        for node in nodes:
            if isinstance(node, ast.Assign | ast.AnnAssign) and _is_to_json(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                bound.update(t.id for t in targets if isinstance(t, ast.Name))

        def from_json(expr: ast.AST, bound: set[str] = bound) -> bool:
            return _is_to_json(expr) or (isinstance(expr, ast.Name) and expr.id in bound)

        for node in nodes:
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
                hit = from_json(node.value)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                hit = node.func.attr in ("get", "pop", "setdefault") and from_json(node.func.value)
            elif isinstance(node, ast.Compare):
                hit = any(isinstance(op, ast.In | ast.NotIn) for op in node.ops) and any(
                    from_json(side) for side in node.comparators
                )
            else:
                hit = False
            if hit:
                found.add((getattr(node, "lineno", 0), ast.unparse(node)))
    return [f"line {line}: {text}" for line, text in sorted(found)]


def test_generic_controller_modules_read_no_game_json() -> None:
    """Outside a family's own package, nothing in controller/ reads a game's facts from
    its JSON by key: the players, the opening roll and the dice on show are the state's
    typed facts (``rules.core.State``), the rest the family's presentation hooks. The
    test harness (controller/testing) is scanned as well."""
    offenders = {}
    for path in sorted((ROOT / "controller").rglob("*.py")):
        relative = str(path.relative_to(ROOT))
        if path.parent != FAMILIES and FAMILIES in path.parents:
            continue  # inside a family's own package
        if relative in JSON_READS_ALLOWED:
            continue
        if found := json_key_reads(path.read_text(encoding="utf-8")):
            offenders[relative] = found
    assert offenders == {}


def test_the_scan_finds_json_key_reads() -> None:
    """Each shape of read the generic modules made before they asked the state."""
    sample = (
        "def opening(state):\n"
        '    return state.to_json().get("phase") == "opening"\n'
        "def players(state):\n"
        '    return state.to_json()["players"]\n'
        "def throw(before):\n"
        "    data = before.to_json()\n"
        '    opening = data.get("opening") or {}\n'
        '    return "rolls" in before.to_json(), opening\n'
        "def line(state):\n"
        "    return describe(state.to_json())\n"
        "def describe(facts):\n"
        '    return facts.get("tries")\n'
        "def fine(state, record):\n"
        "    data = state.to_json()\n"
        '    data["seen"] = True\n'
        "    return {**state.to_json(), 1: data}, state.to_json() == record, dump(data)\n"
    )
    assert json_key_reads(sample) == [
        "line 2: state.to_json().get('phase')",
        "line 4: state.to_json()['players']",
        "line 7: data.get('opening')",
        "line 8: 'rolls' in before.to_json()",
        "line 12: facts.get('tries')",
    ]
