"""The import structure of tally: no cycle, no private name taken from another module, and
imports that run one way, top to bottom::

    cli, web  ->  sheets, files  ->  store  ->  analysis, events, vocabulary  ->  names
              ->  engine  ->  i18n, errors

(the engine's own order, ruling -> replay/match -> deal -> decision -> evidence -> rules/notation
-> cards -> kernel -> errors, is pinned in tests/engine/test_imports.py). Every import counts:
at module level, inside functions (a lazy import is still a dependency) and under
``TYPE_CHECKING``. The sources are parsed with :mod:`ast`, nothing is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "tally"


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> frozenset[str]:
    return frozenset(_module_of(p) for p in ROOT.rglob("*.py"))


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name of the module an ``ImportFrom`` reads from (relative ones too)."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


@cache
def imports() -> dict[str, frozenset[tuple[str, str]]]:
    """Each tally module -> the (tally module, name) pairs it imports; ``name`` is ``""`` for a
    whole module. ``from tally.store import tables`` counts as importing ``tally.store.tables``."""
    out: dict[str, frozenset[tuple[str, str]]] = {}
    for path in ROOT.rglob("*.py"):
        module = _module_of(path)
        found: set[tuple[str, str]] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                source = _resolve(module, path.name == "__init__.py", node)
                if source != "tally" and not source.startswith("tally."):
                    continue
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    found.add((sub, "") if sub in _modules() else (source, alias.name))
            elif isinstance(node, ast.Import):
                found |= {(a.name, "") for a in node.names if a.name.startswith("tally.")}
        out[module] = frozenset(found)
    return out


def graph() -> dict[str, set[str]]:
    """Module -> the other tally modules it imports."""
    return {
        m: {src for src, _ in found if src != m and src in _modules()}
        for m, found in imports().items()
    }


def cycles() -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), as sorted lists."""
    g = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for n in sorted(g.get(m, ())):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            group = []
            while True:
                n = stack.pop()
                group.append(n)
                if n == m:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for m in sorted(g):
        if m not in index:
            visit(m)
    return sorted(found)


def layer(module: str) -> int:
    """0 cli/web, 1 sheets, files and publishing, 2 store, 3 analysis, events and the words shown,
    4 names, 5 engine, 6 errors and the catalogue's marker."""
    top = module.split(".")[1] if module.count(".") else ""
    layers = {
        "cli": 0,
        "web": 0,
        "__main__": 0,
        "sheets": 1,
        "files": 1,
        "publish": 1,
        "store": 2,
        "analysis": 3,
        "events": 3,
        "vocabulary": 3,
        "names": 4,
        "engine": 5,
        "i18n": 6,
        "errors": 6,
    }
    return layers.get(top, 5)


def upward(from_layer: int) -> list[tuple[str, str]]:
    """Imports by modules of ``from_layer`` of a module in a layer above it."""
    return sorted(
        (m, n)
        for m, found in graph().items()
        if layer(m) == from_layer
        for n in found
        if layer(n) < from_layer and m != "tally"
    )


# -- the checker itself ------------------------------------------------------------------


def test_the_checker_sees_relative_package_and_lazy_imports() -> None:
    found = imports()
    # from tally.store import tables
    assert ("tally.store.tables", "") in found["tally.store.eventrows"]
    assert any(
        src == "tally.engine.notation" for src, _ in found["tally.cli.checking"]
    )  # in a function
    assert layer("tally.cli.serve") == 0 and layer("tally.store.store") == 2
    assert layer("tally.events.swiss") == 3 and layer("tally.engine.deal") == 5
    assert layer("tally.errors") == 6


# -- the rules ---------------------------------------------------------------------------


def private_imports() -> list[tuple[str, str]]:
    """(module, other module's private name) for every private name taken from elsewhere."""
    return sorted(
        (m, f"{src}.{name}")
        for m, found in imports().items()
        for src, name in found
        if name.startswith("_") and src != m and not name.startswith("__")
    )


def test_no_module_imports_another_modules_private_names() -> None:
    assert private_imports() == []


def test_no_module_outside_the_store_imports_another_modules_private_names() -> None:
    assert [(m, n) for m, n in private_imports() if layer(m) != 2] == []


def test_there_is_no_import_cycle_anywhere_in_tally() -> None:
    assert cycles() == []


