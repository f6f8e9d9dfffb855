"""Correcting a deal in the director's pages: a recorded deal through a form of its tricks
(each item of a trick chosen from a list: the cards, a marriage, the exchange, closing, a
claim, as the record has them), the record as text staying as the expert's way; a deal
entered as a result (quick entry) through its winner, game points and reason.

Both go through the store's audited edits (``store.deals.edit``,
``store.deals.edit_quick_result``): the store checks the corrected deal and the
deals after it, and either change can be reversed on the Changes page.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tally.errors import Refused
from tally.i18n import N_
from tally.web.app import (
    blocking,
    form_of,
    guarded,
    int_param,
    language,
    render,
    site_of,
    translate,
    whole_number,
)
from tally.web.director import acting, back, need_director

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.engine.notation import DealRecord
    from tally.store import Store

#: the most items one trick line may hold on the form (``swap close 20 QC KD close`` is 5)
SLOTS = 6
#: the most tricks a form takes (a deal has 12 at most; one more for a line to add)
MAX_TRICKS = 16


def routes() -> list[Route]:
    """The routes of this module."""
    from starlette.routing import Route

    post = ["POST"]
    return [
        Route("/director/deal/{deal}", deal_page),
        Route("/director/deal/{deal}/tricks", tricks_page),
        Route("/director/deal/{deal}/tricks", save_tricks, methods=post),
        Route("/director/deal/{deal}/quick", save_quick, methods=post),
    ]


@guarded
async def deal_page(request: Request) -> Response:
    """GET: a deal is shown on its match's page (where an error page's "Back" after a
    refused correction of the deal leads)."""
    need_director(request)
    view = await blocking(site_of(request).store.deals.view, int_param(request, "deal"))
    return back(f"/director/match/{view.match_id}")


def item_choices(rules: str, players: tuple[str, str], lang: str) -> list[tuple[str, str]]:
    """Every item a trick line may hold, as ``(token, label)``: nothing, the exchange,
    closing, a claim (by the trick's winner, or by either player), each card of the rule
    set's deck, each marriage."""
    from tally.engine.cards import Rank
    from tally.web.cards import Button, deck

    _ = translate(lang)
    cards = [str(c) for c in deck(rules)]
    out = [("", "–"), ("swap", _("swap")), ("close", _("close")), ("66", _("66 (claim)"))]
    out += [
        (
            f"66@{p}" if re.fullmatch(r"[^\s\"\\;{}]+", p) else f'66@"{p}"',
            _("66 claimed by %(player)s") % {"player": p},
        )
        for p in players
    ]
    out += [(c, Button.of(c, lang).label) for c in cards]
    royals = [c for c in deck(rules) if c.rank in (Rank.KING, Rank.QUEEN)]
    out += [(f"{v} {c}", Button.of(f"{v} {c}", lang).label) for v in (20, 40) for c in royals]
    return out


def trick_rows(record: DealRecord) -> list[list[str]]:
    """The record's tricks as rows of item texts, each padded to :data:`SLOTS`, and an empty
    row more (a trick to add)."""
    rows = [[str(i) for i in t.items] for t in record.tricks]
    rows.append([])
    return [row + [""] * (SLOTS - len(row)) for row in rows]


def _tricks_state(store: Store, did: int, lang: str) -> dict[str, Any]:
    from tally.engine.notation import read_deal
    from tally.engine.ruling import summarize

    view = store.deals.view(did)
    match = store.matches.state(view.match_id)
    text = store.deals.export(did)
    record = read_deal(text)
    _, lines = summarize(record)
    return {
        "deal": view,
        "match": match,
        "record": text,
        "rows": trick_rows(record),
        "who": [(t.leader, t.winner) for t in lines],
        "choices": item_choices(match.rules, match.players, lang),
    }


@guarded
async def tricks_page(request: Request) -> Response:
    """GET: the deal's tricks as a form, each item chosen from a list; the record as text
    below it for experts."""
    need_director(request)
    did = int_param(request, "deal")
    store = site_of(request).store
    view = await blocking(store.deals.view, did)
    lang = await language(request, match=view.match_id)
    state = await blocking(_tricks_state, store, did, lang)
    return render(request, "tricks.html.j2", **state)


def record_from_form(text: str, fields: dict[str, str]) -> str:
    """The stored record ``text`` with its tricks replaced by the form's (``t{trick}-{slot}``
    fields; empty items and empty tricks left out, the tricks numbered on from 1).

    >>> old = '[Dealer "A"]\\n[Forehand "B"]\\n[Trump "QH"]\\n\\n1. KS AS\\n'
    >>> print(record_from_form(old, {"t0-0": "KS", "t0-1": "", "t0-2": "AS",
    ...                              "t2-0": "20 QC", "t2-1": "66"}), end="")
    [Dealer "A"]
    [Forehand "B"]
    [Trump "QH"]
    <BLANKLINE>
    1. KS AS
    2. 20 QC 66
    """
    from dataclasses import replace

    from tally.engine.notation import read_deal, write_deal

    head = write_deal(replace(read_deal(text), tricks=[]))
    lines: list[str] = []
    for i in range(MAX_TRICKS):
        items = [fields.get(f"t{i}-{j}", "").strip() for j in range(SLOTS)]
        items = [x for x in items if x]
        if items:
            lines.append(f"{len(lines) + 1}. {' '.join(items)}")
    if not lines:
        raise Refused(N_("a recorded deal needs at least one card: delete the deal instead"))
    return head + "\n" + "\n".join(lines) + "\n"


@guarded
async def save_tricks(request: Request) -> Response:
    """POST: store the deal with the tricks of the form: the store's audited edit (the
    expert's box posts the record as text to :func:`tally.web.director.edit_deal`)."""
    need_director(request)
    fields = await form_of(request)
    did = int_param(request, "deal")
    store = acting(request)
    view = await blocking(store.deals.view, did)
    _ = translate(await language(request, match=view.match_id))
    text = record_from_form(await blocking(store.deals.export, did), fields)
    changed = await blocking(store.deals.edit, did, text)
    said = (
        _("Nothing changed.")
        if changed is None
        else _("Deal %(number)s corrected.") % {"number": view.number}
    )
    return back(f"/director/match/{view.match_id}", said)


@guarded
async def save_quick(request: Request) -> Response:
    """POST: change a quick result's winner (or a draw), game points and reason."""
    need_director(request)
    fields = await form_of(request)
    did = int_param(request, "deal")
    store = acting(request)
    view = await blocking(store.deals.view, did)
    _ = translate(await language(request, match=view.match_id))
    points = whole_number(fields.get("points", "0").strip(), 2)
    if points is None:
        raise Refused(N_("game points: choose 0, 1, 2 or 3"))
    winner = fields.get("winner") or None
    changed = await blocking(
        store.deals.edit_quick_result,
        did,
        winner=winner,
        points=points if winner else 0,
        reason=fields.get("reason", "claim"),
    )
    said = (
        _("Nothing changed.")
        if changed is None
        else _("Deal %(number)s corrected.") % {"number": view.number}
    )
    return back(f"/director/match/{view.match_id}", said)
