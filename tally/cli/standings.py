"""``tally standings``: the standings of an event or of a season, as a table, CSV or JSON.

Standings are derived every time from the recorded matches (summed in SQL from the result
cache), never stored: a correction to a deal shows in the next standings.

The terminal table shows each figure once: a tiebreak that repeats a column of the table
(game-point-difference is Diff, game-points-won GP+, wins W) gets no column of its own and
the legend names the column it reads; head-to-head (H2H), Sonneborn-Berger (SB) get theirs
(the heads of :data:`tally.events.tiebreaks.TABLE`).
A player with a match still being played is marked ``*`` and the title says "provisional".
CSV and JSON keep every value, each tiebreak too, for programs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, fail, guard, language, parse_date
from tally.cli.events import split_list
from tally.cli.options import FromOption, LangOption, SeasonOption, ToOption
from tally.cli.storage import DbOption, JsonOption, reading
from tally.cli.tables import CsvOption, number, one_format, print_table, signed, write_csv
from tally.errors import Message
from tally.events.tiebreaks import DEFAULT_TIEBREAKS, TABLE, option_help
from tally.i18n import N_, decimal_comma, format_date, use
from tally.i18n import gettext as _
from tally.vocabulary import elimination_ranking, message_words, stage_words, word

if TYPE_CHECKING:
    from tally.store.views import StandingsView

COLUMNS = (
    "rank",
    "player",
    "played",
    "won",
    "lost",
    "match_points",
    "percentage",
    "game_points_won",
    "game_points_conceded",
    "game_point_difference",
    "schneider_wins",
    "schwarz_wins",
    "byes",
    "running",
)
SHORT = (
    "#",
    N_("Player"),
    N_("Pl"),
    N_("W"),
    N_("L"),
    N_("Bye"),
    N_("MP"),
    "%",
    N_("GP+"),
    N_("GP-"),
    N_("Diff"),
    N_("Schn"),
    N_("Schw"),
)
LEGEND = N_(
    "Pl played, W won, L lost, {bye}MP match points, % match-point percentage "
    "(MP / ({matches} x {per_win} MP a win)), GP+ game points won, GP- conceded, Diff "
    "their difference, Schn/Schw deals won by schneider/schwarz"
)
#: the heads of the table's columns that a tiebreak can repeat (``Tiebreak.repeats``)
#: a round robin's players struck out (:attr:`tally.store.views.StandingsView.struck_out`);
#: the wall and the sheet say the same words
STRUCK_OUT = N_(
    "Withdrawn before half of their games, every result annulled (not ranked): %(names)s"
)
REPEATED = {"game_point_difference": N_("Diff"), "game_points_won": N_("GP+"), "won": N_("W")}
#: tiebreaks that repeat a column of the table: that column's head
SHOWN_AS = {t.name: REPEATED[t.repeats] for t in TABLE.values() if t.repeats is not None}
RANKED_BY = {"points": N_("MP (match points)"), "percentage": N_("% (match-point percentage)")}


# The arguments that choose whose standings: shared with `tally print standings`.
EventArgument = Annotated[
    str | None, typer.Argument(metavar="EVENT", help="The event (number or name).")
]
AllEventsOption = Annotated[
    bool,
    typer.Option("--all-events", help="Season: count round robins too, not only club evenings."),
]
RankByOption = Annotated[
    str | None,
    typer.Option(
        "--rank-by",
        metavar="points|percentage",
        help="Rank by match points or by the match-point percentage (default: the event's "
        "setting; a season: percentage).",
    ),
]

CategoryOption = Annotated[
    str | None,
    typer.Option(
        "--category",
        metavar="NAME",
        help="Only the players of this category (tally player category), ranked within it, "
        "with the overall rank beside.",
    ),
]


def team_standings(event: str, *, json_out: bool, db: str | None, lang: str | None) -> bool:
    """Show the team standings of ``event`` when it is a team event; False when it is not."""
    from tally.cli.teams import show_team_standings
    from tally.store import as_json

    with reading(db) as store:
        ev = store.events.get(event)
        if not ev.format.plays_in_teams:
            return False
        view = store.teams.standings(ev.id)
    if json_out:
        echo_json(as_json(view))
    else:
        with use(language(lang, ev.language)):
            show_team_standings(view)
    return True


@app.command()
@guard
def standings(
    event: EventArgument = None,
    season: SeasonOption = False,
    date_from: FromOption = None,
    date_to: ToOption = None,
    all_events: AllEventsOption = False,
    tiebreaks: Annotated[
        str | None,
        typer.Option(
            help="Season: tiebreaks in order, comma-separated (default: "
            f"{', '.join(DEFAULT_TIEBREAKS)}). {option_help()}. See docs/events.md."
        ),
    ] = None,
    points_per_win: Annotated[
        float | None,
        typer.Option(
            "--points-per-win",
            help="Season: match points of every win (needed when the "
            "events score wins differently).",
        ),
    ] = None,
    rank_by: RankByOption = None,
    category: CategoryOption = None,
    players: Annotated[
        bool,
        typer.Option(
            "--players", help="A team event: the players' standings instead of the teams'."
        ),
    ] = False,
    json_out: JsonOption = False,
    csv_out: CsvOption = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Standings of an event, or of a season (--season): matches played, won and lost, match
    points, game points won and conceded and their difference, schneider and schwarz wins,
    and the tiebreaks in order; players still level share the rank. With --category only
    that category's players, ranked within it, the overall rank beside."""
    from tally.store import as_json

    one_format(json_out, csv_out)
    season_only = (
        date_from or date_to or all_events or tiebreaks is not None or points_per_win is not None
    )
    if event is not None and (season or season_only):
        fail(Message(N_("give an EVENT, or --season with its options, not both")))
    if event is None and not season:
        fail(Message(N_("give an EVENT, or --season for the club evenings of a date range")))
    from tally.cli.knockouts import show_prizes, standings_prizes

    prized = None
    if (
        event is not None
        and not players
        and category is None
        and team_standings(event, json_out=json_out, db=db, lang=lang)
    ):
        return
    with reading(db) as store:
        if event is not None:
            view = store.events.standings(event, rank_by=rank_by)
            prized = standings_prizes(store, view) if not (json_out or csv_out) else None
        else:
            view = store.events.season_standings(
                date_from=parse_date(date_from, "--from"),
                date_to=parse_date(date_to, "--to"),
                all_events=all_events,
                tiebreaks=split_list(tiebreaks),
                match_points_per_win=points_per_win,
                rank_by=rank_by or "percentage",
            )
        if category is not None:
            view = store.events.in_category(view, category)
    if json_out:
        echo_json(as_json(view))
        return
    if csv_out:
        overall = ["overall_rank"] if view.category is not None else []
        write_csv([*COLUMNS, *overall, *view.tiebreaks], rows_of(view))
        return
    with use(language(lang, view.event.language if view.event is not None else None)):
        show(view)
        if prized is not None:
            show_prizes(prized)