def test_there_is_no_import_cycle_outside_the_web_app() -> None:
    assert [c for c in cycles() if not all(m.startswith("tally.web.") for m in c)] == []


def test_analysis_and_events_import_neither_store_nor_cli_nor_sheets_nor_files() -> None:
    assert upward(3) == []


def test_the_engine_imports_nothing_above_it() -> None:
    assert upward(5) == [] and upward(4) == []


def test_the_top_of_tally_holds_only_the_packages_and_the_shared_words() -> None:
    top = sorted(p.name for p in ROOT.iterdir() if p.suffix == ".py")
    assert top == [
        "__init__.py",
        "__main__.py",
        "errors.py",
        "i18n.py",
        "names.py",
        "vocabulary.py",
    ]


def test_errors_import_nothing_of_tally() -> None:
    assert graph()["tally.errors"] == set()


def test_the_store_imports_neither_cli_nor_sheets_nor_files() -> None:
    assert upward(2) == []


def test_the_store_never_imports_the_cli_or_the_web_app() -> None:
    assert [(m, n) for m, n in upward(2) if layer(n) == 0] == []


def test_sheets_and_files_never_import_the_cli_or_the_web_app() -> None:
    assert upward(1) == []


def _run_at_import(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of a module body that run when it is imported: not function bodies,
    not ``if TYPE_CHECKING:`` blocks (every branch of any other ``if`` or ``try``)."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.If):
            if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                yield from _run_at_import(node.orelse)
                continue
            yield from _run_at_import(node.body)
            yield from _run_at_import(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _run_at_import(block)
            for handler in node.handlers:
                yield from _run_at_import(handler.body)
        elif isinstance(node, (ast.ClassDef, ast.With)):
            yield node
            yield from _run_at_import(node.body)
        else:
            yield node


def _loaded_by_importing(start: str) -> tuple[set[str], set[str]]:
    """The tally modules that ``import start`` runs, by their imports at import time (parent
    packages included), and every other module those imports name."""
    paths = {_module_of(p): p for p in ROOT.rglob("*.py")}
    seen: set[str] = set()
    others: set[str] = set()
    todo = [start]
    while todo:
        module = todo.pop()
        parts = module.split(".")
        todo += [
            ".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) not in seen
        ]
        if module in seen or module not in paths:
            continue
        seen.add(module)
        path = paths[module]
        for node in _run_at_import(ast.parse(path.read_text(encoding="utf-8")).body):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                source = _resolve(module, path.name == "__init__.py", node)
                names = [source] + [f"{source}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name == "tally" or name.startswith("tally."):
                    if name in paths:
                        todo.append(name)
                elif name.partition(".")[0] != "__future__":
                    others.add(name.partition(".")[0])
    return seen, others


def test_the_command_line_starts_without_the_database_renderer_or_pdf_libraries() -> None:
    # In the inner loop for the fresh-process tests (slow): tests/store/test_schema.py's
    # test_the_command_line_does_not_import_the_database_libraries and tests/cli/test_print.py's
    # test_the_command_line_loads_no_renderer_or_database_until_a_sheet_is_printed. What
    # ``import tally.cli`` runs (imports inside functions and under TYPE_CHECKING left out,
    # every branch of an if or try counted) names none of them.
    modules, libraries = _loaded_by_importing("tally.cli")
    assert {"tally.cli", "tally"} <= modules
    assert "tally.store" not in modules and "tally.sheets.render" not in modules
    assert (
        libraries & {"sqlalchemy", "sqlmodel", "alembic", "weasyprint", "jinja2", "pypdf"} == set()
    )


def test_the_knockouts_rules_are_pure_code_the_store_keeps() -> None:
    # issue 34: the draw, lives, stages, play-offs, the final fill and the next round are
    # tally.events.knockout's, on plain values; the store part only keeps them.
    modules, libraries = _loaded_by_importing("tally.events.knockout")
    assert {"tally.events.knockout.rounds", "tally.events.knockout.stages"} <= modules
    assert not [m for m in modules if layer(m) < 3]
    assert libraries & {"sqlalchemy", "sqlmodel"} == set()
    rules = {"tally.events.knockout.rounds", "tally.events.knockout.stages"}
    assert rules <= graph()["tally.store.knockouts"] | graph()["tally.store.knockoutviews"]
    assert "tally.events.knockout" in graph()["tally.events.formats.knockout"]
