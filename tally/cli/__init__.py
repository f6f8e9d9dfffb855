"""The ``tally`` command line: a thin Typer layer over the engine and the store.

Each command module registers itself on :data:`app`; heavy libraries (sqlmodel, sqlalchemy,
alembic, weasyprint) are imported only inside the commands that need them, so ``tally --help``
and ``tally check`` start fast.
"""

from __future__ import annotations

import os
import sys

import typer

app = typer.Typer(
    name="tally",
    help="Score and check Sixty-Six and Schnapsen deals, matches and tournaments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Command modules: each adds its commands to ``app`` when imported.
from tally.cli import check as _check  # noqa: E402,F401
from tally.cli import deals as _deals  # noqa: E402,F401
from tally.cli import events as _events  # noqa: E402,F401
from tally.cli import load as _load  # noqa: E402,F401
from tally.cli import matches as _matches  # noqa: E402,F401
from tally.cli import players as _players  # noqa: E402,F401
from tally.cli import printing as _printing  # noqa: E402,F401
from tally.cli import serve as _serve  # noqa: E402,F401
from tally.cli import standings as _standings  # noqa: E402,F401
from tally.cli import storage as _storage  # noqa: E402,F401


def main() -> None:
    """Entry point of the ``tally`` console script."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("tally: interrupted\n")
        sys.exit(130)
    except Exception as exc:  # last line of defence: never a traceback for the user
        if os.environ.get("TALLY_DEBUG"):
            raise
        sys.stderr.write(f"tally: internal error: {type(exc).__name__}: {exc}\n"
                         "       (set TALLY_DEBUG=1 to see the traceback)\n")
        sys.exit(3)
