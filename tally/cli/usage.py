"""A usage error (an unknown option, a missing argument, a number that is not one) as a
:class:`~tally.errors.Message`, made from the exception's parts (its option, parameter and
the value refused), never from Click's English text: the command line says it in the
user's language as it says any refusal.

The English templates say what Click says, so English output is unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import get_close_matches
from typing import Any, Final

from tally.errors import N_, Message

#: The line's frame: the problem, then where the usage is.
USAGE: Final = N_("%(problem)s (`%(command)s --help` shows the usage)")
NO_OPTION: Final = N_("No such option: %(option)s")
POSSIBLE: Final = N_("%(problem)s (Possible options: %(options)s)")
MISSING: Final = {
    "argument": N_("Missing argument %(name)s."),
    "option": N_("Missing option %(name)s."),
}
NEEDS_VALUE: Final = N_("Option %(option)s requires an argument.")
NO_VALUE: Final = N_("Option %(option)s does not take a value.")
EXTRA: Final = N_("Got unexpected extra argument(s) (%(arguments)s)")
NO_COMMAND: Final = N_("No such command %(command)s.")
MEANT: Final = N_("No such command %(command)s. Did you mean %(commands)s?")
NOT_WHOLE: Final = N_("Invalid value for %(name)s: %(value)s is not a whole number")
NOT_NUMBER: Final = N_("Invalid value for %(name)s: %(value)s is not a number")
INVALID: Final = N_("Invalid value for %(name)s: %(value)s")
#: pydantic's error types of a value that is not a number of the kind asked for
_NUMBERS: Final = {
    "int_parsing": NOT_WHOLE,
    "int_from_float": NOT_WHOLE,
    "float_parsing": NOT_NUMBER,
}


def _hint(exc: Any) -> str:
    """The parameter refused as Click names it (``'ROUND'``, ``'--lang'``)."""
    param = getattr(exc, "param", None)
    if param is None:
        return repr(str(getattr(exc, "param_hint", "") or ""))
    return str(param.get_error_hint())


def _bad_value(exc: Any) -> Message | None:
    """A value refused by its type (pydantic's error, kept as the cause), else None."""
    errors = getattr(exc.__cause__, "errors", None)
    if not callable(errors):
        return None
    found = errors()
    if not found:
        return None
    kind, value = found[0].get("type", ""), found[0].get("input", "")
    template = _NUMBERS.get(kind, INVALID)
    return Message(template, name=_hint(exc), value=repr(str(value)))


def _option_usage(exc: Any, args: Sequence[str]) -> Message:
    """An option given without its value, or a flag given one (``--json=3``: Click refuses
    a value only when it is given with ``=``)."""
    name = str(getattr(exc, "option_name", ""))
    given = any(arg.startswith(f"{name}=") for arg in args)
    return Message(NO_VALUE if given else NEEDS_VALUE, option=repr(name))


def problem(exc: Any, args: Sequence[str] = ()) -> Message | None:
    """What a usage error says, as a message; None for one this module does not know (Click's
    own words are said then). ``args`` is the command line, for the words no command takes."""
    name = type(exc).__name__
    if name == "NoSuchOption":
        said = Message(NO_OPTION, option=str(exc.option_name))
        if exc.possibilities:
            return Message(POSSIBLE, problem=said, options=", ".join(sorted(exc.possibilities)))
        return said
    if name == "MissingParameter":
        kind = getattr(exc.param, "param_type_name", "") if exc.param is not None else ""
        return Message(MISSING.get(kind, MISSING["argument"]), name=_hint(exc))
    if name == "BadOptionUsage":
        return _option_usage(exc, args)
    if name == "BadParameter":
        return _bad_value(exc)
    if name == "UsageError" and exc.ctx is not None:
        return _words_left(exc.ctx, args)
    return None


def _no_command(ctx: Any, name: str) -> Message:
    """A group's unknown command, with the names close to it (as Typer suggests them)."""
    meant = get_close_matches(name, list(ctx.command.commands))
    if meant:
        return Message(MEANT, command=repr(name), commands=", ".join(map(repr, meant)))
    return Message(NO_COMMAND, command=repr(name))


def _words_left(ctx: Any, args: Sequence[str]) -> Message | None:
    """An unknown command of a group, or the words a command takes none of: found from the
    command line by where the command stands in it (every group is a word of the path)."""
    at = len(ctx.command_path.split()) - 1
    if hasattr(ctx.command, "commands"):
        return _no_command(ctx, args[at]) if len(args) > at else None
    try:
        _, left, _ = ctx.command.make_parser(ctx).parse_args(args=list(args[at:]))
    except Exception:  # (refused again: the message it had stands)
        return None
    return Message(EXTRA, arguments=" ".join(left)) if left else None


def usage_message(exc: Any, command: str, args: Sequence[str] = ()) -> Message | None:
    """The whole line of a usage error (without ``tally: ``), else None."""
    said = problem(exc, args)
    return None if said is None else Message(USAGE, problem=said, command=command)


def requested_language(args: Sequence[str]) -> str | None:
    """The ``--lang`` of a command line that did not parse (None: not given)."""
    for i, arg in enumerate(args):
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
    return None
