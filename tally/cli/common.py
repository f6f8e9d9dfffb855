"""Shared pieces of the command line: the error boundary and output helpers.

Library errors (:class:`tally.errors.TallyError`) become one clean line on stderr and an exit
status, in the manner of sqlite-utils; no user input produces a traceback.

The line is in the command's language (its ``--lang``, else the language of the event it is
about once the command knows it, else the locale; :func:`in_language`). An error carries its
words as a template and its values (``error.wording``, a :class:`tally.errors.Message`): the
engine's messages (an illegal action, an impossible record, text that is not a card, a rule
set that cannot be read), the store's refusals (no such match, a round that cannot start yet,
a deal that is over...), with the words the store and the command line put around them at the
table (:data:`AS_PLAYED`, :data:`EDIT_KEPT`, :data:`CANNOT_READ`), are worded from the
catalogue by :func:`tally.i18n.worded` (an entry that would record a violation too: its one
sentence, as the recorder says it, :func:`tally.cli.lines.careful_line`). A
message whose template is not in the catalogue (plain text, or the system's own words) stays
English whole: a refusal is never half translated. English costs nothing more: the wording is
loaded only for another language.

Every command takes ``--lang`` (:data:`tally.cli.options.LangOption`); :func:`guard` keeps it
for the refusal, and :func:`language` gives it to whatever the command prints.

Before a command runs, :func:`guard` also refuses arguments no command can use: text that was
not UTF-8 when typed (Python keeps such bytes as surrogate escapes), a NUL character, and
numbers beyond what a database id can be (2**63 - 1). The password of a ``--db`` URL never
appears in a message (:func:`hide_secrets_of`).

Typer is imported inside the functions that need it, so that the plain paths of
:mod:`tally.cli` (``--help``, ``check``) can use the rest without it.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import typing
from collections.abc import Callable
from contextvars import ContextVar
from datetime import date
from enum import StrEnum
from typing import Any, Final, NoReturn, ParamSpec, TypeVar
from urllib.parse import unquote

from tally.errors import HEADED, Message, TallyError, system_reason
from tally.i18n import N_

P = ParamSpec("P")
R = TypeVar("R")

#: Exit status for bad input: an unreadable record, an unknown player, a refused action.
EXIT_ERROR = 2
#: the largest number a database id can be (SQLite INTEGER, PostgreSQL BIGINT)
MAX_ID = 2**63 - 1
#: What ``tally check`` and ``tally analyse`` say of a file they cannot read: a record that is
#: not UTF-8 (the engine's message, worded in the language spoken), a file that cannot be
#: opened (the system's words, English).
CANNOT_READ: Final = N_("%(file)s: cannot be read: %(message)s")
#: What ``tally deal play`` adds to the refusal of an entry that would record a violation.
AS_PLAYED: Final = N_("%(message)s. If it happened at the table, record it with --as-played.")
#: The line ``tally deal edit`` adds when the edited record is refused.
EDIT_KEPT: Final = N_("nothing was changed; your edit is kept in %(path)s")
#: A refusal and a line after it (no words of its own), as :func:`refusal` indents it.
THEN: Final = "%(refusal)s\n       %(then)s"
#: What any command says when the user stops it (Ctrl-C), exit status 130.
INTERRUPTED: Final = N_("interrupted")
#: What any command says of an error nobody foresaw (exit status 3), instead of a traceback:
#: the exception's kind and its own words, as Python gave them.
INTERNAL_ERROR: Final = N_(
    "internal error: %(kind)s: %(message)s\n(set TALLY_DEBUG=1 to see the traceback)"
)

_SECRETS: set[str] = set()
#: The ``--lang`` of the command :func:`guard` runs (None: not given, or the command has none).
_REQUESTED: ContextVar[str | None] = ContextVar("tally_refusal_language", default=None)
#: The language of the event the command :func:`guard` runs is about, once it has asked
#: :func:`language` with it (None: no event, or one without a language).
_EVENT: ContextVar[str | None] = ContextVar("tally_event_language", default=None)
_USERINFO = re.compile(r"^[^:/?#]*://(?P<info>[^/?#]*)@")


def hide_secrets_of(url: str | None) -> None:
    """Remember the password of a database URL so that no message shows it.

    >>> hide_secrets_of("mysql://u:s3cret@host/x")
    >>> scrub("cannot connect to mysql://u:s3cret@host/x")
    'cannot connect to mysql://u:***@host/x'
    """
    if not url:
        return
    m = _USERINFO.match(url) or re.match(r"^[^:/?#]*://(?P<info>.*)@", url)
    if m is None:
        return
    password = m.group("info").partition(":")[2]
    for secret in {password, unquote(password)}:
        if secret:
            _SECRETS.add(secret)


def scrub(text: str) -> str:
    """``text`` with every remembered password replaced by ``***``."""
    for secret in sorted(_SECRETS, key=len, reverse=True):
        text = text.replace(f":{secret}@", ":***@")
        if len(secret) >= 4:
            text = text.replace(secret, "***")
    return text


def printable(text: str) -> str:
    """Text for a message: bytes that were not UTF-8 shown as ``\\xe9``, control characters
    escaped, so that a message stays one line.

    >>> printable("Caf\\udce9\\x00")
    'Caf\\\\xe9\\\\x00'
    """
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def refusal(message: str) -> str:
    """``message`` as :func:`fail` prints it: ``tally: message``, each further line indented,
    no password, nothing unprintable."""
    lines = [printable(line) for line in scrub(message).splitlines()] or [""]
    return "tally: " + "\n       ".join(lines)


def in_language(message: str | Message, lang: str | None = None) -> str:
    """A refusal's ``message`` in the language of the command: ``lang``, else the ``--lang``
    of the command :func:`guard` runs, else the language of the event it is about (once the
    command has asked :func:`language` with it), else the locale's. Not English: a message's
    template and values worded from the catalogue (:func:`tally.i18n.worded`; plain text
    stays as it is)."""
    chosen = language(lang if lang is not None else _REQUESTED.get(), _EVENT.get())
    if chosen == "en" or isinstance(message, str):
        return str(message)
    from tally.i18n import worded

    return worded(message, chosen)


def last_words(message: Message, args: list[str]) -> str:
    """The line a command ends with when it is stopped or fails unforeseen (``tally:
    interrupted``), in the language of the command line ``args`` (its ``--lang``, else the
    locale's); English when even that cannot be worded."""
    from tally.cli.usage import requested_language

    try:
        return refusal(in_language(message, requested_language(args))) + "\n"
    except Exception:  # (the last words never fail)
        return refusal(str(message)) + "\n"


def internal_error(exc: BaseException) -> Message:
    """The words of an error nobody foresaw: :data:`INTERNAL_ERROR`."""
    return Message(INTERNAL_ERROR, kind=type(exc).__name__, message=printable(scrub(str(exc))))


def fail(message: str | Message, code: int = EXIT_ERROR, *, lang: str | None = None) -> NoReturn:
    """Print ``message`` on stderr as ``tally: message`` (one line, no password; in the
    command's language, :func:`in_language`) and exit with ``code``."""
    import typer

    typer.echo(refusal(in_language(message, lang)), err=True)
    raise typer.Exit(code)


def say_written(path: object) -> None:
    """Say where a file went (``Wrote PATH``), in the command's language."""
    import typer

    from tally.i18n import worded

    typer.echo(worded(Message(N_("Wrote %(file)s"), file=path), language(None)))


def bad_text(value: str) -> bool:
    """Whether ``value`` holds a NUL or bytes that were not UTF-8 when typed."""
    return "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value)


def _label(fn: Callable[..., Any], name: str) -> str:
    """How the user typed parameter ``name`` of command ``fn``: ``MATCH``, ``--db``."""
    import inspect

    import typer

    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:  # a hint that cannot be resolved: fall back to the name
        hints = {}
    for meta in getattr(hints.get(name), "__metadata__", ()):
        decls = getattr(meta, "param_decls", None)
        if isinstance(meta, typer.models.OptionInfo):
            # In Annotated form Typer keeps the first declaration as the "default".
            long = [
                d
                for d in (getattr(meta, "default", None), *(decls or ()))
                if isinstance(d, str) and d.startswith("--")
            ]
            return long[0] if long else "--" + name.replace("_", "-")
        if isinstance(meta, typer.models.ArgumentInfo):
            return str(meta.metavar or name.upper())
    default = inspect.signature(fn).parameters.get(name)
    if default is not None and isinstance(default.default, typer.models.OptionInfo):
        return "--" + name.replace("_", "-")
    return name.upper()


def check_arguments(fn: Callable[..., Any], kwargs: dict[str, Any]) -> None:
    """Refuse, naming the argument, text that is not UTF-8 or holds a NUL, and integers
    no id or count can reach (beyond 2**63 - 1, or below -(2**63))."""
    for name, value in kwargs.items():
        values = value if isinstance(value, list | tuple) else [value]
        for v in values:
            if isinstance(v, str) and bad_text(v):
                fail(
                    Message(
                        N_(
                            '%(argument)s "%(text)s": not UTF-8 text (the terminal sent '
                            "bytes in another encoding; set it to UTF-8 and type it again)"
                        ),
                        argument=_label(fn, name),
                        text=printable(v),
                    )
                )
            if isinstance(v, int) and not isinstance(v, bool) and not -MAX_ID - 1 <= v <= MAX_ID:
                digits = str(v)
                shown: str | Message = digits
                if len(digits) > 30:
                    shown = Message(
                        N_("%(start)s... (%(digits)s digits)"),
                        start=digits[:20],
                        digits=len(digits),
                    )
                fail(
                    Message(
                        N_(
                            "%(argument)s %(number)s: out of range (numbers here go up to "
                            "%(most)s); there is nothing with that number"
                        ),
                        argument=_label(fn, name),
                        number=shown,
                        most=MAX_ID,
                    )
                )


def guard(fn: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that bad arguments and a :class:`TallyError` become a clean message
    and exit 2, in the command's language (its ``--lang``, else the locale's)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        db = kwargs.get("db")
        hide_secrets_of(db if isinstance(db, str) else os.environ.get("TALLY_DB"))
        lang = kwargs.get("lang")
        token = _REQUESTED.set(None if lang is None else str(lang))
        event_token = _EVENT.set(None)
        try:
            check_arguments(fn, dict(kwargs))
            return fn(*args, **kwargs)
        except TallyError as exc:
            fail(exc.wording)
        except OSError as exc:
            reason = system_reason(exc)
            fail(Message(HEADED, head=exc.filename, message=reason) if exc.filename else reason)
        finally:
            _EVENT.reset(event_token)
            _REQUESTED.reset(token)

    return wrapper


def echo_json(obj: Any) -> None:
    """Print ``obj`` as one line of strict JSON (non-ASCII kept as is): never ``NaN`` or
    ``Infinity``, which are not JSON (the inputs that could make them are refused)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n")


class Language(StrEnum):
    """The languages of ``--lang`` (:data:`tally.i18n.LANGUAGES`)."""

    EN = "en"
    DE = "de"


def language(requested: Language | str | None, event: str | None = None) -> str:
    """The language a command speaks (:func:`tally.i18n.resolve`): ``--lang`` (``requested``,
    else that of the command :func:`guard` runs), else the event's, else the locale's, else
    English. The event's language is kept for the command's refusals too
    (:func:`in_language`)."""
    from tally.i18n import resolve

    if requested is None:
        requested = _REQUESTED.get()
    if event:
        _EVENT.set(event)
    return resolve(None if requested is None else str(requested), event)


def asked_correction(asked: Any, *, dry_run: bool, yes: bool) -> bool:
    """Say what a correction changes (a :class:`tally.store.comparison.Correction`, each line
    in the current language) and whether to store it: not with ``--dry-run``, at once with
    ``--yes``, else when the director answers yes. Prints why nothing is stored when not."""
    import typer

    from tally.i18n import gettext as _
    from tally.i18n import worded

    if not asked.changes_anything:
        typer.echo(_("No change."))
        return False
    for line in asked.lines():
        typer.echo(worded(line))
    if dry_run:
        typer.echo(_("Nothing was stored (--dry-run)."))
        return False
    if yes or typer.confirm(_("Store this correction?"), default=False, abort=False):
        return True
    typer.echo(_("Nothing was stored."))
    return False


def parse_date(text: str | None, what: str = "date") -> date | None:
    """A date typed as YYYY-MM-DD; a clean error otherwise."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        fail(
            Message(
                N_('%(what)s: "%(text)s" is not a date (give YYYY-MM-DD)'), what=what, text=text
            )
        )
