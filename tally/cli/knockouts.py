"""The knockouts' own ``tally event`` commands: ``playoff`` (a "Stechen" between tied
players), ``elimination`` (the standings by elimination, lives and rounds, and the prize
table), ``bracket``, ``prizes`` (the entry fee, prize table and buy-back rule),
``buy-back`` (a player out buys back a life, "Nachkauf") and ``best-of`` (the bracket's
pairings played best of N matches).

:func:`register` adds them to the ``tally event`` group (:mod:`tally.cli.events` calls it);
the work is done by :mod:`tally.store.knockouts`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli.common import echo_json, guard, language
from tally.cli.options import LangOption
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading
from tally.cli.tables import CsvOption, one_format, print_table, write_csv
from tally.events.prizes import money
from tally.i18n import gettext as _
from tally.i18n import ngettext, use, worded
from tally.vocabulary import elimination_ranking, stage_text, word

if TYPE_CHECKING:
    from tally.store import Store
    from tally.store.knockouts import KnockoutView
    from tally.store.knockoutviews import PrizeView
    from tally.store.views import StandingsView

_Event = Annotated[str, typer.Argument(metavar="EVENT", help="The event: number or name.")]


def elimination_rows(view: KnockoutView) -> tuple[list[str], list[list[str | int | None]]]:
    """The standings by elimination as CSV rows: rank, player, group, lives left, the round
    out in, how far they got, won, lost, and a mark per round."""
    header = [
        "rank",
        "player",
        "group",
        "lives",
        "out_in",
        "stage",
        "won",
        "lost",
        *[f"r{n}" for n in range(1, view.rounds_started + 1)],
    ]
    rows: list[list[str | int | None]] = [
        [x.rank, x.player, x.group, x.lives, x.out_in, str(x.stage), x.row.won, x.row.lost]
        for x in view.lines
    ]
    for row, x in zip(rows, view.lines, strict=True):
        row += x.marks
    return header, rows


def describe_format(view: KnockoutView) -> list[str]:
    """A knockout's or groups event's format and stage, line by line, in the current
    language."""
    out = []
    if view.event.format.has_lives:
        final = (
            _("; the last %(n)s play a straight knockout") % {"n": view.final_size}
            if view.final_size
            else ""
        )
        out.append(
            _(
                "Knockout: %(lives)s lives each, rounds drawn by lot with seed %(seed)s%(final)s; "
                "`tally event elimination %(id)s` shows who is still in."
            )
            % {"lives": view.lives, "seed": view.draw_seed, "final": final, "id": view.event.id}
        )
    else:
        sizes = ", ".join(str(len(g)) for g in view.groups)
        out.append(
            _(
                "Groups: %(groups)s (%(sizes)s players), snake-seeded; the best %(advance)s of "
                "each go into a knockout bracket."
            )
            % {"groups": len(view.groups), "sizes": sizes, "advance": view.advance}
        )
        for number, group in enumerate(view.groups, start=1):
            out.append(
                "  " + _("Group %(n)s: %(players)s") % {"n": number, "players": ", ".join(group)}
            )
    if view.best_of > 1:
        out.append(
            _("The bracket's pairings are played best of %(n)s matches.") % {"n": view.best_of}
        )
    out.append(_("Stage: %(stage)s.") % {"stage": stage_text(view.stage)})
    return out


def show_elimination(view: KnockoutView) -> None:
    """Print the standings by elimination as a table on the terminal, with notes, in the
    current language (how far each player got and the round marks worded too)."""
    header, rows = elimination_rows(view)
    knockout = view.event.format.has_lives
    short = [
        "#",
        _("Player"),
        _("Group"),
        _("Lives"),
        _("Out in"),
        _("Stage"),
        _("W"),
        _("L"),
        *[str(n) for n in range(1, view.rounds_started + 1)],
    ]
    keep = [
        i
        for i, name in enumerate(header)
        if not (knockout and name == "group") and not (not knockout and name in ("lives", "out_in"))
    ]
    marks = header.index("lost") + 1
    rows = [
        [
            *row[:5],
            worded(line.stage),
            *row[6:marks],
            *(_(str(m)) if m in ("W", "L", "B") else m for m in row[marks:]),
        ]
        for row, line in zip(rows, view.lines, strict=True)
    ]
    notes = [_("Stage: %(stage)s.") % {"stage": stage_text(view.stage)}]
    if view.draw_seed:
        notes.append(
            _("Lives: %(lives)s each; rounds drawn by lot, seed %(seed)s.")
            % {"lives": view.lives, "seed": view.draw_seed}
        )
    notes.append(_("Rounds: W won, L lost, B bye, ? playing, - not playing."))
    notes.append(elimination_ranking(view.kind, view.tiebreaks))
    if view.buy_back_until is not None:
        short.append(_("Bought back"))
        keep.append(len(short) - 1)
        rows = [[*row, x.bought or None] for row, x in zip(rows, view.lines, strict=True)]
    if view.prizes is not None:
        short.append(_("Prize"))
        keep.append(len(short) - 1)
        rows = [
            [*row, money(x.prize) if x.prize else None]
            for row, x in zip(rows, view.lines, strict=True)
        ]
    print_table(
        _("%(event)s: standings by elimination") % {"event": view.event.name},
        [short[i] for i in keep],
        [[row[i] for i in keep] for row in rows],
        right=(0,),
        notes=notes,
    )
    show_prizes(view)


def prize_notes(view: KnockoutView) -> list[str]:
    """The prize table's lines under the standings, in the current language: the pool and
    where it comes from, what each place wins, what is left for the club, the buy-back rule."""
    out: list[str] = []
    if view.buy_back_until is not None:
        out.append(
            ngettext(
                "Buy-back (Nachkauf): a player out may buy back one life until round "
                "%(round)s, at most %(times)s time each.",
                "Buy-back (Nachkauf): a player out may buy back one life until round "
                "%(round)s, at most %(times)s times each.",
                view.buy_backs,
            )
            % {"round": view.buy_back_until, "times": view.buy_backs}
        )
        if view.buy_back_at_once:
            out.append(_("A buy-back only straight after elimination, before the next round."))
    p = view.prizes
    if p is None:
        return out
    out.append(
        ngettext(
            "Prize pool: %(pool)s (%(entries)s entries at %(fee)s, %(bought)s buy-back).",
            "Prize pool: %(pool)s (%(entries)s entries at %(fee)s, %(bought)s buy-backs).",
            p.bought,
        )
        % {
            "pool": money(p.table.pool),
            "entries": p.entries,
            "fee": money(p.entry_fee),
            "bought": p.bought,
        }
    )
    for place, (share, prize) in enumerate(zip(p.shares, p.table.prizes, strict=True), 1):
        out.append(
            _("  Place %(place)s: %(prize)s (%(share)s %%)")
            % {"place": place, "prize": money(prize), "share": share}
        )
    out += category_notes(p)
    out.append(
        _(
            "Prizes rounded down to %(unit)s; paid to the players: %(paid)s; left for the "
            "club: %(club)s."
        )
        % {"unit": money(p.table.unit), "paid": money(p.paid), "club": money(p.club)}
    )
    return out


def category_notes(p: PrizeView) -> list[str]:
    """The categories' prize tables, in the current language: each place's prize and what
    the category's players win of it; and the rule that a player wins one prize."""
    if not p.categories:
        return []
    out = []
    for c in p.categories:
        places = ", ".join(
            f"{place}. {money(prize)}" + (f" ({c.shares[place - 1]} %)" if c.shares else "")
            for place, prize in enumerate(c.prizes, start=1)
        )
        out.append(
            _("  Category %(category)s: %(places)s; won: %(paid)s.")
            % {"category": c.category, "places": places, "paid": money(c.paid)}
        )
    out.append(
        _(
            "A player wins at most one prize, the higher (equal amounts: the overall one); "
            "the next of the category moves up. Won of the overall table: %(overall)s."
        )
        % {"overall": money(p.paid_overall)}
    )
    return out


