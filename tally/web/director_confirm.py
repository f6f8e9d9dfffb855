"""The director's confirmation pages: every destructive change (withdrawing a player,
deleting a deal or a match, reversing an audit entry) is asked about first, on a page that
says what will follow. What follows is the store's own answer
(:mod:`tally.store.consequences` rehearses the change and rolls it back), worded here; the
page's button posts to the change itself (:mod:`tally.web.director`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tally.errors import TallyError
from tally.web.app import (
    Fields,
    blocking,
    form_of,
    guarded,
    int_param,
    language,
    render,
    site_of,
    translate,
)
from tally.web.director import (
    ask_start,
    back,
    chosen,
    event_form_refused,
    need_director,
    refused,
    swaps_of,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.store.consequences import MatchChange, NoShowRehearsed, Reversal, Withdrawal
    from tally.store.views import SwapView


def routes() -> list[Route]:
    """The routes of this module (GET: the question; the POSTs are the changes')."""
    from starlette.routing import Route

    return [
        Route("/director/event/{event}/withdraw", ask_withdraw),
        Route("/director/event/{event}/swap", ask_swap),
        Route("/director/event/{event}/unpair", ask_unpair),
        Route("/director/event/{event}/forfeit", ask_no_show),
        Route("/director/event/{event}/round", ask_start_round),
        Route("/director/deal/{deal}/delete", ask_delete_deal),
        Route("/director/match/{match}/delete", ask_delete_match),
        Route("/director/match/{match}/delete", delete_match, methods=["POST"]),
        Route("/director/audit/{entry}/reverse", ask_reverse),
        Route("/director/audit/{entry}", audit_entry),
    ]


def _score(pair: tuple[int, int]) -> str:
    return f"{pair[0]}:{pair[1]}"


def score_lines(change: MatchChange, _: Callable[[str], str]) -> list[str]:
    """What a change does to a match's score and winner, in words."""
    one, two = change.players
    if change.after is None:
        return [
            _("Match %(id)s, %(one)s v %(two)s (%(score)s), is gone.")
            % {"id": change.match_id, "one": one, "two": two, "score": _score(change.before)}
        ]
    out = [
        _("Match %(id)s, %(one)s v %(two)s: the score goes from %(before)s to %(after)s.")
        % {
            "id": change.match_id,
            "one": one,
            "two": two,
            "before": _score(change.before),
            "after": _score(change.after),
        }
    ]
    if change.winner_before and change.winner_before != change.winner_after:
        out.append(
            _("%(winner)s has then not won it yet: the match goes on.")
            % {"winner": change.winner_before}
        )
    if change.winner_after and change.winner_after != change.winner_before:
        out.append(_("%(winner)s has then won it.") % {"winner": change.winner_after})
    return out


def withdrawal_lines(
    w: Withdrawal, _: Callable[[str], str], ngettext: Callable[[str, str, int], str]
) -> list[str]:
    """What withdrawing a player does, in words (the store's rehearsal of it)."""
    who = {"player": w.player}
    out: list[str] = []
    if w.rule == "annulled":
        out.append(
            _(
                "%(player)s has finished fewer than half of their matches: every result of "
                "theirs is struck out, and their opponents are neither credited nor debited."
            )
            % who
        )
    for mid, opponent in w.running:
        words = (
            _("%(player)s's running match against %(opponent)s (match %(id)s) will not count.")
            if w.rule in ("void", "annulled")
            else _(
                "%(player)s's running match against %(opponent)s (match %(id)s) becomes a "
                "forfeit: %(opponent)s wins it."
            )
        )
        out.append(words % {**who, "opponent": opponent, "id": mid})
    if w.remaining:
        n = len(w.remaining)
        names = {**who, "n": n, "names": ", ".join(w.remaining)}
        out.append(
            (
                ngettext(
                    "%(player)s's %(n)s remaining match will not be played and "
                    "does not count (%(names)s).",
                    "%(player)s's %(n)s remaining matches will not be played and do "
                    "not count (%(names)s).",
                    n,
                )
                if w.rule in ("void", "annulled")
                else ngettext(
                    "%(player)s's %(n)s remaining match is won by the opponent (%(names)s).",
                    "%(player)s's %(n)s remaining matches are won by their opponents (%(names)s).",
                    n,
                )
            )
            % names
        )
    if w.format.has_lives:
        out.append(_("%(player)s is out of the knockout at once.") % who)
    elif w.format.pairs_from_standings:
        out.append(_("%(player)s is not paired in the rounds still to come.") % who)
    elif not w.format.has_rounds and not w.running:
        out.append(_("%(player)s starts no new match.") % who)
    if w.rule != "annulled":
        out.append(_("The matches %(player)s finished still count.") % who)
    return out


def reversal_lines(r: Reversal, _: Callable[[str], str], lang: str) -> list[str]:
    """What reversing an audit entry does, in words (``lang``'s): the change as the Changes
    page words it, each thing it touched, then the scores."""
    from tally.vocabulary import change_words

    kinds = {"deal": _("deal"), "match": _("match"), "event": _("event"), "player": _("player")}
    out = [
        _("Change %(id)s is taken back: %(summary)s.")
        % {"id": r.entry.id, "summary": change_words(r.entry.wording, lang)}
    ]
    shown = {c.match_id for c in r.matches}
    for kind, ident, how in r.things:
        if kind == "match" and ident in shown:
            continue  # said with its score below
        what = {"kind": kinds.get(kind, kind), "id": ident}
        out.append(
            (
                _("The %(kind)s %(id)s it made is removed.")
                if how == "gone"
                else _("The %(kind)s %(id)s it removed comes back.")
                if how == "back"
                else _("The %(kind)s %(id)s is as it was before.")
            )
            % what
        )
    for change in r.matches:
        out += score_lines(change, _)
    return out


async def _ask(
    request: Request,
    title: str,
    lines: list[str],
    action: str,
    button: str,
    back: str,
    hidden: dict[str, str] | None = None,
) -> Response:
    return render(
        request,
        "ask.html.j2",
        title=title,
        lines=lines,
        action=action,
        button=button,
        back=back,
        hidden=hidden or {},
    )


@guarded
async def ask_withdraw(request: Request) -> Response:
    """GET ?player=NAME: what withdrawing the player does, and the button that does it."""
    from tally.i18n import translations

    need_director(request)
    eid = int_param(request, "event")
    words = translations(await language(request))
    form = Fields({"player": request.query_params.get("player", "")[:200]})
    try:
        player = chosen(form, "player")
        w = await blocking(site_of(request).store.consequences.withdrawal, eid, player)
    except TallyError as exc:
        return await event_form_refused(request, eid, "withdraw", form, exc)
    _ = words.gettext
    return await _ask(
        request,
        _("Withdraw %(player)s?") % {"player": w.player},
        withdrawal_lines(w, _, words.ngettext),
        f"/director/event/{eid}/withdraw",
        _("Withdraw %(player)s") % {"player": w.player},
        f"/director/event/{eid}",
        {"player": w.player},
    )


def no_show_lines(n: NoShowRehearsed, _: Callable[[str], str]) -> list[str]:
    """What recording a no-show does, in words (the store's rehearsal of it)."""
    p = n.pairing
    other = p.second if p.first == n.player else p.first
    ids = ", ".join(str(m) for m in p.match_ids)
    what = {"player": n.player, "opponent": other, "id": ids, "round": n.number}
    if p.status == "void":
        first = _(
            "Neither %(player)s nor %(opponent)s came: their match of round %(round)s (match "
            "%(id)s) counts for nobody (-/-)."
        )
    else:
        first = _(
            "%(opponent)s wins the match of round %(round)s against %(player)s (match %(id)s) "
            "by forfeit (+/-): counted as a game not played in the tiebreaks."
        )
    return [
        first % what,
        _("%(player)s stays in the event and is paired in the next round.") % what,
        _("No deal can be recorded in the match until the no-show is taken back.") % what,
    ]


@guarded
async def ask_no_show(request: Request) -> Response:
    """GET ?round=N&player=NAME: what recording that the player did not come to their match
    of round N does, and the button that records it."""
    from tally.i18n import translations
    from tally.web.app import whole_number

    need_director(request)
    eid = int_param(request, "event")
    words = translations(await language(request, event=eid))
    q = request.query_params
    form = Fields({k: q.get(k, "")[:200] for k in ("round", "player")})
    number = whole_number(q.get("round", ""), 4) or 0
    try:
        player = chosen(form, "player")
        with form.about("player"):
            n = await blocking(site_of(request).store.consequences.no_show, eid, number, player)
    except TallyError as exc:
        return await event_form_refused(request, eid, "no-show", form, exc)
    _ = words.gettext
    return await _ask(
        request,
        _("Did %(player)s not come to round %(round)s?") % {"player": n.player, "round": number},
        no_show_lines(n, _),
        f"/director/event/{eid}/forfeit",
        _("Record the forfeit"),
        f"/director/event/{eid}",
        {"player": n.player, "round": str(number)},
    )


@guarded
async def ask_swap(request: Request) -> Response:
    """GET ?round=N&a=NAME&b=NAME: what swapping the two players between their tables
    would need confirming (a rematch, a pair kept apart, the bye given twice) and what it
    says, and the button that swaps them."""
    from tally.i18n import translations, worded
    from tally.web.app import whole_number

    need_director(request)
    eid = int_param(request, "event")
    lang = await language(request)
    words = translations(lang)
    q = request.query_params
    number = whole_number(q.get("round", ""), 4) or 0
    form = Fields({k: q.get(k, "")[:200] for k in ("round", "a", "b")})
    try:
        a, b = chosen(form, "a"), chosen(form, "b")
        with form.about("a", "b"):
            check = await blocking(site_of(request).store.swaps.check, eid, number, a, b)
    except TallyError as exc:
        return await event_form_refused(request, eid, "swap", form, exc)
    _ = words.gettext
    lines = [
        *swap_moves(check, _),
        *(
            [worded(w, lang) for w in (*check.warnings, *check.notes)]
            or [_("No rematch, no pair kept apart and no bye given twice.")]
        ),
    ]
    return await _ask(
        request,
        _("Swap %(a)s and %(b)s in round %(n)s?")
        % {"a": check.first, "b": check.second, "n": number},
        lines,
        f"/director/event/{eid}/swap",
        _("Swap %(a)s and %(b)s") % {"a": check.first, "b": check.second},
        f"/director/event/{eid}",
        {"round": str(number), "a": check.first, "b": check.second, "force": "yes"},
    )


@guarded
async def ask_unpair(request: Request) -> Response:
    """GET ?round=N: the tables whose pairings withdrawing round N takes back, and the
    button that withdraws them (:func:`tally.web.director.unpair`)."""
    from tally.errors import Message, NotFound
    from tally.i18n import N_
    from tally.web.app import whole_number

    need_director(request)
    eid = int_param(request, "event")
    _ = translate(await language(request))
    number = whole_number(request.query_params.get("round", ""), 4) or 0
    rounds = await blocking(site_of(request).store.events.rounds, eid, number)
    if not rounds or not rounds[0].started:
        exc = NotFound(Message(N_("round %(round)s has not been started"), round=number))
        return refused(request, exc, f"/director/event/{eid}")
    lines = [_("Table %(table)s: %(first)s – %(second)s") % vars(p) for p in rounds[0].pairings]
    lines.append(_("Their table addresses stop working; the round is paired anew when started."))
    lines += [
        _("The swap of %(a)s and %(b)s is undone with them.") % {"a": a, "b": b}
        for (_n, a, b) in await blocking(swaps_of, request, eid, number)
    ]
    return await _ask(
        request,
        _("Withdraw the pairings of round %(n)s?") % {"n": number},
        lines,
        f"/director/event/{eid}/unpair",
        _("Withdraw the pairings"),
        f"/director/event/{eid}",
        {"round": str(number), "confirmed": "yes"},
    )


@guarded
async def ask_start_round(request: Request) -> Response:
    """GET ?round=N: the question before starting a round while some of its players still
    play the round before (where :func:`tally.web.director.start_round` sends the director),
    and the button that starts it anyway; nobody busy any more: back to the event's page."""
    from tally.web.app import whole_number

    need_director(request)
    eid = int_param(request, "event")
    number = whole_number(request.query_params.get("round", ""), 4) or 0
    busy = await blocking(site_of(request).store.events.still_playing, eid, number)
    if not busy:
        return back(f"/director/event/{eid}")
    return ask_start(request, eid, number, busy, translate(await language(request)))


def swap_moves(check: SwapView, _: Callable[[str], str]) -> list[str]:
    """Who goes to which table in a swap: ``Anna goes to table 2.``, ``Bert has the bye.``"""
    moves = []
    for player, seat in ((check.first, check.tables[1]), (check.second, check.tables[0])):
        if seat is None:
            moves.append(_("%(player)s has the bye.") % {"player": player})
        else:
            moves.append(
                _("%(player)s goes to table %(table)s.") % {"player": player, "table": seat}
            )
    return moves


@guarded
async def ask_delete_deal(request: Request) -> Response:
    """GET: what deleting the deal does to its match, and the button that does it."""

    need_director(request)
    did = int_param(request, "deal")
    store = site_of(request).store
    try:
        d = await blocking(store.consequences.deal_deletion, did)
    except TallyError as exc:
        return refused(request, exc, "/director")
    from tally.vocabulary import message_words

    lang = await language(request)
    _ = translate(lang)
    lines = [
        _("Deal %(number)s is deleted: %(what)s.")
        % {"number": d.number, "what": message_words(d.wording, lang)},
        *score_lines(d.match, _),
    ]
    return await _ask(
        request,
        _("Delete deal %(number)s?") % {"number": d.number},
        lines,
        f"/director/deal/{did}/delete",
        _("Delete the deal"),
        f"/director/match/{d.match.match_id}",
    )


@guarded
async def ask_delete_match(request: Request) -> Response:
    """GET: what deleting the match does, and the button that does it."""

    need_director(request)
    mid = int_param(request, "match")
    try:
        change = await blocking(site_of(request).store.consequences.match_deletion, mid)
    except TallyError as exc:
        return refused(request, exc, f"/director/match/{mid}")
    _ = translate(await language(request))
    lines = [*score_lines(change, _), _("Its deals are deleted with it.")]
    return await _ask(
        request,
        _("Delete match %(id)s?") % {"id": mid},
        lines,
        f"/director/match/{mid}/delete",
        _("Delete the match"),
        f"/director/match/{mid}",
    )


@guarded
async def delete_match(request: Request) -> Response:
    """POST: delete the match and its deals (audited, reversible)."""
    from tally.web.director import acting

    need_director(request)
    await form_of(request)
    mid = int_param(request, "match")
    _ = translate(await language(request))
    m = await blocking(acting(request).matches.delete, mid)
    where = f"/director/event/{m.event_id}" if m.event_id else "/director"
    return back(where, _("Match %(id)s deleted.") % {"id": mid})


@guarded
async def ask_reverse(request: Request) -> Response:
    """GET: what reversing the audit entry does, and the button that does it."""

    need_director(request)
    entry = int_param(request, "entry")
    try:
        r = await blocking(site_of(request).store.consequences.reversal, entry)
    except TallyError as exc:
        return refused(request, exc, "/director/audit")
    lang = await language(request)
    _ = translate(lang)
    return await _ask(
        request,
        _("Reverse change %(id)s?") % {"id": entry},
        reversal_lines(r, _, lang),
        f"/director/audit/{entry}/reverse",
        _("Reverse it"),
        "/director/audit",
    )


@guarded
async def audit_entry(request: Request) -> Response:
    """GET: an audit entry is shown in the list of changes (where an error page's "Back"
    after a refused reversal leads)."""
    need_director(request)
    int_param(request, "entry")
    return back("/director/audit")