def show(view: StandingsView) -> None:
    """Print standings as a table on the terminal, with the legend under it, in the current
    language (:func:`tally.i18n.use`): each figure once (see the module docstring), the Bye
    column only when someone sat out a round."""
    byes = any(r.byes for r in view.rows)
    own = [(i, name) for i, name in enumerate(view.tiebreaks) if name not in SHOWN_AS]
    heads = [_tiebreak_head(name) for _i, name in own]
    rows: list[list[str | int | float | None]] = []
    overall = view.category is not None
    for r in view.rows:
        rows.append(
            [
                r.rank,
                *([r.overall_rank] if overall else []),
                r.player + (" *" if r.running else ""),
                r.played,
                r.won,
                r.lost,
                *([r.byes] if byes else []),
                r.match_points,
                decimal_comma(f"{r.percentage:.1f}"),
                r.game_points_won,
                r.game_points_conceded,
                signed(r.game_point_difference),
                r.schneider_wins,
                r.schwarz_wins,
                *(r.tiebreak_values[i] for i, _name in own),
            ]
        )
    header = [
        SHORT[0],
        *([_("Overall")] if overall else []),
        *(_(h) for h in SHORT[1:] if byes or h != "Bye"),
        *heads,
    ]
    # match points and tiebreak values as the language writes them (German: 1,5)
    rows = [[decimal_comma(number(c)) if isinstance(c, float) else c for c in row] for row in rows]
    name = 2 if overall else 1
    print_table(
        title_of(view),
        header,
        rows,
        right=(*range(name), *range(name + 1, len(header))),
        notes=notes_of(view),
    )


