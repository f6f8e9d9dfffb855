"""``tally check`` and ``tally rules``: the engine's commands, no database needed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, fail

if TYPE_CHECKING:
    from tally.ruling import Ruling

EXIT_VIOLATIONS = 1
EXIT_ERRORS = 2


@app.command()
def check(
    files: Annotated[list[str], typer.Argument(help="Deal records (.deal); - reads stdin.")],
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object per file.")] = False,
    referee: Annotated[bool, typer.Option(
        "--referee", help="Show counted points even while a deal is unfinished.")] = False,
) -> None:
    """Replay deal records and rule on them.

    Exit status: 0 when no record has errors or violations, 1 when some record has violations,
    2 when some record has errors or cannot be read.
    """
    import json

    from tally.errors import NotationError
    from tally.notation import decode_record
    from tally.ruling import rule_text

    # What echo_json writes, with the encoder made once (json.dumps makes one per call); the
    # lines are written 64 at a time unless a person watches (one write each costs a system
    # call where Python runs unbuffered).
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
                    # (a plain path is opened as given: what pathlib would make of it is the same)
                    with open(name if _plain_path(name) else Path(name), "rb") as stream:
                        data = stream.read()
                text = decode_record(data)
            except (OSError, NotationError) as exc:
                message = getattr(exc, "strerror", None) or str(exc)
                line = exc.line if isinstance(exc, NotationError) else None
                if json_out:
                    if isinstance(exc, NotationError):
                        message = exc.bare_message
                    lines.append(encode({
                        "file": name, "rules": None, "players": None,
                        "errors": [{"line": line, "message": f"cannot be read: {message}"}],
                        "violations": [], "tricks": {}, "points": {}, "outcome": None,
                        "agreed": None, "carry": 0}))
                else:
                    typer.echo(f"{name}: cannot be read: {message}", err=True)
                status = max(status, EXIT_ERRORS)
                continue
            ruling = rule_text(text, file=name)
            if json_out:
                lines.append(encode(ruling.as_json()))
                if len(lines) >= batch:
                    write("\n".join(lines) + "\n")
                    lines.clear()
            else:
                typer.echo(describe(ruling, referee=referee))
            if ruling.errors:
                status = max(status, EXIT_ERRORS)
            elif ruling.violations:
                status = max(status, EXIT_VIOLATIONS)
    finally:
        if lines:
            write("\n".join(lines) + "\n")
    raise typer.Exit(status)


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
    """A ruling in plain words, as a referee would give it."""
    head = f"{ruling.file or '(record)'}: {ruling.rules}, {ruling.forehand} (forehand) " \
           f"against {ruling.dealer} (dealer)"
    out = [head]
    if ruling.errors:
        out.append("  The record cannot describe a real deal:")
        out += [f"    {e}" for e in ruling.errors]
        out.append("  No ruling.")
        return "\n".join(out)
    for v in ruling.violations:
        out.append(f"  Trick {v.trick}: {v.player} broke the rule {v.rule}: {v.message}.")
    o = ruling.outcome
    assert o is not None
    if o.reason == "incomplete":
        out.append("  The deal is not over yet.")
        tricks = ", ".join(f"{n} {t}" for n, t in ruling.tricks.items())
        out.append(f"  Tricks: {tricks}.")
        if referee:
            pts = ", ".join(f"{n} {p}" for n, p in ruling.points.items())
            out.append(f"  Counted points (for the referee): {pts}.")
    else:
        if o.winner is None:
            out.append(f"  Ruling: the deal is drawn ({ruling.explanation}).")
        else:
            gp = "game point" if o.game_points == 1 else "game points"
            carry = f", {ruling.carry_in} of them carried in" if ruling.carry_in else ""
            out.append(f"  Ruling: {o.winner} wins {o.game_points} {gp}{carry} ({o.reason}): "
                       f"{ruling.explanation}.")
        pts = ", ".join(f"{n} {p}" for n, p in ruling.points.items())
        tricks = ", ".join(f"{n} {t}" for n, t in ruling.tricks.items())
        out.append(f"  Counted points: {pts}. Tricks: {tricks}.")
        if ruling.carry:
            out.append(f"  Carry to the next deal: {ruling.carry}.")
    if ruling.agreed is True:
        out.append(f'  The players\' result "{ruling.result_tag}" is right.')
    elif ruling.agreed is False:
        out.append(f'  The players\' result "{ruling.result_tag}" is WRONG: see the ruling above.')
    return "\n".join(out)


@app.command()
def rules(
    preset: Annotated[str, typer.Argument(
        help="A preset, optionally with overrides in quotes: 'sixty-six carry=none'.")] = "",
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Print a rule set's options and values, so a club can see what it is playing."""
    from tally.errors import RulesError
    from tally.rules import PRESET_TITLES, PRESETS, RuleSet

    try:
        rs = RuleSet.parse(preset)
    except RulesError as exc:
        fail(str(exc))
    if json_out:
        echo_json({"rules": rs.spec, **{name: value for name, value, _ in rs.describe()}})
        return
    typer.echo(f"{rs.spec}: {PRESET_TITLES[rs.preset_name]}")
    width = max(len(n) for n in PRESETS[rs.preset_name])
    for name, value, meaning in rs.describe():
        typer.echo(f"  {name:<{width}}  {value:<14} {meaning}")
