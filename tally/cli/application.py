"""The Typer application behind ``tally``: :data:`app`, the lazy top-level group, and running
a command line through it with tally's error boundary (:func:`run_typer`).

Imported only when Typer is needed: every command module registers its commands on
:data:`app` (``from tally.cli import app`` loads this module), and :func:`tally.cli.run` hands
any command line its plain paths do not take (see :mod:`tally.cli`) to :func:`run_typer`.
``tally --help`` printed to a file or a pipe and a plain ``tally deal play`` never import
Typer, Click, rich or pydantic.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import sys
from dataclasses import dataclass
from typing import Any

import typer
from typer._click import Command, Context, HelpFormatter
from typer._coercion import RuntimeParam, build_runtime_param
from typer.core import TyperCommand, TyperGroup, TyperOption, _TyperParameter

from tally.cli import COMMANDS, started
from tally.cli.usage import USAGE, requested_language, usage_message
from tally.errors import Message

HELP = "Score and check Sixty-Six and Schnapsen deals, matches and tournaments."


def help_line(text: str) -> str:
    """``text`` as one line of a command list: its line breaks and runs of spaces made single
    spaces (rich would break the line where the source's lines break).

    >>> help_line("Deals: start,\\n  play.")
    'Deals: start, play.'
    """
    return " ".join(text.split())


def _untyped(option: TyperOption | None) -> TyperOption | None:
    """The ``--help`` option shown without a type: it takes no value (Typer shows
    ``<bool>``); its value converted plainly (:func:`convert_plainly`)."""
    if option is not None:
        option.metavar = ""
        convert_plainly(option)
    return option


class Leaf(TyperCommand):
    """A command of tally: its ``--help`` row shows no type."""

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        """The help option, untyped."""
        return _untyped(super().get_help_option(ctx))

    def invoke(self, ctx: Context) -> Any:
        """Run the command: tally has started (:func:`tally.cli.started`)."""
        started()
        return super().invoke(ctx)


class Group(TyperGroup):
    """A command group of tally: its ``--help`` row shows no type."""

    def get_help_option(self, ctx: Context) -> TyperOption | None:
        """The help option, untyped."""
        return _untyped(super().get_help_option(ctx))


def _tidy(typer_app: typer.Typer) -> None:
    """Give every command and group under ``typer_app`` tally's classes (:class:`Leaf`,
    :class:`Group`) and a help line in one piece: a group lists its commands by the first
    paragraph of their help, which rich would otherwise break where the docstring's lines
    break."""
    for info in typer_app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = Leaf
        if info.short_help is None:
            text = info.help or inspect.getdoc(info.callback) or ""
            info.short_help = help_line(text.split("\n\n")[0])
    for group in typer_app.registered_groups:
        sub = group.typer_instance
        if sub is None:
            continue
        if isinstance(sub.info.cls, typer.models.DefaultPlaceholder) or sub.info.cls in (
            None,
            TyperGroup,
        ):
            sub.info.cls = Group
        help_text = sub.info.help
        if isinstance(help_text, str) and isinstance(
            group.short_help, typer.models.DefaultPlaceholder
        ):
            group.short_help = help_line(help_text.split("\n\n")[0])
        _tidy(sub)


#: what :func:`plain_value` returns for a value it leaves to Typer
NOT_PLAIN: Any = object()


def plain_value(annotation: Any, value: Any) -> Any:
    """``value`` converted as Typer's pydantic converter would for the plain cases (text for a
    ``str``, True or False for a ``bool``, a float for a ``float``, ASCII digits with an
    optional minus for an ``int``, texts for a ``list[str]``), else :data:`NOT_PLAIN`.

    >>> plain_value(int, "-12"), plain_value(str, "Anna"), plain_value(list[str], ("a", "b"))
    (-12, 'Anna', ['a', 'b'])
    >>> plain_value(int, "1e3") is NOT_PLAIN, plain_value(int, "+3") is NOT_PLAIN
    (True, True)
    """
    if annotation in (str, bool, int, float) and type(value) is annotation:
        return value
    if annotation is int:
        digits = value[1:] if isinstance(value, str) and value.startswith("-") else value
        if isinstance(digits, str) and digits.isascii() and digits.isdigit() and len(digits) < 19:
            return int(value)
    if annotation == list[str] and isinstance(value, list | tuple):
        if all(type(item) is str for item in value):
            return list(value)
    return NOT_PLAIN


@dataclass(frozen=True)
class PlainParam(RuntimeParam):
    """A parameter's value converted without pydantic (importing it is about a sixth of a
    database command's start-up): no value stays None (:meth:`RuntimeParam.coerce`), a plain
    value is converted by :func:`plain_value`; any other value, or a parameter with bounds or
    a parser of its own, goes to Typer's converter (:func:`typer._coercion.build_runtime_param`),
    so what it accepts and its messages stay Typer's."""

    def _coerce_value(self, value: Any, param: _TyperParameter, ctx: Context) -> Any:
        info = self.parameter_info
        if info.parser is None and info.min is None and info.max is None and not info.clamp:
            found = plain_value(self.annotation, value)
            if found is not NOT_PLAIN:
                return found
        typers = build_runtime_param(param.type_descriptor)
        param._runtime_param = typers
        return typers._coerce_value(value, param=param, ctx=ctx)


