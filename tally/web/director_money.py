"""The director's treasurer's desk: a player checked in, what they paid, extra fees and prize
money paid out, and whether only players checked in are paired, from the event's page; and
the event's money sheet as a page (``/director/event/N/money``) and as PDF
(``/director/print/money/N.pdf``), the text of ``tally event money``. The work is
:mod:`tally.store.treasurer`, the text :mod:`tally.sheets.money`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tally.web.app import Fields, guarded
from tally.web.director import chosen, event_form_change

if TYPE_CHECKING:
    from gettext import NullTranslations

    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.sheets.money import MoneySheet
    from tally.store import Store


def routes() -> list[Route]:
    """The routes of the desk's forms and the money page."""
    from starlette.routing import Route

    post = ["POST"]
    return [
        Route("/director/event/{event}/checkin", check_in, methods=post),
        Route("/director/event/{event}/check-in-required", check_in_required, methods=post),
        Route("/director/event/{event}/money", money_page),
    ]


def _amount(form: Fields, name: str, what: str) -> int | None:
    """An amount in euros from the form (None when left empty), in cents: read as every
    amount is (:func:`tally.events.prizes.parse_money`)."""
    from tally.events.prizes import parse_money

    text = form.at(name).values.get(name, "").strip()
    return None if not text else parse_money(text, what)


@guarded
async def check_in(request: Request) -> Response:
    """POST: take down at the desk what the form gives for a player (a field left empty
    stays as it is); refused, the form comes back with what was typed and the field marked."""
    from tally.events.prizes import money
    from tally.store.treasurer import Desk

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        player = chosen(form, "player")
        desk = Desk(
            present=form.values.get("present", "yes") == "yes",
            paid=_amount(form, "paid", "--paid"),
            paid_in_full=form.values.get("paid_in_full") == "yes",
            extra=_amount(form, "extra", "--extra"),
            paid_out=_amount(form, "paid_out", "--paid-out"),
            prize_paid_out=form.values.get("prize_paid_out") == "yes",
        )
        form.at(None)
        account = store.treasurer.check_in(eid, player, desk)
        return words.gettext(
            "%(player)s: %(here)s; owes %(owed)s, paid %(paid)s, due %(due)s; prize "
            "%(prize)s, paid out %(out)s."
        ) % {
            "player": account.player,
            "here": words.gettext("here") if account.present else words.gettext("not here"),
            "owed": money(account.owed),
            "paid": money(account.paid),
            "due": money(account.due),
            "prize": money(account.prize),
            "out": money(account.paid_out),
        }

    return await event_form_change(request, "checkin", change)


@guarded
async def check_in_required(request: Request) -> Response:
    """POST: pair only players checked in (``required=yes``), or without check-in."""

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        required = form.values.get("required") == "yes"
        store.treasurer.require(eid, required)
        name = store.events.get(eid).name
        if required:
            return words.gettext("%(event)s pairs only players checked in.") % {"event": name}
        return words.gettext("%(event)s pairs without check-in.") % {"event": name}

    return await event_form_change(request, "check-in-required", change)


@guarded
async def money_page(request: Request) -> Response:
    """GET: the event's money sheet, with a link to its PDF."""
    from tally.i18n import use
    from tally.sheets.money import event_money_sheet
    from tally.web.app import blocking, int_param, language, render, site_of
    from tally.web.director import need_director

    need_director(request)
    eid = int_param(request, "event")
    lang = await language(request, event=eid)

    def build(store: Store) -> MoneySheet:
        with use(lang):
            return event_money_sheet(store, eid)

    sheet = await blocking(build, site_of(request).store)
    return render(request, "money.html.j2", sheet=sheet, event_id=eid)
