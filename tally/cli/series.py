"""``tally series``: a series of events (a Grand Prix): create one, list them, its standings.

Points per placing in each event, the best N results counting; ties on a placing share the
points of the places they hold (:mod:`tally.events.series`). The standings are derived from the
events' standings each time (:mod:`tally.store.series`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, fail, guard, language
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading
from tally.cli.tables import number, print_table
from tally.errors import Message
from tally.i18n import N_, decimal_comma, format_date, use
from tally.i18n import gettext as _
from tally.vocabulary import stage

if TYPE_CHECKING:
    from tally.store.series import SeriesStandingsView, SeriesView

HELP = "Series of events (a Grand Prix): points per placing, the best N results counting."

series_app = typer.Typer(help=HELP, no_args_is_help=True)
app.add_typer(series_app, name="series")

SeriesArg = Annotated[str, typer.Argument(metavar="SERIES", help="The series (number or name).")]


def parse_points(text: str) -> list[float]:
    """``25,18,15`` as numbers; refused (one line) when a value is not a number.

    >>> parse_points("25, 18,12.5")
    [25.0, 18.0, 12.5]
    """
    out: list[float] = []
    for part in text.split(","):
        part = part.strip()
        try:
            out.append(float(part))
        except ValueError:
            fail(
                Message(
                    N_('--points: "%(text)s" is not a number (give e.g. 25,18,15,12,10)'),
                    text=part[:20],
                )
            )
    return out


def split_events(text: str) -> list[str]:
    """``1,2,3`` (numbers or names) as a list."""
    parts = [p.strip() for p in text.split(",")]
    if not all(parts):
        fail(Message(N_("--events: give the events as numbers or names, comma-separated (1,2,3)")))
    return parts


@series_app.command("create")
@guard
def create(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The series' name.")],
    events: Annotated[
        str,
        typer.Option(
            "--events",
            metavar="E1,E2,...",
            help="Its events (numbers or names), comma-separated, in order.",
        ),
    ],
    points: Annotated[
        str,
        typer.Option(
            "--points",
            metavar="P1,P2,...",
            help="Points per placing: first place, second place... (later places earn none).",
        ),
    ] = "25,18,15,12,10,8,6,4,2,1",
    best: Annotated[
        int | None,
        typer.Option(
            "--best", metavar="N", help="Only each player's best N results count (default: all)."
        ),
    ] = None,
    db: DbOption = None,
    scorer: ScorerOption = None,
) -> None:
    """Create a series of events: points per placing in each event, the best N results of
    each player counting. Players tied on a placing share the points of the places they
    hold."""

    with opened(db, scorer) as store:
        view = store.series.create(
            name, events=split_events(events), points=parse_points(points), best=best
        )
    typer.echo(f'Created series {view.id} "{view.name}": {describe(view)}')


def describe(view: SeriesView) -> str:
    """A series in a sentence, in the current language: its events, its points and how many
    results count."""
    from tally.store.series import format_points

    evs = ", ".join(f'{e.id} "{e.name}"' for e in view.events)
    counted = (
        _("every result counts")
        if view.best is None
        else _("the best %(n)s result(s) count") % {"n": view.best}
    )
    return _("events %(events)s; points %(points)s; %(counted)s.") % {
        "events": evs,
        "points": decimal_comma(format_points(view.points)),
        "counted": counted,
    }


@series_app.command("list")
@guard
def list_(json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None) -> None:
    """List the series."""
    from tally.store import as_json

    with reading(db) as store:
        found = store.series.all()
    if json_out:
        echo_json(as_json(found))
        return
    with use(language(lang)):
        if not found:
            typer.echo(_("No series yet: `tally series create NAME --events 1,2,3`."))
        for view in found:
            typer.echo(f'{view.id}  "{view.name}": {describe(view)}')


@series_app.command("standings")
@guard
def standings(
    series: SeriesArg, json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None
) -> None:
    """Show the standings of a series: each player's points per event (dropped results in
    brackets), the total of the counted results, ranked by total then countback."""
    from tally.store import as_json

    with reading(db) as store:
        view = store.series.standings(series)
    if json_out:
        echo_json(as_json(view))
        return
    with use(language(lang)):
        show(view)


def show(view: SeriesStandingsView) -> None:
    """The standings of a series as a table on the terminal, in the current language."""
    s = view.series
    header = [
        "#",
        _("Player"),
        *(_("E%(n)s") % {"n": i} for i in range(1, len(s.events) + 1)),
        _("Played"),
        _("Total"),
    ]
    rows: list[list[str | int | float | None]] = []
    for r in view.rows:
        cells: list[str | int | float | None] = [r.rank, r.player]
        for res in r.results:
            if res is None:
                cells.append("-")
            else:
                shown = f"{decimal_comma(number(res.points))} ({res.rank}.)"
                cells.append(shown if res.counted else f"[{shown}]")
        rows.append([*cells, r.played, decimal_comma(number(r.total))])
    about = describe(s)
    notes = [about[0].upper() + about[1:]]
    notes += [
        f"{_('E%(n)s') % {'n': i}} {e.name} "
        f"({format_date(e.date)}{', ' + stage(e.stage) if e.stage else ''})"
        for i, e in enumerate(s.events, start=1)
    ]
    notes.append(
        _(
            "Each cell: points (placing); [ ] a result outside the best %(n)s that "
            "does not count; - did not play."
        )
        % {"n": s.best}
        if s.best is not None
        else _("Each cell: points (placing); - did not play.")
    )
    print_table(
        _("Series %(id)s: %(name)s") % {"id": s.id, "name": s.name},
        header,
        rows,
        right=(0, *range(2, len(header))),
        notes=notes,
    )
    if not view.rows:
        typer.echo(_("Nobody has played in the series' events yet."))
