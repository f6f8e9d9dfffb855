"""The ``tally`` command line: a thin Typer layer over the engine and the store.

Start-up is lazy. :data:`COMMANDS` names every command and the module that registers it on
:data:`app`; only the module of the command being run is
imported (and only its commands are built into click objects), so ``tally check`` never pays
for ``tally deal`` or ``tally serve``. Heavy libraries (sqlmodel, sqlalchemy, alembic,
weasyprint) are imported only inside the commands that need them.

This module imports no Typer: :func:`run` first tries the plain paths, which print exactly
what Typer would and never import Typer, Click, rich or pydantic:

- ``tally --help`` to a file or a pipe (:mod:`tally.cli.plain_help`: the text generated from the
  app's help by ``python -m tally.cli.reference``);
- a plain ``tally check FILE...`` (:func:`plain_check`: :mod:`tally.cli.checking` called
  directly: no Typer, no Click, no pydantic converters).

Everything else, and whatever a plain path declines, goes through the Typer app of
:mod:`tally.cli.application` (``from tally.cli import app`` loads it), so messages and exit
statuses stay Typer's.

Adding a command: write ``tally/cli/NAME.py`` with ``@app.command()`` (or
``app.add_typer(sub_app, name=...)``) as before, add one line to :data:`COMMANDS` and run
``python -m tally.cli.reference`` (the help it lists, and docs/cli.md).
``tests/cli/test_structure.py`` fails when a registered command is missing from
:data:`COMMANDS` or sits in another module; ``tests/cli/test_reference.py`` when the generated
help differs from the commands' own.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer
    from typer.core import TyperGroup

    #: the Typer app (in :mod:`tally.cli.application`, loaded on first use)
    app: typer.Typer

#: Every command: name -> the module under ``tally.cli`` that registers it. Its help is the
#: command's own (its docstring, its options' help); ``tally --help`` lists the commands from
#: :mod:`tally.cli.generated_help`, generated from that help.
COMMANDS: dict[str, str] = {
    "init": "storage",
    "analyse": "analyse",
    "check": "check",
    "rules": "check",
    "standings": "standings",
    "load": "load",
    "serve": "serve",
    "publish": "publish",
    "audit": "storage",
    "deal": "deals",
    "event": "events",
    "print": "printing",
    "match": "matches",
    "player": "players",
    "ratings": "ratings",
    "series": "series",
    "team": "teams",
}


def _application() -> Any:
    """:mod:`tally.cli.application`, loaded by name like every command module: it imports
    :data:`COMMANDS` from here, never the reverse."""
    return importlib.import_module("tally.cli.application")


def __getattr__(name: str) -> Any:
    """``app`` (and ``LazyGroup``, ``command``): the Typer application, loaded on first use."""
    if name in ("app", "LazyGroup", "command"):
        return getattr(_application(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_all() -> TyperGroup:
    """The whole app as Typer builds it with every command module imported
    (:func:`tally.cli.application.load_all`)."""
    group: TyperGroup = _application().load_all()
    return group


#: whether this process was started by :func:`main` (the ``tally`` command), which holds
#: Python's cyclic garbage collector while tally starts (:func:`started`, :func:`opening`)
_PROCESS = False


def started() -> None:
    """tally has started: the command's own work begins. In a process of its own
    (:func:`main`) the collector, held since the process began, comes back on, and the
    objects made so far (modules, classes, Typer's commands: they live as long as the
    process) are frozen first (:func:`gc.freeze`), so that no collection ever goes through them
    again. Without the hold it would collect again and again among the objects just made,
    finding next to nothing (with :func:`opening`, about a third of a database command's
    start-up)."""
    if _PROCESS and not gc.isenabled():
        gc.freeze()
        gc.enable()


@contextmanager
def opening() -> Iterator[None]:
    """The collector held again while the store is imported and opened (SQLAlchemy, the
    database driver, the store's modules: start-up too), in a process of its own only."""
    if not _PROCESS or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        started()


def main() -> None:
    """Entry point of the ``tally`` console script: :func:`run` with the command line, the
    garbage collector held until the command starts (:func:`started`)."""
    global _PROCESS
    _PROCESS = True
    gc.disable()
    sys.exit(run())


def plain_check(args: list[str]) -> tuple[list[str], bool, bool] | None:
    """The files, ``--json`` and ``--referee`` of a plain ``tally check`` command line (files
    and those two flags in any order, at least one file), else None.

    A plain ``check`` is the hot path (a scorer's editor or a script checks record after
    record): :func:`run` calls the command's function directly, without building click
    objects and Typer's pydantic converters, for the same output and exit status. Anything
    else (``--help``, ``--``, an unknown or misspelt option, no file) goes through Typer for
    its messages.

    >>> plain_check(["check", "a.deal", "--json", "-"])
    (['a.deal', '-'], True, False)
    >>> plain_check(["check", "--jsn", "a.deal"]) is None
    True
    """
    if not args or args[0] != "check":
        return None
    files: list[str] = []
    flags = {"--json": False, "--referee": False}
    for arg in args[1:]:
        if arg in flags:
            flags[arg] = True
        elif arg.startswith("-") and arg != "-":
            return None
        else:
            files.append(arg)
    return (files, flags["--json"], flags["--referee"]) if files else None


def _run_plain_check(files: list[str], json_out: bool, referee: bool) -> int:
    """``tally check`` called directly (see :func:`plain_check`): its exit status. The
    command's work lives in :mod:`tally.cli.checking`, which imports neither Typer nor Click."""
    from tally.cli.checking import check_files

    started()
    return check_files(files, json_out=json_out, referee=referee)


def _plain(args: list[str]) -> int | None:
    """The exit status of ``tally ARGS`` on a plain path, or None when Typer must run it."""
    if args == ["--help"]:
        from tally.cli.plain_help import plain_help

        text = plain_help()
        if text is None:
            return None
        sys.stdout.write(text)
        return 0
    plain = plain_check(args)
    if plain is not None:
        return _run_plain_check(*plain)
    return None


def run(args: list[str] | None = None, *, fast: bool = True) -> int:
    """Run ``tally ARGS`` (the command line when None) and return the exit status; what the
    user sees is written to stdout and stderr.

    A usage error (an unknown option, a number that is not one) is one line on stderr, like
    every other refusal, with exit status 2; ``tally`` alone, or a command group alone,
    still prints its help. ``fast=False`` sends everything through Typer (the tests compare
    the plain paths with it). Whatever happens, no traceback: an unexpected error is one line
    and exit status 3.
    """
    line = sys.argv[1:] if args is None else args
    try:
        status = _plain(line) if fast else None
        if status is not None:
            return status
        code: int = _application().run_typer(args)
        return code
    except KeyboardInterrupt:
        from tally.cli.common import INTERRUPTED, last_words
        from tally.errors import Message

        sys.stderr.write(last_words(Message(INTERRUPTED), line))
        return 130
    except Exception as exc:  # last line of defence: never a traceback for the user
        if os.environ.get("TALLY_DEBUG"):
            raise
        from tally.cli.common import internal_error, last_words

        sys.stderr.write(last_words(internal_error(exc), line))
        return 3
