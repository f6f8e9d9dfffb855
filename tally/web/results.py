"""A whole match's result, kept on paper, entered in the browser (``store.deals.match_result``, as
``tally match result`` enters it).

Two ways in:

- the director's result box at each table of an event's page (``result_box.html.j2``):
  ``POST /director/match/MATCH/result`` with ``score`` (``7:3``, in the match's order), back
  to the event's page (the match's page for a match of no event);
- "Enter the match result" on a table's phone (``result_phone.html.j2``):
  ``POST /t/MATCH/SECRET/result`` with each player's game points (``first``, ``second``):
  a proposal (``store.proposals``), which the opponent of the winner then confirms on the
  same phone, on the page a quick deal's result is confirmed on (``agree.html.j2``), and
  only then is it stored.

A result proposed at a table (a deal's or the match's) is agreed by
``POST /t/MATCH/SECRET/agree`` naming the proposal (``proposal``) and the values shown: the
store stores the proposal's own values, once, and refuses changed values, a withdrawn
proposal or one made before the match changed. "No, that is not right" posts
``/t/MATCH/SECRET/decline``: the proposal is withdrawn and the phone says nothing was
recorded.

Both refuse with the store's reason (a score that does not end the match by its rules, a
match that has deals already) in the page's language.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tally.engine.match import check_match_result, read_score
from tally.errors import AccessDenied, AlreadyRecorded, Refused, TallyError
from tally.i18n import N_
from tally.store.derivation import rule_set
from tally.web import table
from tally.web.app import (
    BY_DIRECTOR,
    Fields,
    blocking,
    form_of,
    guarded,
    int_param,
    is_director,
    language,
    redirect_with_notice,
    site_of,
    translate,
    whole_number,
)
from tally.web.director import event_refused
from tally.web.telling import entered

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.store.views import MatchView

#: what the phone says once the result is stored
ENTERED = N_("The match result is entered: %(one)s %(a)s, %(two)s %(b)s.")
#: what the director is told when a result box sent again had been stored the first time
ALREADY_ENTERED = N_("Already entered: this result counts once.")


def routes() -> list[Route]:
    """The routes of a match result: the director's box and the phone's form."""
    from starlette.routing import Route

    return [
        Route("/director/match/{match}/result", director_result, methods=["POST"]),
        Route("/t/{match}/{secret}/result", phone_result, methods=["POST"]),
        Route("/t/{match}/{secret}/agree", phone_agree, methods=["POST"]),
        Route("/t/{match}/{secret}/decline", phone_decline, methods=["POST"]),
    ]


@guarded
async def director_result(request: Request) -> Response:
    """POST: the director enters a match's result (``score``, in the match's order); back to
    the page of the match's event, saying what was stored."""
    if not is_director(request):
        raise AccessDenied(N_("the director's PIN is needed for this page"))
    form = Fields(await form_of(request))
    mid = int_param(request, "match")
    store = site_of(request).acting(BY_DIRECTOR)
    lang = await language(request)  # (the director's pages' language, not the event's)
    _ = translate(lang)
    try:
        with form.at("score"):
            match = await blocking(
                store.deals.match_result,
                mid,
                form.values.get("score", ""),
                tap=table.tap_of(form.values),
            )
        said = _(ENTERED) % _score_words(match)
    except AlreadyRecorded:
        match, said = await blocking(store.matches.state, mid), _(ALREADY_ENTERED)
    except TallyError as exc:
        event = (await blocking(store.matches.state, mid)).event_id
        if event is None:
            raise
        refill = replace(form.refill(exc, lang), form=f"result-{mid}")
        return await event_refused(request, event, refill)
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
    """POST: a table's phone proposes its match's result; the winner's opponent agrees to it
    on the same phone (:func:`phone_agree`) before it is stored."""
    mid = table.match_of_table(request)
    fields = await form_of(request)

    async def action(lang: str) -> Response:
        score = _points(fields)
        match = await blocking(site_of(request).store.matches.state, mid)
        check_match_result(rule_set(match.rules), score)
        store = table.acting_at_table(request, mid)
        proposal = await blocking(store.proposals.propose_match_result, mid, score)
        return table.ask_to_agree(request, match, proposal)

    return await table.change_at_table(request, mid, action)


def _proposal_number(fields: dict[str, str]) -> int:
    number = whole_number(fields.get("proposal", ""), 12)
    if number is None:
        raise Refused(N_("the form names no proposed result: enter the result again"))
    return number


@guarded
async def phone_agree(request: Request) -> Response:
    """POST: the opponent agrees to the proposal the form names, as it was shown: stored once
    (a second tap says it is recorded already)."""
    mid = table.match_of_table(request)
    fields = await form_of(request)
    number = _proposal_number(fields)
    store = table.acting_at_table(request, mid)
    lang = await language(request, match=mid)
    _ = translate(lang)
    if (await blocking(store.proposals.get, number, mid)).status == "agreed":
        return table.back_to_table(request, mid, _("This result is recorded already."))

    async def action(lang: str) -> Response:
        agreed = await blocking(store.proposals.agree, number, mid, fields)
        if not agreed.stored:
            return table.back_to_table(request, mid, _("This result is recorded already."))
        p, match = agreed.proposal, agreed.match
        if p.score is not None:
            return table.back_to_table(request, mid, _(ENTERED) % _score_words(match))
        how = table.how_it_ended(match.players, p.winner, p.reason, lang)
        return table.back_to_table(request, mid, entered(match.deals[-1], lang, how))

    return await table.change_at_table(request, mid, action)


@guarded
async def phone_decline(request: Request) -> Response:
    """POST: "No, that is not right": the proposal is withdrawn, nothing is recorded."""
    mid = table.match_of_table(request)
    fields = await form_of(request)
    number = _proposal_number(fields)
    store = table.acting_at_table(request, mid)
    _ = translate(await language(request, match=mid))
    withdrawn = await blocking(store.proposals.withdraw, number, mid)
    if withdrawn.status == "agreed":
        return table.back_to_table(request, mid, _("This result is recorded already."))
    return table.back_to_table(
        request, mid, _("Nothing was recorded: the result was not agreed. Enter it again.")
    )