def convert_plainly(param: Any) -> None:
    """Give ``param`` (a Typer parameter whose converter is not built yet) a
    :class:`PlainParam`."""
    if isinstance(param, _TyperParameter) and param._runtime_param is None:
        param._runtime_param = PlainParam(
            param.type_descriptor.parameter_info, param.type_descriptor.annotation
        )


def plainly(command: Command) -> Command:
    """``command`` (and, for a group, every command under it) with its parameters converted
    plainly where they can be (:func:`convert_plainly`)."""
    for param in command.params:
        convert_plainly(param)
    for sub in getattr(command, "commands", {}).values():
        plainly(sub)
    return command


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


def command(name: str) -> Command | None:
    """The click command ``tally NAME`` runs, built from its module alone; None for an
    unknown name.

    Importing the module registers its commands on :data:`app`; only the ones named ``name``
    are turned into click objects (Typer's per-command cost is paid for what runs).
    """
    if name not in COMMANDS:
        return None
    importlib.import_module(f"tally.cli.{COMMANDS[name]}")
    _tidy(app)
    short = app.pretty_exceptions_short
    for info in app.registered_commands:
        found = info.name or typer.main.get_command_name(getattr(info.callback, "__name__", ""))
        if found == name:
            return plainly(
                typer.main.get_command_from_info(
                    info, pretty_exceptions_short=short, rich_markup_mode=app.rich_markup_mode
                )
            )
    for group in app.registered_groups:
        if group.name == name:
            return plainly(
                typer.main.get_group_from_info(
                    group,
                    pretty_exceptions_short=short,
                    suggest_commands=True,
                    rich_markup_mode=app.rich_markup_mode,
                )
            )
    return None


def load_all() -> TyperGroup:
    """The whole app as Typer builds it (a plain group) with every command module imported:
    what the lazy group stands for (the tests compare the two). The modules are imported in
    alphabetical order, as the app imported them before it started lazily: Typer lists the
    commands in the order they were registered."""
    for module in sorted(set(COMMANDS.values())):
        importlib.import_module(f"tally.cli.{module}")
    _tidy(app)
    full = copy.copy(app)
    full.info = copy.copy(app.info)
    full.info.cls = Group
    return typer.main.get_group(full)


class LazyGroup(Group):
    """The top-level ``tally`` group: lists every command by its help line (generated from the
    commands' help: :mod:`tally.cli.generated_help`) and builds only the one that runs."""

    def __init__(self, *, commands: object = None, **attrs: Any) -> None:
        # Typer passes the commands of the modules imported so far: ignored, every command is
        # built when it runs, from its module alone.
        from tally.cli.generated_help import LINES

        listed: dict[str, Command] = {
            name: Leaf(name=name, help=line, short_help=line) for name, line in LINES.items()
        }
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


def run_typer(args: list[str] | None) -> int:
    """Run ``tally ARGS`` through Typer and return the exit status (see :func:`tally.cli.run`).

    A usage error (an unknown option, a number that is not one) is one line on stderr, like
    every other refusal, with exit status 2; ``tally`` alone, or a command group alone,
    still prints its help.
    """
    try:
        status = app(args, prog_name="tally", standalone_mode=False)
    except typer.TyperException as exc:
        ctx = getattr(exc, "ctx", None)
        code = int(getattr(exc, "exit_code", 2))
        said = usage_message(exc, "tally" if ctx is None else ctx.command_path, _line(args))
        if said is None and (ctx is None or type(exc).__name__ == "NoArgsIsHelpError"):
            show = getattr(exc, "show", None)
            if show is not None:
                show()
            return code
        from tally.cli.common import in_language, refusal

        if said is None:  # (Click's own words: a usage error this house does not word)
            said = Message(USAGE, problem=" ".join(str(exc.format_message()).split()))
            said = said.with_values(command="tally" if ctx is None else ctx.command_path)
        sys.stderr.write(refusal(in_language(said, requested_language(_line(args)))) + "\n")
        return code
    except typer.Abort:
        from tally.cli.common import INTERRUPTED, last_words

        sys.stderr.write(last_words(Message(INTERRUPTED), _line(args)))
        return 130
    return status if isinstance(status, int) else 0


def _line(args: list[str] | None) -> list[str]:
    """The command line Typer read."""
    return sys.argv[1:] if args is None else args
