"""The engine stands alone: it imports no CLI, database or template code."""

from __future__ import annotations

import functools
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

ENGINE = (
    "tally.engine.cards",
    "tally.engine.rules",
    "tally.engine.deal",
    "tally.engine.notation",
    "tally.engine.ruling",
    "tally.engine.match",
    "tally.engine.rulebook",
    "tally.events.schedule",
    "tally.events.tiebreaks",
)
HEAVY = (
    "typer",
    "click",
    "sqlmodel",
    "sqlalchemy",
    "alembic",
    "jinja2",
    "weasyprint",
    "rich",
    "tally.cli",
    "tally.store",
    "tally.sheets.build",
    "tally.sheets.render",
)


def _third_party_imports(path: Path) -> set[str]:
    """The top-level names of the packages that ``path`` imports anywhere (lazily too)."""
    import ast

    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


def test_the_engine_and_every_tally_module_it_imports_import_no_heavy_library() -> None:
    # In the inner loop for test_importing_the_engine_loads_no_cli_database_or_template_library
    # (a fresh process, slow): what the engine reaches by any import, lazy ones too, names
    # none of HEAVY; and it plays and rules a whole match (as the second process test does).
    import random

    from tally.engine.match import simulate_match
    from tally.engine.rules import RuleSet
    from tally.engine.ruling import rule

    imports = _imports()
    root = Path(__file__).resolve().parents[2]
    reached, todo = set(), list(ENGINE)
    while todo:
        module = todo.pop()
        if module in reached or module not in imports:
            continue
        reached.add(module)
        parents = [".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)]
        todo += [src for src, _ in imports[module]] + parents
    assert set(ENGINE) <= reached
    heavy = sorted(
        (module, name)
        for module in reached
        for name in _third_party_imports(root / _path_of(module))
        if name in HEAVY or name.partition(".")[0] in HEAVY
    )
    assert heavy == []
    assert not reached & set(HEAVY)
    records = simulate_match(RuleSet.parse("sixty-six"), ("A", "B"), "A", random.Random(1))
    assert all(rule(r).agreed for r in records)


def _path_of(module: str) -> str:
    """The source file of a tally module, relative to the checkout."""
    base = module.replace(".", "/")
    root = Path(__file__).resolve().parents[2]
    return base + "/__init__.py" if (root / base).is_dir() else base + ".py"


@pytest.mark.slow  # a real process; test_the_engine_and_every_tally_module_it_imports_... above
def test_importing_the_engine_loads_no_cli_database_or_template_library() -> None:
    code = (
        f"import sys\nfor m in {ENGINE!r}: __import__(m)\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


@pytest.mark.slow  # a real process; in the loop: the last lines of the static test above
def test_the_engine_plays_and_rules_a_whole_match_on_its_own() -> None:
    code = (
        "import random\nfrom tally.engine.match import simulate_match\n"
        "from tally.engine.rules import RuleSet\nfrom tally.engine.ruling import rule\n"
        "rs = simulate_match(RuleSet.parse('sixty-six'), ('A', 'B'), 'A', random.Random(1))\n"
        "print(all(rule(r).agreed for r in rs))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "True"


@functools.cache
def _imports() -> Mapping[str, frozenset[tuple[str, str]]]:
    """Each tally module's imports of tally modules, with the names taken from them (the
    sources parsed once per test process, read-only: four tests read them)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "tally"
    out: dict[str, frozenset[tuple[str, str]]] = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found: set[tuple[str, str]] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.startswith("tally"):
                    found |= {(node.module, a.name) for a in node.names}
            elif isinstance(node, ast.Import):
                found |= {(a.name, "") for a in node.names if a.name.startswith("tally.")}
        out[module] = frozenset(found)
    return out


def test_no_module_imports_another_modules_private_names() -> None:
    # the engine's modules (tally/*.py); the store and CLI parts pin their own
    private = sorted(
        (m, f"{src}.{name}")
        for m, found in _imports().items()
        for src, name in found
        if name.startswith("_") and src != m and m.count(".") == 1
    )
    assert private == []


ENGINE_ORDER = (
    "tally.engine.ruling",
    "tally.engine.replay",
    "tally.engine.match",
    "tally.engine.deal",
    "tally.engine.decision",
    "tally.engine.evidence",
    "tally.engine.rulebook",
    "tally.engine.rules",
    "tally.engine.notation",
    "tally.engine.cards",
    "tally.engine.kernel",
    "tally.errors",
)


def test_engine_imports_run_one_way() -> None:
    # ruling -> replay -> deal -> decision -> evidence -> rules/notation -> cards -> kernel
    # -> errors; match sits beside replay (it plays and rules whole matches).
    imports = _imports()
    backwards = []
    for module in ENGINE_ORDER:
        for src, _name in imports.get(module, set()):
            if (
                src in ENGINE_ORDER
                and src != module
                and (
                    ENGINE_ORDER.index(src) < ENGINE_ORDER.index(module)
                    and {module, src} != {"tally.engine.match", "tally.engine.ruling"}
                )
            ):
                backwards.append((module, src))
    assert sorted(backwards) == []


def test_there_is_no_import_cycle_inside_the_engine() -> None:
    # the engine's modules (tally/*.py), lazy imports included
    graph = {
        m: {src for src, _ in found if src != m and src.count(".") == 1}
        for m, found in _imports().items()
        if m.count(".") == 1
    }
    seen: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> list[str] | None:
        seen[m] = 1
        for n in sorted(graph.get(m, ())):
            if seen.get(n) == 1:
                return [*path, m, n]
            if n not in seen and n in graph:
                cycle = visit(n, [*path, m])
                if cycle:
                    return cycle
        seen[m] = 2
        return None

    for m in sorted(graph):
        if m not in seen:
            assert visit(m, []) is None


STORE_ORDER = (
    "tally.store.store",
    "tally.store.recording",
    "tally.store.matches",
    "tally.store.players",
    "tally.store.corrections",
    "tally.store.derivation",
    "tally.store.transactions",
)


def test_the_store_modules_import_one_way_and_no_private_names() -> None:
    # Store is a facade over one module per concern; each may use only those after it, and
    # none another's private names (the printing package's modules are held to that too).
    imports = _imports()
    private = sorted(
        (m, f"{src}.{name}")
        for m, found in imports.items()
        for src, name in found
        if name.startswith("_")
        and src != m
        and m.startswith(("tally.store", "tally.sheets", "tally.files.loading"))
    )
    assert private == []
    # (each module names the Store class in its annotations: a TYPE_CHECKING import only)
    backwards = sorted(
        (m, src)
        for m in STORE_ORDER
        for src, name in imports.get(m, set())
        if src in STORE_ORDER
        and STORE_ORDER.index(src) < STORE_ORDER.index(m)
        and (src, name) != ("tally.store.store", "Store")
    )
    assert backwards == []
