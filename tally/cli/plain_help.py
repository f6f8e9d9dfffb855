"""``tally --help`` to a file or a pipe without importing Typer, Click, rich or pydantic (about
0.1 s of start-up): the text Typer and rich print there, generated from the app's help into
:mod:`tally.cli.generated_help` (``python -m tally.cli.reference``), printed as it is.

It is the text at :data:`WIDTH` columns, the width rich gives a pipe when no terminal is
around. Anything else goes to Typer (:func:`plain_help` returns None): a terminal (rich adds
colours), another width (``$COLUMNS``, or a terminal on stdin or stderr: ``tally --help |
less``), an environment that makes rich style its output otherwise or switches it off
(``FORCE_COLOR``, ``TTY_COMPATIBLE``, ``TYPER_USE_RICH``...).
``tests/cli/test_reference.py`` regenerates the text and compares.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

#: the width of the generated ``tally --help``: rich's width for a file or a pipe
WIDTH = 80
#: environment variables that make rich style, size or detect its console otherwise
#: (``TYPER_USE_RICH`` may switch rich off: Click's plain help then)
STYLING = (
    "FORCE_COLOR",
    "PY_COLORS",
    "GITHUB_ACTIONS",
    "TTY_COMPATIBLE",
    "TERMINAL_WIDTH",
    "_TYPER_FORCE_DISABLE_TERMINAL",
    "JUPYTER_COLUMNS",
    "JUPYTER_LINES",
    "TYPER_USE_RICH",
)


def console_width(environ: Mapping[str, str]) -> int:
    """The width rich gives its console: ``$COLUMNS`` when it is digits, else the size of the
    first of stdin, stdout and stderr that is a terminal, else 80 (rich's ``Console.size``)."""
    columns = environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    width = None
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    return width or 80


def plain_help(environ: Mapping[str, str] | None = None) -> str | None:
    """``tally --help`` as Typer would print it to stdout now, when stdout is a file or a pipe
    of :data:`WIDTH` columns and nothing asks rich for another output; None otherwise (Typer
    prints it)."""
    env = os.environ if environ is None else environ
    try:
        if sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    if any(name in env for name in STYLING) or console_width(env) != WIDTH:
        return None
    from tally.cli.generated_help import TEXT

    return TEXT
