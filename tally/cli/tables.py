"""Tables on the terminal (with ``rich``, imported when a table is printed) and as CSV.

Every standings and pairings command prints the same rows three ways: a rich table for people,
``--csv`` for spreadsheets and ``--json`` (the library's dataclasses) for programs.
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from tally.cli.common import fail
from tally.errors import Message
from tally.i18n import N_

CsvOption = Annotated[bool, typer.Option("--csv", help="Print CSV (a header line, then rows).")]

Cell = str | int | float | None


def number(value: float | int) -> str:
    """A count or match points as printed: ``1``, ``1.5``, ``-3``.

    >>> number(2.0), number(1.5), number(-3)
    ('2', '1.5', '-3')
    """
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def signed(value: int | float) -> str:
    """A difference with its sign: ``+5``, ``0``, ``-2``."""
    return f"+{number(value)}" if value > 0 else number(value)


def one_format(json_out: bool, csv_out: bool) -> None:
    """Refuse ``--json`` together with ``--csv``."""
    if json_out and csv_out:
        fail(Message(N_("give --json or --csv, not both")))


#: What a spreadsheet takes for the start of a formula (or, tab and carriage return, what
#: can hide one) when a cell begins with it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """A text cell that no spreadsheet runs as a formula: a cell beginning with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return gets a single quote in front, as spreadsheet-safe
    CSV writers do (OWASP "CSV injection"); the quote shows, the formula does not run.

    Only text cells are touched: numbers (a game-point difference of ``-3``) are written by
    :func:`write_csv` as numbers and stay numbers, and the cross-table's lone ``+`` and ``-``
    (a match won or lost by forfeit) are kept, since a single sign is no formula.

    >>> spreadsheet_safe("=HYPERLINK(evil)"), spreadsheet_safe("Anna"), spreadsheet_safe("-")
    ("'=HYPERLINK(evil)", 'Anna', '-')
    """
    if text in ("+", "-") or not text.startswith(FORMULA_STARTS):
        return text
    return "'" + text


def write_csv(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    """Print ``rows`` as CSV under ``header``; numbers as :func:`number` prints them, text
    made :func:`spreadsheet_safe`."""
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow([spreadsheet_safe(h) for h in header])
    for row in rows:
        writer.writerow(
            [
                ""
                if c is None
                else number(c)
                if isinstance(c, int | float)
                else spreadsheet_safe(c)
                for c in row
            ]
        )


def print_table(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[Cell]],
    *,
    right: Sequence[int] = (),
    notes: Sequence[str] = (),
) -> None:
    """Print a table with rich: ``right`` are the indexes of right-aligned (number) columns,
    ``notes`` lines printed under it. Output that is not a terminal gets a wide page, so that
    no column is cut."""
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(width=None if sys.stdout.isatty() else 250, highlight=False, soft_wrap=False)
    table = Table(title=escape(title), box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    for i, name in enumerate(header):
        table.add_column(escape(name), justify="right" if i in right else "left", no_wrap=True)
    for row in rows:
        table.add_row(
            *[
                "" if c is None else number(c) if isinstance(c, int | float) else escape(c)
                for c in row
            ]
        )
    console.print(table)
    for note in notes:
        console.print(note, markup=False)