def _tiebreak_head(name: str) -> str:
    """The head of tiebreak ``name``'s column (``H2H``, ``SB``: :data:`TABLE`), in the current
    language."""
    return _(TABLE[name].head or SHOWN_AS[name])


def notes_of(view: StandingsView) -> list[str]:
    """The lines under the terminal table, in the current language: the legend, what ranks,
    who withdrew, and what the ``*`` of a match still being played means."""
    byes = any(r.byes for r in view.rows)
    scoring = byes and (view.event is None or view.event.bye == "win")
    notes = [
        _(LEGEND).format(
            per_win=decimal_comma(number(view.match_points_per_win)),
            bye=_("Bye rounds sat out, ") if byes else "",
            matches=_("(Pl + Bye)") if scoring else _("Pl"),
        )
    ]
    order = [
        _(SHOWN_AS[name]) if name in SHOWN_AS else f"{_tiebreak_head(name)} {word(name)}"
        for name in view.tiebreaks
    ]
    ranked = _(RANKED_BY[view.rank_by])
    if view.event is not None and view.event.format.ranks_by_elimination:
        notes.append(elimination_ranking(view.event.kind, view.tiebreaks))
    elif order:
        notes.append(
            _("Ranked by %(first)s, then %(then)s; players still level share the rank.")
            % {"first": ranked, "then": ", ".join(order)}
        )
    else:
        notes.append(
            _("Ranked by %(first)s; players still level share the rank.") % {"first": ranked}
        )
    gone = [name for name in view.withdrawn if name not in view.struck_out]
    if gone:
        rule = "" if view.event is None else f" ({word(view.event.withdrawal)})"
        notes.append(_("Withdrawn%(rule)s: %(names)s") % {"rule": rule, "names": ", ".join(gone)})
    if view.struck_out:
        notes.append(_(STRUCK_OUT) % {"names": ", ".join(view.struck_out)})
    if view.provisional:
        notes.append(_("* playing a match not over yet: these standings are provisional."))
    if view.category is not None:
        notes.append(
            _(
                "Category %(category)s: # the rank within the category, Overall the rank "
                "among all players."
            )
            % {"category": view.category}
        )
    return notes


def rows_of(view: StandingsView) -> list[list[str | int | float | None]]:
    """The standings as rows of :data:`COLUMNS` and the tiebreak values."""
    return [
        [
            r.rank,
            r.player,
            r.played,
            r.won,
            r.lost,
            r.match_points,
            round(r.percentage, 2),
            r.game_points_won,
            r.game_points_conceded,
            r.game_point_difference,
            r.schneider_wins,
            r.schwarz_wins,
            r.byes,
            r.running,
            *([r.overall_rank] if view.category is not None else []),
            *r.tiebreak_values,
        ]
        for r in view.rows
    ]


def title_of(view: StandingsView) -> str:
    """``Autumn cup, 2026-11-21, sixty-six, round robin: round 3 of 5``, in the current
    language."""
    if view.event is None:
        provisional = _(", provisional") if view.provisional else ""
        if view.category is not None:
            provisional += f", {view.category}"
        return _(
            "%(title)s (%(events)s event(s), %(points)s match point(s) a win%(provisional)s)"
        ) % {
            "title": message_words(view.title_wording) if view.title_wording else view.title,
            "events": len(view.events),
            "points": decimal_comma(number(view.match_points_per_win)),
            "provisional": provisional,
        }
    ev = view.event
    kind = word(ev.format.standings_name)
    where = f": {stage_words(view)}" if view.stage else ""
    provisional = _(" (provisional)") if view.provisional else ""
    title = f"{ev.name}, {format_date(ev.date)}, {ev.rules}, {kind}{where}{provisional}"
    return title if view.category is None else f"{title}: {view.category}"