def show_prizes(view: KnockoutView) -> None:
    """Print the prize table and the buy-back rule, if the event has them."""
    for line in prize_notes(view):
        typer.echo(line)


def standings_prizes(store: Store, view: StandingsView) -> KnockoutView | None:
    """For ``tally standings``: the knockout view of a knockout or groups event with a
    prize table or buy-back rule (None for any other event)."""

    if view.event is None or not view.event.format.ranks_by_elimination:
        return None
    found = store.knockouts.view(view.event)
    return found if found.prizes is not None or found.buy_back_until is not None else None


def show_bracket(view: KnockoutView) -> None:
    """Print a knockout's bracket as a table on the terminal, in the current language."""
    if not view.bracket:
        typer.echo(
            _('Event %(id)s "%(name)s" has no bracket yet (%(stage)s).')
            % {"id": view.event.id, "name": view.event.name, "stage": stage_text(view.stage)}
        )
        return
    rows: list[list[str | int | None]] = []
    for matches in view.bracket:
        for m in matches:
            rows.append(
                [
                    m.round,
                    m.table,
                    _side(m.first),
                    _side(m.second),
                    m.result,
                    m.winner if m.decided else None,
                    m.match_id,
                ]
            )
    notes = [
        _("Champion: %(player)s.") % {"player": view.champion}
        if view.champion
        else _("Stage: %(stage)s.") % {"stage": stage_text(view.stage)},
        _("?: the winner of a match not decided yet."),
    ]
    if view.best_of > 1:
        notes.append(
            _("Each pairing is played best of %(n)s matches; result: matches won.")
            % {"n": view.best_of}
        )
    print_table(
        _("%(event)s: bracket") % {"event": view.event.name},
        [_("Round"), _("Table"), _("First"), _("Second"), _("Result"), _("Winner"), _("Match")],
        rows,
        right=(0, 1, 6),
        notes=notes,
    )


