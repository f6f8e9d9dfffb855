"""Correcting a deal in the director's pages: a recorded deal through a form of its tricks
(each item of a trick chosen from a list: the cards, a marriage, the exchange, closing, a
claim, as the record has them), the record as text staying as the expert's way; a deal
entered as a result (quick entry) through its winner, game points and reason.

Both go through the store's audited edits (``store.deals.edit``,
``store.deals.edit_quick_result``; a match result entered whole: ``store.deals.edit_match_result``,
from the box on the match's page): the store checks the corrected deal and the deals after it,
and either change can be reversed on the Changes page. A correction is first asked about: the
page says what it changes (``store.consequences``' ``record_correction``, ``quick_correction``,
``match_result_correction``: who wins each changed trick, the declarations that change hands,
the deal's result and the match's score before and after), and its button posts the same
correction with the question's ``mark``, so nothing is stored unless the match is still as the
question showed it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tally.engine.match import (
    MSG_NO_DRAW,
    MSG_NOT_HIGHER_TOTAL,
    MSG_NOT_LAST_TRICK,
    MSG_UNKNOWN_REASON,
    MSG_WORTH,
)
from tally.errors import Refused, TallyError
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
    from tally.store.comparison import Correction

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
        Route("/director/deal/{deal}/edit", edit_deal, methods=post),
        Route("/director/match/{match}/result/correct", correct_match_result, methods=post),
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
    lang = await language(request)
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


async def _asked_or_stored(
    request: Request,
    fields: dict[str, str],
    asked: Correction,
    store_it: Callable[[str], object],
    question: tuple[str, str, dict[str, str]],
    number: int | None = None,
) -> Response:
    """The correction's question (what it changes, and the button that stores it: posted to
    ``question``'s action with its fields and the question's mark), or, once confirmed
    (``mark`` posted), the correction stored and back to the match's page."""
    from tally.i18n import worded

    mid = asked.match_id
    lang = await language(request)
    _ = translate(lang)
    where = f"/director/match/{mid}"
    if not asked.changes_anything:
        return back(where, _("Nothing changed."))
    mark = fields.get("mark")
    if mark is None:
        title, action, hidden = question
        return render(
            request,
            "ask.html.j2",
            title=title,
            lines=[worded(line, lang) for line in asked.lines()],
            action=action,
            button=_("Store the correction"),
            back=where,
            hidden={**hidden, "mark": asked.mark},
        )
    await blocking(store_it, mark[:64])
    said = (
        _("Deal %(number)s corrected.") % {"number": number}
        if number is not None
        else _("The result of match %(id)s corrected.") % {"id": mid}
    )
    return back(where, said)


async def _correct_record(
    request: Request, did: int, text: str, fields: dict[str, str]
) -> Response:
    """Ask about, or store, a recorded deal's corrected record ``text``."""
    store = acting(request)
    view = await blocking(store.deals.view, did)
    _ = translate(await language(request))
    text = text.replace("\r\n", "\n")
    asked = await blocking(store.consequences.record_correction, did, text)
    return await _asked_or_stored(
        request,
        fields,
        asked,
        lambda mark: store.deals.edit(did, text, expect=mark),
        (
            _("Correct deal %(number)s?") % {"number": view.number},
            f"/director/deal/{did}/edit",
            {"record": text},
        ),
        view.number,
    )


@guarded
async def save_tricks(request: Request) -> Response:
    """POST: the deal with the tricks of the form: first what it changes, asked about
    (:func:`_asked_or_stored`); the question's button posts the record to :func:`edit_deal`."""
    need_director(request)
    fields = await form_of(request)
    did = int_param(request, "deal")
    text = record_from_form(await blocking(site_of(request).store.deals.export, did), fields)
    return await _correct_record(request, did, text, {})


@guarded
async def edit_deal(request: Request) -> Response:
    """POST: replace a recorded deal's record (``record``, the expert's box, or the question's
    button with its ``mark``): asked about first, then stored (audited, reversible)."""
    need_director(request)
    fields = await form_of(request)
    did = int_param(request, "deal")
    return await _correct_record(request, did, fields.get("record", ""), fields)


#: the field of the quick result's form each refusal of the rules is about (else: the winner)
_QUICK_FIELDS = {
    MSG_UNKNOWN_REASON: "reason",
    MSG_NO_DRAW: "reason",
    MSG_NOT_LAST_TRICK: "reason",
    MSG_NOT_HIGHER_TOTAL: "reason",
    MSG_WORTH: "points",
}


@guarded
async def save_quick(request: Request) -> Response:
    """POST: change a quick result's winner (or a draw), game points and reason: asked about
    first, stored once confirmed."""
    from dataclasses import replace

    from tally.web.app import Fields, page_language
    from tally.web.director import match_refused

    need_director(request)
    form = Fields(await form_of(request))
    fields = form.values
    did = int_param(request, "deal")
    store = acting(request)
    view = await blocking(store.deals.view, did)
    _ = translate(await language(request))
    try:
        points = whole_number(form.at("points").values.get("points", "0").strip(), 2)
        if points is None:
            raise Refused(N_("game points: choose 0, 1, 2 or 3"))
        winner = fields.get("winner") or None
        result: dict[str, Any] = {
            "winner": winner,
            "points": points if winner else 0,
            "reason": fields.get("reason", "claim")[:40],
        }
        try:
            asked = await blocking(lambda: store.consequences.quick_correction(did, **result))
        except TallyError as exc:
            form.at(_QUICK_FIELDS.get(exc.wording.template, "winner"))
            raise
    except TallyError as exc:
        refill = replace(form.refill(exc, page_language(request)), form=f"quick-{did}")
        return await match_refused(request, view.match_id, refill)
    return await _asked_or_stored(
        request,
        fields,
        asked,
        lambda mark: store.deals.edit_quick_result(did, **result, expect=mark),
        (
            _("Correct deal %(number)s?") % {"number": view.number},
            f"/director/deal/{did}/quick",
            {"winner": winner or "", "points": str(result["points"]), "reason": result["reason"]},
        ),
        view.number,
    )


@guarded
async def correct_match_result(request: Request) -> Response:
    """POST: correct a match's result entered whole (``score``, in the match's order): asked
    about first, stored once confirmed."""
    need_director(request)
    fields = await form_of(request)
    mid = int_param(request, "match")
    store = acting(request)
    _ = translate(await language(request))
    score = fields.get("score", "").strip()[:20]
    asked = await blocking(store.consequences.match_result_correction, mid, score)
    return await _asked_or_stored(
        request,
        fields,
        asked,
        lambda mark: store.deals.edit_match_result(mid, score, expect=mark),
        (
            _("Correct the result of match %(id)s?") % {"id": mid},
            f"/director/match/{mid}/result/correct",
            {"score": score},
        ),
    )
