"""``tally check`` and ``tally rules``: the engine's commands, no database needed."""

from __future__ import annotations

from typing import Annotated

import typer

from tally.cli import app
from tally.cli.checking import EXIT_ERRORS, EXIT_VIOLATIONS, check_files, describe
from tally.cli.common import echo_json, fail
from tally.cli.options import LangOption

__all__ = ["EXIT_ERRORS", "EXIT_VIOLATIONS", "check", "describe", "rules"]


@app.command()
def check(
    files: Annotated[list[str], typer.Argument(help="Deal records (.deal); - reads stdin.")],
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object per file.")] = False,
    referee: Annotated[
        bool, typer.Option("--referee", help="Show counted points even while a deal is unfinished.")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Replay deal records and rule on them.

    Exit status: 0 when no record has errors or violations, 1 when some record has violations,
    2 when some record has errors or cannot be read.
    """
    raise typer.Exit(
        check_files(
            files, json_out=json_out, referee=referee, lang=None if lang is None else str(lang)
        )
    )


@app.command()
def rules(
    preset: Annotated[
        str,
        typer.Argument(
            help="A preset, optionally with overrides in quotes: 'sixty-six carry=none'."
        ),
    ] = "",
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Print a rule set's options and values, so a club can see what it is playing."""
    from tally.cli.common import language
    from tally.engine.rules import PRESET_TITLES, PRESETS, RuleSet
    from tally.errors import RulesError
    from tally.i18n import gettext as _
    from tally.i18n import use

    try:
        rs = RuleSet.parse(preset)
    except RulesError as exc:
        fail(exc.wording, lang=None if lang is None else str(lang))
    if json_out:
        echo_json({"rules": rs.spec, **{name: value for name, value, _ in rs.describe()}})
        return
    # the option names and values are what one types (in overrides): they stay as they are
    with use(language(lang)):
        typer.echo(f"{rs.spec}: {_(PRESET_TITLES[rs.preset_name])}")
        width = max(len(n) for n in PRESETS[rs.preset_name])
        for name, value, meaning in rs.describe():
            typer.echo(f"  {name:<{width}}  {value:<14} {_(meaning)}")
