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
from tally.cli import analyse as _analyse  # noqa: E402,F401
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
    """Entry point of the ``tally`` console script: :func:`run` with the command line."""
    sys.exit(run())


def run(args: list[str] | None = None) -> int:
    """Run ``tally ARGS`` (the command line when None) and return the exit status; what the
    user sees is written to stdout and stderr.

    A usage error (an unknown option, a number that is not one) is one line on stderr, like
    every other refusal, with exit status 2; ``tally`` alone, or a command group alone,
    still prints its help.
    """
    try:
        status = app(args, prog_name="tally", standalone_mode=False)
    except typer.TyperException as exc:
        ctx = getattr(exc, "ctx", None)
        code = int(getattr(exc, "exit_code", 2))
        if ctx is None or type(exc).__name__ == "NoArgsIsHelpError":
            show = getattr(exc, "show", None)
            if show is not None:
                show()
            return code
        from tally.cli.common import printable

        message = printable(" ".join(str(exc.format_message()).split()))
        sys.stderr.write(f"tally: {message} (`{ctx.command_path} --help` shows the usage)\n")
        return code
    except (typer.Abort, KeyboardInterrupt):
        sys.stderr.write("tally: interrupted\n")
        return 130
    except Exception as exc:  # last line of defence: never a traceback for the user
        if os.environ.get("TALLY_DEBUG"):
            raise
        from tally.cli.common import printable, scrub

        sys.stderr.write(f"tally: internal error: {type(exc).__name__}: "
                         f"{printable(scrub(str(exc)))}\n"
                         "       (set TALLY_DEBUG=1 to see the traceback)\n")
        return 3
    return status if isinstance(status, int) else 0
