"""``tally standings``: the standings of an event or of a season, as a table, CSV or JSON.

Standings are derived every time from the recorded matches (summed in SQL from the result
cache), never stored: a correction to a deal shows in the next standings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import LangOption, echo_json, fail, guard, language
from tally.cli.events import parse_date, split_list
from tally.cli.storage import DbOption, JsonOption, reading
from tally.cli.tables import CsvOption, number, one_format, print_table, signed, write_csv
from tally.i18n import N_, decimal_comma, format_date, use
from tally.i18n import gettext as _
from tally.vocabulary import season_title, stage, word

if TYPE_CHECKING:
    from tally.store.views import StandingsView

COLUMNS = ("rank", "player", "played", "won", "lost", "match_points", "game_points_won",
           "game_points_conceded", "game_point_difference", "schneider_wins", "schwarz_wins")
SHORT = ("#", N_("Player"), N_("Pl"), N_("W"), N_("L"), N_("MP"), N_("GP+"), N_("GP-"),
         N_("Diff"), N_("Schn"), N_("Schw"))
LEGEND = N_("Pl played, W won, L lost, MP match points, GP+ game points won, GP- conceded, "
            "Diff their difference, Schn/Schw deals won by schneider/schwarz")


# The arguments that choose whose standings: shared with `tally print standings`.
EventArgument = Annotated[str | None, typer.Argument(
    metavar="EVENT", help="The event (number or name).")]
SeasonOption = Annotated[bool, typer.Option(
    "--season", help="A season's standings: the club evenings held in a date range.")]
FromOption = Annotated[str | None, typer.Option(
    "--from", metavar="YYYY-MM-DD", help="Season: the first day (default: open).")]
ToOption = Annotated[str | None, typer.Option(
    "--to", metavar="YYYY-MM-DD", help="Season: the last day (default: open).")]
AllEventsOption = Annotated[bool, typer.Option(
    "--all-events", help="Season: count round robins too, not only club evenings.")]


@app.command()
@guard
def standings(
    event: EventArgument = None,
    season: SeasonOption = False,
    date_from: FromOption = None,
    date_to: ToOption = None,
    all_events: AllEventsOption = False,
    tiebreaks: Annotated[str | None, typer.Option(
        help="Season: tiebreaks in order, comma-separated (default: head-to-head, "
             "game-point-difference, game-points-won, sonneborn-berger, wins).")] = None,
    points_per_win: Annotated[float | None, typer.Option(
        "--points-per-win", help="Season: match points of every win (needed when the "
                                 "events score wins differently).")] = None,
    json_out: JsonOption = False,
    csv_out: CsvOption = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Standings of an event, or of a season (--season): matches played, won and lost, match
    points, game points won and conceded and their difference, schneider and schwarz wins,
    and the tiebreaks in order; players still level share the rank."""
    from tally.store import as_json
    from tally.store.events import season_standings
    from tally.store.events import standings as event_standings

    one_format(json_out, csv_out)
    season_only = date_from or date_to or all_events or tiebreaks is not None or \
        points_per_win is not None
    if event is not None and (season or season_only):
        fail("give an EVENT, or --season with its options, not both")
    if event is None and not season:
        fail("give an EVENT, or --season for the club evenings of a date range")
    with reading(db) as store:
        if event is not None:
            view = event_standings(store, event)
        else:
            view = season_standings(store, date_from=parse_date(date_from, "--from"),
                                    date_to=parse_date(date_to, "--to"),
                                    all_events=all_events, tiebreaks=split_list(tiebreaks),
                                    match_points_per_win=points_per_win)
    if json_out:
        echo_json(as_json(view))
        return
    if csv_out:
        write_csv([*COLUMNS, *view.tiebreaks], rows_of(view))
        return
    with use(language(lang, view.event.language if view.event is not None else None)):
        show(view)


def show(view: StandingsView) -> None:
    """Print standings as a table on the terminal, with the legend under it, in the current
    language (:func:`tally.i18n.use`)."""
    rows = [[*row[:8], signed(int(row[8] or 0)), *row[9:]] for row in rows_of(view)]
    notes = [_(LEGEND)]
    if view.tiebreaks:
        notes.append(_("Tiebreaks: %(list)s") % {"list": ", ".join(
            f"{_('TB%(n)s') % {'n': i}} {word(name)}" for i, name in enumerate(view.tiebreaks, 1))})
    if view.withdrawn:
        rule = "" if view.event is None else f" ({word(view.event.withdrawal)})"
        notes.append(_("Withdrawn%(rule)s: %(names)s") % {"rule": rule,
                                                           "names": ", ".join(view.withdrawn)})
    header = [SHORT[0], *(_(h) for h in SHORT[1:]),
              *(_("TB%(n)s") % {"n": i} for i in range(1, len(view.tiebreaks) + 1))]
    # match points and tiebreak values as the language writes them (German: 1,5)
    rows = [[decimal_comma(number(c)) if isinstance(c, float) else c for c in row]
            for row in rows]
    print_table(title_of(view), header, rows,
                right=(0, *range(2, len(SHORT) + len(view.tiebreaks))), notes=notes)


def rows_of(view: StandingsView) -> list[list[str | int | float | None]]:
    """The standings as rows of :data:`COLUMNS` and the tiebreak values."""
    return [[r.rank, r.player, r.played, r.won, r.lost, r.match_points, r.game_points_won,
             r.game_points_conceded, r.game_point_difference, r.schneider_wins, r.schwarz_wins,
             *r.tiebreak_values] for r in view.rows]


def title_of(view: StandingsView) -> str:
    """``Autumn cup, 2026-11-21, sixty-six, round robin: round 3 of 5``, in the current
    language."""
    if view.event is None:
        return _("%(title)s (%(events)s event(s), %(points)s match point(s) a win)") % {
            "title": season_title(view.title), "events": len(view.events),
            "points": decimal_comma(number(view.match_points_per_win))}
    ev = view.event
    kind = word("club evening" if ev.kind == "club" else "round robin")
    where = f": {stage(view.stage)}" if view.stage else ""
    return f"{ev.name}, {format_date(ev.date)}, {ev.rules}, {kind}{where}"
