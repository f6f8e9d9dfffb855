"""No function of tally outside ``tally/cli/`` is longer than 60 lines (issues 9 and 34: a
maintainer reads each one whole).

A function's length is the lines a reader sees in it: every line from its ``def`` to its last
line that is not blank, so a call whose arguments stand one to a line counts each of those
lines, and every docstring and comment line counts. Blank lines (and blank lines inside a
docstring) and decorators do not. The command-line commands (``tally/cli/``) and the generated
``tally/store/tables.py`` are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

TALLY = Path(__file__).resolve().parents[1] / "tally"
LONGEST = 60
NOT_COUNTED = (TALLY / "cli", TALLY / "store" / "tables.py")


def lengths(source: str) -> dict[str, int]:
    """Each function's (and method's) length in ``source``, by its name and ``def`` line: its
    lines that are not blank, from the ``def`` line (after any decorators) to its last line."""
    lines = source.splitlines()
    out: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            seen = lines[node.lineno - 1 : node.end_lineno]
            out[f"{node.name} (line {node.lineno})"] = sum(1 for line in seen if line.strip())
    return out


def test_every_line_a_reader_sees_counts_but_blank_lines_and_decorators() -> None:
    source = (
        "@decorated\n"
        'def f(a,\n      b):\n    """One.\n\n    Two."""\n    # why\n'
        "    g(a,\n      b)\n\n    return 1\n"
    )
    assert lengths(source) == {"f (line 2)": 8}


def counted(path: Path) -> bool:
    return not any(path == skip or skip in path.parents for skip in NOT_COUNTED)


def test_no_function_is_longer_than_sixty_lines() -> None:
    too_long = []
    for path in sorted(p for p in TALLY.rglob("*.py") if counted(p)):
        too_long += [
            f"{path.relative_to(TALLY.parent)}: {name}: {n} lines"
            for name, n in lengths(path.read_text(encoding="utf-8")).items()
            if n > LONGEST
        ]
    assert too_long == []
