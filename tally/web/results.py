"""A whole match's result, kept on paper, entered in the browser (``store.deals.match_result``, as
``tally match result`` enters it).

Two ways in:

- the director's result box at each table of an event's page (``result_box.html.j2``):
  ``POST /director/match/MATCH/result`` with ``score`` (``7:3``, in the match's order), back
  to the event's page (the match's page for a match of no event);
- "Enter the match result" on a table's phone (``result_phone.html.j2``):
  ``POST /t/MATCH/SECRET/result`` with each player's game points (``first``, ``second``);
  the opponent of the winner then confirms on the same phone, on the page a quick deal's
  result is confirmed on (``agree.html.j2``), and only then is it stored.

Both refuse with the store's reason (a score that does not end the match by its rules, a
match that has deals already) in the page's language.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tally.engine.match import check_match_result, read_score
from tally.errors import AccessDenied, TallyError
from tally.i18n import N_
from tally.store.derivation import rule_set
from tally.web import table
from tally.web.app import (
    Fields,
    blocking,
    form_of,
    guarded,
    int_param,
    is_director,
    language,
    redirect_with_notice,
    render,
    site_of,
    translate,
)
from tally.web.director import event_response

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.store.views import MatchView

#: what the phone says once the result is stored
ENTERED = N_("The match result is entered: %(one)s %(a)s, %(two)s %(b)s.")


def routes() -> list[Route]:
    """The routes of a match result: the director's box and the phone's form."""
    from starlette.routing import Route

    return [
        Route("/director/match/{match}/result", director_result, methods=["POST"]),
        Route("/t/{match}/{secret}/result", phone_result, methods=["POST"]),
    ]


@guarded
async def director_result(request: Request) -> Response:
    """POST: the director enters a match's result (``score``, in the match's order); back to
    the page of the match's event, saying what was stored."""
    if not is_director(request):
        raise AccessDenied(N_("the director's PIN is needed for this page"))
    form = Fields(await form_of(request))
    mid = int_param(request, "match")
    store = site_of(request).acting("web: director")
    lang = await language(request, match=mid)
    try:
        with form.at("score"):
            match = await blocking(store.deals.match_result, mid, form.values.get("score", ""))
    except TallyError as exc:
        event = (await blocking(store.matches.state, mid)).event_id
        if event is None:
            raise
        refill = replace(form.refill(exc, lang), form=f"result-{mid}")
        return await event_response(request, event, 400, refill)
    _ = translate(lang)
    said = _(ENTERED) % _score_words(match)
    back = (
        f"/director/event/{match.event_id}"
        if match.event_id is not None
        else f"/director/match/{mid}"
    )
    return redirect_with_notice(back, said)


def _score_words(match: MatchView) -> dict[str, object]:
    one, two = match.players
    return {"one": one, "two": two, "a": match.score[one], "b": match.score[two]}


def _points(fields: dict[str, str]) -> tuple[int, int]:
    """The two players' game points the phone's form gives, in the match's order."""
    return read_score(f"{fields.get('first', '')}:{fields.get('second', '')}")


@guarded
async def phone_result(request: Request) -> Response:
    """POST: a table's phone enters its match's result; the winner's opponent confirms it on
    the same phone (``agree=yes``) before it is stored."""
    mid = table.match_of_table(request)
    fields = await form_of(request)

    async def action(lang: str) -> Response:
        score = _points(fields)
        match = await blocking(site_of(request).store.matches.state, mid)
        winner = check_match_result(rule_set(match.rules), score)
        if fields.get("agree") != "yes":
            return render(
                request,
                "agree.html.j2",
                200,
                url=table.table_url(request, mid),
                match=match,
                score=score,
                winner=match.players[winner],
                confirmer=match.players[1 - winner],
            )
        store = table.acting_at_table(request, mid)
        entered = await blocking(store.deals.match_result, mid, score)
        return table.back_to_table(request, mid, translate(lang)(ENTERED) % _score_words(entered))

    return await table.change_at_table(request, mid, action)
