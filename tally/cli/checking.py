"""``tally check`` without Typer: reading records, ruling on them and saying so, for the
Typer command (:mod:`tally.cli.check`) and for the plain path of :func:`tally.cli.run` alike,
so that a plain ``tally check`` imports neither Typer nor Click (issue 9's start-up target).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tally.cli.common import CANNOT_READ, language
from tally.errors import Message, system_reason
from tally.i18n import gettext as _
from tally.i18n import ngettext, use, worded
from tally.vocabulary import message_words, word

if TYPE_CHECKING:
    from tally.engine.ruling import Ruling
    from tally.errors import NotationError

EXIT_VIOLATIONS = 1
EXIT_ERRORS = 2

#: the escape sequences click.echo leaves out when the output is not a terminal
_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")


def echo(text: str, *, err: bool = False) -> None:
    """``text`` and a new line, as ``typer.echo`` writes them: to stdout (stderr with
    ``err``), escape sequences left out unless the stream is a terminal, flushed."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    if "\033" in text and not stream.isatty():
        text = _ANSI.sub("", text)
    stream.write(text + "\n")
    stream.flush()


def check_files(
    files: list[str], *, json_out: bool = False, referee: bool = False, lang: str | None = None
) -> int:
    """Rule on each record of ``files`` (``-``: standard input) and print the rulings (JSON
    lines with ``json_out``); the exit status: 0, :data:`EXIT_VIOLATIONS` or
    :data:`EXIT_ERRORS`."""
    import json

    from tally.engine.notation import decode_record
    from tally.engine.ruling import rule_text
    from tally.errors import NotationError

    # What echo_json writes (a ruling's line by Ruling.json_line; a file that cannot be read
    # by the encoder, made once: json.dumps makes one per call); the lines are written 64 at
    # a time unless a person watches (one write each costs a system call where Python runs
    # unbuffered).
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
    write = sys.stdout.write
    batch = 1 if sys.stdout.isatty() else 64
    lines: list[str] = []
    status = 0
    try:
        for name in files:
            try:
                # One rule for a file and for stdin: the bytes must be UTF-8 (a BOM is skipped).
                if name == "-":
                    data = _stdin_bytes()
                else:
                    data = _file_bytes(name)
                text = decode_record(data)
            except (OSError, NotationError) as exc:
                if json_out:
                    lines.append(encode(_unreadable_json(name, exc)))
                else:
                    said = Message(CANNOT_READ, file=name, message=_reason(exc))
                    echo(worded(said, language(lang)), err=True)
                status = max(status, EXIT_ERRORS)
                continue
            ruling = rule_text(text, file=name)
            if json_out:
                lines.append(ruling.json_line())
                if len(lines) >= batch:
                    write("\n".join(lines) + "\n")
                    lines.clear()
            else:
                with use(language(lang)):
                    echo(describe(ruling, referee=referee))
            if ruling.errors:
                status = max(status, EXIT_ERRORS)
            elif ruling.violations:
                status = max(status, EXIT_VIOLATIONS)
    finally:
        if lines:
            write("\n".join(lines) + "\n")
    return status


def _reason(exc: OSError | NotationError) -> Message:
    """Why a record cannot be read, as ``tally check`` says it (the system's reason, and the
    line with them)."""
    if isinstance(exc, OSError):
        return system_reason(exc)
    return exc.wording


def _unreadable_json(name: str, exc: OSError | NotationError) -> dict[str, object]:
    """The JSON ruling on a record that cannot be read (NOTATION.md, ``tally check``)."""
    from tally.errors import NotationError

    if isinstance(exc, NotationError):
        line, message = exc.line, exc.bare_message
    else:
        line, message = None, str(_reason(exc))
    return {
        "file": name,
        "rules": None,
        "players": None,
        "errors": [{"line": line, "message": f"cannot be read: {message}"}],
        "violations": [],
        "tricks": {},
        "points": {},
        "outcome": None,
        "agreed": None,
        "carry": 0,
    }


#: How a record is opened: to read, as bytes (``O_BINARY``: Windows would change line ends).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)


