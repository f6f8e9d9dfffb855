"""``tally publish``: the results as a static web site (:mod:`tally.publish`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import guard, language
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, reading

if TYPE_CHECKING:
    from tally.publish.writing import Written


def _said(done: Written, out: Path) -> str:
    from tally.i18n import gettext as _

    return _(
        "Published to %(out)s: %(written)s files written, %(removed)s removed, "
        "%(unchanged)s unchanged."
    ) % {
        "out": out,
        "written": len(done.written),
        "removed": len(done.removed),
        "unchanged": done.unchanged,
    }


@app.command()
@guard
def publish(
    refs: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[EVENT|SERIES]...",
            help="Events and series to publish, by number or name (a series brings its "
            "events). Default: every event and series.",
        ),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", metavar="DIR", help="The folder the site is written to.")
    ] = Path("site"),
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Keep running: write the changed pages again within seconds of each "
            "change (a result recorded, a round started). Stop it with Ctrl-C.",
        ),
    ] = False,
    analyse: Annotated[
        bool,
        typer.Option(
            "--analyse",
            help="Put each recorded deal's analysis on its page (its marks and value "
            "graph) and write each player's report in each event (reports/E-P.html); "
            "takes about half a second a deal.",
        ),
    ] = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Write the results as a static web site: plain HTML and CSS, no script, nothing from
    another host, relative links (it works from a USB stick and at any address). An index,
    a page per event (standings, rounds, cross-table, bracket, prizes), per player, per
    match, per recorded deal (tricks and ruling), per series and season. Only files that
    changed are written. Private players (`tally player private`) appear by their initials; no table
    link, PIN or audit detail is published."""
    from tally.i18n import use
    from tally.publish.watch import publish as write
    from tally.publish.watch import watch as watching

    chosen = language(lang)
    with reading(db) as store, use(chosen):
        if not watch:
            typer.echo(_said(write(store, out, refs or (), lang=chosen, analyse=analyse), out))
            return
        try:
            watching(
                store,
                out,
                refs or (),
                lang=chosen,
                analyse=analyse,
                told=lambda done: typer.echo(_said(done, out)),
            )
        except KeyboardInterrupt:
            return