@guard
def playoff(
    event: _Event,
    first: Annotated[str, typer.Argument(metavar="PLAYER", help="One tied player.")],
    second: Annotated[str, typer.Argument(metavar="PLAYER", help="The other.")],
    dealer: Annotated[
        str | None, typer.Option("--dealer", help="Who deals first (default: the first player).")
    ] = None,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Start a play-off (Stechen) between two players of a knockout or groups event who
    share a rank (overall, or in their group where it decides who goes through): a
    match without a round that counts in no totals; its winner ranks above the other.
    Record its deals as any match's."""

    with opened(db, scorer) as store:
        mid = store.knockouts.record_playoff(event, first, second, first_dealer=dealer)
        match = store.matches.state(mid)
    typer.echo(
        f"Play-off: match {mid}, {match.players[0]} against {match.players[1]}, "
        f"{match.first_dealer} deals first. Record it with `tally deal start "
        f"{mid} ...` or `tally deal quick {mid} ...`."
    )


@guard
def elimination(
    event: _Event,
    json_out: JsonOption = False,
    csv_out: CsvOption = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """Show the standings of a knockout or groups event by elimination: how far each
    player got (lives left, the round they were out in, their group, the bracket round),
    won and lost, and a mark per round (W won, L lost, B bye, ? playing, - not
    playing)."""
    from tally.store import as_json

    one_format(json_out, csv_out)
    with reading(db) as store:
        view = store.knockouts.view(store.events.get(event))
    if json_out:
        echo_json(as_json(view))
        return
    if csv_out:
        write_csv(*elimination_rows(view))
        return
    with use(language(lang, view.event.language)):
        show_elimination(view)


@guard
def bracket(
    event: _Event, json_out: JsonOption = False, db: DbOption = None, lang: LangOption = None
) -> None:
    """Show the knockout bracket of a knockout (its final stage) or groups event: each
    round's matches, byes, results and winners."""
    from tally.store import as_json

    with reading(db) as store:
        view = store.knockouts.view(store.events.get(event))
    if json_out:
        echo_json(as_json(view.bracket))
        return
    with use(language(lang, view.event.language)):
        show_bracket(view)


@guard
def prizes(
    event: _Event,
    entry_fee: Annotated[
        str | None,
        typer.Option(
            "--entry-fee", metavar="EUROS", help="What each player pays to enter (10, 7.50)."
        ),
    ] = None,
    shares: Annotated[
        str | None,
        typer.Option(
            "--prizes",
            metavar="PERCENTS",
            help="The pool's percentage per place, best first (50,30,20); together at most "
            "100, no more places than players.",
        ),
    ] = None,
    round_to: Annotated[
        str | None,
        typer.Option(
            "--round-to",
            metavar="EUROS",
            help="Round each prize down to this (1: whole euros, 0.5: 50 cents; default 0.01); "
            "what is left goes to the club.",
        ),
    ] = None,
    buy_back_until: Annotated[
        int | None,
        typer.Option(
            "--buy-back-until",
            metavar="ROUND",
            help="A knockout with lives: a player out may buy back a life (Nachkauf) to play "
            "on, up to this round.",
        ),
    ] = None,
    buy_back_fee: Annotated[
        str | None,
        typer.Option(
            "--buy-back-fee",
            metavar="EUROS",
            help="What a buy-back costs (default: the entry fee); it goes into the pool.",
        ),
    ] = None,
    buy_backs: Annotated[
        int | None,
        typer.Option(
            "--buy-backs", metavar="N", help="How many times a player may buy back (default 1)."
        ),
    ] = None,
    buy_back_at_once: Annotated[
        bool | None,
        typer.Option(
            "--buy-back-at-once/--buy-back-any-round",
            help="A player out may buy back only straight after elimination, before the next "
            "round (default: before any round up to --buy-back-until).",
        ),
    ] = None,
    category_prizes: Annotated[
        list[str] | None,
        typer.Option(
            "--category-prizes",
            metavar="CATEGORY=PRIZES",
            help="A category's prize table (repeat for each): percentages of the pool best "
            "first (Damen=10,5) or amounts in euros with the euro sign (Jugend=20 €;10 €); "
            "Damen= takes it away. A player wins at most one prize, the higher.",
        ),
    ] = None,
    json_out: JsonOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Set and show a knockout's or groups event's money: the entry fee, the prize table
    (a percentage of the pool per place, rounded down as the club says, the rest to the
    club), the categories' prize tables and the buy-back rule (Nachkauf: until which round,
    at what fee, how often). Without options it shows them."""
    from tally.events.prizes import parse_money
    from tally.store import as_json

    fee = None if entry_fee is None else parse_money(entry_fee, "--entry-fee")
    unit = None if round_to is None else parse_money(round_to, "--round-to")
    back_fee = None if buy_back_fee is None else parse_money(buy_back_fee, "--buy-back-fee")
    with opened(db, scorer) as store:
        store.prizes.set_money(
            event,
            entry_fee=fee,
            shares=shares,
            unit=unit,
            buy_back_until=buy_back_until,
            buy_back_fee=back_fee,
            buy_backs=buy_backs,
            buy_back_at_once=buy_back_at_once,
            category_prizes=category_prizes or (),
        )
        view = store.knockouts.view(store.events.get(event))
    if json_out:
        echo_json(
            as_json(
                {
                    "prizes": view.prizes,
                    "buy_back_until": view.buy_back_until,
                    "buy_back_fee": view.buy_back_fee,
                    "buy_backs": view.buy_backs,
                    "buy_back_at_once": view.buy_back_at_once,
                }
            )
        )
        return
    with use(language(lang, view.event.language)):
        lines = prize_notes(view)
        if not lines:
            typer.echo(
                _(
                    'Event %(id)s "%(name)s" has no prize table and no buy-backs: set '
                    "them with --entry-fee, --prizes, --buy-back-until."
                )
                % {"id": view.event.id, "name": view.event.name}
            )
        show_prizes(view)


@guard
def best_of(
    event: _Event,
    matches: Annotated[int, typer.Argument(metavar="N", help="An odd number: 1, 3, 5, 7, 9.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """Play the pairings of the bracket (a knockout's final stage, groups' knockout stage)
    best of N matches: all N are made when the round starts, the first dealer alternating;
    a pairing is decided when one player has won (N+1)/2, the rest are not needed. Set it
    before the bracket is seeded."""

    with opened(db, scorer) as store:
        store.knockouts.set_best_of(event, matches)
    with use(language(lang)):
        typer.echo(_("The bracket's pairings are played best of %(n)s matches.") % {"n": matches})


@guard
def buy_back(
    event: _Event,
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player out.")],
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """A player out of a knockout with lives buys back a life (Nachkauf) before the next
    round is drawn, as the event's rule allows (`tally event prizes --buy-back-until`); the
    fee goes into the prize pool. `tally audit undo` takes it back."""
    from tally.events.prizes import money

    with opened(db, scorer) as store:
        name, fee = store.prizes.buy_back(event, player)
    with use(language(lang)):
        typer.echo(
            _("%(player)s bought back a life for %(fee)s and is drawn in the next round.")
            % {"player": name, "fee": money(fee)}
        )


def register(event_app: typer.Typer) -> None:
    """Add ``playoff``, ``elimination``, ``bracket``, ``prizes``, ``buy-back`` and
    ``best-of`` to ``tally event``."""
    event_app.command("playoff")(playoff)
    event_app.command("elimination")(elimination)
    event_app.command("bracket")(bracket)
    event_app.command("prizes")(prizes)
    event_app.command("buy-back")(buy_back)
    event_app.command("best-of")(best_of)


def _side(name: str | None) -> str:
    """A side of a bracket match as the terminal shows it."""
    return word("bye") if name is None else name or "?"
