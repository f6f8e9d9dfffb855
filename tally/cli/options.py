"""Options shared by the commands that speak a language: ``--lang de|en``.

Apart from :mod:`tally.cli.common` because it needs Typer, which the plain paths of
:mod:`tally.cli` (``--help``, ``check``) do without.
"""

from __future__ import annotations

from typing import Annotated

import typer

from tally.cli.common import Language

__all__ = ["LangOption"]

#: ``--lang de|en`` of every command whose readable output or sheet speaks a language.
LangOption = Annotated[
    Language | None,
    typer.Option(
        "--lang",
        case_sensitive=False,
        help="Language of the readable output and sheets: en or de (default: the event's "
        "language, else the locale's LC_ALL / LC_MESSAGES / LANG, else English). JSON and "
        "CSV stay English.",
    ),
]
