"""The treasurer's ``tally event`` commands: ``checkin`` (a player at the desk: present, paid,
extra fees, prize paid out; and whether only players checked in are paired) and ``money``
(an event's money sheet, or a season's totals). :func:`register` adds them to ``tally
event``; the work is done by :mod:`tally.store.treasurer`, the text by
:mod:`tally.sheets.money`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli.common import echo_json, fail, guard, language
from tally.cli.options import FromOption, LangOption, ToOption
from tally.cli.options import MoneySeasonOption as SeasonOption
from tally.cli.storage import DbOption, JsonOption, ScorerOption, opened, reading
from tally.cli.tables import print_table
from tally.errors import Message
from tally.i18n import N_, use
from tally.i18n import gettext as _

if TYPE_CHECKING:
    from tally.sheets.money import MoneySheet

_Event = Annotated[str, typer.Argument(metavar="EVENT", help="The event: number or name.")]


def _amount(text: str | None, what: str) -> int | None:
    """An amount typed in euros, read as every amount is (None: not given)."""
    from tally.events.prizes import parse_money

    return None if text is None else parse_money(text, what)


@guard
def checkin(
    event: _Event,
    player: Annotated[
        str | None, typer.Argument(metavar="PLAYER", help="The player at the desk.")
    ] = None,
    absent: Annotated[
        bool, typer.Option("--absent", help="Not here (after all): taken off as present.")
    ] = False,
    paid: Annotated[
        str | None,
        typer.Option("--paid", metavar="EUROS", help="What the player has paid in all (10, 7.50)."),
    ] = None,
    paid_in_full: Annotated[
        bool,
        typer.Option(
            "--paid-in-full", help="The player paid what they owe (entry, buy-backs, extras)."
        ),
    ] = False,
    extra: Annotated[
        str | None,
        typer.Option(
            "--extra",
            metavar="EUROS",
            help="Extra fees the player owes beside the entry fee (a meal, a late entry); "
            "they go to the club, not the pool.",
        ),
    ] = None,
    paid_out: Annotated[
        str | None,
        typer.Option("--paid-out", metavar="EUROS", help="Prize money handed to the player."),
    ] = None,
    prize_paid_out: Annotated[
        bool, typer.Option("--prize-paid-out", help="The player's whole prize was handed over.")
    ] = False,
    required: Annotated[
        bool | None,
        typer.Option(
            "--required/--not-required",
            help="Pair only players checked in: a round is not started while a player still "
            "in is not checked in (withdraw who did not come).",
        ),
    ] = None,
    json_out: JsonOption = False,
    db: DbOption = None,
    scorer: ScorerOption = None,
    lang: LangOption = None,
) -> None:
    """A player at the treasurer's desk: checked in, paid, extra fees, prize paid out.

    Without options the player is checked in as present. Each amount is what it is now
    (not added up): --paid 10 after --paid 5 means 10 paid in all. `tally audit undo` takes
    each change back. `tally event money EVENT` shows the evening's money sheet.
    """
    from tally.store.treasurer import Desk

    if paid is not None and paid_in_full:
        fail(Message(N_("give --paid or --paid-in-full, not both")))
    if paid_out is not None and prize_paid_out:
        fail(Message(N_("give --paid-out or --prize-paid-out, not both")))
    if player is None and required is None:
        fail(Message(N_("give a PLAYER at the desk, or --required/--not-required")))
    desk = Desk(
        present=False if absent else True,
        paid=_amount(paid, "--paid"),
        paid_in_full=paid_in_full,
        extra=_amount(extra, "--extra"),
        paid_out=_amount(paid_out, "--paid-out"),
        prize_paid_out=prize_paid_out,
    )
    with opened(db, scorer) as store:
        if required is not None:
            store.treasurer.require(event, required)
        account = None if player is None else store.treasurer.check_in(event, player, desk)
        ev = store.events.get(event)
    if json_out:
        from tally.events.cashbook import cash_book
        from tally.sheets.money import book_data

        data = book_data(cash_book([] if account is None else [account], 0))
        echo_json({"check_in_required": ev.check_in, "account": (data["accounts"] or [None])[0]})
        return
    with use(language(lang, ev.language)):
        _say_desk(ev.name, account, ev.check_in)


def _say_desk(event: str, account: object, required: bool) -> None:
    """Tell what the desk now holds for the player, and whether check-in is required."""
    from tally.events.cashbook import Account
    from tally.events.prizes import money

    if isinstance(account, Account):
        typer.echo(
            _(
                "%(player)s: %(here)s; owes %(owed)s, paid %(paid)s, due %(due)s; prize "
                "%(prize)s, paid out %(out)s."
            )
            % {
                "player": account.player,
                "here": _("here") if account.present else _("not here"),
                "owed": money(account.owed),
                "paid": money(account.paid),
                "due": money(account.due),
                "prize": money(account.prize),
                "out": money(account.paid_out),
            }
        )
    if required:
        typer.echo(_("%(event)s pairs only players checked in.") % {"event": event})


def show_sheet(sheet: MoneySheet) -> None:
    """Print a money sheet: its table and its total lines."""
    title = f"{sheet.title}: {sheet.event}" + (f", {sheet.held_on}" if sheet.held_on else "")
    width = max((len(label) for label, _x in sheet.totals), default=0)
    notes = [f"{label.ljust(width)}  {amount}" for label, amount in sheet.totals]
    notes.append(_("It adds up to the cent.") if sheet.balanced else _("It does NOT add up!"))
    print_table(
        title, list(sheet.header), [list(r) for r in sheet.rows], right=sheet.right, notes=notes
    )


@guard
def money(
    event: Annotated[
        str | None, typer.Argument(metavar="EVENT", help="The event: number or name.")
    ] = None,
    season: SeasonOption = False,
    date_from: FromOption = None,
    date_to: ToOption = None,
    json_out: JsonOption = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """The treasurer's money sheet of an event, or a season's totals (--season).

    Per player: here, entry fee, buy-backs, extra fees, paid, due, prize, paid out; then the
    entry fees, buy-backs and pool, the prizes per place and category, what is left for the
    club, paid in, due, paid out and the cash box; it adds up to the cent. With --season
    (--from, --to): a line per event with money and the season's totals.
    """
    from tally.cli.common import parse_date
    from tally.sheets.money import book_data, money_sheet, season_sheet

    if (event is None) == (not season and date_from is None and date_to is None):
        fail(Message(N_("give an EVENT, or --season with its options, not both")))
    with reading(db) as store:
        if event is not None:
            ev = store.events.get(event)
            book = store.treasurer.book(ev.id)
            if json_out:
                echo_json({"event": ev.id, "name": ev.name, **book_data(book)})
                return
            with use(language(lang, ev.language)):
                show_sheet(money_sheet(book, ev.name, ev.date))
            return
        first, last = parse_date(date_from, "--from"), parse_date(date_to, "--to")
        totals = store.treasurer.season(first, last)
    if json_out:
        echo_json(
            {
                "events": [
                    {"event": i, "name": n, "held_on": d, **book_data(b)}
                    for i, n, d, b in totals.events
                ]
            }
        )
        return
    with use(language(lang)):
        span = f"{first or '…'} – {last or '…'}"
        show_sheet(season_sheet(totals, span))


def register(event_app: typer.Typer) -> None:
    """Add ``checkin`` and ``money`` to ``tally event``."""
    event_app.command("checkin")(checkin)
    event_app.command("money")(money)
