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
from typing import TYPE_CHECKING, Any, Final

from tally.errors import AccessDenied, Message, Refused, TallyError
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
    BY_DIRECTOR,
    SESSION_COOKIE,
    Fields,
    Refill,
    blocking,
    event_language,
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
    who,
    whole_number,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from gettext import NullTranslations

    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from tally.sheets.data import (
        AnalysisSheet,
        BracketSheet,
        DealAnalysisPart,
        EliminationSheet,
        PairingsSheet,
        RulingSheet,
        ScoreSheet,
        StandingsSheet,
    )
    from tally.sheets.money import MoneySheet

    #: a sheet :func:`tally.sheets.render.render_sheet` prints
    Printable = (
        StandingsSheet
        | EliminationSheet
        | PairingsSheet
        | BracketSheet
        | RulingSheet
        | AnalysisSheet
        | ScoreSheet
        | MoneySheet
    )
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
        Route("/director/event/{event}/forfeit", no_show, methods=post),
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
    return site_of(request).acting(BY_DIRECTOR)


def _back(path: str, said: str = "") -> Response:
    return redirect_with_notice(path, said)


def _said(request: Request) -> str | None:
    return take_notice(request)


def refused(request: Request, exc: TallyError, back_to: str) -> Response:
    """A page of a change that cannot be made: the store's reason, and a way back to
    ``back_to`` (a question or a preview asked from there; not to the refused page again)."""
    from tally.errors import NotFound
    from tally.web.app import came_from, page_language, refusal

    return render(
        request,
        "error.html.j2",
        404 if isinstance(exc, NotFound) else 400,
        back=came_from(request, back_to),
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
    series = await blocking(store.series.all)
    return render(
        request,
        "director.html.j2",
        events=list(reversed(evs)),
        series=series,
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
    _ = translate(await language(request))
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
        # what the page offers only where it can apply
        "takes_entries": store.events.takes_entries(event_id),
        "recorded_rounds": {m.round for m in matches if m.deals},
        "shut": {
            m.id
            for m in matches
            if not m.deals and not m.over and store.matches.over(m.id) is not None
        },
        "apart": store.pairings.apart(event_id) if ev.format.has_rounds else [],
        "absent_words": absent_words,
        "teams": store.teams.standings(event_id) if ev.format.plays_in_teams else None,
    }


def _staged(store: Store, ev: EventView) -> KnockoutView | None:
    """A knockout's or groups event's view (its prize table, lives and buy-back rule) for
    the money forms of its page; None for any other event."""

    return store.knockouts.view(ev) if ev.format.ranks_by_elimination else None


@guarded
async def event_page(request: Request) -> Response:
    """GET: one event: rounds, tables with their addresses, players, sheets."""
    from tally.web.app import take_refill

    _need_director(request)
    eid = int_param(request, "event")
    await language(request)
    return await event_response(request, eid, refill=take_refill(request))


async def event_response(
    request: Request, eid: int, status: int = 200, refill: Refill | None = None
) -> Response:
    """The event's page; with ``refill``, a form of it refused, back with what was typed
    (``refill.form``: the form's id) and the field at fault marked."""
    from tally.web.qr import qr_svg, table_url

    site = site_of(request)
    state = await blocking(_event_state, site.store, eid, site.keys)
    base = public_base(request)
    # a table's code only while its match takes taps (a page of 12 rounds stays small)
    still = {m.id for m in state["matches"] if not m.over}
    qrs = {mid: qr_svg(table_url(base, site.keys, mid)) for mid in state["secrets"] if mid in still}
    return render(
        request,
        "event.html.j2",
        status,
        notice=_said(request),
        base=base,
        qrs=qrs,
        refill=refill,
        **state,
    )


async def event_form_change(
    request: Request, form_id: str | tuple[str, str, str], change: Any
) -> Response:
    """Run a director's change to an event from its page's form ``form_id``
    (``change(store, event, form, words)``, ``form`` a :class:`~tally.web.app.Fields`) and
    go back to the page saying what was done; refused, the page comes back with what was
    typed in that form and the field at fault marked. ``(form, field, other)``: the form
    ``other`` when ``field`` is ``yes``."""
    _need_director(request)
    form = Fields(await form_of(request))
    eid = int_param(request, "event")
    words = translations(await language(request))
    try:
        said = await blocking(change, _acting(request), eid, form, words)
    except TallyError as exc:
        if isinstance(form_id, tuple):
            usual, switch, other = form_id
            form_id = other if form.values.get(switch) == "yes" else usual
        return await event_form_refused(request, eid, form_id, form, exc)
    return _back(f"/director/event/{eid}", said)


async def event_form_refused(
    request: Request, eid: int, form_id: str, form: Fields, exc: TallyError
) -> Response:
    """The event's page with its form ``form_id`` refused by ``exc``: back with what was
    chosen and typed in it, the field at fault (the one ``form`` was reading) marked."""
    from dataclasses import replace

    from tally.web.app import page_language

    refill = replace(form.refill(exc, page_language(request)), form=form_id)
    return await event_refused(request, eid, refill)


async def event_refused(request: Request, eid: int, refill: Refill) -> Response:
    """The event's page with a refused form ``refill``: a plain browser is sent back to the
    page's own address with it (303: a reload posts nothing; :func:`tally.web.app.refill_at`),
    the page's script or a form too large for that gets it in place (400)."""
    from tally.web.app import navigating, refill_at

    if navigating(request) and request.method == "POST":
        back_to = refill_at(f"/director/event/{eid}#{refill.form or ''}".rstrip("#"), refill)
        if back_to is not None:
            return back_to
    return await event_response(request, eid, 400, refill)


async def event_change(request: Request, change: Any) -> Response:
    """Run a director's change to an event and go back to its page, saying what was done
    in the page's language (``change(store, event, fields, words)``: ``words`` its
    catalogue)."""
    _need_director(request)
    fields = await form_of(request)
    eid = int_param(request, "event")
    words = translations(await language(request))
    said = await blocking(change, _acting(request), eid, fields, words)
    return _back(f"/director/event/{eid}", said)


def chosen(form: Fields, name: str) -> str:
    """The player chosen in the list ``name`` of a form; refused (at it) when none is. A
    refusal from here on is at it."""
    value = form.at(name).values.get(name, "").strip()
    if not value:
        raise Refused(N_("choose a player"))
    return value


@guarded
async def start_round(request: Request) -> Response:
    """POST: make the matches of a round of a round robin or a knockout (drawn now). A
    round robin's or group's round whose players still play the round before is asked
    about first, naming them (``force=yes``: the director confirmed)."""
    _need_director(request)
    fields = await form_of(request)
    number = whole_number(fields.get("round", ""), 4)
    if number is not None and fields.get("force") != "yes":
        eid = int_param(request, "event")
        busy = await blocking(site_of(request).store.events.still_playing, eid, number)
        if busy:  # (the question has an address of its own: a reload asks again, posts nothing)
            return _back(f"/director/event/{eid}/round?round={number}")

    def change(store: Store, eid: int, fields: dict[str, str], words: NullTranslations) -> str:
        if number is None:
            raise Refused(N_("give the round's number"))
        accept = fields.get("rematches") == "accept"
        rnd = store.events.start_round(
            eid, number, force=fields.get("force") == "yes", accept_rematches=accept
        )
        # (English has always said "tables", even for one)
        return words.ngettext(
            "Round %(round)s started: %(n)s tables.",
            "Round %(round)s started: %(n)s tables.",
            len(rnd.pairings),
        ) % {"round": rnd.number, "n": len(rnd.pairings)}

    return await event_change(request, change)


def ask_start(
    request: Request, eid: int, number: int, busy: dict[str, int], _: Callable[[str], str]
) -> Response:
    """The question before starting round ``number`` while the players ``busy`` (name ->
    match) still play the round before (:func:`tally.web.director_confirm.ask_start_round`)."""
    return render(
        request,
        "ask.html.j2",
        title=_("Start round %(n)s while round %(before)s is still played?")
        % {"n": number, "before": number - 1},
        lines=[
            _("%(player)s is still playing match %(id)s.") % {"player": player, "id": mid}
            for player, mid in busy.items()
        ]
        + [_("They would sit at two tables at once.")],
        action=f"/director/event/{eid}/round",
        button=_("Start round %(n)s anyway") % {"n": number},
        back=f"/director/event/{eid}",
        hidden={"round": str(number), "force": "yes"},
    )


@guarded
async def unpair(request: Request) -> Response:
    """POST: withdraw the pairings of the latest round started, while no deal of it is
    recorded (``store.pairings.withdraw``), so that it can be paired again. When players
    were swapped in the round, the question's page says the swaps go with the pairings
    (``confirmed=yes``: asked and answered; else back to that page)."""
    _need_director(request)
    fields = await form_of(request)
    number = whole_number(fields.get("round", ""), 4)
    eid = int_param(request, "event")
    swapped = [(a, b) for (n, a, b) in await blocking(swaps_of, request, eid, number)]
    if swapped and fields.get("confirmed") != "yes" and number is not None:
        # asked on the question's page, which names the swaps (a form from before they were
        # made goes there first: a reload asks again, posts nothing)
        return _back(f"/director/event/{eid}/unpair?round={number}")

    def change(store: Store, eid: int, fields: dict[str, str], words: NullTranslations) -> str:
        if number is None:
            raise Refused(N_("give the round's number"))
        store.pairings.withdraw(eid, number)
        said = words.gettext(
            "The pairings of round %(round)s are withdrawn: start it again to pair it anew."
        ) % {"round": number}
        for a, b in swapped:
            said += " " + words.gettext("The swap of %(a)s and %(b)s is undone with them.") % {
                "a": a,
                "b": b,
            }
        return said

    return await event_change(request, change)


def swaps_of(request: Request, eid: int, number: int | None) -> list[tuple[int, str, str]]:
    """The swaps in effect in round ``number`` of an event."""
    return [s for s in site_of(request).store.swaps.made(eid) if s[0] == number]


@guarded
async def swap(request: Request) -> Response:
    """POST round, a, b (force: as confirmed on the question's page): swap two players
    between their tables (``store.swaps.make``)."""

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        number = whole_number(form.values.get("round", ""), 4)
        if number is None:
            raise Refused(N_("give the round's number"))
        a, b = chosen(form, "a"), chosen(form, "b")
        with form.about("a", "b"):
            done = store.swaps.make(eid, number, a, b, force=form.values.get("force") == "yes")
        return words.gettext("%(a)s and %(b)s swapped tables in round %(round)s.") % {
            "a": done.first,
            "b": done.second,
            "round": number,
        }

    return await event_form_change(request, "swap", change)


@guarded
async def keep_apart(request: Request) -> Response:
    """POST a, b (undo=yes: no longer): keep two players of the event apart
    (``store.pairings.keep_apart``); where the event's pairing cannot keep them
    apart, the rounds that pair them are said (``store.pairings.apart_warnings``)."""

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        undo = form.values.get("undo") == "yes"
        if undo:  # (a pair of the list: its refusal is shown above the list)
            a, b = form.values.get("a", ""), form.values.get("b", "")
            store.pairings.keep_apart(eid, a, b, undo=True)
        else:
            a, b = chosen(form, "a"), chosen(form, "b")
            with form.about("a", "b"):
                store.pairings.keep_apart(eid, a, b)
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

    # (the list's "no longer" is refused above the list)
    return await event_form_change(request, ("keep-apart", "undo", "apart"), change)


@guarded
async def absent(request: Request) -> Response:
    """POST player, round (cancel=yes: take it back): a player's announced absence from a
    round not yet paired, a requested bye (``store.absences.announce``)."""

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        cancel = form.values.get("cancel") == "yes"
        # (an absence of the list taken back: its refusal is shown above the list)
        player = form.values.get("player", "") if cancel else chosen(form, "player")
        number = whole_number(form.at(None if cancel else "round").values.get("round", ""), 4)
        if number is None:
            raise Refused(N_("give the round's number"))
        with form.about(*(() if cancel else ("player", "round"))):
            name = store.absences.announce(eid, player, number, cancel=cancel)
        said = (
            words.gettext("%(player)s will play round %(round)s after all.")
            if cancel
            else words.gettext("%(player)s will miss round %(round)s: a requested bye.")
        )
        return said % {"player": name, "round": number}

    # (the list's "take back" is refused above the list)
    return await event_form_change(request, ("absent", "cancel", "absences"), change)


@guarded
async def no_show(request: Request) -> Response:
    """POST player, round (cancel=yes: take it back): a player who did not come to their
    match of a started round, a one-round forfeit (``store.no_shows.record``; asked about
    first: :func:`tally.web.director_confirm.ask_no_show`)."""

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        cancel = form.values.get("cancel") == "yes"
        player = form.values.get("player", "") if cancel else chosen(form, "player")
        number = whole_number(form.at(None if cancel else "round").values.get("round", ""), 4)
        if number is None:
            raise Refused(N_("give the round's number"))
        with form.about(*(() if cancel else ("player", "round"))):
            name = store.no_shows.record(eid, number, player, cancel=cancel)
        said = (
            words.gettext("%(player)s plays the match of round %(round)s after all.")
            if cancel
            else words.gettext(
                "%(player)s did not come to round %(round)s: the match is forfeited."
            )
        )
        return said % {"player": name, "round": number}

    # (the list's "take back" is refused above the list)
    return await event_form_change(request, ("no-show", "cancel", "no-shows"), change)


@guarded
async def withdraw(request: Request) -> Response:
    """POST: withdraw a player from the event."""

    def change(store: Store, eid: int, form: Fields, words: NullTranslations) -> str:
        player = chosen(form, "player")
        store.events.withdraw(eid, player)
        return words.gettext("%(player)s withdrew.") % {"player": player}

    return await event_form_change(request, "withdraw", change)


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
    """GET: a match: its deals (each recorded one can be corrected), referee mode, table;
    after a refused form, with what was chosen in it (:func:`match_refused`)."""
    from tally.web.app import take_refill

    _need_director(request)
    mid = int_param(request, "match")
    return await match_response(request, mid, refill=take_refill(request))


async def match_refused(request: Request, mid: int, refill: Refill) -> Response:
    """The match's page with a refused form ``refill``: a plain browser is sent back to the
    page's own address with it (303: a reload posts nothing; :func:`tally.web.app.refill_at`),
    the page's script or a form too large for that gets it in place (400)."""
    from tally.web.app import navigating, refill_at

    if navigating(request) and request.method == "POST":
        back_to = refill_at(f"/director/match/{mid}#{refill.form or ''}".rstrip("#"), refill)
        if back_to is not None:
            return back_to
    return await match_response(request, mid, 400, refill)


async def match_response(
    request: Request, mid: int, status: int = 200, refill: Refill | None = None
) -> Response:
    """The match's page; with ``refill``, a form of it refused, back with what was chosen
    (``refill.form``: the form's id) and the field at fault marked."""
    from tally.web.qr import table_url

    site = site_of(request)
    lang = await language(request)
    state = await blocking(_match_state, site.store, mid, lang)
    return render(
        request,
        "match.html.j2",
        status,
        notice=_said(request),
        table=table_url(public_base(request), site.keys, mid),
        refill=refill,
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
    _ = translate(await language(request))
    return _back(
        f"/director/match/{view.match_id}", _("Deal %(number)s deleted.") % {"number": view.number}
    )


#: how many changes a page of the Changes list shows
AUDIT_PAGE = 50


def _audit_filters(request: Request) -> dict[str, int]:
    """The event, the match and the entry a page of changes is read before, as the address
    gives them (``?event=3&match=12&before=140``); a value that is not a number is ignored."""
    found = {k: whole_number(request.query_params.get(k, "")) for k in ("event", "match", "before")}
    return {k: v for k, v in found.items() if v is not None}


def _audit_href(filters: dict[str, int], before: int | None) -> str:
    """The address of a page of changes: the same filters, read before entry ``before``."""
    from urllib.parse import urlencode

    query = {k: v for k, v in filters.items() if k != "before"}
    if before:
        query["before"] = before
    return "/director/audit" + (f"?{urlencode(query)}" if query else "")


@guarded
async def audit_page(request: Request) -> Response:
    """GET: the changes, newest first, a page at a time (``?before=ID``: the page of the
    entries older than entry ID, an address that stays that page), only those of an event
    or a match when asked (``?event=ID``, ``?match=ID``); each in words, each reversible."""
    from tally.vocabulary import change_words

    _need_director(request)
    lang = await language(request)
    filters = _audit_filters(request)
    store = site_of(request).store
    page = await blocking(store.audit.page, size=AUDIT_PAGE, **filters)
    events = await blocking(store.events.all)
    return render(
        request,
        "audit.html.j2",
        log=[
            (entry, who(entry.scorer, entry.match_id, lang), change_words(entry.wording, lang))
            for entry in page.entries
        ],
        events=events,
        filters=filters,
        older=None if page.older is None else _audit_href(filters, page.older),
        newer=None if page.newer is None else _audit_href(filters, page.newer),
        notice=_said(request),
    )


@guarded
async def reverse(request: Request) -> Response:
    """POST: reverse an audit entry (the store refuses when it changed again since)."""
    from tally.vocabulary import change_words

    _need_director(request)
    await form_of(request)
    reversed_id = int_param(request, "entry")
    entry = await blocking(_acting(request).audit.reverse, reversed_id)
    lang = await language(request)
    _ = translate(lang)
    return _back(
        "/director/audit",
        _("Entry %(id)s: %(change)s")
        % {"id": entry.id, "change": change_words(entry.wording, lang)},
    )


#: the sheets the director prints (``/director/print/SHEET/REF.pdf``) and whether REF names
#: a match (a score sheet, a deal's ruling, a match's analysis) rather than an event; the
#: ratings list is ``/director/print/ratings/all.pdf``, a series' standings ``series/N``
_SHEETS: Final = {
    "standings": "event",
    "pairings": "event",
    "bracket": "event",
    "money": "event",
    "scoresheet": "match",
    "ruling": "match",
    "analysis": "match",
    "series": "series",
    "ratings": "all",
}
#: the sheets whose REF needs a second number: the round, the deal of the match
_TWO_NUMBERS: Final = ("pairings", "ruling")


def _no_sheet(sheet: str, ref: str) -> Message:
    return Message(N_("no sheet %(sheet)s %(ref)s"), sheet=repr(sheet[:20]), ref=repr(ref[:20]))


def _sheet_ref(sheet: str, ref: str) -> tuple[int, int | None]:
    """The event (the match, the series) and the round (the deal) a sheet's address names."""
    if sheet == "ratings" and ref == "all":
        return 0, None
    found = re.fullmatch(r"([0-9]{1,18})(?:-([0-9]{1,18}))?", ref)
    if found is None or sheet not in _SHEETS or sheet == "ratings":
        raise Refused(_no_sheet(sheet, ref))
    number = None if found[2] is None else int(found[2])
    if (sheet in _TWO_NUMBERS) != (number is not None):
        raise Refused(_no_sheet(sheet, ref))
    return int(found[1]), number


def _sheet(store: Store, sheet: str, first: int, number: int | None, base: str) -> Printable:
    """The data of a sheet as ``tally print`` builds it, with the QR code of each table's
    page at ``base`` on the pairings and the score sheet."""
    from tally.sheets import build
    from tally.sheets.knockout import bracket_sheet, event_sheet
    from tally.web.qr import with_table_codes

    if sheet == "standings":
        return event_sheet(store, first)
    if sheet == "pairings":
        assert number is not None
        return with_table_codes(store, build.pairings_sheet(store, first, number), base, first)
    if sheet == "bracket":
        return bracket_sheet(store, first)
    if sheet == "money":
        from tally.sheets.money import event_money_sheet

        return event_money_sheet(store, first)
    if sheet == "ruling":
        return build.deal_ruling_sheet(store, f"{first}.{number}", analyse=True)
    if sheet == "analysis":
        return build.match_analysis_sheet(store, first)
    return with_table_codes(store, build.match_scoresheet(store, first), base)


def _pdf(store: Store, sheet: str, ref: tuple[int, int | None], base: str, lang: str) -> bytes:
    """A sheet as the CLI's ``tally print`` makes it, in ``lang``."""
    from tally.i18n import use
    from tally.sheets.ratings import ratings_sheet, render_ratings, render_series, series_sheet
    from tally.sheets.render import render_sheet

    first, number = ref
    with use(lang):
        if sheet == "ratings":
            return render_ratings(ratings_sheet(store))
        if sheet == "series":
            return render_series(series_sheet(store, store.series.get(str(first)).id))
        return render_sheet(_sheet(store, sheet, first, number, base))


@guarded
async def print_sheet(request: Request) -> Response:
    """GET /director/print/SHEET/REF.pdf: standings/EVENT (by elimination for a knockout),
    pairings/EVENT-ROUND, bracket/EVENT, scoresheet/MATCH, ruling/MATCH-DEAL,
    analysis/MATCH, series/SERIES, ratings/all as PDF: an event's sheet (or its match's) in the
    event's language (what it shows on paper), others, and an event "as the reader's", in the
    director's; ``?lang=`` chooses."""
    from starlette.responses import Response as Plain

    _need_director(request)
    sheet = str(request.path_params["sheet"])
    ref = str(request.path_params["ref"]).removesuffix(".pdf")
    first, number = _sheet_ref(sheet, ref)
    of = _SHEETS[sheet]
    lang = (
        await event_language(
            request, match=first if of == "match" else None, event=first if of == "event" else None
        )
        if of in ("match", "event")
        else None
    ) or await language(request)
    pdf = await blocking(
        _pdf, site_of(request).store, sheet, (first, number), public_base(request), lang
    )
    return Plain(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{sheet}-{ref}.pdf"'},
    )
