"""Options shared by several commands: ``--lang de|en`` (every command) and
``--jobs N`` (those that analyse many deals).

Apart from :mod:`tally.cli.common` because it needs Typer, which the plain paths of
:mod:`tally.cli` (``--help``, ``check``) do without.
"""

from __future__ import annotations

from typing import Annotated

import typer

from tally.cli.common import Language

__all__ = ["JobsOption", "LangOption"]

#: ``--lang de|en`` of every command: what its readable output, its refusals and its sheets
#: speak (a test holds every command to it).
LangOption = Annotated[
    Language | None,
    typer.Option(
        "--lang",
        case_sensitive=False,
        help="Language of the readable output, refusals and sheets: en or de (default: the event's "
        "language, else the locale's LC_ALL / LC_MESSAGES / LANG, else English). JSON and "
        "CSV stay English.",
    ),
]

#: ``--jobs N`` of the commands that analyse many deals (``tally analyse``, ``tally print
#: analysis``): the processes sharing the work, 0 for one per core.
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs",
        min=0,
        max=256,
        help="Processes analysing deals side by side (default 0: one per core; 1: none).",
    ),
]


# The options of a season (a date range): `tally standings`, `tally event money`, `tally print`.
SeasonOption = Annotated[
    bool,
    typer.Option("--season", help="A season's standings: the club evenings held in a date range."),
]
FromOption = Annotated[
    str | None,
    typer.Option("--from", metavar="YYYY-MM-DD", help="Season: the first day (default: open)."),
]
ToOption = Annotated[
    str | None,
    typer.Option("--to", metavar="YYYY-MM-DD", help="Season: the last day (default: open)."),
]
MoneySeasonOption = Annotated[
    bool, typer.Option("--season", help="A season's money: the events held in a date range.")
]
