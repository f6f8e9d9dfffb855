"""Shared pieces of the command line: the error boundary and output helpers.

Library errors (:class:`tally.errors.TallyError`) become one clean line on stderr and an exit
status, in the manner of sqlite-utils; no user input produces a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn, ParamSpec, TypeVar

import typer

from tally.errors import TallyError

P = ParamSpec("P")
R = TypeVar("R")

#: Exit status for bad input: an unreadable record, an unknown player, a refused action.
EXIT_ERROR = 2


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    """Print ``message`` on stderr as ``tally: message`` and exit with ``code``."""
    typer.echo(f"tally: {message}", err=True)
    raise typer.Exit(code)


def guard(fn: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that a :class:`TallyError` becomes a clean message and exit 2."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except TallyError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "))

    return wrapper


def echo_json(obj: Any) -> None:
    """Print ``obj`` as one line of strict JSON (non-ASCII kept as is): never ``NaN`` or
    ``Infinity``, which are not JSON (the inputs that could make them are refused)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n")