def _file_bytes(name: str) -> bytes:
    """The bytes of the file ``name``, read by the system calls alone (a file object costs
    more than the read of a record: ``tally check`` reads thousands); the errors are
    ``open``'s (a missing file, a folder, no permission)."""
    # (a plain path is opened as given: what pathlib would make of it is the same)
    fd = os.open(name if _plain_path(name) else Path(name), _OPEN_FLAGS)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _plain_path(name: str) -> bool:
    """Whether ``name`` names the same file for ``open`` as for :class:`pathlib.Path`, which
    reads ``""`` as ``.`` and drops a trailing ``/`` and ``.`` parts."""
    return bool(name) and not name.endswith("/") and "/." not in name and name != "."


def _stdin_bytes() -> bytes:
    """Standard input as bytes, decoded later by the same rule as a file."""
    stream = sys.stdin
    if stream is None:  # started with stdin closed (<&-)
        raise OSError(0, "standard input is closed")
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        data: bytes = buffer.read()
        return data
    text: str = stream.read()  # a text-only stream (an embedding program's)
    return text.encode("utf-8", "surrogateescape")


def describe(ruling: Ruling, *, referee: bool = False) -> str:
    """A ruling in plain words, as a referee would give it, in the current language
    (:func:`tally.i18n.use`; the engine's explanation and messages worded by
    :func:`tally.vocabulary.message_words`, its record errors from their templates by
    :func:`tally.i18n.worded`)."""
    head = _("%(file)s: %(rules)s, %(forehand)s (forehand) against %(dealer)s (dealer)") % {
        "file": ruling.file or _("(record)"),
        "rules": ruling.rules,
        "forehand": ruling.forehand,
        "dealer": ruling.dealer,
    }
    out = [head]
    if ruling.errors:
        out.append(_("  The record cannot describe a real deal:"))
        out += [f"    {worded(e.said)}" for e in ruling.errors]
        out.append(_("  No ruling."))
        return "\n".join(out)
    for v in ruling.violations:
        out.append(
            _("  Trick %(trick)s: %(player)s broke the rule %(rule)s: %(message)s.")
            % {
                "trick": v.trick,
                "player": v.player,
                "rule": word(v.rule),
                "message": message_words(v.wording),
            }
        )
    o = ruling.outcome
    assert o is not None
    if o.reason == "incomplete":
        out.append(_("  The deal is not over yet."))
        tricks = ", ".join(f"{n} {t}" for n, t in ruling.tricks.items())
        out.append(_("  Tricks: %(tricks)s.") % {"tricks": tricks})
        if referee:
            pts = ", ".join(f"{n} {p}" for n, p in ruling.points.items())
            out.append(_("  Counted points (for the referee): %(points)s.") % {"points": pts})
    else:
        if o.winner is None:
            out.append(
                _("  Ruling: the deal is drawn (%(why)s).") % {"why": message_words(ruling.wording)}
            )
        else:
            gp = ngettext("%(num)s game point", "%(num)s game points", o.game_points) % {
                "num": o.game_points
            }
            carry = (
                _(", %(n)s of them carried in") % {"n": ruling.carry_in} if ruling.carry_in else ""
            )
            out.append(
                _("  Ruling: %(player)s wins %(points)s%(carry)s (%(reason)s): %(why)s.")
                % {
                    "player": o.winner,
                    "points": gp,
                    "carry": carry,
                    "reason": word(o.reason),
                    "why": message_words(ruling.wording),
                }
            )
        pts = ", ".join(f"{n} {p}" for n, p in ruling.points.items())
        tricks = ", ".join(f"{n} {t}" for n, t in ruling.tricks.items())
        out.append(
            _("  Counted points: %(points)s. Tricks: %(tricks)s.")
            % {"points": pts, "tricks": tricks}
        )
        if ruling.carry:
            out.append(_("  Carry to the next deal: %(carry)s.") % {"carry": ruling.carry})
    if ruling.agreed is True:
        out.append(
            _('  The players\' result "%(result)s" is right.') % {"result": ruling.result_tag}
        )
    elif ruling.agreed is False:
        out.append(
            _('  The players\' result "%(result)s" is WRONG: see the ruling above.')
            % {"result": ruling.result_tag}
        )
    return "\n".join(out)
