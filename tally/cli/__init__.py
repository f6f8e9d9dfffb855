"""The ``tally`` command line: a thin Typer layer over the engine and the store.

Start-up is lazy: :data:`COMMANDS` names every command, the module that registers it on
:data:`app` and its line in ``tally --help``; only the module of the command being run is
imported (and only its commands are built into click objects), so ``tally check`` never pays
for ``tally deal`` or ``tally serve``. Heavy libraries (sqlmodel, sqlalchemy, alembic,
weasyprint) are imported only inside the commands that need them.

Adding a command: write ``tally/cli/NAME.py`` with ``@app.command()`` (or
``app.add_typer(sub_app, name=...)``) as before, and add one line to :data:`COMMANDS`.
``tests/test_cli_structure.py`` fails when a registered command is missing from
:data:`COMMANDS`, sits in another module, or its help line differs from the command's own.
"""

from __future__ import annotations

import copy
import importlib
import os
import sys
from typing import Any

import typer
from typer._click import Command, Context, HelpFormatter
from typer.core import TyperCommand, TyperGroup

HELP = "Score and check Sixty-Six and Schnapsen deals, matches and tournaments."

def _root() -> None:
    # No options of its own: it makes Typer build ``app`` as a group (a LazyGroup, below),
    # even while no command module has been imported.
    return None


app = typer.Typer(
    name="tally",
    help=HELP,
    callback=_root,
    cls=None,  # set to LazyGroup below, once the class exists
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Every command: name -> (module under ``tally.cli`` that registers it, its help line as
#: ``tally --help`` lists it: the first paragraph of its docstring or its group's help).
#: The order is the order of ``tally --help``: single commands first, then command groups.
COMMANDS: dict[str, tuple[str, str]] = {
    "init": ("storage", "Create the database (or bring it up to date) and say where it is; fill "
                        "the cache of\ndeal results that standings are summed from, if this "
                        "version of tally has not."),
    "analyse": ("analyse", "Analyse deals: was the close sound, what was best play worth, "
                           "could the claim have come\nearlier, which phase-2 card threw the "
                           "deal away. With --match or --event: per player, the\ncloses made "
                           "and sound and the game points lost to unsound closes and to late "
                           "claims."),
    "check": ("check", "Replay deal records and rule on them."),
    "rules": ("check", "Print a rule set's options and values, so a club can see what it is "
                       "playing."),
    "standings": ("standings", "Standings of an event, or of a season (--season): matches "
                               "played, won and lost, match\npoints, game points won and "
                               "conceded and their difference, schneider and schwarz wins,\n"
                               "and the tiebreaks in order; players still level share the rank."),
    "load": ("load", "Load events kept as files into the database and show their standings."),
    "serve": ("serve", "Serve the table pages, the live standings and the director's pages on "
                       "the local\nnetwork; prints the director's address and PIN. Stop it with "
                       "Ctrl-C: everything\nacknowledged is stored, a restart carries on."),
    "audit": ("storage", "The log of every change, and undoing a change."),
    "deal": ("deals", "Deals: start, play, undo, record interactively, quick entry, import, "
                      "export, edit, delete, show."),
    "event": ("events", "Events: club evenings, round robins and Swiss events; rounds, "
                        "pairings, cross-tables."),
    "print": ("printing", "Printed sheets as PDF: a match's score sheet or a blank form, the "
                          "ruling sheet of a recorded deal."),
    "match": ("matches", "Matches: start, show, list, delete."),
    "player": ("players", "Players: add, list, show, rename, merge, alias."),
}


def command(name: str) -> Command | None:
    """The click command ``tally NAME`` runs, built from its module alone; None for an
    unknown name.

    Importing the module registers its commands on :data:`app`; only the ones named ``name``
    are turned into click objects (Typer's per-command cost is paid for what runs).
    """
    if name not in COMMANDS:
        return None
    importlib.import_module(f"tally.cli.{COMMANDS[name][0]}")
    short = app.pretty_exceptions_short
    for info in app.registered_commands:
        found = info.name or typer.main.get_command_name(getattr(info.callback, "__name__", ""))
        if found == name:
            return typer.main.get_command_from_info(
                info, pretty_exceptions_short=short, rich_markup_mode=app.rich_markup_mode)
    for group in app.registered_groups:
        if group.name == name:
            return typer.main.get_group_from_info(
                group, pretty_exceptions_short=short, suggest_commands=True,
                rich_markup_mode=app.rich_markup_mode)
    return None


def load_all() -> TyperGroup:
    """The whole app as Typer builds it (a plain group) with every command module imported:
    what the lazy group stands for (the tests compare the two). The modules are imported in
    alphabetical order, as the app imported them before it started lazily: Typer lists the
    commands in the order they were registered."""
    for module in sorted({module for module, _help in COMMANDS.values()}):
        importlib.import_module(f"tally.cli.{module}")
    full = copy.copy(app)
    full.info = copy.copy(app.info)
    full.info.cls = TyperGroup
    return typer.main.get_group(full)


class LazyGroup(TyperGroup):
    """The top-level ``tally`` group: lists every command of :data:`COMMANDS` by its help line
    and builds only the one that runs."""

    def __init__(self, *, commands: object = None, **attrs: Any) -> None:
        # Typer passes the commands of the modules imported so far: ignored, every command is
        # built when it runs, from its module alone.
        listed: dict[str, Command] = {name: TyperCommand(name=name, help=help_line)
                                      for name, (_module, help_line) in COMMANDS.items()}
        super().__init__(commands=listed, **attrs)
        self.listing = False

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        """The placeholder with the help line while the help is printed, else the command."""
        if self.listing:
            return self.commands.get(cmd_name)
        return command(cmd_name)

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        """``tally --help``: the full app's help, without importing a command module."""
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


app.info.cls = LazyGroup


def main() -> None:
    """Entry point of the ``tally`` console script: :func:`run` with the command line."""
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
    """``tally check`` called directly (see :func:`plain_check`): its exit status.

    Loaded by name, like every command module: they import :data:`app` from here, never the
    reverse."""
    check = importlib.import_module(f"tally.cli.{COMMANDS['check'][0]}").check

    try:
        check(files, json_out=json_out, referee=referee)
    except typer.Exit as done:
        return int(done.exit_code)
    return 0


def run(args: list[str] | None = None, *, fast: bool = True) -> int:
    """Run ``tally ARGS`` (the command line when None) and return the exit status; what the
    user sees is written to stdout and stderr.

    A usage error (an unknown option, a number that is not one) is one line on stderr, like
    every other refusal, with exit status 2; ``tally`` alone, or a command group alone,
    still prints its help. ``fast=False`` sends a plain ``check`` through Typer too (the tests
    compare the two paths).
    """
    try:
        plain = plain_check(sys.argv[1:] if args is None else args) if fast else None
        if plain is not None:
            return _run_plain_check(*plain)
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
