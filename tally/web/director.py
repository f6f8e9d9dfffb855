"""The director's pages (PIN): events, rounds and pairings with each table's address, starting
rounds, withdrawals, referee mode, a deal's record as text (the store's audited edit and
delete), reversing an audit entry, and every sheet as a PDF. Setting an evening up (new
events, players, previews, club matches) is :mod:`tally.web.director_events`; the questions
before a destructive change :mod:`tally.web.director_confirm`; a deal's tricks and a quick
result :mod:`tally.web.director_deals`.

Every page needs the session cookie a correct PIN gives; every change also the CSRF token.
Ten PIN attempts from one address within ten minutes lock it out for the rest of them
(:func:`tally.web.access.count_attempt`, counted in the database before the PIN is hashed),
and attempts from every address together wait longer and longer after the first thirty
(:func:`tally.web.access.pin_wait`); the login link ``tally serve`` prints, and the sessions'
page, are :mod:`tally.web.director_access`. Logging out ends the browser's own session.

The pages speak the language :func:`tally.web.app.language` resolves (the director's choice,
the language of the event the page is about, the browser's), and so do the sheets printed
from them.
"""

from __future__ import annotations

import functools
import re
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any

from tally.errors import AccessDenied, Refused, TallyError
from tally.i18n import N_, translations
from tally.web.access import (
    check_pin,
    clear_attempts,
    count_attempt,
    end_session,
    new_table_keys,
    referee_mode,
    reopened,
    set_referee_mode,
    set_reopened,
)
from tally.web.app import (
    SESSION_COOKIE,
    blocking,
    form_of,
    guarded,
    int_param,
    is_director,
    language,
    public_base,
    redirect_with_notice,
    render,
    secure,
    site_of,
    take_notice,
    translate,
    whole_number,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from gettext import NullTranslations

    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.sheets.data import DealAnalysisPart
    from tally.store import Store
    from tally.store.knockouts import KnockoutView
    from tally.store.views import EventView


def routes() -> list[Route]:
    """The director's routes."""
    from starlette.routing import Route

    post = ["POST"]
    return [
        Route("/director", home),
        Route("/director/login", login, methods=post),
        Route("/director/logout", logout, methods=post),
        Route("/director/event/{event}", event_page),
        Route("/director/event/{event}/round", start_round, methods=post),
        Route("/director/event/{event}/withdraw", withdraw, methods=post),
        Route("/director/event/{event}/unpair", unpair, methods=post),
        Route("/director/event/{event}/swap", swap, methods=post),
        Route("/director/event/{event}/apart", keep_apart, methods=post),
        Route("/director/event/{event}/absent", absent, methods=post),
        Route("/director/match/{match}", match_page),
        Route("/director/match/{match}/referee", referee, methods=post),
        Route("/director/match/{match}/reopen", reopen, methods=post),
        Route("/director/keys", rotate_keys, methods=post),
        Route("/director/deal/{deal}/delete", delete_deal, methods=post),
        Route("/director/audit", audit_page),
        Route("/director/audit/{entry}/reverse", reverse, methods=post),
        Route("/director/print/{sheet}/{ref}", print_sheet),
    ]


def _need_director(request: Request) -> None:
    if not is_director(request):
        raise AccessDenied(N_("the director's PIN is needed for this page"))


def _acting(request: Request) -> Store:
    return site_of(request).acting("web: director")


def _back(path: str, said: str = "") -> Response:
    return redirect_with_notice(path, said)


def _said(request: Request) -> str | None:
    return take_notice(request)


def refused(request: Request, exc: TallyError, back_to: str) -> Response:
    """A page of a change that cannot be made: the store's reason, and a way back to
    ``back_to`` (a question or a preview asked from there; not to the refused page again)."""
    from tally.errors import NotFound
    from tally.web.app import page_language, refusal

    return render(
        request,
        "error.html.j2",
        404 if isinstance(exc, NotFound) else 400,
        back=back_to,
        message=refusal(exc, page_language(request)),
    )


#: what the director's other page modules (:mod:`tally.web.director_events`,
#: :mod:`~tally.web.director_confirm`, :mod:`~tally.web.director_deals`) share with these
need_director = _need_director
acting = _acting
back = _back


@guarded
async def home(request: Request) -> Response:
    """GET: the login form, or the events and recent matches."""

    await language(request)
    if not is_director(request):
        return render(request, "login.html.j2", error=None)
    store = site_of(request).store
    evs = await blocking(store.events.all)
    matches = await blocking(store.matches.all)
    return render(
        request,
        "director.html.j2",
        events=list(reversed(evs)),
        friendly=[m for m in matches if m.event_id is None][-20:],
        notice=_said(request),
    )


@guarded
async def login(request: Request) -> Response:
    """POST: check the PIN; a correct one starts a session. The attempt is counted first,
    for the address and for the PIN from everywhere (:func:`tally.web.access.pin_wait`); one
    refused is not hashed, and one PIN is hashed at a time, so guesses cannot take the
    tables' processor."""
    import asyncio

    from tally.errors import Message
    from tally.web.access import pin_wait

    site = site_of(request)
    fields = await form_of(request)
    lang = await language(request)
    client = request.client.host if request.client else "?"
    if not await blocking(count_attempt, site.store, client):
        raise AccessDenied(N_("too many wrong PINs: wait ten minutes"))
    wait = await blocking(pin_wait, site.store)
    if wait:
        raise AccessDenied(
            Message(
                N_(
                    "the PIN has been tried too often: the next try in %(seconds)s seconds, "
                    "or open the login link tally serve printed on the laptop"
                ),
                seconds=int(wait) + 1,
            )
        )
    if site.pin_turn is None:
        site.pin_turn = asyncio.Lock()
    async with site.pin_turn:
        right = await blocking(check_pin, site.store, fields.get("pin", ""))
    if not right:
        _ = translate(lang)
        return render(request, "login.html.j2", 403, error=_("That is not the PIN."))
    await blocking(clear_attempts, site.store, client)
    return await enter(request)


async def enter(request: Request) -> Response:
    """Start a director's session for this browser (the PIN was right, or the login link
    good) and go to the director's page."""
    from tally.web.access import start_session

    device = request.headers.get("user-agent", "")[:400]
    client = request.client.host if request.client else "?"
    token = await blocking(start_session, site_of(request).store, device, client)
    response = _back("/director")
    response.set_cookie(
        SESSION_COOKIE, token, httponly=True, samesite="strict", secure=secure(request)
    )
    return response


@guarded
async def logout(request: Request) -> Response:
    """POST: end this browser's director's session (the others go on: the director ends
    them from the sessions' page, a new PIN ends them all)."""
    from tally.web.app import session_of

    await form_of(request)
    session = session_of(request)
    if session is not None:
        await blocking(end_session, site_of(request).store, session)
    response = _back("/director")
    response.delete_cookie(SESSION_COOKIE)
    return response


@guarded
async def rotate_keys(request: Request) -> Response:
    """POST: make new table secrets; every table address printed or shown so far stops
    working (print the pairings again)."""
    _need_director(request)
    await form_of(request)
    await blocking(new_table_keys, site_of(request).store)
    _ = translate(await language(request))
    return _back(
        "/director",
        _(
            "New table addresses made: the old ones no longer work. "
            "Print the pairings or show the codes again."
        ),
    )


@guarded
async def reopen(request: Request) -> Response:
    """POST: reopen a finished match for its table's phone (``on=yes``), or close it again."""
    return await _switch(
        request,
        set_reopened,
        N_("The table may change this match again."),
        N_("The table can no longer change this match once it is over."),
    )


async def _switch(request: Request, setter: Any, said_on: str, said_off: str) -> Response:
    """Switch a setting of a match's table on (``on=yes``) or off, and say which."""
    _need_director(request)
    fields = await form_of(request)
    mid = int_param(request, "match")
    store = site_of(request).store
    await blocking(store.matches.state, mid)
    on = fields.get("on") == "yes"
    await blocking(setter, store, mid, on)
    _ = translate(await language(request, match=mid))
    return _back(f"/director/match/{mid}", _(said_on) if on else _(said_off))


def _event_state(store: Store, event_id: int, keys: Any) -> dict[str, Any]:
    from tally.vocabulary import absent_words

    ev = store.events.get(event_id)
    rounds = store.events.rounds(event_id) if ev.format.has_rounds else []
    matches = store.matches.all(event_id)
    following = next((r.number for r in rounds if not r.started), None)
    staged = _staged(store, ev)
    if staged is not None and following is None:
        # drawn when started: the next round is offered until the event has its champion
        following = None if staged.champion is not None else max(ev.rounds_started, default=0) + 1
    busy = {p: m.id for m in matches if not m.over for p in m.players}
    return {
        "event": ev,
        "rounds": rounds,
        "matches": matches,
        "summaries": {m.id: m for m in matches},  # a table's result box finds its match
        "busy": busy,
        "secrets": {m.id: keys.table_secret(m.id) for m in matches},
        "next_round": following,
        "staged": staged,
        "apart_warnings": store.pairings.apart_warnings(event_id),
        "apart": store.pairings.apart(event_id) if ev.format.has_rounds else [],
        "absent_words": absent_words,
    }


def _staged(store: Store, ev: EventView) -> KnockoutView | None:
    """A knockout's or groups event's view (its prize table, lives and buy-back rule) for
    the money forms of its page; None for any other event."""

    return store.knockouts.view(ev) if ev.format.ranks_by_elimination else None


@guarded
async def event_page(request: Request) -> Response:
    """GET: one event: rounds, tables with their addresses, players, sheets."""
    _need_director(request)
    site = site_of(request)
    from tally.web.qr import qr_svg, table_url

    eid = int_param(request, "event")
    await language(request, event=eid)
    state = await blocking(_event_state, site.store, eid, site.keys)
    base = public_base(request)
    # a table's code only while its match takes taps (a page of 12 rounds stays small)
    still = {m.id for m in state["matches"] if not m.over}
    qrs = {mid: qr_svg(table_url(base, site.keys, mid)) for mid in state["secrets"] if mid in still}
    return render(request, "event.html.j2", notice=_said(request), base=base, qrs=qrs, **state)


async def event_change(request: Request, change: Any) -> Response:
    """Run a director's change to an event and go back to its page, saying what was done
    in the page's language (``change(store, event, fields, words)``: ``words`` its
    catalogue)."""
    _need_director(request)
    fields = await form_of(request)
    eid = int_param(request, "event")
    words = translations(await language(request, event=eid))
    said = await blocking(change, _acting(request), eid, fields, words)
    return _back(f"/director/event/{eid}", said)


@guarded
async def start_round(request: Request) -> Response:
    """POST: make the matches of a round of a round robin or a knockout (drawn now)."""

    def change(store: Store, eid: int, fields: dict[str, str], words: NullTranslations) -> str:
        number = whole_number(fields.get("round", ""), 4)
        if number is None:
            raise Refused(N_("give the round's number"))
        rnd = store.events.start_round(eid, number)
        # (English has always said "tables", even for one)
        return words.ngettext(
            "Round %(round)s started: %(n)s tables.",
            "Round %(round)s started: %(n)s tables.",
            len(rnd.pairings),
        ) % {"round": rnd.number, "n": len(rnd.pairings)}

    return await event_change(request, change)


@guarded
async def unpair(request: Request) -> Response:
    """POST: withdraw the pairings of the latest round started, while no deal of it is
    recorded (``store.pairings.withdraw``), so that it can be paired
    again."""

    def change(store: Store, eid: int, fields: dict[str, str], words: NullTranslations) -> str:
        number = whole_number(fields.get("round", ""), 4)
        if number is None:
            raise Refused(N_("give the round's number"))
        store.pairings.withdraw(eid, number)
        return words.gettext(
            "The pairings of round %(round)s are withdrawn: start it again to pair it anew."
        ) % {"round": number}

    return await event_change(request, change)


@guarded
async def swap(request: Request) -> Response:
    """POST round, a, b (force: as confirmed on the question's page): swap two players
    between their tables (``store.swaps.make``)."""

    def change(store: Store, eid: int, fields: dict[str, str], words: NullTranslations) -> str:
        number = whole_number(fields.get("round", ""), 4)
        if number is None:
            raise Refused(N_("give the round's number"))
        done = store.swaps.make(
            eid,
            number,
            fields.get("a", ""),
            fields.get("b", ""),
            force=fields.get("force") == "yes",
        )
        return words.gettext("%(a)s and %(b)s swapped tables in round %(round)s.") % {
            "a": done.first,
            "b": done.second,
            "round": number,
        }

    return await event_change(request, change)


@guarded
async def keep_apart(request: Request) -> Response:
    """POST a, b (undo=yes: no longer): keep two players of the event apart
    (``store.pairings.keep_apart``); where the event's pairing cannot keep them
    apart, the rounds that pair them are said (``store.pairings.apart_warnings``)."""

    def change(store: Store, eid: int, fields: dict[str, str], words: NullTranslations) -> str:
        a, b, undo = fields.get("a", ""), fields.get("b", ""), fields.get("undo") == "yes"
        store.pairings.keep_apart(eid, a, b, undo=undo)
        said = (
            words.gettext("%(a)s and %(b)s are no longer kept apart.")
            if undo
            else words.gettext("%(a)s and %(b)s are kept apart.")
        ) % {"a": a, "b": b}
        warned = [] if undo else store.pairings.apart_warnings(eid, adding=True)
        lines = [
            words.gettext("Warning: %(said)s.") % {"said": w.fill(words.gettext)} for w in warned
        ]
        return " ".join([said, *lines])

    return await event_change(request, change)


@guarded
async def absent(request: Request) -> Response:
    """POST player, round (cancel=yes: take it back): a player's announced absence from a
    round not yet paired, a requested bye (``store.absences.announce``)."""

    def change(store: Store, eid: int, fields: dict[str, str], words: NullTranslations) -> str:
        player, cancel = fields.get("player", ""), fields.get("cancel") == "yes"
        number = whole_number(fields.get("round", ""), 4)
        if number is None:
            raise Refused(N_("give the round's number"))
        name = store.absences.announce(eid, player, number, cancel=cancel)
        said = (
            words.gettext("%(player)s will play round %(round)s after all.")
            if cancel
            else words.gettext("%(player)s will miss round %(round)s: a requested bye.")
        )
        return said % {"player": name, "round": number}

    return await event_change(request, change)


@guarded
async def withdraw(request: Request) -> Response:
    """POST: withdraw a player from the event."""

    def change(store: Store, eid: int, fields: dict[str, str], words: NullTranslations) -> str:
        store.events.withdraw(eid, fields.get("player", ""))
        return words.gettext("%(player)s withdrew.") % {"player": fields.get("player", "")}

    return await event_change(request, change)


#: Samples of unknown cards for the analysis on a match page (fewer than ``tally analyse``'s
#: 200: the page analyses every recorded deal of the match while it is asked for).
PAGE_SAMPLES = 50
#: Analyses of deals kept for the next view of a match page (a few evenings' deals).
PAGE_ANALYSES = 512


def _lost(players: Sequence[str], parts: Iterable[DealAnalysisPart]) -> dict[str, dict[str, float]]:
    """Per player, the game points their decisions lost over the analysed deals: to closes,
    to claims, to card play (:func:`tally.analysis.marks.lost_by` over every deal's marks); empty
    when no deal was analysed."""
    from tally.analysis.marks import lost_by

    marked = [p for p in parts if not p.note]
    if not marked:
        return {}
    every = [m for p in marked for m in p.marks]
    return {name: lost_by(every, name) for name in players}


@functools.lru_cache(maxsize=PAGE_ANALYSES)
def _analysis_part(text: str, deal_id: int, lang: str) -> DealAnalysisPart:
    """The analysis of a deal's record on the match page, in ``lang``. Kept for the next view
    of the page (the analysis takes seconds a deal): it depends only on the record, the samples
    and the language, and correcting a deal changes its record."""
    from tally.engine.notation import read_deal
    from tally.i18n import use
    from tally.sheets.build import analysis_part

    with use(lang):
        return analysis_part(read_deal(text, source=str(deal_id)), samples=PAGE_SAMPLES)


#: how long a match page waits for its deals' analyses (seconds): the page shows at once,
#: the analyses not ready by then go on in the background and show on a later view
FIRST_VIEW_WAIT = 0.1
#: the analyses being made for the match pages (one at a time: each takes a processor)
_ANALYSING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tally-analysis")
_PENDING: dict[tuple[str, int, str], Future[DealAnalysisPart]] = {}
_PENDING_LOCK = threading.Lock()


def _analyses(texts: dict[int, str], lang: str) -> tuple[dict[int, DealAnalysisPart], bool]:
    """The analyses of the deals' records ``texts`` ready within :data:`FIRST_VIEW_WAIT`
    (:func:`_analysis_part`, made in the background), and whether any is still being made."""
    futures: dict[int, Future[DealAnalysisPart]] = {}
    with _PENDING_LOCK:
        for i, text in texts.items():
            key = (text, i, lang)
            if key not in _PENDING:
                _PENDING[key] = _ANALYSING.submit(_analysis_part, text, i, lang)
            futures[i] = _PENDING[key]
    wait(futures.values(), timeout=FIRST_VIEW_WAIT)
    ready = {}
    with _PENDING_LOCK:
        for i, future in futures.items():
            if future.done():
                _PENDING.pop((texts[i], i, lang), None)
                ready[i] = future.result()
    return ready, len(ready) < len(futures)


def _match_state(store: Store, mid: int, lang: str) -> dict[str, Any]:
    """What the match page shows, its analyses worded in ``lang`` (the page's language): those
    ready, the others still being made (``analysing``)."""
    from tally.web.table import QUICK_REASONS

    match = store.matches.state(mid, referee=True)
    texts = {d.id: store.deals.export(d.id) for d in match.deals if d.kind == "recorded"}
    analyses, analysing = _analyses(texts, lang)
    return {
        "match": match,
        "records": set(texts),
        "analyses": analyses,
        "analysing": analysing,
        "lost": _lost(match.players, analyses.values()),
        "referee": referee_mode(store, mid),
        "reasons": QUICK_REASONS,
        "reopened": reopened(store, mid),
    }


@guarded
async def match_page(request: Request) -> Response:
    """GET: a match: its deals (each recorded one can be corrected), referee mode, table."""
    _need_director(request)
    site = site_of(request)
    mid = int_param(request, "match")
    lang = await language(request, match=mid)
    state = await blocking(_match_state, site.store, mid, lang)
    from tally.web.qr import table_url

    return render(
        request,
        "match.html.j2",
        notice=_said(request),
        table=table_url(public_base(request), site.keys, mid),
        **state,
    )


@guarded
async def referee(request: Request) -> Response:
    """POST: switch referee mode (counted points on the table page) on or off."""
    return await _switch(request, set_referee_mode, N_("Referee mode on."), N_("Referee mode off."))


@guarded
async def delete_deal(request: Request) -> Response:
    """POST: delete the last deal of a match (audited, reversible)."""
    _need_director(request)
    await form_of(request)
    store = _acting(request)
    view = await blocking(store.deals.delete, int_param(request, "deal"))
    _ = translate(await language(request, match=view.match_id))
    return _back(
        f"/director/match/{view.match_id}", _("Deal %(number)s deleted.") % {"number": view.number}
    )


@guarded
async def audit_page(request: Request) -> Response:
    """GET: the latest changes, each reversible."""
    _need_director(request)
    await language(request)
    log = await blocking(site_of(request).store.audit.log, limit=50)
    return render(request, "audit.html.j2", log=list(reversed(log)), notice=_said(request))


@guarded
async def reverse(request: Request) -> Response:
    """POST: reverse an audit entry (the store refuses when it changed again since)."""
    _need_director(request)
    await form_of(request)
    reversed_id = int_param(request, "entry")
    entry = await blocking(_acting(request).audit.reverse, reversed_id)
    _ = translate(await language(request))
    return _back(
        "/director/audit",
        _("Reversed entry %(entry)s as entry %(id)s: %(summary)s")
        % {"entry": reversed_id, "id": entry.id, "summary": entry.summary},
    )


def _sheet_ref(sheet: str, ref: str) -> tuple[int, int | None]:
    """The event (the match, for a score sheet) and the round a sheet's address names."""
    found = re.fullmatch(r"([0-9]{1,18})(?:-([0-9]{1,18}))?", ref)
    if found is None:
        raise Refused(f"no sheet {ref[:20]!r}")
    number = None if found[2] is None else int(found[2])
    if sheet not in ("standings", "pairings", "scoresheet") or (sheet, number) == (
        "pairings",
        None,
    ):
        raise Refused(f"no sheet {sheet[:20]!r}")
    return int(found[1]), number


def _pdf(store: Store, sheet: str, ref: tuple[int, int | None], base: str, lang: str) -> bytes:
    """A sheet as the CLI's ``tally print`` makes it, in ``lang``, with the QR code of each
    table's page at ``base`` (the server's address) on the pairings and the score sheet."""
    from tally.i18n import use
    from tally.sheets.build import event_standings_sheet, match_scoresheet, pairings_sheet
    from tally.sheets.render import render_pairings, render_scoresheet, render_standings
    from tally.web.qr import with_table_codes

    first, number = ref
    with use(lang):
        if sheet == "standings":
            return render_standings(event_standings_sheet(store, first))
        if sheet == "pairings" and number is not None:
            data = pairings_sheet(store, first, number)
            return render_pairings(with_table_codes(store, data, base, first))
        score = match_scoresheet(store, first)
        return render_scoresheet(with_table_codes(store, score, base))


@guarded
async def print_sheet(request: Request) -> Response:
    """GET /director/print/SHEET/REF: standings/EVENT, pairings/EVENT-ROUND,
    scoresheet/MATCH as PDF, in the director's pages' language."""
    from starlette.responses import Response as Plain

    _need_director(request)
    sheet = str(request.path_params["sheet"])
    ref = str(request.path_params["ref"]).removesuffix(".pdf")
    first, number = _sheet_ref(sheet, ref)
    if sheet == "scoresheet":
        lang = await language(request, match=first)
    else:
        lang = await language(request, event=first)
    pdf = await blocking(
        _pdf, site_of(request).store, sheet, (first, number), public_base(request), lang
    )
    return Plain(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{sheet}-{ref}.pdf"'},
    )
