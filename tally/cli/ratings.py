"""``tally ratings``: every player's rating across all events, and one player's history.

Ratings are recomputed from the stored matches each time (:mod:`tally.store.ratings`), by
the OpenSkill system (:mod:`tally.events.ratings`), so they always agree with the recorded deals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import echo_json, guard, language
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, JsonOption, reading
from tally.cli.tables import print_table
from tally.i18n import N_, decimal_comma, format_date, use
from tally.i18n import gettext as _
from tally.vocabulary import word

if TYPE_CHECKING:
    from tally.store.ratings import RatingHistoryView, RatingsView

HELP = (
    "Ratings across all events (OpenSkill): the list, ranked by the conservative rating, "
    "and a\nplayer's history match by match."
)

ratings_app = typer.Typer(help=HELP, invoke_without_command=True)
app.add_typer(ratings_app, name="ratings")

LEGEND = N_(
    "Rating: OpenSkill mu (a new player starts at 25); ± its uncertainty sigma; "
    "ranked by Cons. = rating - 3 × uncertainty."
)


def fixed(value: float, places: int = 1) -> str:
    """A rating as printed: one decimal.

    >>> fixed(27.635), fixed(-3.04)
    ('27.6', '-3.0')
    """
    return f"{value:.{places}f}"


def percent(probability: float) -> str:
    """A win probability as a whole percentage.

    >>> percent(0.659), percent(0.5)
    ('66%', '50%')
    """
    return f"{round(probability * 100)}%"


@ratings_app.callback()
@guard
def ratings(
    ctx: typer.Context, json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None
) -> None:
    """List every player's rating across all events: rank, player, rating, its uncertainty,
    the conservative rating the list is ranked by, and the matches rated (``tally ratings
    history PLAYER`` shows one player's matches)."""
    if ctx.invoked_subcommand is not None:
        return
    from tally.store import as_json

    with reading(db) as store:
        view = store.ratings.table()
    if json_out:
        echo_json(as_json(view))
        return
    with use(language(lang)):
        show(view)


def show(view: RatingsView) -> None:
    """The ratings list as a table on the terminal, in the current language."""
    if not view.rows:
        typer.echo(_("No finished match yet: ratings start with the first one."))
        return
    rows: list[list[str | int | float | None]] = [
        [
            r.rank,
            r.player,
            decimal_comma(fixed(r.rating)),
            decimal_comma(fixed(r.deviation)),
            decimal_comma(fixed(r.conservative)),
            r.matches,
            r.won,
            r.lost,
            format_date(r.last_played.date()),
        ]
        for r in view.rows
    ]
    print_table(
        _("Ratings after %(n)s match(es)") % {"n": view.matches_rated},
        [
            "#",
            _("Player"),
            _("Rating"),
            "±",
            _("Cons."),
            _("Matches"),
            _("W"),
            _("L"),
            _("Last played"),
        ],
        rows,
        right=(0, 2, 3, 4, 5, 6, 7),
        notes=[_(LEGEND)],
    )


@ratings_app.command("history")
@guard
def history(
    player: Annotated[
        str,
        typer.Argument(
            metavar="PLAYER", help="The player (number, name, alias or the start of the name)."
        ),
    ],
    json_out: JsonOption = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Show a player's rating match by match: date, event, opponent, result, the win
    probability before the match, and the rating before and after."""
    from tally.store import as_json

    with reading(db) as store:
        view = store.ratings.history(player)
    if json_out:
        echo_json(as_json(view))
        return
    with use(language(lang)):
        show_history(view)


def show_history(view: RatingHistoryView) -> None:
    """A player's rating history as a table on the terminal, in the current language."""
    rank = _("rank %(n)s, ") % {"n": view.rank} if view.rank is not None else ""
    title = _("%(player)s: rating %(rating)s ± %(deviation)s (%(rank)s%(n)s match(es) rated)") % {
        "player": view.player,
        "rating": decimal_comma(fixed(view.rating)),
        "deviation": decimal_comma(fixed(view.deviation)),
        "rank": rank,
        "n": len(view.matches),
    }
    if not view.matches:
        typer.echo(
            _("%(title)s: no finished match yet, so the starting rating.") % {"title": title}
        )
        return
    rows: list[list[str | int | float | None]] = [
        [
            format_date(m.finished_at.date()),
            m.match_id,
            m.event or "-",
            m.opponent,
            word(m.result),
            m.score,
            percent(m.expected),
            decimal_comma(f"{fixed(m.rating_before)} ± {fixed(m.deviation_before)}"),
            decimal_comma(f"{fixed(m.rating_after)} ± {fixed(m.deviation_after)}"),
            decimal_comma(f"{m.rating_after - m.rating_before:+.1f}"),
        ]
        for m in view.matches
    ]
    print_table(
        title,
        [
            _("Date"),
            _("Match"),
            _("Event"),
            _("Opponent"),
            _("Result"),
            _("Score"),
            _("Expected"),
            _("Before"),
            _("After"),
            _("Change"),
        ],
        rows,
        right=(1, 5, 6, 7, 8, 9),
        notes=[_("Expected: the win probability the ratings gave before the match.")],
    )
