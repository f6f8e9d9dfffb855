"""No function of tally is longer than 60 lines (issue 9: a maintainer reads each one whole).

A function's length is the lines a maintainer reads in it, from its ``def`` to its last line:
each statement counts as one line however ``ruff format`` wraps it (a call whose arguments
stand one to a line is still one statement), and every docstring and comment line counts.
Blank lines and decorators do not.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

TALLY = Path(__file__).resolve().parents[1] / "tally"
LONGEST = 60
SKIPPED = {
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENCODING,
    tokenize.ENDMARKER,
}


def read_lines(source: str) -> set[int]:
    """The numbers of the lines a reader reads: where a statement starts, each line of a
    string that stands as a statement (a docstring), and each comment line."""
    lines: set[int] = set()
    in_statement = False
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NEWLINE:
            in_statement = False
        elif token.type == tokenize.COMMENT:
            lines.add(token.start[0])
        elif token.type not in SKIPPED and not in_statement:
            in_statement = True
            lines.update(range(token.start[0], token.end[0] + 1))
    return lines


def lengths(source: str) -> dict[str, int]:
    """Each function's (and method's) length in ``source``, by its qualified line name."""
    read = read_lines(source)
    out: dict[str, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            span = range(node.lineno, node.end_lineno + 1)
            out[f"{node.name} (line {node.lineno})"] = sum(1 for n in span if n in read)
    return out


def test_a_wrapped_call_counts_once_and_comments_and_docstrings_count_whole() -> None:
    source = (
        'def f(a,\n      b):\n    """One.\n\n    Two."""\n    # why\n'
        "    g(a,\n      b)\n\n    return 1\n"
    )
    assert lengths(source) == {"f (line 1)": 7}


def test_no_function_is_longer_than_sixty_lines() -> None:
    too_long = []
    for path in sorted(TALLY.rglob("*.py")):
        too_long += [
            f"{path.relative_to(TALLY.parent)}: {name}: {n} lines"
            for name, n in lengths(path.read_text(encoding="utf-8")).items()
            if n > LONGEST
        ]
    assert too_long == []
