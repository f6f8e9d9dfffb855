"""The treasurer's money sheet of an event and a season's totals as text: one table and its
total lines in the current language, the same words in the terminal (``tally event money``),
on the director's page and in the PDF (``tally print money``), which is only this text laid
out (``templates/money.html.j2``). The amounts are :mod:`tally.events.cashbook`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from tally.events.cashbook import Account, CashBook, SeasonTotals
from tally.events.prizes import money
from tally.i18n import format_date
from tally.i18n import gettext as _

if TYPE_CHECKING:
    from tally.store import Store

__all__ = ["MoneySheet", "book_data", "event_money_sheet", "money_sheet", "season_sheet"]


@dataclass(frozen=True, slots=True)
class MoneySheet:
    """A money sheet as text: its title, the event (or season) and date, the table (header,
    rows, the indexes of the amount columns) and the total lines (label, amount); ``balanced``
    whether it adds up to the cent."""

    title: str
    event: str
    held_on: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    right: tuple[int, ...]
    totals: tuple[tuple[str, str], ...]
    balanced: bool
    printed_at: datetime


def _row(a: Account) -> tuple[str, ...]:
    prize = money(a.prize) if a.prize else ""
    if a.prize and a.prize_category:
        prize += f" ({a.prize_category})"
    return (
        "" if a.rank is None else str(a.rank),
        a.player,
        _("yes") if a.present else "",
        money(a.entry),
        f"{a.buy_backs} · {money(a.buy_back_fees)}" if a.buy_backs else "",
        money(a.extra) if a.extra else "",
        money(a.paid),
        money(a.due) if a.due else "",
        prize,
        money(a.paid_out) if a.paid_out else "",
    )


def _totals(book: CashBook) -> tuple[tuple[str, str], ...]:
    lines = [
        (_("Present"), f"{book.present} / {len(book.accounts)}"),
        (
            _("Entry fees (%(n)s × %(fee)s)")
            % {"n": len(book.accounts), "fee": money(book.entry_fee)},
            money(book.entries),
        ),
        (_("Buy-backs (%(n)s)") % {"n": book.buy_backs}, money(book.buy_back_fees)),
        (_("Prize pool"), money(book.pool)),
        (_("Prizes of the places"), money(book.overall_prizes)),
    ]
    lines += [
        (_("Prizes of the category %(category)s") % {"category": c}, money(x))
        for c, x in book.category_prizes()
    ]
    lines += [
        (_("Left of the pool for the club"), money(book.club_from_pool)),
        (_("Extra fees (to the club)"), money(book.extra)),
        (_("The club's part of the evening"), money(book.club)),
        (_("Paid in"), money(book.paid)),
        (_("Still due"), money(book.due)),
        (_("Prizes paid out"), money(book.paid_out)),
        (_("Prizes still to pay out"), money(book.to_pay_out)),
        (_("Cash box (paid in less paid out)"), money(book.cash)),
    ]
    return tuple(lines)


def money_sheet(book: CashBook, event: str, held_on: date) -> MoneySheet:
    """The money sheet of an event, in the current language."""
    header = (
        _("Rank"),
        _("Player"),
        _("Here"),
        _("Entry fee"),
        _("Buy-backs"),
        _("Extra"),
        _("Paid"),
        _("Due"),
        _("Prize"),
        _("Paid out"),
    )
    return MoneySheet(
        _("Money sheet"),
        event,
        format_date(held_on),
        header,
        tuple(_row(a) for a in book.accounts),
        (3, 4, 5, 6, 7, 8, 9),
        _totals(book),
        book.balances(),
        datetime.now(UTC),
    )


def event_money_sheet(store: Store, ref: str | int) -> MoneySheet:
    """The money sheet of event ``ref`` from the store, in the current language (the
    director's page and PDF)."""
    ev = store.events.get(ref)
    return money_sheet(store.treasurer.book(ev.id), ev.name, ev.date)


_SEASON = ("entries", "buy_back_fees", "prizes", "extra", "club", "paid", "due", "paid_out")


def season_sheet(season: SeasonTotals, span: str) -> MoneySheet:
    """A season's money: a row per event with money and the season's totals."""
    header = (
        _("Date"),
        _("Event"),
        _("Entry fees"),
        _("Buy-backs"),
        _("Prizes"),
        _("Extra"),
        _("Club"),
        _("Paid in"),
        _("Due"),
        _("Paid out"),
    )
    rows = tuple(
        (held, name, *(money(int(getattr(book, k))) for k in _SEASON))
        for _id, name, held, book in season.events
    )
    totals = tuple(
        (label, money(season.total(k))) for label, k in zip(header[2:], _SEASON, strict=True)
    )
    return MoneySheet(
        _("Money of the season"),
        span,
        "",
        header,
        rows,
        tuple(range(2, 10)),
        totals,
        all(book.balances() for *_rest, book in season.events),
        datetime.now(UTC),
    )


def book_data(book: CashBook) -> dict[str, Any]:
    """The money sheet as JSON-ready data (cents; never translated)."""
    accounts = [
        {
            "player": a.player,
            "rank": a.rank,
            "present": a.present,
            "entry": a.entry,
            "buy_backs": a.buy_backs,
            "buy_back_fees": a.buy_back_fees,
            "extra": a.extra,
            "owed": a.owed,
            "paid": a.paid,
            "due": a.due,
            "prize": a.prize,
            "prize_category": a.prize_category,
            "paid_out": a.paid_out,
            "to_pay_out": a.to_pay_out,
        }
        for a in book.accounts
    ]
    names = (
        "present entries buy_backs buy_back_fees pool overall_prizes prizes club_from_pool "
        "extra club owed paid due paid_out to_pay_out cash"
    ).split()
    totals: dict[str, Any] = {k: getattr(book, k) for k in names}
    totals["category_prizes"] = dict(book.category_prizes())
    return {"accounts": accounts, "totals": totals, "balanced": book.balances()}
