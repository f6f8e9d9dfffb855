"""The plain path of ``tally deal play``: the hot command of a scorer at the table (or of a
script feeding a match card by card), started without Typer and without SQLAlchemy.

:func:`plain_play` reads exactly the grammar of ``tally deal play MATCH ACTIONS...`` with its
options ``--as-played``, ``--referee``, ``--at``/``--expect POSITION``, ``--db URL`` and
``--scorer NAME`` (each at most once, anywhere, ``--opt VALUE`` or ``--opt=VALUE``).
Anything else goes to the Typer app, so its messages and exit statuses stay Typer's: ``--help``,
``--``, ``--deal``, an option it does not know or repeated, a value that looks like an
option, a MATCH that is not a number, no action, text that was not UTF-8 or holds a NUL, and a
terminal whose encoding is not UTF-8 (Click would re-encode the output).

:func:`run_plain_play` then records through :func:`tally.store.plays.play_plainly`, the very
code ``Store.play`` runs, on a plain DB-API connection; when that declines (a URL, file or
driver it does not handle, a schema to migrate, a database error: nothing is stored then) the
Typer app runs the command instead. Refusals print as :func:`tally.cli.common.fail` prints them
(exit status 2) and the output is :func:`tally.cli.lines.describe_play` with the position, as
``tally/cli/deals.py`` prints it. ``tests/test_cli_quickplay.py`` compares both paths' output,
exit status and stored rows.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tally.cli.common import (
    AS_PLAYED,
    EXIT_ERROR,
    bad_text,
    hide_secrets_of,
    in_language,
    refusal,
)

if TYPE_CHECKING:
    from tally.errors import Message

#: the flags of ``tally deal play`` and the options that take a value (by attribute)
FLAGS = {"--as-played": "as_played", "--referee": "referee"}
VALUES = {"--at": "at", "--expect": "at", "--db": "db", "--scorer": "scorer"}


@dataclass
class PlainPlay:
    """A plain ``tally deal play`` command line."""

    match: int
    tokens: list[str]
    as_played: bool = False
    referee: bool = False
    at: str | None = None
    db: str | None = None
    scorer: str | None = None


def plain_play(args: list[str]) -> PlainPlay | None:
    """The parts of ``tally deal play ARGS`` (``args`` after ``deal play``), or None when the
    Typer app must read it (see the module's docstring).

    >>> plain_play(["1", "KS", "--at", "1.1:0"])
    PlainPlay(match=1, tokens=['KS'], as_played=False, referee=False, at='1.1:0', db=None, \
scorer=None)
    >>> plain_play(["1", "KS", "--deal", "3"]) is None
    True
    """
    positional: list[str] = []
    given: dict[str, str | bool] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if bad_text(arg):
            return None
        if not arg.startswith("-"):
            positional.append(arg)
            continue
        name, eq, value = arg.partition("=")
        if name in FLAGS and not eq and FLAGS[name] not in given:
            given[FLAGS[name]] = True
            continue
        if name not in VALUES or VALUES[name] in given:
            return None
        if not eq:
            if not rest:
                return None
            value = rest.pop(0)
        if value.startswith("-") or bad_text(value):
            return None
        given[VALUES[name]] = value
    if len(positional) < 2:
        return None
    match = positional[0]
    if not (match.isascii() and match.isdigit()) or len(match) > 18:
        return None
    return PlainPlay(int(match), positional[1:], **given)  # type: ignore[arg-type]


def _utf8(stream: object) -> bool:
    encoding = str(getattr(stream, "encoding", "") or "").lower().replace("-", "")
    return encoding == "utf8"


def run_plain_play(args: list[str]) -> int | None:
    """Run ``tally deal play ARGS`` on the plain path: its exit status, or None (nothing
    stored, nothing printed) when the Typer app must run it."""
    plain = plain_play(args)
    if plain is None or not (_utf8(sys.stdout) and _utf8(sys.stderr)):
        return None
    from tally.errors import Message, TallyError, ViolationNotConfirmed
    from tally.store.dbapi import PlainPathDeclined, resolve_url
    from tally.store.plays import default_scorer, play_plainly

    hide_secrets_of(plain.db if plain.db is not None else os.environ.get("TALLY_DB"))
    try:
        url = resolve_url(plain.db)
        result = play_plainly(url, plain.match, plain.tokens,
                              scorer=plain.scorer or default_scorer(), referee=plain.referee,
                              as_played=plain.as_played, expect=plain.at)
    except (PlainPathDeclined, OSError):
        return None
    except ViolationNotConfirmed as exc:
        return _refuse(Message(AS_PLAYED, message=exc.wording), exc)
    except TallyError as exc:
        return _refuse(exc.wording, exc)
    from tally.cli.lines import describe_play, position_line
    from tally.i18n import resolve, use

    with use(resolve()):  # deal commands speak the locale's language (docs/languages.md)
        text = "\n".join([*describe_play(result, referee=plain.referee),
                          position_line(result.deal.position)])
    if "\x1b" in text and not sys.stdout.isatty():
        import re

        # as Click's echo does outside a terminal (a player's name may hold such codes)
        text = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", text)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0


def _refuse(message: Message, exc: BaseException) -> int:
    """Print a refusal (made of ``exc``) as :func:`tally.cli.common.fail` does, in the
    locale's language; exit status 2."""
    sys.stderr.write(refusal(in_language(message, exc=exc)) + "\n")
    sys.stderr.flush()
    return EXIT_ERROR
