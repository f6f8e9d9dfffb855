"""No function of tally is longer than 60 lines (issue 9: a maintainer reads each one whole).

A function's length is its whole extent, as ``ast`` gives it: the ``def`` line to its last
line, docstring, comments and blank lines included (decorators not). The one allowance is the
CLI's option lists: in ``tally/cli`` the lines of a command's parameters (between the ``def``
line and the body) are not counted, since Typer declares every option there.
"""

from __future__ import annotations

import ast
from pathlib import Path

TALLY = Path(__file__).resolve().parents[1] / "tally"
LONGEST = 60


def _lengths(source: str, *, option_lists: bool) -> dict[str, int]:
    """Each function's (and method's) length in ``source``, by its qualified line name; with
    ``option_lists``, less the lines of its parameters."""
    out: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if option_lists:
                length -= node.body[0].lineno - node.lineno - 1
            out[f"{node.name} (line {node.lineno})"] = length
    return out


def test_no_function_is_longer_than_sixty_lines() -> None:
    too_long = []
    for path in sorted(TALLY.rglob("*.py")):
        in_cli = path.relative_to(TALLY).parts[0] == "cli"
        lengths = _lengths(path.read_text(encoding="utf-8"), option_lists=in_cli)
        too_long += [f"{path.relative_to(TALLY.parent)}: {name}: {n} lines"
                     for name, n in lengths.items() if n > LONGEST]
    assert too_long == []


def test_the_measure_counts_docstrings_and_comments_and_spares_only_option_lists() -> None:
    body = "".join(f"    # note {i}\n" for i in range(57))
    source = f'def f(\n    a: int,\n    b: int,\n) -> None:\n    """Doc."""\n{body}    return\n'
    assert _lengths(source, option_lists=False) == {"f (line 1)": 63}
    assert _lengths(source, option_lists=True) == {"f (line 1)": 60}
