"""The director's Preisschnapsen money: setting an event's entry fee, prize table and
buy-back rule, and a player out buying back a life (Nachkauf), from the event's page; and
how many matches the bracket's pairings are played best of. The
work is :mod:`tally.store.prizemoney`; the prize table is shown with the standings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tally.web.app import Fields, guarded, whole_number
from tally.web.director import chosen, event_form_change

if TYPE_CHECKING:
    from gettext import NullTranslations

    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.store import Store


def routes() -> list[Route]:
    """The routes of the event page's money forms."""
    from starlette.routing import Route

    post = ["POST"]
    return [
        Route("/director/event/{event}/prizes", set_prizes, methods=post),
        Route("/director/event/{event}/buy-back", buy_back, methods=post),
        Route("/director/event/{event}/best-of", best_of, methods=post),
    ]


def _amount(form: Fields, name: str, what: str) -> int | None:
    """An amount in euros from the form (None when left empty), in cents."""
    from tally.events.prizes import parse_money

    text = form.at(name).values.get(name, "").strip()
    return None if not text else parse_money(text, what)


def _count(form: Fields, name: str, digits: int, what: str) -> int | None:
    """A whole number from the form (None when left empty); refused when it is not one."""
    from tally.errors import Message, Refused
    from tally.i18n import N_

    text = form.at(name).values.get(name, "").strip()
    number = whole_number(text, digits)
    if text and number is None:
        raise Refused(
            Message(N_('%(field)s: "%(text)s" is not a whole number'), field=what, text=text[:20])
        )
    return number


@guarded
async def set_prizes(request: Request) -> Response:
    """POST: set what the form gives of the entry fee, prize shares, rounding, a category's
    prize table and the buy-back rule (a field left empty stays as it is); refused, the form
    comes back with what was typed and the field at fault marked."""
    from tally.events.prizes import parse_category_prizes, parse_shares

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        shares = form.at("prizes").values.get("prizes", "").strip() or None
        if shares is not None:
            parse_shares(shares)
        category = form.at("category_prizes").values.get("category_prizes", "").strip()
        if category:
            parse_category_prizes(category)
        entry_fee = _amount(form, "entry_fee", "entry fee")
        unit = _amount(form, "round_to", "round to")
        until = _count(form, "buy_back_until", 4, "buy back until round")
        fee = _amount(form, "buy_back_fee", "buy-back fee")
        times = _count(form, "buy_backs", 1, "buy-backs")
        form.at(None)
        store.prizes.set_money(
            eid,
            entry_fee=entry_fee,
            shares=shares,
            unit=unit,
            buy_back_until=until,
            buy_back_fee=fee,
            buy_backs=times,
            buy_back_at_once={"yes": True, "no": False}.get(
                form.values.get("buy_back_at_once", "")
            ),
            category_prizes=[category] if category else [],
        )
        return words.gettext("The prize table and buy-backs are set.")

    return await event_form_change(request, "prizes", change)


@guarded
async def buy_back(request: Request) -> Response:
    """POST: a player out buys back a life."""
    from tally.events.prizes import money

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        name, fee = store.prizes.buy_back(eid, chosen(form, "player"))
        return words.gettext(
            "%(player)s bought back a life for %(fee)s and is drawn in the next round."
        ) % {"player": name, "fee": money(fee)}

    return await event_form_change(request, "buy-back", change)


@guarded
async def best_of(request: Request) -> Response:
    """POST: play the bracket's pairings best of N matches."""
    from tally.errors import Refused
    from tally.i18n import N_

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        number = whole_number(form.at("best_of").values.get("best_of", ""), 1)
        if number is None:
            raise Refused(N_("give how many matches a pairing is played best of"))
        store.knockouts.set_best_of(eid, number)
        return words.gettext("The bracket's pairings are played best of %(n)s matches.") % {
            "n": number
        }

    return await event_form_change(request, "best-of", change)
