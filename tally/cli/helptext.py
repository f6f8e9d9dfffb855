"""``tally --help`` from the registry alone, for a file or a pipe: the text Typer and rich
print there, without importing Typer, Click, rich or pydantic (about 0.1 s of start-up).

When the help goes to a file or a pipe, rich writes plain text (no colours) in a fixed layout:
the usage and the app's help, each padded by one space, then two rounded panels, "Options"
(Typer's ``--help`` row, shown without a type) and "Commands" (each command's name and its
help line in one piece, wrapped to the width left). :func:`plain_help` writes exactly that,
from :data:`tally.cli.COMMANDS`.
Whatever it does not reproduce goes to Typer instead (:func:`plain_help` returns None): a
terminal (rich adds colours there), an environment that makes rich style or size its output
otherwise or switches it off (``FORCE_COLOR``, ``TTY_COMPATIBLE``, ``TERMINAL_WIDTH``,
``TYPER_USE_RICH``...), a width below :data:`MIN_WIDTH` (rich squeezes the columns there),
and help text that rich would read as markup or wrap by its own rules (brackets, tabs,
non-ASCII, a word wider than its column).
``tests/test_cli_help.py`` compares the two texts width by width.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

#: the narrowest width written here; narrower, rich's table layout shrinks columns: Typer
MIN_WIDTH = 40
USAGE = "Usage: tally [OPTIONS] COMMAND [ARGS]..."
#: Typer's row for ``--help`` in the Options panel, and its help text
HELP_OPTION = ("--help          ", "Show this message and exit.")
#: environment variables that make rich style, size or detect its console otherwise
#: (``TYPER_USE_RICH`` may switch rich off: Click's plain help then)
STYLING = ("FORCE_COLOR", "PY_COLORS", "GITHUB_ACTIONS", "TTY_COMPATIBLE", "TERMINAL_WIDTH",
           "_TYPER_FORCE_DISABLE_TERMINAL", "JUPYTER_COLUMNS", "JUPYTER_LINES", "TYPER_USE_RICH")


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


def _plain(text: str) -> bool:
    """Whether rich prints ``text`` as it is: no markup, single spaces, ASCII, one paragraph."""
    return (text.isascii() and "[" not in text and "\\" not in text and "\t" not in text
            and "  " not in text and "\n\n" not in text
            and all(line == line.strip() for line in text.split("\n")))


def wrap(text: str, width: int) -> list[str] | None:
    """``text`` broken into lines of at most ``width`` as rich breaks it (its lines kept,
    then words filled greedily); None when a word is wider than ``width``."""
    out: list[str] = []
    for line in text.split("\n"):
        current = ""
        for word in line.split(" "):
            if len(word) > width:
                return None
            if current and len(current) + 1 + len(word) > width:
                out.append(current)
                current = word
            else:
                current = f"{current} {word}" if current else word
        out.append(current)
    return out


def _panel(title: str, rows: list[str], width: int) -> list[str]:
    """A rounded rich panel of ``width`` around ``rows`` (one space inside each border)."""
    top = f"╭─ {title} " + "─" * (width - len(title) - 5) + "╮"
    return [top, *(f"│ {row.ljust(width - 4)} │" for row in rows), "╰" + "─" * (width - 2) + "╯"]


def _table(first: str, width: int, text: str, inner: int) -> list[str] | None:
    """One row of a panel's table: ``first`` (of ``width``) then ``text`` wrapped to the
    columns left of ``inner``, its later lines under the first."""
    lines = wrap(text, inner - width)
    if lines is None:
        return None
    return [(first if i == 0 else "").ljust(width) + line for i, line in enumerate(lines)]


def render(commands: Mapping[str, str], help_text: str, width: int) -> str | None:
    """The top-level help for ``commands`` (name -> help line) at ``width``, as rich writes it
    to a file; None when it would not be the same text (see the module's docstring)."""
    commands = {name: " ".join(line.split()) for name, line in commands.items()}
    texts = [help_text, HELP_OPTION[1], *commands.values()]
    if width < MIN_WIDTH or not all(_plain(t) for t in texts) or not commands:
        return None
    inner = width - 4
    name_width = max(len(name) for name in commands) + 2
    head: list[str] = [""]
    for block in (USAGE, help_text):
        lines = wrap(block, width - 2)
        if lines is None:
            return None
        head += [f" {line}" for line in lines] + [""]
    options = _table(HELP_OPTION[0], len(HELP_OPTION[0]), HELP_OPTION[1], inner)
    rows: list[str] = []
    for name, line in commands.items():
        row = _table(name, name_width, line, inner)
        if row is None or options is None:
            return None
        rows += row
    out = [line.ljust(width) for line in head]
    out += _panel("Options", options or [], width) + _panel("Commands", rows, width)
    return "\n".join(out) + "\n\n"


def plain_help(commands: Mapping[str, str], help_text: str,
               environ: Mapping[str, str] | None = None) -> str | None:
    """``tally --help`` as Typer would print it to stdout now, when stdout is a file or a pipe
    and nothing asks rich for another output; None otherwise (Typer prints it)."""
    env = os.environ if environ is None else environ
    try:
        if sys.stdout.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    if any(name in env for name in STYLING):
        return None
    return render(commands, help_text, console_width(env))
